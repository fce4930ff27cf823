// The SGAIS figures of the gallery (issue 27, part C) at class time: each is loaded through the
// preset menu, its runs go to the page's workers, and once they are done (or, for a claim with
// `after_n`, far enough along) its claims are read as the panel shows them (#sgais-claims li,
// `data-ready` / `data-ok`, computed by www/sgais-figures.js from the panel's runs). The settings are
// chosen so that a loaded 2-core machine finishes them within a slide's time; the test waits on
// state, never on a clock. A screenshot of each at 1920×1080 goes to test-artifacts/figures/. Each
// figure is loaded only here (issue 23): its note on screen and Stop ending its workers are
// checked here too (they were teaching.test.mjs's, in a second load).
//
// Issue 23, ninth round: every figure's claims are judged in `make test` without a browser, on the
// same runs by the same wasm (tests/e2e/figures-numbers.test.mjs, from the page's own plan, metrics
// and predicates). Here `make test` loads every SGAIS figure through the menu (its note, its claims
// list, its runs started in the page's workers, Stop ending them) and reads the claims, chart and
// screenshot in the page of IN_PAGE only: Fig. 1 (the data chart, no run read) and Fig. 8 (the
// cheapest with the cost chart of several variants and the log–log annealing chart). `make soak`
// (SGVIZ_CLASS_TIME_SOAK=1) reads every figure in the page, as `make test` did before.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, frames, waitLoaded } from './harness.mjs';
import { charge, report } from './cpu-split.mjs';

const env = useBrowser();
const PROJECTOR = { width: 1920, height: 1080 };
const SOAK = process.env.SGVIZ_CLASS_TIME_SOAK === '1';
/** The figures whose claims `make test` reads in the page (every figure under SGVIZ_CLASS_TIME_SOAK=1). */
const IN_PAGE = new Set(['sgais-shift-data', 'sgais-lr-steps']);

/**
 * A figure whose claims are judged in figures-numbers.test.mjs: its claims listed (one item each,
 * not yet judged or judged), its runs started in the page's workers, and Stop ending them all.
 */
async function checkLoadedAndStop(page, figure, startedBefore, log) {
  await page.waitForFunction((count) => {
    const list = document.getElementById('sgais-claims');
    return !list.hidden && list.querySelectorAll('li').length === count;
  }, figure.claims.length, { timeout: 60_000, polling: 250 });
  await page.waitForFunction((before) => window.sgviz.sgais().runs.length > 0 && (window.sgviz.jobs().started.sgais || 0) > before, startedBefore, { timeout: 60_000, polling: 250 });
  const runs = await page.evaluate(() => window.sgviz.sgais().runs.length);
  await page.$eval('#sgais-stop', (b) => b.click());
  assert.equal(await page.evaluate(() => window.sgviz.jobs().active.sgais || 0), 0, `${figure.id}: Stop terminated every SGAIS worker`);
  log.push(`${figure.id}: loaded, ${runs} runs started and stopped (its claims: figures-numbers.test.mjs)`);
}

test('every SGAIS figure loads with its note and claims and Stop ends its runs; its claims shown once its runs are in (Fig. 1 and 8; every figure in make soak)', async () => {
  const { SGAIS_FIGURES } = await import('../../www/figures/sgais.js');
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: PROJECTOR });
  const log = [];
  const failures = [];
  // SGVIZ_FIGURES=id,id checks only those figures (while working on one); make test checks all.
  const only = process.env.SGVIZ_FIGURES?.split(',');
  for (const figure of SGAIS_FIGURES.filter((f) => !only || only.includes(f.id))) {
    assert.ok(figure.claims?.length, `${figure.id}: makes a checkable claim`);
    const loaded = Date.now();
    charge('(between figures)');
    const startedBefore = await page.evaluate(() => window.sgviz.jobs().started.sgais || 0);
    await page.selectOption('#preset', figure.id);
    await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
    assert.equal(await page.isVisible('#preset-note'), true, `${figure.id}: its note is shown`);
    if (!SOAK && !only && !IN_PAGE.has(figure.id)) {
      await checkLoadedAndStop(page, figure, startedBefore, log);
      charge(figure.id);
      continue;
    }
    await page.waitForFunction((count) => {
      const items = [...document.querySelectorAll('#sgais-claims li')];
      return !document.getElementById('sgais-claims').hidden && items.length === count && items.every((li) => li.dataset.ready === 'true');
    }, figure.claims.length, { timeout: 300_000, polling: 500 });
    const shown = await page.$$eval('#sgais-claims li', (items) => items.map((li) => ({ text: li.textContent, ok: li.dataset.ok })));
    for (const claim of shown) {
      const line = `${figure.figure} (${figure.id}): ${claim.text}`;
      log.push(line);
      if (claim.ok !== 'true') failures.push(line);
    }
    // The figure's own chart is on screen and has been drawn from its data.
    await page.waitForFunction(() => !document.getElementById('chart-sgais-figure').closest('figure').hidden, null, { timeout: 60_000 });
    await frames(page, 5);
    const summary = await page.evaluate(() => window.sgviz.sgais());
    if (figure.sgaisChart === 'cost') {
      const drawn = summary.gallery?.cost.series.filter((s) => s.points.length > 0).length ?? 0;
      const expected = Math.max(1, figure.runs?.variants.length ?? 0);
      if (drawn < expected) failures.push(`${figure.id}: the cost chart has ${drawn} curves, expected at least ${expected}`);
    }
    log.push(`${figure.id}: runs ${summary.runs.filter((r) => r.done).length}/${summary.runs.length} done after ${((Date.now() - loaded) / 1000).toFixed(1)} s (information only)`);
    await page.$eval('#sgais-title', (e) => e.scrollIntoView({ block: 'start' }));
    await frames(page, 3);
    await screenshot(page, `figures/${figure.id}`, { fullPage: false });
    // Stop ends every SGAIS worker (issue 23: this was teaching.test.mjs's, in a second load of each
    // figure; a figure whose claims are read before its last run ends, as Fig. 5's, stops running ones).
    await page.$eval('#sgais-stop', (b) => b.click()); // a no-op once every run has ended (the button is disabled)
    assert.equal(await page.evaluate(() => window.sgviz.jobs().active.sgais || 0), 0, `${figure.id}: Stop terminated every SGAIS worker`);
    charge(figure.id);
  }
  if (!SOAK && !only) assert.deepEqual(SGAIS_FIGURES.filter((f) => IN_PAGE.has(f.id)).map((f) => f.id).sort(), [...IN_PAGE].sort(), 'the figures read in the page exist');
  report('SGAIS figures');
  console.log(log.join('\n'));
  assert.deepEqual(failures, []);
  assert.deepEqual(errors, []);
  await page.close();
});
