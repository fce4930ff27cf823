// Issue 26, compare mode's frame cost: while playing, a chart off screen (at 1920×1080 the trace
// and autocorrelation charts lie below the 2-D plot, 1,878 pixels wide) is not redrawn frame after
// frame (www/on-screen.js, www/view.js), and it is drawn as soon as it scrolls into view; the two
// panels of compare mode are drawn and the same size meanwhile. Waits are on the page's own
// counts (turns skipped, steps run), never on the clock.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, paintedPixels, screenshot } from './harness.mjs';

const env = useBrowser();
/** Generous limit for a loaded 2-core machine (a hang guard, not a speed requirement). */
const LIMIT_MS = 120_000;
/** Turns of the chart cadence the trace is skipped for while the test watches it (each would redraw it). */
const SKIPPED_TURNS = 20;
const PROJECTOR = { width: 1920, height: 1080 };

const traceImage = (page) => page.$eval('#chart-trace', (c) => c.toDataURL());

test('compare mode at 1920×1080: an off-screen chart is not redrawn while playing, and is drawn once scrolled into view', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&compare=mala', { viewport: PROJECTOR });
  await page.waitForFunction(() => window.sgviz.app.playing && window.sgviz.state().steps > 0, null, { timeout: LIMIT_MS });
  const where = await page.$eval('#chart-trace', (c) => c.getBoundingClientRect().top);
  assert.ok(where >= PROJECTOR.height, `precondition: the trace chart starts below the first screen (top ${where})`);
  // Both panels of compare mode are drawn, side by side at the same size.
  const panels = await page.$$eval('#stack .density-layer, #stack-b .density-layer', (cs) => cs.map((c) => { const r = c.getBoundingClientRect(); return { left: r.left, top: r.top, width: r.width, height: r.height }; }));
  assert.equal(panels.length, 2, 'two panels');
  assert.ok(Math.abs(panels[0].width - panels[1].width) < 1 && Math.abs(panels[0].height - panels[1].height) < 1 && panels[0].left !== panels[1].left, `two panels of one size: ${JSON.stringify(panels)}`);
  for (const stack of ['#stack', '#stack-b']) {
    await page.waitForFunction((sel) => {
      const c = document.querySelector(`${sel} .density-layer`);
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      let n = 0;
      for (let j = 3; j < data.length; j += 4) if (data[j] > 0) n++;
      return n > 200;
    }, stack, { timeout: LIMIT_MS, polling: 250 });
  }
  // Off screen: the chart cadence skips its turns and the picture does not change while the chain runs.
  const before = await page.evaluate(() => ({ counts: window.sgviz.drawCounts(), steps: window.sgviz.state().steps }));
  const image = await traceImage(page);
  await page.waitForFunction((n) => window.sgviz.drawCounts().offScreen >= n, before.counts.offScreen + SKIPPED_TURNS, { timeout: LIMIT_MS, polling: 100 });
  const after = await page.evaluate(() => ({ counts: window.sgviz.drawCounts(), steps: window.sgviz.state().steps, playing: window.sgviz.app.playing }));
  assert.ok(after.playing && after.steps > before.steps, `the chain ran meanwhile: ${JSON.stringify({ before, after })}`);
  assert.ok(after.counts.overlay > before.counts.overlay, 'the 2-D panel was drawn meanwhile');
  assert.equal(await traceImage(page), image, 'the off-screen trace chart was not redrawn while playing');
  // Scrolled into view, it is drawn again while playing (the chain has moved on since).
  await page.$eval('#chart-trace', (c) => c.scrollIntoView({ block: 'center' }));
  await page.waitForFunction((old) => document.getElementById('chart-trace').toDataURL() !== old, image, { timeout: LIMIT_MS, polling: 100 });
  assert.ok(await paintedPixels(page, '#chart-trace') > 1000, 'the trace chart on screen is drawn');
  await screenshot(page, 'off-screen/trace-scrolled-into-view-1920x1080', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
