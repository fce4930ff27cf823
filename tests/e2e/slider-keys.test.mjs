// Issue 21: arrow keys move an integer slider on a log scale by one whole number per press, also at
// its minimum (n = 1 spans ~90 of the slider's 1,000 positions, so a one-position step used to
// round back to n = 1 and the slider stayed put). And the law-based promise (src/promise.rs): SGLD's
// step-size slider at its maximum shows the core's warning beside that slider, gone at the default.
// Waits are on the chain's state, never on time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, settingWarningBeside, settingWarningClearedAt, REMEDY_FIRST } from './harness.mjs';

const env = useBrowser();
const params = (page) => page.evaluate(() => window.sgviz.state().sampler_params);
const batchIs = (page, n) => page.waitForFunction((n) => window.sgviz.state().sampler_params.batch_size === n, n, { timeout: 30_000 });

test('arrow keys move the integer log slider n one whole number per press, from its minimum', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  await page.focus('#param-batch_size');
  await page.keyboard.press('Home');
  await batchIs(page, 1);
  await page.keyboard.press('ArrowRight');
  await batchIs(page, 2);
  await page.keyboard.press('ArrowUp');
  await batchIs(page, 3);
  await page.keyboard.press('ArrowLeft');
  await batchIs(page, 2);
  const shown = await page.evaluate(() => document.getElementById('param-batch_size-value').textContent);
  assert.equal(shown, '2', 'the label shows the chain\'s n');
  // At the top of the range one press still moves it down by at least one.
  await page.keyboard.press('End');
  const top = await page.waitForFunction(() => window.sgviz.state().sampler_params.batch_size > 50 && window.sgviz.state().sampler_params.batch_size, null, { timeout: 30_000 });
  const max = await top.jsonValue();
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction((m) => window.sgviz.state().sampler_params.batch_size < m, max, { timeout: 30_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('SGLD step size at its maximum: the law-based warning beside the step slider, gone at the default', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  const before = await params(page);
  assert.equal((await page.evaluate(() => window.sgviz.state().setting_warning)), null, 'silent at the defaults');
  await page.focus('#param-step_size');
  await page.keyboard.press('End');
  await page.waitForFunction((e) => window.sgviz.state().sampler_params.step_size > 2 * e, before.step_size, { timeout: 30_000 });
  const [warning, shown, geometry] = await settingWarningBeside(page, 'step_size');
  assert.equal(shown, warning.text, 'the page shows the core\'s text');
  assert.match(warning.text, /^Set step size ε to/, 'it opens with what to change');
  assert.match(warning.text, REMEDY_FIRST);
  assert.ok(geometry.lines >= 1 && geometry.lines <= 2, `at most two lines at 1400×900: ${JSON.stringify(geometry)} ${warning.text}`);
  assert.ok(geometry.field === 'step_size' && geometry.height > 0 && geometry.gap >= -1 && geometry.gap < 40, JSON.stringify(geometry));
  await screenshot(page, 'promise-warning-sgld-step-max', { fullPage: false });
  // Back to the default through the page's own slider path.
  await settingWarningClearedAt(page, 'step_size', before.step_size);
  assert.deepEqual(errors, []);
  await page.close();
});
