// The SGAIS panel in the page (issue 20, and the NS of issue 22): its layout beside a lesson step
// at 1920×1080, each model's own defaults, nested sampling in workers (points ± SE, cost in the
// table), NS settings from the registry with a bad value named, and a preset stopped before its
// first chunk. One file, one browser context, one page per test (issue 23: these were five files,
// each paying node, a context and a first page load; BENCHMARKS.md "CI time", sixth round). Each
// section below keeps the file it was, its comment and its tests as they were.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, waitForPainted, parseShown, frames, waitLoaded } from './harness.mjs';

const env = useBrowser();

// ─── was sgais-layout.test.mjs ─────────────────────────────────────────────
// The SGAIS lesson step's layout at 1920×1080 (no blank band between the charts, the sentence and
// the table) is read by class-layouts.test.mjs's "no empty chart card", at the same step once its
// runs are finished (tests/e2e/sgais-lesson-layout.mjs; issue 23, sixteenth round: this file ran the
// step's seven runs to their end a second time for it).

// ─── was sgais-model-defaults.test.mjs ─────────────────────────────────────────────
// The SGAIS panel shows each model's own defaults (registry `sgais.defaults_by_model`,
// src/sgais/model_defaults.rs; docs/sgais.md §10): choosing the Gaussian mixture sets K = 20 SGHMC
// steps per temperature and lr = 0.1 on its sliders, says why in a line under them, and sends them
// to the workers; going back to linear regression restores K = 10 and lr = 0.02 and hides the line;
// a setting the user changed survives the model change. Expected values are the measured settings
// written here, not read from the registry. Waits are on state only.

/** What the panel shows and what its next run would send to a worker. */
async function panelState(page) {
  return page.evaluate(() => {
    const text = (id) => document.getElementById(id).textContent.trim();
    const panel = window.sgviz.app.sgais;
    const sent = Object.fromEntries(panel.plan()[0].spec.settings);
    const note = document.getElementById('sgais-model-defaults');
    return {
      target: document.getElementById('sgais-target').value,
      shownK: text('sgais-burn_in_steps-value'),
      shownLr: text('sgais-learning_rate-value'),
      shownM: text('sgais-particles-value'),
      sent: { K: sent.burn_in_steps, lr: sent.learning_rate, M: sent.particles },
      note: note.hidden ? '' : note.textContent,
    };
  });
}

async function chooseModel(page, name) {
  await page.selectOption('#sgais-target', name);
  await page.waitForFunction((n) => window.sgviz.app.sgais.target === n, name, { timeout: 30_000 });
}

