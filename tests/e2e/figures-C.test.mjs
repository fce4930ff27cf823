// The SGAIS figures of the gallery (issue 27, part C) at class time: each is loaded through the
// preset menu, its runs go to the page's workers, and once they are done (or, for a claim with
// `after_n`, far enough along) its claims are read as the panel shows them (#sgais-claims li,
// `data-ready` / `data-ok`, computed by www/sgais-figures.js from the panel's runs). The settings are
// chosen so that a loaded 2-core machine finishes them within a slide's time; the test waits on
// state, never on a clock. A screenshot of each at 1920×1080 goes to test-artifacts/figures/. Each
// figure is loaded only here (issue 23): its note on screen and Stop ending its workers are
// checked here too (they were teaching.test.mjs's, in a second load).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, frames, waitLoaded } from './harness.mjs';
import { charge, report } from './cpu-split.mjs';

const env = useBrowser();
const PROJECTOR = { width: 1920, height: 1080 };

test('every SGAIS figure shows what its claims say once its runs are in', async () => {
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
    await page.selectOption('#preset', figure.id);
    await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
    assert.equal(await page.isVisible('#preset-note'), true, `${figure.id}: its note is shown`);
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
  report('SGAIS figures');
  console.log(log.join('\n'));
  assert.deepEqual(failures, []);
  assert.deepEqual(errors, []);
  await page.close();
});
