// The SBPS figures of the gallery (issue 27, part B): each is loaded through the preset menu; a
// figure with a scan chart (www/figure-scan.js) lets its worker finish the scan and its claims are
// read as the panel under the chart shows them (`#figure-claims li` marks `data-ok`); a figure with
// a live chart (Fig. 2, the running chain's band) is read once it has been drawn. In the same page
// load (issue 23: each preset loaded once; this was a second load in class-time.test.mjs), the
// main chain's claims are checked at the settings the figure loads and after 20 s of class time
// (tests/e2e/class-run.mjs), while the worker scans: the chain is paused and driven by the test.
// A screenshot of each figure at 1920×1080 goes to test-artifacts/figures/ (the scan chart, or the
// 2-D panel, in view), and of its chain at class time on the projector and the phone to
// test-artifacts/class-time/preset-<id>-*.
//
// Sizes (issue 23, eighth round): every figure's main-chain claims, at its settings and at class
// time, are computed without a browser by tests/e2e/class-numbers.test.mjs (the same definitions,
// predicates and chains); here `make test` reads them in the page for the figures whose picture is
// the chain (its 2-D panel at class time is the screenshot a lecturer checks) or its live band
// chart, and not for a figure whose picture is its scan chart; `make soak`
// (SGVIZ_CLASS_TIME_SOAK=1) for every figure. Every figure's scan or live chart is checked here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, waitForPainted, waitLoaded } from './harness.mjs';
import { charge, report } from './cpu-split.mjs';
import { checkPresetAtClassTime } from './class-run.mjs';
import { lessonClaimKeys } from './lesson-checks.mjs';
import { sbpsChainReadInPage } from './read-in-page.mjs';

const env = useBrowser();
const PROJECTOR = { width: 1920, height: 1080 };
const SOAK = process.env.SGVIZ_CLASS_TIME_SOAK === '1';

test('every SBPS figure loads from the menu; its scan chart is drawn and shows what the paper shows', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: PROJECTOR });
  // SGVIZ_FIGURES=id,id runs only those (while working on one figure).
  const only = process.env.SGVIZ_FIGURES?.split(',');
  const figures = (await page.evaluate(async () => (await import('./www/figures/sbps.js')).SBPS_FIGURES)).filter((f) => !only || only.includes(f.id));
  // A main-chain claim a lesson step already checks after loading the same preset needs no second run.
  const keys = lessonClaimKeys(await page.evaluate(async () => (await import('./www/lesson-table.js')).LESSONS));
  assert.ok(figures.length > 0);
  const log = [];
  const failures = [];
  for (const figure of figures) {
    charge('(between figures)');
    await page.selectOption('#preset', figure.id);
    await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
    assert.match(await page.textContent('#preset-note'), new RegExp(figure.title.replace(/[()]/g, '.')), `${figure.id}: its note is shown`);
    if (figure.live) {
      // The chain plays after the preset loads; the band chart follows it every few frames.
      await page.waitForFunction((id) => { const s = window.sgviz.figureScan(); return s.id === id && s.chart; }, figure.id, { timeout: 120_000, polling: 250 });
      await waitForPainted(page, '#chart-figure', 2_000, 120_000);
      const chart = await page.evaluate(() => window.sgviz.figureScan().chart);
      const [now, next] = chart.markers.map((m) => m.x);
      assert.ok(now >= 0 && next > now, `${figure.id}: "now" ${now} before the next event ${next}`);
      assert.ok(next <= chart.x_range[1], `${figure.id}: the next event is on the time axis`);
    }
    const uncovered = (figure.claims ?? []).filter((c) => !keys.has(`${figure.id} ${JSON.stringify(c)}`));
    if (uncovered.length && (SOAK || sbpsChainReadInPage(figure))) await checkPresetAtClassTime(page, figure, uncovered, log, failures);
    // A scan figure's chain is paused as checkPresetAtClassTime pauses it: its frames are not what the scan waits for.
    else await page.evaluate(() => { if (window.sgviz.app.playing) document.querySelector('#play').click(); });
    if (!figure.scan && !figure.live) {
      assert.equal(await page.$eval('#figure-scan', (e) => e.hidden), true, `${figure.id}: no scan panel`);
      await page.$eval('#stack', (e) => e.scrollIntoView({ block: 'start' }));
      await screenshot(page, `figures/${figure.id}`, { fullPage: false });
      charge(figure.id);
      continue;
    }
    // The worker's runs are the figure's work; a hang guard, not a speed claim (CI is a loaded machine).
    if (figure.scan) await page.waitForFunction((id) => { const s = window.sgviz.figureScan(); return s.id === id && (s.done || s.failure); }, figure.id, { timeout: 240_000, polling: 500 });
    const scan = await page.evaluate(() => window.sgviz.figureScan());
    assert.equal(scan.failure, null, `${figure.id}: the scan failed`);
    if (figure.scan) assert.equal(scan.points[0].length, figure.scan.values.length, `${figure.id}: every value of the knob has its point`);
    await waitForPainted(page, '#chart-figure', 2_000, 120_000);
    const shown = await page.$$eval('#figure-claims li', (items) => items.map((li) => ({ text: li.textContent, ok: li.dataset.ok })));
    assert.equal(shown.length, (figure.scan || figure.live).claims.length, `${figure.id}: every claim is shown`);
    for (const claim of shown) {
      const line = `${figure.id}: ${claim.text}`;
      log.push(line);
      if (claim.ok !== 'true') failures.push(line);
    }
    if (figure.scan) log.push(`${figure.id} points: ${scan.points.map((curve) => curve.map((p) => `${p.x}:${p.y.toPrecision(3)}±${p.se.toPrecision(2)}`).join(' ')).join(' | ')}`);
    await page.$eval('#figure-scan', (e) => e.scrollIntoView({ block: 'start' }));
    await screenshot(page, `figures/${figure.id}`, { fullPage: false });
    charge(figure.id);
  }
  report('SBPS figures');
  console.log(log.join('\n'));
  assert.deepEqual(failures, []);
  assert.deepEqual(errors, []);
  await page.close();
});