test('the SGAIS panel shows the mixture its own defaults and linear regression the global ones', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  await page.evaluate(() => { document.getElementById('sgais-settings').open = true; });
  const linreg = await panelState(page);
  assert.equal(linreg.target, 'linreg');
  assert.deepEqual([linreg.shownK, linreg.shownLr, linreg.sent.K, linreg.sent.lr], ['10', '0.02', '10', '0.02'], JSON.stringify(linreg));
  assert.equal(linreg.note, '', 'no per-model note for linear regression');

  await chooseModel(page, 'gmm');
  const gmm = await panelState(page);
  assert.deepEqual([gmm.shownK, gmm.shownLr, gmm.sent.K, gmm.sent.lr], ['20', '0.1', '20', '0.1'], JSON.stringify(gmm));
  assert.match(gmm.note, /K = 20 SGHMC steps per temperature and lr = 0\.1/);
  await page.$eval('#sgais-model-defaults', (e) => e.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'sgais-model-defaults-gmm', { fullPage: false });

  await chooseModel(page, 'linreg');
  const back = await panelState(page);
  assert.deepEqual([back.shownK, back.shownLr, back.sent.K, back.sent.lr, back.note], ['10', '0.02', '10', '0.02', ''], JSON.stringify(back));

  // A changed setting (the M slider moved to M = 100 as a drag would: the position the page's own
  // slider mapping gives, then input and change events) stays across a model change, while the
  // settings the user did not touch follow the new model.
  await page.evaluate(async () => {
    const { sliderPosition } = await import('./www/controls.js');
    const spec = window.sgviz.app.sgais.sgais.params.find((p) => p.name === 'particles');
    const input = document.getElementById('sgais-particles');
    input.value = String(sliderPosition(spec, 100));
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.waitForFunction(() => window.sgviz.app.sgais.values.particles === 100, null, { timeout: 30_000 });
  await chooseModel(page, 'gmm');
  const kept = await panelState(page);
  assert.deepEqual([kept.shownM, kept.sent.M, kept.sent.K, kept.sent.lr], ['100', '100', '20', '0.1'], JSON.stringify(kept));
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── was sgais-nested.test.mjs ─────────────────────────────────────────────
// Nested sampling on the page (issue 22): ticking "Nested-sampling baseline" in the SGAIS panel runs
// one `nested` worker job per replica and data size (src/sgais/nested_page.rs, each replica its own
// seed), whose points (± SE) join the evidence chart and whose time and per-datum evaluations join
// the table. Waits are on state (every run done), with a generous limit for a loaded 2-core machine;
// nothing asserts time. Oracle: the exact evidence of linear regression, which the page shows in the
// SGAIS rows (closed form, docs/truth.md), and NS's own standard error.

/**
 * Hang guard: 2 SGAIS replicas and 6 NS runs of ≤ 2,000 points on one worker, at load ≈ 20; also
 * Fig. A1's runs (N = 200, 3 NS replicas × 3 sizes, AIS, SGAIS) in the NS-settings test below.
 */
const LIMIT_MS = 600_000;

test('SGAIS panel: nested sampling in workers, its points ± SE on the evidence chart and its cost in the table', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  await page.evaluate(() => {
    document.getElementById('sgais-ns').checked = true;
    document.getElementById('sgais-ais').checked = false;
    document.getElementById('sgais-replicas').value = '2';
    const panel = window.sgviz.app.sgais;
    panel.select('linreg', { n_points: 2000, chunk_size: 500 });
    panel.start();
  });
  const plan = await page.evaluate(() => window.sgviz.sgais().runs.map((r) => ({ ns: r.ns, spec: r.spec })));
  const nsRuns = plan.filter((r) => r.ns);
  // Sizes N/4, N/2, N (whole chunks) × 2 replicas, each replica its own index (seed derived in the core).
  assert.deepEqual(nsRuns.map((r) => [r.spec.ns_n, r.spec.replica]), [[500, 0], [500, 1], [1000, 0], [1000, 1], [2000, 0], [2000, 1]]);
  await page.waitForFunction(() => (window.sgviz.jobs().active.sgais || 0) > 0, null, { timeout: LIMIT_MS });
  await page.waitForFunction(() => window.sgviz.sgais().wallSeconds !== null, null, { timeout: LIMIT_MS, polling: 1000 });
  const summary = await page.evaluate(() => window.sgviz.sgais());
  assert.ok(summary.runs.every((r) => r.done && !r.error), JSON.stringify(summary.runs.map((r) => [r.label, r.error])));
  const ns = summary.combined.ns;
  assert.deepEqual(ns.map((p) => [p.n, p.finished]), [[500, 2], [1000, 2], [2000, 2]]);
  // The two replicas ran with different seeds: different estimates.
  const replicas = summary.runs.filter((r) => r.ns && r.spec.ns_n === 2000).map((r) => r.nested);
  assert.notEqual(replicas[0].seed, replicas[1].seed);
  assert.notEqual(replicas[0].log_z, replicas[1].log_z);
  // Against the exact evidence at N (the SGAIS row's closed form): within 4 of NS's own SE.
  const exact = summary.combined.groups[0].summary.exact_log_z;
  const atN = ns.at(-1);
  assert.ok(atN.log_z_se > 0 && atN.log_z_se < 2, `SE ${atN.log_z_se}`);
  assert.ok(Math.abs(atN.log_z - exact) < 4 * atN.log_z_se, `NS ${atN.log_z} ± ${atN.log_z_se} vs exact ${exact}`);
  // The chart's data: NS points at N/4, N/2, N with ± SE/n bars, on the log Ẑ/n scale.
  const series = summary.combined.evidence.series.find((s) => s.label.startsWith('nested sampling'));
  assert.deepEqual(series.points.map((p) => p[0]), [500, 1000, 2000]);
  series.points.forEach(([n, y], k) => {
    assert.ok(Math.abs(y - ns[k].log_z / n) < 1e-9);
    assert.ok(Math.abs(series.error_bars[k] - ns[k].log_z_se / n) < 1e-12);
  });
  // The table: one NS row per size, with log Ẑ ± SE, seconds and per-datum evaluations.
  const rows = await page.$$eval('#sgais-table tbody tr.sgais-ns-row', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 3);
  const [label, n, logZ, exactShown, , , seconds, evals] = rows[2];
  // The exact column at N: linear regression's closed form, as the SGAIS row's (issue 26: it read "—").
  assert.equal(atN.exact_log_z, exact, 'the NS point at N carries the exact log Z at N');
  assert.ok(Math.abs(parseShown(exactShown) - exact) <= 1e-5 * Math.abs(exact), `exact column ${exactShown} vs ${exact}`);
  // At N/4 and N/2 too: the SGAIS curve's exact checkpoints at those n.
  const checkpoints = new Map(summary.combined.groups[0].summary.curve.map((p) => [p.n, p.exact_log_z]));
  for (const p of ns.slice(0, 2)) assert.equal(p.exact_log_z, checkpoints.get(p.n), `exact at n = ${p.n}`);
  assert.ok(rows.every((r) => Number.isFinite(parseShown(r[3]))), `every NS row has its exact value: ${JSON.stringify(rows.map((r) => r[3]))}`);
  // (The y axis holding every NS error bar: tests/unit/plot/chart/tests.rs::the_fitted_y_axis_holds_every_error_bar.)
  assert.match(label, /^NS, full data n = 2,000 \(2\/2 replicas\)$/);
  assert.equal(n, '2,000');
  assert.match(logZ, /^[−-]?[0-9,.]+ ± [0-9.]+$/);
  assert.ok(parseShown(seconds) > 0, seconds);
  assert.match(evals, /^[0-9.,]+ M$/);
  // The drawn chart: the SVG of what the page drew names the NS series.
  const svg = await page.evaluate(() => window.sgviz.svg('sgais'));
  assert.match(svg, /nested sampling ± SE/);
  assert.deepEqual(errors, []);
  await page.$eval('#sgais-title', (e) => e.scrollIntoView());
  await waitForPainted(page, '#chart-evidence', 500);
  await screenshot(page, 'sgais-nested-panel', { fullPage: false });
  await page.close();
});

// ─── was sgais-ns-controls.test.mjs ─────────────────────────────────────────────
// Nested sampling's own settings on the page (issue 22): the controls under the SGAIS panel's
// nested-sampling box are built from the registry (`sgais.ns_params`, the CLI's `--set ns_…`), shown
// while the box is ticked; a bad value is refused before any run starts, with a message naming the
// control, which disappears once the value is fixed (the other settings stay); a value set with the
// slider reaches every nested worker run; and in the figures gallery NS's cost joins the run-cost
// chart beside SGAIS's curve and AIS's points (src/sgais/gallery.rs `gallery_with_nested`).
// Waits are on state (runs done, chart drawn), with a generous limit for a loaded 2-core machine.
// Oracles: the runs' own reports (each NS run posts its live points and evaluations; the chart's
// points must be their means), not the gallery code.

const PROJECTOR = { width: 1920, height: 1080 };

test('SGAIS panel: nested sampling settings from the registry, a bad value named, NS cost in the gallery chart', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: PROJECTOR });
  const specs = await page.evaluate(() => window.sgviz.app.registry.sgais.ns_params);
  assert.deepEqual(specs.map((p) => p.name), ['ns_live_points', 'ns_steps', 'ns_step']);
  await page.evaluate(() => { document.getElementById('sgais-settings').open = true; });
  assert.equal(await page.isHidden('#sgais-ns-params'), true, 'hidden while nested sampling is not ticked');
  await page.check('#sgais-ns');
  assert.equal(await page.isVisible('#sgais-ns-params'), true, 'shown once ticked');
  // One slider per registry parameter, showing the registry's default (25 live points as the CLI's --ns).
  for (const spec of specs) {
    const shown = await page.textContent(`#sgais-ns-${spec.name}-value`);
    assert.equal(Number(shown.replace(/,/g, '')), spec.default, `${spec.name} shows ${shown}`);
  }
  const box = await page.locator('#sgais-ns-params').boundingBox();
  const panel = await page.locator('.sgais-controls').boundingBox();
  assert.ok(box.width > 100 && box.x >= panel.x - 1 && box.x + box.width <= panel.x + panel.width + 1, `controls inside the panel: ${JSON.stringify({ box, panel })}`);

  // A bad value (set as a preset or the console could): refused before anything runs, the message
  // names the control; the other settings are kept; fixing it clears the message.
  await page.evaluate(() => window.sgviz.app.sgais.select('gmm1d', { n_points: 120 }));
  const problem = await page.evaluate(() => { window.sgviz.app.sgais.nested.set('ns_live_points', 1); window.sgviz.app.sgais.start(); return document.getElementById('sgais-ns-error').textContent; });
  assert.match(problem, /^Nested sampling: live points \(M_NS\): 1 is out of range/);
  assert.equal(await page.isVisible('#sgais-ns-error'), true);
  assert.equal(await page.textContent('#sgais-ns-ns_live_points-value'), '1', 'the slider shows the value the message names');
  assert.match(await page.textContent('#sgais-status'), /^Not started: Nested sampling: live points/);
  assert.equal(await page.evaluate(() => window.sgviz.sgais().runs.length), 0, 'nothing started');
  assert.equal(await page.evaluate(() => window.sgviz.app.sgais.values.n_points), 120, 'the other settings are kept');
  const message = await page.locator('#sgais-ns-error').boundingBox();
  assert.ok(message.height > 0 && message.y >= box.y + box.height - 1, `the message sits under the controls: ${JSON.stringify({ message, box })}`);
  await page.$eval('#sgais-ns-params', (e) => e.scrollIntoView({ block: 'center' }));
  await frames(page, 3);
  await screenshot(page, 'sgais-ns-bad-value', { fullPage: false });
  await page.evaluate(() => window.sgviz.app.sgais.nested.set('ns_live_points', 25));
  assert.equal(await page.isHidden('#sgais-ns-error'), true, 'the message goes with its cause');

  // The slider: 15 presses of ← from 25 give 10 live points (an integer slider moves by one per press).
  await page.focus('#sgais-ns-ns_live_points');
  for (let k = 0; k < 15; k += 1) await page.keyboard.press('ArrowLeft');
  assert.equal(await page.textContent('#sgais-ns-ns_live_points-value'), '10');

  // Fig. A1 from the gallery: its NS runs use the slider's value; NS's cost joins the cost chart.
  await page.selectOption('#preset', 'sgais-ns-vs-ais');
  await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
  await page.waitForFunction(() => { const s = window.sgviz.sgais(); return s.runs.length > 0 && s.wallSeconds !== null; }, null, { timeout: LIMIT_MS, polling: 1000 });
  await page.waitForFunction(() => (window.sgviz.sgais().gallery?.ns?.length ?? 0) === 3, null, { timeout: 60_000 });
  await frames(page, 5);
  const summary = await page.evaluate(() => window.sgviz.sgais());
  const nested = summary.runs.filter((r) => r.ns);
  assert.equal(nested.length, 9, '3 replicas × 3 sizes');
  assert.ok(nested.every((r) => r.done && !r.error && r.nested.live_points === 10), JSON.stringify(nested.map((r) => [r.nested?.live_points, r.error])));
  // The chart's NS points: at each size the mean of that size's replicas' own evaluations.
  const drawn = await page.evaluate(async () => JSON.parse((await import('./www/charts.js')).shownSpec('chart-sgais-figure')));
  const labels = drawn.series.map((s) => s.label);
  const ns = drawn.series.find((s) => s.label.startsWith('nested sampling'));
  assert.ok(ns && labels.some((l) => l.startsWith('AIS')) && labels.length === 3, `SGAIS, AIS and NS drawn: ${labels}`);
  const sizes = [...new Set(nested.map((r) => r.spec.ns_n))].sort((a, b) => a - b);
  assert.deepEqual(ns.points.map((p) => p[0]), sizes);
  for (const [n, evals] of ns.points) {
    const own = nested.filter((r) => r.spec.ns_n === n).map((r) => r.nested.datum_evals);
    const mean = own.reduce((a, b) => a + b, 0) / own.length;
    assert.ok(Math.abs(evals - mean) <= 1e-9 * mean, `n = ${n}: drawn ${evals}, runs' mean ${mean}`);
  }
  // And its time: the gallery carries each size's mean wall seconds (the table shows them).
  assert.ok(summary.gallery.ns.every((c) => c.seconds > 0 && c.replicas === 3), JSON.stringify(summary.gallery.ns));
  const chart = await page.locator('#chart-sgais-figure').boundingBox();
  assert.ok(chart.width > 200 && chart.height > 100, `cost chart on screen: ${JSON.stringify(chart)}`);
  assert.deepEqual(errors, []);
  await page.$eval('#chart-sgais-figure', (e) => e.scrollIntoView({ block: 'center' }));
  await waitForPainted(page, '#chart-sgais-figure', 500);
  await screenshot(page, 'sgais-ns-cost-chart', { fullPage: false });
  await page.$eval('#sgais-ns-params', (e) => e.scrollIntoView({ block: 'center' }));
  await frames(page, 3);
  await screenshot(page, 'sgais-ns-controls', { fullPage: false });
  await page.close();
});

