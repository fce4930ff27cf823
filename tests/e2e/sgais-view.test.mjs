// Issue 26, the SGAIS view as a lecturer sees it (an SGAIS figure preset at 1920×1080):
// - the bias–mixing analysis charts belong to the sampler view; while the SGAIS runs hold the
//   sweep (www/sgais-focus.js), a chart with nothing drawn is hidden instead of an empty frame
//   with only its Save buttons (a chart already drawn may stay: it is true for the chain);
// - mid-run, the table's log Ẑ column shows the latest checkpoint the evidence chart already plots,
//   said to be "so far" and at which n, instead of "—". The runs are stopped after their first
//   chunks so the screen stands still; the oracle is each unfinished run's own last record (one
//   replica each, so the mean over replicas is that record).
// Waits are on state, never the clock. Screenshot: test-artifacts/sgais-view/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, waitLoaded } from './harness.mjs';

const env = useBrowser();
const KINDS = [['noise', 'chart-noise'], ['bias', 'chart-bias'], ['sweep', 'chart-sweep']];

/** A number as the page writes it (thousands commas, a typographic minus). */
const parseShown = (text) => Number(text.replace(/,/g, '').replace(/−/g, '-'));

test('SGAIS view: empty analysis charts hidden while the runs hold the sweep; mid-run the table shows log Ẑ so far', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: { width: 1920, height: 1080 } });
  await page.selectOption('#preset', 'sgais-target-ess');
  await waitLoaded(page);
  await page.waitForFunction(() => window.sgviz.analysis().held, null, { timeout: 60_000 });

  // 1. Every analysis chart is shown exactly when it has something drawn.
  const charts = await page.evaluate((kinds) => kinds.map(([kind, id]) => ({
    kind, drawn: window.sgviz.chart(kind) !== null, visible: document.getElementById(id).closest('figure').getClientRects().length > 0,
  })), KINDS);
  assert.ok(charts.some((c) => !c.drawn), `the sweep had drawn every chart before the preset held it; nothing tested (${JSON.stringify(charts)})`);
  for (const c of charts) assert.equal(c.visible, c.drawn, `the ${c.kind} chart: visible ${c.visible}, drawn ${c.drawn}`);
  assert.match(await page.textContent('#analysis-status'), /Paused while the evidence runs/);

  // 2. Stop once some run has a chunk in and another is not finished; the screen then stands still.
  // Checked and pressed in one task of the page, so no record can arrive between the check and
  // the press (a run of ESS* = 1 can finish within one polling interval on a busy machine).
  await page.evaluate(() => new Promise((resolve, reject) => {
    const until = performance.now() + 600_000;
    let restarts = 0;
    const tick = () => {
      const { runs } = window.sgviz.sgais();
      const state = () => JSON.stringify(runs.map((r) => ({ label: r.label, ais: Boolean(r.ais), done: r.done, chunks: r.records.length })));
      if (runs.some((r) => !r.ais && !r.done && r.records.length > 0)) {
        document.getElementById('sgais-stop').click();
        resolve();
      } else if (runs.length && runs.every((r) => r.ais || r.done)) {
        // Every run finished between two looks (a worker posts at most every 600 ms): run them
        // again, a few times, rather than wait for a state that will not come.
        restarts += 1;
        if (restarts > 4) reject(new Error(`every run finished before one was seen with a chunk in, ${restarts} times: ${state()}`));
        else { document.getElementById('sgais-start').click(); setTimeout(tick, 0); }
      }
      else if (performance.now() > until) reject(new Error(`no run had a chunk in within 600 s: ${state()}`));
      else setTimeout(tick, 0);
    };
    tick();
  }));
  const unfinished = await page.evaluate(() => window.sgviz.sgais().runs.filter((r) => !r.ais && !r.done && r.records.length > 0).map((r) => ({ label: r.label, last: r.records.at(-1) })));
  assert.ok(unfinished.length > 0, 'every run with a chunk had finished when Stop was pressed; nothing tested');
  // The table is drawn from the same combination as the charts: wait until it covers these records.
  await page.waitForFunction((runs) => {
    const groups = window.sgviz.sgais().combined?.groups ?? [];
    return runs.every((r) => groups.find((g) => g.label === r.label)?.summary.curve.at(-1)?.n === r.last.n);
  }, unfinished, { timeout: 60_000, polling: 100 });
  const rows = await page.$$eval('#sgais-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
  for (const { label, last } of unfinished) {
    const row = rows.find((cells) => cells[0].startsWith(`${label} (`));
    assert.ok(row, `a table row for ${label} (${JSON.stringify(rows)})`);
    const cell = row[2];
    assert.match(cell, new RegExp(`so far \\(at n = ${last.n.toLocaleString('en-US')}\\)`), `${label}: log Ẑ cell "${cell}"`);
    const shown = parseShown(cell.split(' ')[0]);
    // Six significant digits of the record's own log Ẑ.
    assert.ok(Math.abs(shown - last.log_z) <= 5e-6 * Math.abs(last.log_z) + 1e-9, `${label}: shown ${shown}, last record ${last.log_z}`);
  }
  await screenshot(page, 'sgais-view/stopped-mid-run-1920', { fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
