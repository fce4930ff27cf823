// Nested sampling on the page (issue 22): ticking "Nested-sampling baseline" in the SGAIS panel runs
// one `nested` worker job per replica and data size (src/sgais/nested_page.rs, each replica its own
// seed), whose points (± SE) join the evidence chart and whose time and per-datum evaluations join
// the table. Waits are on state (every run done), with a generous limit for a loaded 2-core machine;
// nothing asserts time. Oracle: the exact evidence of linear regression, which the page shows in the
// SGAIS rows (closed form, docs/truth.md), and NS's own standard error.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, waitForPainted, parseShown } from './harness.mjs';

const env = useBrowser();
/** Hang guard: 2 SGAIS replicas and 6 NS runs of ≤ 2,000 points on one worker, at load ≈ 20. */
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
  // (The y axis holding every NS error bar: src/plot/chart/tests.rs::the_fitted_y_axis_holds_every_error_bar.)
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