// ─── was sgais-stop.test.mjs ─────────────────────────────────────────────
// Issue 26: an SGAIS preset stopped before its first chunk showed the previous preset's curves.
// Now starting runs puts a "Running: … once the first chunk of data is in" sentence on both charts
// (and empties the table), and stopping before any chunk of the new runs arrived puts back the
// "Press Start" sentence. Read from the charts' specs and from the text drawn on the canvases.

/** The evidence and annealing charts' specs as shown (or about to be) and the table's rows. */
function shown(page) {
  return page.evaluate(async () => {
    const { shownSpec } = await import('./www/charts.js');
    const spec = (id) => JSON.parse(shownSpec(id) ?? 'null');
    return { evidence: spec('chart-evidence'), annealing: spec('chart-annealing'), rows: document.querySelectorAll('#sgais-table tbody tr').length };
  });
}

/** The SGAIS run's colour (src/plot/chart PALETTE[0], the first run's). */
const RUN_RGB = [0, 114, 178];

/**
 * Issue 26: a run of a single chunk (N = 1,000 in chunks of 1,000) drew its charts as lines
 * through one point, i.e. nothing, on y axes fitted to that point: the evidence chart's to the
 * 4·10⁻⁴ spread of the estimate, the exact value and AIS, ticked "-1.4252e0"; the annealing
 * chart's to 13 ± 0.65, ticked 12.95, 13, 13.05 steps. What the canvases show once the finished
 * run's charts are drawn: evidence ticks in plain decimals, all different (its three points
 * coincide at this scale, AIS's drawn last, on top); the run's point in the annealing chart's
 * plot (its colour in the upper part; the legend's sample is at the bottom) and whole-number ticks.
 */
