// Legible from the back of a room and on a phone (issue 26), read from the page's geometry and its
// drawing state: canvas text sizes in CSS pixels, where the figures are, whether the page is wider
// than the screen. Base text sizes of the Rust drawing code (src/plot/): the charts draw ticks and
// legends at 12 × scale backing-store pixels (chart.rs), the 2-D panel its ticks at 13 × scale
// (marginal2d.rs); the trace and autocorrelation charts are drawn at the 2-D panel's scale.
// Screenshots go to test-artifacts/legibility/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();
const CHART_BASE_PX = 12;
const PANEL_BASE_PX = 13;

/** Redraw the 2-D panel and its charts (the page is paused). */
async function redraw(page) {
  await page.evaluate(async () => {
    const { draw, drawCharts } = await import('./www/view.js');
    window.dispatchEvent(new Event('resize'));
    draw();
    drawCharts();
  });
}

/** Smallest canvas text in CSS pixels: the 2-D panel, its charts, and the worker charts drawn so far. */
async function smallestText(page) {
  const s = await page.evaluate(() => window.sgviz.drawingScales());
  const sizes = {
    panel: (PANEL_BASE_PX * s.panel) / s.pixelRatio,
    'trace and autocorrelation': (CHART_BASE_PX * s.panel) / s.pixelRatio,
    ...Object.fromEntries(Object.entries(s.charts).map(([id, scale]) => [id, (CHART_BASE_PX * scale) / s.pixelRatio])),
  };
  return { min: Math.min(...Object.values(sizes)), sizes };
}

/** Wait until the analysis worker's noise chart has been drawn on its canvas. */
async function waitForNoiseChart(page) {
  await page.waitForFunction(() => window.sgviz.analysis().stale.length === 0 && window.sgviz.chart('noise') && window.sgviz.drawingScales().charts['chart-noise'], null, { timeout: 240_000, polling: 250 });
}

test('chart text is at least 16 px at 1400×900 and at least 24 px with Large text', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: { width: 1400, height: 900 } });
  await waitForNoiseChart(page);
  await redraw(page);
  const normal = await smallestText(page);
  assert.ok(normal.min >= 16, `smallest canvas text ${normal.min} px (${JSON.stringify(normal.sizes)})`);
  assert.ok(Object.keys(normal.sizes).includes('chart-noise'), 'a worker chart was measured');
  await page.click('#large-font');
  await page.evaluate(async () => { (await import('./www/charts.js')).requeueCharts(); });
  await redraw(page);
  await page.waitForFunction((px) => Object.values(window.sgviz.drawingScales().charts).every((s) => (12 * s) / window.sgviz.drawingScales().pixelRatio >= px), 24, { timeout: 60_000, polling: 100 });
  const large = await smallestText(page);
  assert.ok(large.min >= 24, `Large text: smallest canvas text ${large.min} px (${JSON.stringify(large.sizes)})`);
  await screenshot(page, 'legibility/large-text-1400', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 1920×1080 the lesson step\'s chart sits beside the plot, on the first screen', async () => {
  const viewport = { width: 1920, height: 1080 };
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport });
  await page.click('#lesson-open');
  await page.selectOption('#lesson-choice', 'sgld');
  await page.$eval('#lesson-next', (b) => b.click());
  await page.$eval('#lesson-next', (b) => b.click()); // step 3: its figure is the noise chart
  assert.equal(await page.evaluate(() => document.querySelector('#lesson').dataset.figure), 'noise');
  await waitForNoiseChart(page);
  await redraw(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  const rects = await page.evaluate(() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height }; };
    return { plot: box(document.querySelector('#stack')), chart: box(document.querySelector('#chart-noise').closest('figure')), lesson: box(document.querySelector('#lesson')) };
  });
  assert.ok(rects.chart.left >= rects.plot.right, `chart right of the plot (${JSON.stringify(rects)})`);
  assert.ok(rects.chart.top < viewport.height && rects.chart.bottom > 0 && rects.chart.bottom <= viewport.height, `the whole chart on the first screen (${JSON.stringify(rects.chart)})`);
  assert.ok(rects.plot.bottom <= viewport.height, `the whole plot on the first screen (${JSON.stringify(rects.plot)})`);
  assert.ok(rects.chart.right > 0.75 * viewport.width, `the right quarter of the screen is used (${JSON.stringify(rects.chart)})`);
  const text = await smallestText(page);
  assert.ok(text.min >= 16, `smallest canvas text ${text.min} px`);
  await screenshot(page, 'legibility/projector-1920-lesson-noise', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('phone 390×844: no horizontal overflow (also after an SGAIS run), charts drawn with a plot area, a lesson keeps the plot on screen', async () => {
  const viewport = { width: 390, height: 844 };
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport });
  const overflow = () => page.evaluate(() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth);
  assert.ok(await overflow() <= 0, `page wider than the screen by ${await overflow()} px on load`);
  await waitForNoiseChart(page);
  await page.waitForFunction(() => window.sgviz.drawingScales().charts['chart-sweep'], null, { timeout: 240_000, polling: 250 });
  const sweep = await page.$eval('#chart-sweep', (c) => ({ width: c.clientWidth, height: c.clientHeight }));
  // The trade-off chart's legend takes several rows at this width; the canvas must leave room for the plot.
  assert.ok(sweep.height >= sweep.width, `trade-off chart canvas ${JSON.stringify(sweep)}: at least as tall as wide on a phone`);
  const text = await smallestText(page);
  assert.ok(text.min >= 16, `smallest canvas text ${text.min} px (${JSON.stringify(text.sizes)})`);
  await page.$eval('#chart-sweep', (e) => e.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'legibility/phone-sweep', { fullPage: false });
  // A lesson opened from the top bar keeps its figure (the plot) on the screen.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.click('#lesson-open');
  const plot = await page.$eval('#stack', (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; });
  assert.ok(plot.bottom > 0.5 * (plot.bottom - plot.top) && plot.top < viewport.height / 2, `the plot stays on screen after opening a lesson (${JSON.stringify(plot)})`);
  await screenshot(page, 'legibility/phone-lesson', { fullPage: false });
  // After an SGAIS run has reported (its table filled), the page is still no wider than the screen.
  await page.evaluate(() => window.sgviz.app.sgais.applyPreset('linreg', { n_points: 2000 }));
  await page.waitForFunction(() => window.sgviz.sgais().combined && document.querySelectorAll('#sgais-table tbody tr').length > 0, null, { timeout: 240_000, polling: 250 });
  await page.click('#sgais-stop');
  assert.ok(await overflow() <= 0, `page wider than the screen by ${await overflow()} px after an SGAIS run`);
  await page.$eval('#sgais-table', (e) => e.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'legibility/phone-sgais', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the worker pool leaves the main thread a core: one worker fewer than cores, at least one', async () => {
  for (const [cores, expected] of [[1, 1], [2, 1], [4, 3]]) {
    const page = await env.browser.newPage();
    await page.addInitScript((n) => { Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }); }, cores);
    await page.goto(env.server.url);
    await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
    assert.equal(await page.evaluate(() => window.sgviz.jobs().pool), expected, `${cores} cores`);
    await page.close();
  }
});
