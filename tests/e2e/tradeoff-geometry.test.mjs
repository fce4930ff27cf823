// Issue 26: the trade-off chart (SGLD Fig. 2 preset) had a plot area ≈ 70 px tall at 1920×1080 (a
// 524 × 262 canvas in the right-hand column, its title and legend taking the rest) and lost its y
// label. The page now gives it a square canvas in that column. This test reads the canvas the page
// lays out for the chart and the text scale it draws it at, at 1920×1080, 1400×900 and 390×844,
// and checks them against the sizes at which src/plot/schedule_tradeoff.rs's native test
// (`the_chart_leaves_a_readable_plot_area_at_the_page_sizes`) finds a plot area ≥ 200 px tall with
// both axis labels drawn: the canvas at least that large, its text scale at most that large. No
// wait on the sweep (the chart's size is the page's layout); the phone page must not overflow.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, waitLoaded } from './harness.mjs';

const env = useBrowser();
/** The native test's canvas sizes (CSS px) and text scales, per viewport (restated). */
const CHECKED = [
  // Since stop 45's chart-led layout (≥ 1600 px: the preset's note and its chart across the width,
  // the chart at most 60vh) the 1920 chart is 1878 × 648 at text factor 2 (it was 524 × 524 at 4/3).
  { viewport: { width: 1920, height: 1080 }, width: 1878, height: 648, scale: 2 },
  { viewport: { width: 1400, height: 900 }, width: 1022, height: 511, scale: 1.7034 },
  { viewport: { width: 390, height: 844 }, width: 364, height: 455, scale: 4 / 3 },
];

for (const c of CHECKED) {
  test(`${c.viewport.width}×${c.viewport.height}: the trade-off canvas is at least ${c.width} × ${c.height} at a text scale ≤ ${c.scale.toFixed(2)}`, async () => {
    const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: c.viewport });
    await page.selectOption('#preset', 'sgld-annealed-noise');
    await waitLoaded(page);
    await page.waitForFunction(() => window.sgviz.app.sampler === 'sgld' && window.sgviz.state().diagnostics.length > 0);
    const got = await page.evaluate(async () => {
      const { drawingScale } = await import('./www/format.js');
      const canvas = document.querySelector('#chart-sweep');
      return { width: canvas.clientWidth, height: canvas.clientHeight, scale: drawingScale(canvas.clientWidth), overflow: document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth };
    });
    // Within 2 px of the sizes checked natively (a scrollbar or rounding may take a pixel or two).
    assert.ok(got.width >= c.width - 2 && got.height >= c.height - 2, `canvas ${got.width} × ${got.height}, checked natively at ${c.width} × ${c.height}`);
    // A larger canvas of the same shape at a larger scale still leaves the plot its share; check the
    // shape: no flatter than the one checked.
    assert.ok(got.height / got.width >= c.height / c.width - 0.01, `canvas shape ${got.width} × ${got.height}`);
    assert.ok(got.scale <= c.scale * (got.height / c.height) + 1e-6, `text scale ${got.scale} against ${c.scale} at the checked height`);
    assert.ok(got.overflow <= 0, `page wider than the screen by ${got.overflow} px`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
