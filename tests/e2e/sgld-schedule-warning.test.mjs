// Issue 21 F5 (docs/diagnostics.md §18): on the preset 'sgld-mixture', the schedule scale a moved
// to its slider minimum freezes the chain; the page says so beside a, remedy first. Waits are on
// the chain's state, never on time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, settingWarningBeside, REMEDY_FIRST } from './harness.mjs';

const env = useBrowser();

test('sgld-mixture: a at its minimum is warned beside a', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=mixture&sampler=sgld');
  await page.selectOption('#preset', 'sgld-mixture');
  await page.waitForFunction(() => window.sgviz.state().sampler_params.sgld_schedule === 1 && window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  await page.focus('#param-sgld_a');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => window.sgviz.state().sampler_params.sgld_a < 0.002, null, { timeout: 30_000 });
  const [warning, shown, geometry] = await settingWarningBeside(page, 'sgld_a');
  assert.equal(shown, warning.text);
  assert.match(warning.text, REMEDY_FIRST);
  assert.match(warning.text, /schedule scale a, now 0\.00103/);
  assert.ok(geometry.field === 'sgld_a' && geometry.gap >= -1 && geometry.gap < 40, JSON.stringify(geometry));
  await screenshot(page, 'sgld-mixture-a-min-warning', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
