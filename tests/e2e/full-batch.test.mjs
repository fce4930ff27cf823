// Issue 26: "with minibatches drawn without replacement, n = N has no gradient noise" — the full-
// batch SGLD step showed a gradient-noise variance of 0.00625, a finite sampling threshold and a
// gradient-noise line on the noise chart. Here SGLD runs on the Gaussian with n = N (the page's own
// N, read from its state) and with n = N − 7: at n = N the diagnostics the page shows read exactly
// zero gradient noise and a zero threshold, and the noise chart draws no gradient-noise line; at
// n = N − 7 the gradient noise is there (positive), so the zero is the factor (N − n)/(N − 1), not
// a missing reading.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, pauseAndRestart } from './harness.mjs';

const env = useBrowser();

/** The diagnostics the page's panel shows, by name, after `steps` steps. */
async function diagnosticsAfter(page, steps) {
  await pauseAndRestart(page);
  await page.evaluate((n) => window.sgviz.app.lab.run(n), steps);
  const state = await page.evaluate(() => window.sgviz.state());
  return Object.fromEntries(state.diagnostics.map((d) => [d.name, d.value]));
}

test('n = N: the page shows zero gradient noise, a zero threshold and no gradient-noise line; n = N − 7 shows some', async () => {
  const open = (batch) => openApp(env.browser, env.server.url, `#target=gaussian&sampler=sgld&seed=1&p.step_size=0.05${batch ? `&p.batch_size=${batch}` : ''}`, { reducedMotion: true, viewport: { width: 1400, height: 900 } });
  const first = await open(null);
  const n = await first.page.evaluate(() => window.sgviz.state().n_data);
  await first.page.close();
  assert.ok(n > 7, `the Gaussian has N = ${n} pseudo-data`);

  const { page, errors } = await open(n);
  const full = await diagnosticsAfter(page, 5_000);
  assert.equal(full.gradient_noise_variance, 0, `n = N = ${n}: gradient noise ${full.gradient_noise_variance}`);
  assert.equal(full.sampling_threshold, 0, `n = N: threshold ${full.sampling_threshold}`);
  // The noise chart of the full batch (from the analysis worker): no gradient-noise points.
  await page.waitForFunction(() => window.sgviz.analysis().stale.length === 0 && window.sgviz.chart('noise'), null, { timeout: 240_000, polling: 250 });
  const chart = await page.evaluate(() => window.sgviz.chart('noise'));
  const gradient = chart.series.find((s) => /gradient noise/.test(s.label));
  assert.ok(gradient, `a gradient-noise series: ${chart.series.map((s) => s.label)}`);
  assert.equal(gradient.points.length, 0, `n = N: the gradient-noise line has ${gradient.points.length} points (${gradient.label})`);
  assert.deepEqual(errors, []);
  await page.close();

  const other = await open(n - 7);
  const almost = await diagnosticsAfter(other.page, 5_000);
  assert.ok(almost.gradient_noise_variance > 0 && almost.sampling_threshold > 0, `n = N − 7: ${JSON.stringify(almost)}`);
  assert.deepEqual(other.errors, []);
  await other.page.close();
});
