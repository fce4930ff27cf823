// Issue 21 (docs/diagnostics.md §8): where no law predicts the error (the banana, whose curvature
// varies too much for a Gaussian view), the chain measures it. SGHMC on the banana at its derived
// defaults fails the 5,000-sample promise in 38 of 40 runs (tests/toy_sweep.rs); once the chain has
// retained 5,000 samples the page shows the measured warning beside the learning-rate slider, with
// the core's text. Waits are on the chain's state, never on time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, settingWarningBeside, REMEDY_FIRST } from './harness.mjs';

const env = useBrowser();

test('SGHMC on the banana: the measured warning beside the learning-rate slider after 5,000 samples', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=banana&sampler=sghmc');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  const [warning, shown, geometry] = await settingWarningBeside(page, 'sghmc_lr', 120_000);
  assert.equal(warning.failure, 'mixing');
  assert.equal(shown, warning.text, 'the page shows the core\'s text');
  assert.match(warning.text, /^Let it run to about \S+ samples: measured here/, 'the remedy first, then that it is measured, not predicted');
  assert.match(warning.text, REMEDY_FIRST);
  assert.match(warning.text, /above 0\.3 in \d+ %/, 'it states the measured share');
  assert.match(warning.detail, /^Measured on this chain/);
  assert.ok(geometry.lines >= 1 && geometry.lines <= 2, `at most two lines at 1400×900: ${JSON.stringify(geometry)} ${warning.text}`);
  assert.ok(geometry.field === 'sghmc_lr' && geometry.height > 0 && geometry.gap >= -1 && geometry.gap < 40, JSON.stringify(geometry));
  await screenshot(page, 'measured-warning-banana-sghmc', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
