// The figures gallery's SGLD Fig. 2 (issue 27, part A): the noise chart of an annealed run drawn
// over its iterations, as in Welling & Teh 2011 Fig. 2 (left). The chart comes from the analysis
// worker, so tests/e2e/class-time.test.mjs cannot read it: this test loads the preset through the
// menu, runs the class-time work (speed × 1,200 frames of the frame loop, as class-time does),
// waits on the worker's chart (state, not time) and checks the paper's result on what is drawn:
// the gradient-noise variance starts above the injected one and ends below it, and the grey marker
// sits where the two drawn curves cross. Oracles are the schedule ε_t = a(b + t)^−γ and its span
// b(100^(1/γ) − 1), computed here from the preset's own numbers. Screenshot (1920×1080) in
// test-artifacts/figures/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, pauseAndRestart, waitLoaded } from './harness.mjs';

const env = useBrowser();
const CLASS_FRAMES = 1_200;
const CHUNK_STEPS = 50_000;

/** The x at which log(gradient / injected) crosses 0 between two drawn grid points (log-linear). */
function drawnCrossing(injected, gradient) {
  const ratio = injected.map(([t, inj], k) => [t, Math.log(gradient[k][1] / inj)]);
  for (let k = 1; k < ratio.length; k++) {
    const [[t0, r0], [t1, r1]] = [ratio[k - 1], ratio[k]];
    if (r0 > 0 && r1 <= 0) return Math.exp(Math.log(t0) + (Math.log(t1) - Math.log(t0)) * r0 / (r0 - r1));
  }
  return NaN;
}

