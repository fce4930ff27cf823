// Issue 26, the SGAIS panel while runs start and stop. After Stop with replicas still queued (one
// worker on a 2-core machine runs them one after another), the table's data column read
// "0 / 3,000" (the minimum over replicas, those without a result counted as 0) while the evidence
// chart reached n = 3,000; it now says how far the charts' curve reaches, and the replica count
// counts the replicas asked for. The oracle is the chart's own spec (the n of its points), read
// in the same task as the table. Waits are on the page's state, never the clock.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();
/** Generous limit for a loaded 2-core machine (a hang guard, not a speed requirement). */
const LIMIT_MS = 240_000;

test('SGAIS stopped with replicas still queued: the table\'s n is where the charts\' curve ends', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: { width: 1400, height: 900 } });
  await page.evaluate(() => window.sgviz.app.sgais.applyPreset('linreg', { n_points: 3000 }));
  // Stop in the task that sees one replica at its end and another without a chunk.
  const stopped = await page.waitForFunction(() => {
    const { runs } = window.sgviz.sgais();
    const sgais = runs.filter((r) => !r.ais && !r.ns);
    const reached = sgais.map((r) => r.records.at(-1)?.n ?? 0);
    if (!(Math.max(...reached) >= 3000 && Math.min(...reached) === 0)) return false;
    document.querySelector('#sgais-stop').click();
    return { reached, replicas: sgais.length };
  }, null, { timeout: LIMIT_MS, polling: 'raf' }).then((h) => h.jsonValue());
  // The table and the chart as drawn after the stop (the stop redraws them at once or at the next tick).
  await page.waitForFunction(() => !window.sgviz.sgais().running && document.querySelectorAll('#sgais-table tbody tr').length > 0, null, { timeout: LIMIT_MS });
  await page.waitForFunction(() => !window.sgviz.app.sgais.dirty, null, { timeout: LIMIT_MS });
  // The evidence chart as drawn (charts are drawn within the frame budget, so the drawn spec can
  // lag the panel's state by a frame or more: a clean-clone CI of stop 44 read an SGAIS series with
  // no points here, once in four runs): wait for the drawn SGAIS curve to have its points.
  await page.waitForFunction(async () => {
    const { shownSpec } = await import('./www/charts.js');
    const spec = shownSpec('chart-evidence');
    return Boolean(spec) && JSON.parse(spec).series.some((s) => s.label === 'SGAIS' && s.points.length > 0);
  }, null, { timeout: LIMIT_MS, polling: 250 });
  const shown = await page.evaluate(async () => {
    const { shownSpec } = await import('./www/charts.js');
    const evidence = JSON.parse(shownSpec('chart-evidence'));
    const row = document.querySelector('#sgais-table tbody tr');
    const cells = [...row.cells].map((c) => c.textContent);
    return { cells, series: evidence.series.map((s) => ({ name: s.label, lastX: Math.max(...s.points.map((p) => p[0])) })) };
  });
  // One SGAIS series per replica (a queued one has no points yet): the curve reaches as far as the
  // furthest of them (a clean-clone CI of stop 44 read the first series, a queued replica's, as -∞).
  const curves = shown.series.filter((s) => s.name === 'SGAIS');
  assert.ok(curves.length > 0, `the evidence chart has the SGAIS curve: ${JSON.stringify(shown.series)}`);
  assert.equal(Math.max(...curves.map((c) => c.lastX)), 3000, 'the chart reaches n = 3,000');
  assert.equal(shown.cells[1], '3,000 / 3,000', `the table's data column (row ${JSON.stringify(shown.cells)}), stopped with ${JSON.stringify(stopped)}`);
  // "SGAIS (k of N replicas finished)" since the classfix merge of stop 44 (issue 26 item 6).
  assert.match(shown.cells[0], new RegExp(`^SGAIS \\(\\d of ${stopped.replicas} replicas finished\\)$`), `the replicas asked for are counted: ${shown.cells[0]}`);
  await page.$eval('#sgais-table', (t) => t.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'sgais-stopped-table', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

// Issue 26: a transient blank band (28–95 px seen for a few frames) between the SGAIS charts and
// the sentence and table under them while a lesson step loaded; sgais-panel's layout test reads
// only the settled layout. Here the layout is recorded at every animation frame from the moment
// the lesson is chosen, through its first step's load (runs start, the table fills) and two "Next"
// presses to the shift step (six new runs: charts, sentence and table emptied and refilled), and
// no frame may show a band the settled layout does not have (more than two grid gaps).

/** Record, at every frame, the bottom of the SGAIS charts and the boxes of the sentence and table under them. */
function recordLayout() {
  window.__layout = [];
  const grid = document.querySelector('.sgais-grid');
  const record = () => {
    const box = (selector) => { const r = document.querySelector(selector).getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; };
    const charts = Math.max(...[...grid.querySelectorAll(':scope > figure.chart:not([hidden])')].map((f) => f.getBoundingClientRect().bottom + scrollY));
    const lesson = document.getElementById('lesson');
    window.__layout.push({
      step: window.sgviz.lesson()?.step ?? 0,
      inColumn: Boolean(lesson && !lesson.hidden && lesson.parentElement?.classList.contains('sgais-controls')),
      charts, sentence: box('#sgais-comparison'), table: box('#sgais-table'), controls: box('.sgais-controls'),
      rows: document.querySelectorAll('#sgais-table tbody tr').length,
    });
    if (!window.__stopLayout) requestAnimationFrame(record);
  };
  requestAnimationFrame(record);
}

test('1920×1080, SGAIS lesson steps: no frame of a step\'s load shows a blank band under the charts', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: { width: 1920, height: 1080 } });
  await page.click('#lesson-open');
  await page.evaluate(recordLayout);
  await page.selectOption('#lesson-choice', 'sgais');
  // Each step: until its runs have filled the table (state, not a frame count).
  const filled = (step) => page.waitForFunction((s) => window.__layout.some((f) => f.step === s && f.rows > 0 && f.inColumn), step, { timeout: LIMIT_MS, polling: 250 });
  await filled(1);
  await page.click('#lesson-next');
  await filled(2);
  await page.click('#lesson-next');
  await filled(3);
  const { frames, gap } = await page.evaluate(() => {
    window.__stopLayout = true;
    return { frames: window.__layout, gap: parseFloat(getComputedStyle(document.querySelector('.sgais-grid')).rowGap) };
  });
  const inColumn = frames.filter((f) => f.inColumn);
  assert.ok(inColumn.length >= 3 && inColumn.some((f) => f.step === 3), `frames recorded with the lesson beside the charts: ${inColumn.length}`);
  assert.ok(inColumn.some((f) => f.controls.bottom > f.charts + 100), 'the lesson column is taller than the charts (the case that made the band)');
  const bands = inColumn.map((f, k) => ({ k, step: f.step, under: Math.round(f.sentence.top - f.charts), between: Math.round(f.table.top - f.sentence.bottom) }));
  const wide = bands.filter((b) => b.under > 2 * gap + 1 || b.between > 2 * gap + 1);
  assert.deepEqual(wide, [], `frames with a blank band (grid gap ${gap} px), of ${bands.length} recorded`);
  await page.evaluate(() => { const stop = document.querySelector('#sgais-stop'); if (!stop.disabled) stop.click(); });
  await page.$eval('.sgais', (e) => e.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'sgais-lesson-step-load', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
