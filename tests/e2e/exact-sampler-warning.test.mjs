// Issue 21 (docs/diagnostics.md §8): MALA, HMC and the bouncy family have no bias law, so their
// promise is Monte-Carlo error only and the chain measures it on every target, including those with
// a Gaussian summary. HMC on the Gaussian toy with its leapfrog step dragged to the slider's end
// (End key) rejects every proposal: the chain never moves (40 of 40 runs with E2 = 1,
// tests/toy_sweep_more.rs). Once 500 samples at that step are retained, the page shows, beside the
// step slider, the warning that opens with its remedy (the step's derived default) and says the
// chain does not move; setting that value makes the warning go. Waits are on the chain's state.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, parseShown, settingWarningBeside, settingWarningClearedAt, REMEDY_FIRST } from './harness.mjs';

const env = useBrowser();

/** A sentence with each number as the page prints it ("1,530", "6.32") replaced by '#'. */
const maskNumbers = (text) => text.replace(/\d[\d,]*(\.\d+)?/g, '#');

test('HMC at its largest step on the Gaussian: "does not move" beside the step slider, gone at the step it names', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=hmc');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  const before = await page.evaluate(() => window.sgviz.state().sampler_params.hmc_step);
  await page.focus('#param-hmc_step');
  await page.keyboard.press('End');
  await page.waitForFunction((b) => window.sgviz.state().sampler_params.hmc_step > 2 * b, before, { timeout: 30_000 });
  const [warning, shown, geometry] = await settingWarningBeside(page, 'hmc_step', 120_000);
  assert.equal(warning.failure, 'mixing');
  // The sample count grows as the chain runs and the box is redrawn at the page's refresh rate,
  // so the state and the box may be some samples apart: the sentences are compared with their
  // numbers masked.
  assert.equal(maskNumbers(shown), maskNumbers(warning.text), 'the page shows the core\'s text');
  assert.match(warning.text, REMEDY_FIRST);
  const named = warning.text.match(/^Set leapfrog step ε back to (\S+) \(now (\S+)\): the chain does not move \(its last (\S+) samples are one point, E2 = 1\)\.$/);
  assert.ok(named, warning.text);
  const [value, now, last] = named.slice(1).map(parseShown);
  assert.ok(Math.abs(value - before) <= 0.01 * before, `it names the derived default ${before}: ${warning.text}`);
  assert.ok(now > 2 * before && last >= 500, warning.text);
  assert.match(warning.detail, /^Measured on this chain: its last \S+ samples are all the same point/);
  assert.ok(geometry.lines >= 1 && geometry.lines <= 2, `at most two lines at 1400×900: ${JSON.stringify(geometry)} ${warning.text}`);
  assert.ok(geometry.field === 'hmc_step' && geometry.height > 0 && geometry.gap >= -1 && geometry.gap < 40, JSON.stringify(geometry));
  await screenshot(page, 'exact-sampler-warning-hmc-largest-step', { fullPage: false });
  await settingWarningClearedAt(page, 'hmc_step', value);
  // At the derived default the chain moves: after 5,000 samples the measured signal is silent.
  await page.waitForFunction(() => window.sgviz.state().n_samples >= 6000, null, { timeout: 120_000 });
  assert.equal(await page.evaluate(() => window.sgviz.state().setting_warning), null, 'silent at the derived default');
  assert.deepEqual(errors, []);
  await page.close();
});
