// Nested sampling's own settings on the page (issue 22): the controls under the SGAIS panel's
// nested-sampling box are built from the registry (`sgais.ns_params`, the CLI's `--set ns_…`), shown
// while the box is ticked; a bad value is refused before any run starts, with a message naming the
// control, which disappears once the value is fixed (the other settings stay); a value set with the
// slider reaches every nested worker run; and in the figures gallery NS's cost joins the run-cost
// chart beside SGAIS's curve and AIS's points (src/sgais/gallery.rs `gallery_with_nested`).
// Waits are on state (runs done, chart drawn), with a generous limit for a loaded 2-core machine.
// Oracles: the runs' own reports (each NS run posts its live points and evaluations; the chart's
// points must be their means), not the gallery code.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, frames, waitForPainted } from './harness.mjs';

const env = useBrowser();
/** Hang guard: Fig. A1's runs (N = 200, 3 NS replicas × 3 sizes, AIS, SGAIS) at load ≈ 20. */
const LIMIT_MS = 600_000;
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