async function oneChunkIsReadable(page) {
  const records = await page.evaluate(() => window.sgviz.sgais().runs.map((r) => r.records.length));
  assert.ok(records.every((n) => n === 1), `one chunk per run (${records})`);
  // Tick labels: plain ("-1.4252", "1,000") or a power of ten, "e" or the page's "·10ⁿ" (issue 26).
  const numbers = (texts) => texts.filter((t) => /^[−-]?[\d.,]+(e[−-]?\d+|·10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?$/.test(t));
  await page.waitForFunction(() => ['chart-evidence', 'chart-annealing'].every((id) => (window.__canvasText[id] || []).length > 3), null, { timeout: 60_000 });
  const evidence = numbers(await page.evaluate(() => window.__canvasText['chart-evidence']));
  assert.deepEqual(evidence.filter((t) => t.includes('e') || t.includes('·10')), [], `evidence ticks in plain decimals: ${evidence.join(' ')}`);
  assert.equal(new Set(evidence).size, evidence.length, `evidence ticks differ: ${evidence.join(' ')}`);
  const annealing = await page.$eval('#chart-annealing', (canvas, rgb) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, Math.floor(0.7 * canvas.height));
    let run = 0;
    for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - rgb[0]) + Math.abs(data[i + 1] - rgb[1]) + Math.abs(data[i + 2] - rgb[2]) < 30) run++;
    return { run, texts: window.__canvasText['chart-annealing'] };
  }, RUN_RGB);
  assert.ok(annealing.run > 20, `the run's point is drawn in the annealing plot (${annealing.run} pixels of its colour)`);
  const steps = numbers(annealing.texts).filter((t) => !/^(0|500|1,?000)$/.test(t)); // the x ticks: 0 … N = 1,000
  assert.ok(steps.length >= 2 && steps.every((t) => Number.isInteger(Number(t))), `annealing ticks are whole steps: ${steps.join(' ')}`);
  await page.$eval('#chart-evidence', (c) => c.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'sgais-one-chunk', { fullPage: false });
}

