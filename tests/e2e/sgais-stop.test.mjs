// Issue 26: an SGAIS preset stopped before its first chunk showed the previous preset's curves.
// Now starting runs puts a "Running: … once the first chunk of data is in" sentence on both charts
// (and empties the table), and stopping before any chunk of the new runs arrived puts back the
// "Press Start" sentence. Read from the charts' specs and from the text drawn on the canvases.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();

/** The evidence and annealing charts' specs as shown (or about to be) and the table's rows. */
function shown(page) {
  return page.evaluate(async () => {
    const { shownSpec } = await import('./www/charts.js');
    const spec = (id) => JSON.parse(shownSpec(id) ?? 'null');
    return { evidence: spec('chart-evidence'), annealing: spec('chart-annealing'), rows: document.querySelectorAll('#sgais-table tbody tr').length };
  });
}

test('a preset stopped before its first chunk shows "Press Start", not the previous preset\'s curves', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, recordCanvasText: true, viewport: { width: 1400, height: 900 } });
  // A first preset, small, run until its curves are drawn.
  await page.evaluate(() => window.sgviz.app.sgais.applyPreset('linreg', { n_points: 1000 }));
  await page.waitForFunction(() => !window.sgviz.sgais().running, null, { timeout: 240_000, polling: 250 });
  const first = await shown(page);
  assert.ok(first.evidence.series.length > 0 && first.rows > 0, `the first preset's curves and rows: ${first.evidence.series.length} series, ${first.rows} rows`);
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
