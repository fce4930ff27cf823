// Issue 26: the mixing panel's ESS and the autocorrelation chart are computed by FFT on the main
// thread (src/acf_fft.rs, docs/diagnostics.md §12) instead of direct sums; the numbers must stay
// those of the definition. The oracle is written here, separately: the direct autocorrelation sums
// and Geyer's initial monotone sequence over at most 200 lags, thinning by 2, 4, … while τ is not
// settled within them (docs/diagnostics.md §3, restated), over the last 20,000 samples the page
// retains (its CSV, exact to the last bit). Checked on the Gaussian (τ ≈ a few, no thinning) and
// on the mixture preset (τ in the hundreds to thousands: the thinning path), after a seeded run of
// a fixed number of steps driven by the test, paused; the displayed text is read after a Step.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, pauseAndRestart } from './harness.mjs';

const env = useBrowser();
/** The page's ESS window and lag cap (src/lab/mod.rs ESS_WINDOW, diagnostics_panel ESS_MAX_LAGS; restated). */
const WINDOW = 20_000;
const MAX_LAGS = 200;
const ACF_LAGS = 100;

/** ρ(0..=maxLag) by direct sums over the centred series (docs/diagnostics.md §3). */
function rhoDirect(x, maxLag) {
  const n = x.length;
  const mean = x.reduce((s, v) => s + v, 0) / n;
  const c = x.map((v) => v - mean);
  const c0 = c.reduce((s, v) => s + v * v, 0);
  const out = [];
  for (let lag = 0; lag <= Math.min(maxLag, n - 1); lag++) {
    let s = 0;
    for (let i = 0; i + lag < n; i++) s += c[i] * c[i + lag];
    out.push(s / c0);
  }
  return out;
}

/** Geyer's τ over lags < min(maxLag, n/2) and whether it stopped at a non-positive pair sum. */
function geyer(x, maxLag) {
  const n = x.length;
  const cap = Math.min(maxLag, Math.floor(n / 2));
  const rho = rhoDirect(x, cap);
  let tau = -1;
  let previous = Infinity;
  let k = 0;
  for (; 2 * k + 1 < cap; k++) {
    const pair = Math.min(rho[2 * k] + rho[2 * k + 1], previous);
    if (pair <= 0) return { tau: Math.max(1, tau), settled: true };
    tau += 2 * pair;
    previous = pair;
  }
  return { tau: Math.max(1, tau), settled: 2 * k + 1 >= Math.floor(n / 2) };
}

/** ESS with the thinning rule: thin by 2, 4, … until τ settles within the lags or the series is short. */
function essOracle(x) {
  for (let stride = 1; ; stride *= 2) {
    const thinned = x.filter((_, i) => i % stride === 0);
    const { tau, settled } = geyer(thinned, MAX_LAGS);
    if (settled || thinned.length < 4 * MAX_LAGS) return { ess: thinned.length / tau, stride };
  }
}

/** Run `steps` steps of the paused, restarted chain, press Step once (a paused full redraw). */
async function runPaused(page, steps) {
  await pauseAndRestart(page);
  await page.evaluate((n) => { for (let done = 0; done < n; done += 5000) window.sgviz.app.lab.run(Math.min(5000, n - done)); }, steps - 1);
  await page.click('#step');
}

/** The page's numbers and the oracle's, for the displayed pair. */
async function compare(page) {
  const page_ = await page.evaluate(() => {
    const { app } = window.sgviz;
    const state = window.sgviz.state();
    return {
      pair: state.pair,
      csv: app.lab.samples_csv(),
      mixing: JSON.parse(app.lab.mixing_json()),
      acf: JSON.parse(app.lab.chart_json('acf')),
      shown: document.querySelector('#ess').textContent,
    };
  });
  const rows = page_.csv.trim().split('\n').slice(1).map((line) => line.split(',').map(Number));
  const recent = rows.slice(-WINDOW);
  const oracle = page_.pair.map((j) => essOracle(recent.map((r) => r[j])));
  const rho = page_.pair.map((j) => rhoDirect(recent.map((r) => r[j]), ACF_LAGS));
  return { ...page_, recent, oracle, rho };
}

function check(label, r) {
  assert.equal(r.recent.length, WINDOW, `${label}: the ring holds at least the window`);
  assert.equal(r.mixing.window, WINDOW);
  r.oracle.forEach(({ ess }, k) => {
    const got = r.mixing.ess[k];
    assert.ok(Math.abs(got / ess - 1) < 1e-9, `${label}: ESS[${k}] ${got} vs the direct estimator's ${ess}`);
  });
  // On screen: "a, b (of the last 20,000 samples)", each at 3 significant digits.
  const shown = r.shown.split(' (')[0].split(', ').map((t) => Number(t.replace(/,/g, '')));
  r.oracle.forEach(({ ess }, k) => {
    const unit = 10 ** (Math.floor(Math.log10(ess)) - 2);
    assert.ok(Math.abs(shown[k] - ess) <= unit / 2 + 1e-9 * ess, `${label}: shown "${r.shown}" vs ${ess}`);
  });
  assert.match(r.shown, /of the last 20,000 samples/);
  r.acf.series.forEach((series, k) => {
    assert.equal(series.points.length, ACF_LAGS + 1);
    const worst = series.points.reduce((m, [lag, v]) => Math.max(m, Math.abs(v - r.rho[k][lag])), 0);
    assert.ok(worst < 1e-9, `${label}: autocorrelation chart ${k} off the direct sums by ${worst}`);
  });
}

test('the displayed ESS and autocorrelation equal a separately written estimator (Gaussian, no thinning)', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '?target=gaussian&sampler=sgld&seed=3');
  await runPaused(page, 30_000);
  const r = await compare(page);
  check('gaussian', r);
  assert.ok(r.oracle.every((o) => o.stride === 1), `no thinning expected on the Gaussian: ${JSON.stringify(r.oracle)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the same on the mixture preset, where τ exceeds the lag cap and the series is thinned', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  await page.selectOption('#preset', 'sgld-mixture');
  await runPaused(page, 200_000);
  const r = await compare(page);
  check('mixture', r);
  assert.ok(r.oracle.some((o) => o.stride > 1), `the mixture should exercise the thinning: ${JSON.stringify(r.oracle)}`);
  assert.deepEqual(errors, []);
  await page.close();
});