test('a preset stopped before its first chunk shows "Press Start", not the previous preset\'s curves', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, recordCanvasText: true, viewport: { width: 1400, height: 900 } });
  // A first preset, small, run until its curves are drawn.
  await page.evaluate(() => window.sgviz.app.sgais.applyPreset('linreg', { n_points: 1000 }));
  await page.waitForFunction(() => !window.sgviz.sgais().running, null, { timeout: 240_000, polling: 250 });
  const first = await shown(page);
  assert.ok(first.evidence.series.length > 0 && first.rows > 0, `the first preset's curves and rows: ${first.evidence.series.length} series, ${first.rows} rows`);
  await oneChunkIsReadable(page);
  // The next preset started: its own sentence, the old curves and rows gone.
  const started = await page.evaluate(async () => {
    document.querySelector('#sgais-preset-shift').click();
    const { shownSpec } = await import('./www/charts.js');
    return { evidence: JSON.parse(shownSpec('chart-evidence')), rows: document.querySelectorAll('#sgais-table tbody tr').length, records: window.sgviz.sgais().runs.some((r) => r.records.length > 0) };
  });
  assert.equal(started.records, false, 'no chunk of the new runs yet');
  assert.equal(started.evidence.series.length, 0);
  assert.match(started.evidence.title, /^Running: /);
  assert.equal(started.rows, 0, 'the previous runs\' rows are gone');
  // Stopped before any chunk arrived (same task as the check: no message can come in between).
  const stopped = await page.evaluate(async () => {
    const noChunk = !window.sgviz.sgais().runs.some((r) => r.records.length > 0);
    document.querySelector('#sgais-stop').click();
    const { shownSpec } = await import('./www/charts.js');
    return { noChunk, evidence: JSON.parse(shownSpec('chart-evidence')), annealing: JSON.parse(shownSpec('chart-annealing')) };
  });
  assert.ok(stopped.noChunk);
  for (const spec of [stopped.evidence, stopped.annealing]) {
    assert.equal(spec.series.length, 0);
    assert.match(spec.title, /^Press Start/);
  }
  // What the canvas draws (after the frame that draws queued charts).
  await page.waitForFunction(() => (window.__canvasText['chart-evidence'] || []).some((t) => t.startsWith('Press Start')), null, { timeout: 60_000 });
  await page.$eval('#chart-evidence', (c) => c.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'sgais-stopped-before-first-chunk', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