test('SGLD Fig. 2: the two noises cross during the annealed run, on the chart over iterations', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: { width: 1920, height: 1080 } });
  const preset = await page.evaluate(async () => (await import('./www/presets.js')).findPreset('sgld-annealed-noise'));
  assert.equal(preset.figure, 'SGLD Fig. 2');
  await page.selectOption('#preset', preset.id);
  await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
  // The note, with the paper's words, sits beside the chart it talks about.
  const note = await page.evaluate(() => {
    const n = document.getElementById('preset-note');
    return { text: n.textContent, besideChart: n.nextElementSibling === document.getElementById('chart-noise').closest('figure'), visible: !n.hidden };
  });
  assert.ok(note.visible && note.besideChart, `preset note beside the noise chart: ${JSON.stringify(note)}`);
  assert.ok(note.text.includes(`The paper: ${preset.paper}`), 'the note quotes the paper');
  await pauseAndRestart(page);
  const steps = preset.state.speed * CLASS_FRAMES;
  for (let done = 0; done < steps; done += CHUNK_STEPS) {
    await page.evaluate((n) => window.sgviz.app.lab.run(n), Math.min(CHUNK_STEPS, steps - done));
  }
  // The worker's chart of this setting (a hang guard on a loaded machine, not a speed claim).
  await page.waitForFunction(() => window.sgviz.analysis().stale.length === 0 && window.sgviz.chart('noise')?.x_label === 'iteration t', null, { timeout: 240_000, polling: 250 });
  const chart = await page.evaluate(() => window.sgviz.chart('noise'));
  const { sgld_a: a, sgld_b: b, sgld_gamma: gamma } = preset.state.values;
  const [injected, gradient] = chart.series.map((s) => s.points);
  // The x axis spans the run: from t = 1 to where ε_t has fallen a hundredfold (≈ 2.4·10⁶ steps,
  // what the page draws in 20 s at this speed).
  const span = b * (100 ** (1 / gamma) - 1);
  assert.ok(Math.abs(span - steps) < 0.01 * steps, `the schedule spans class time: ${span} vs ${steps}`);
  assert.equal(injected[0][0], 1);
  assert.ok(Math.abs(injected.at(-1)[0] - span) < 1e-6 * span, `chart ends at ${injected.at(-1)[0]}, not ${span}`);
  for (const [t, variance] of injected) {
    const eps = a * (b + t) ** -gamma;
    assert.ok(Math.abs(variance - eps) < 1e-9 * eps, `injected variance at t = ${t}: ${variance} vs ε_t = ${eps}`);
  }
  // The paper's two phases: gradient noise dominates first, injected noise at the end.
  assert.equal(gradient.length, injected.length, 'a gradient-noise point at every iteration drawn');
  assert.ok(gradient[0][1] > injected[0][1], `gradient noise dominates at t = 1 (${gradient[0][1]} vs ${injected[0][1]})`);
  assert.ok(gradient.at(-1)[1] < injected.at(-1)[1], `injected noise dominates at the end (${gradient.at(-1)[1]} vs ${injected.at(-1)[1]})`);
  const marker = chart.markers.find((m) => m.label.startsWith('threshold = 1'));
  const crossing = drawnCrossing(injected, gradient);
  assert.ok(marker, `a crossing marker: ${JSON.stringify(chart.markers)}`);
  // The drawn curves are straight on log–log axes between grid points (60 over 6.4 decades), so
  // their interpolated crossing agrees with the exact one to well within a grid step.
  assert.ok(Math.abs(Math.log(marker.x / crossing)) < 0.01, `marker at t = ${marker.x}, drawn curves cross at ${crossing}`);
  console.log(`SGLD Fig. 2: threshold = 1 at t = ${marker.x.toFixed(0)} of ${span.toFixed(0)}; ${JSON.stringify(chart.markers.map((m) => m.label))}`);
  await page.evaluate(async () => { const v = await import('./www/view.js'); v.draw(); v.drawCharts(); });
  await page.$eval('#chart-noise', (e) => e.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'figures/sgld-fig-2', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

// SGLD Fig. 3: the held-out curves are drawn live by the lab (src/heldout.rs), so this test runs
// the class-time work (speed × 1,200 frames), checks the preset's claims on the state the page
// shows, checks the chart beside its note spans the sweeps run (steps × n / N_train, N_train = 456
// rows: 4 of every 5 of the 569 breast-cancer rows), and saves a 1920×1080 screenshot.
test('SGLD Fig. 3: held-out accuracy and log joint over sweeps at class time', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: { width: 1920, height: 1080 } });
  const preset = await page.evaluate(async () => (await import('./www/presets.js')).findPreset('sgld-heldout'));
  assert.equal(preset.figure, 'SGLD Fig. 3');
  await page.selectOption('#preset', preset.id);
  await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
  await page.waitForFunction(() => JSON.parse(window.sgviz.app.lab.state_json()).heldout !== undefined, null, { timeout: 60_000 });
  await pauseAndRestart(page);
  const steps = preset.state.speed * CLASS_FRAMES;
  await page.evaluate((n) => window.sgviz.app.lab.run(n), steps);
  await page.evaluate(async () => { const v = await import('./www/view.js'); v.draw(); v.drawCharts(); });
  const results = await page.evaluate(async (claims) => {
    const { check, describe } = await import('./www/claims.js');
    const state = JSON.parse(window.sgviz.app.lab.state_json());
    return claims.map((c) => ({ text: describe(c), ...check(c, state) }));
  }, preset.claims);
  console.log(`SGLD Fig. 3: ${JSON.stringify(results)}`);
  for (const r of results) assert.ok(r.ready && r.ok, `${r.text}: ${r.value}`);
  const shown = await page.evaluate(() => {
    const canvas = document.getElementById('chart-heldout');
    const note = document.getElementById('preset-note');
    const box = canvas.getBoundingClientRect();
    return { hidden: canvas.closest('figure').hidden, width: box.width, height: box.height, noteBeside: note.nextElementSibling === canvas.closest('figure'), n: JSON.parse(window.sgviz.app.lab.state_json()).heldout.sweeps };
  });
  assert.ok(!shown.hidden && shown.width > 300 && shown.height > 150, `held-out chart on screen: ${JSON.stringify(shown)}`);
  assert.ok(shown.noteBeside, 'the preset note sits beside the held-out chart');
  const { batch_size: n } = preset.state.values;
  assert.ok(Math.abs(shown.n - steps * n / 456) < 1e-9, `the chart spans ${shown.n} sweeps, not ${steps * n / 456}`);
  await page.$eval('#chart-heldout', (e) => e.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'figures/sgld-fig-3', { fullPage: false });
  // Another target has no test set: the chart's figure is hidden again.
  await page.selectOption('#preset', 'sgld-mixture');
  await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
  await page.waitForFunction(() => document.getElementById('chart-heldout').closest('figure').hidden, null, { timeout: 60_000 });
  assert.deepEqual(errors, []);
  await page.close();
});
