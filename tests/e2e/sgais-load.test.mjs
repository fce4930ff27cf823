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
  const shown = await page.evaluate(async () => {
    const { shownSpec } = await import('./www/charts.js');
    const evidence = JSON.parse(shownSpec('chart-evidence'));
    const row = document.querySelector('#sgais-table tbody tr');
    const cells = [...row.cells].map((c) => c.textContent);
    return { cells, series: evidence.series.map((s) => ({ name: s.label, lastX: Math.max(...s.points.map((p) => p[0])) })) };
  });
  const curve = shown.series.find((s) => s.name === 'SGAIS');
  assert.ok(curve, `the evidence chart has the SGAIS curve: ${JSON.stringify(shown.series)}`);
  assert.equal(curve.lastX, 3000, 'the chart reaches n = 3,000');
  assert.equal(shown.cells[1], '3,000 / 3,000', `the table's data column (row ${JSON.stringify(shown.cells)}), stopped with ${JSON.stringify(stopped)}`);
  assert.match(shown.cells[0], new RegExp(`^SGAIS \\(\\d/${stopped.replicas} replicas\\)$`), 'the replicas asked for are counted');
  await page.$eval('#sgais-table', (t) => t.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'sgais-stopped-table', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
