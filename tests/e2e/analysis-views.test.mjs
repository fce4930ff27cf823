// The analysis on screen, read from the page's state, geometry and drawing: the predicted
// stationary law's ellipse and the bias / Monte Carlo split (issue 13), chart text legible from the
// back of a room and on a phone (issue 26), and the mixing panel's ESS and autocorrelation against
// a separately written estimator (issue 26). One file and one browser context; each test opens the
// pages it opened before (issue 23: these were three files, each paying node, a context and a
// first page load; BENCHMARKS.md "CI time", sixth round). Each section below keeps the file it
// was, its comment and its tests as they were.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, frames, pauseAndRestart, waitLoaded, settingWarningBeside } from './harness.mjs';

const env = useBrowser();

// ─── was law.test.mjs ─────────────────────────────────────────────
// Issue 13 in a real browser: the third ellipse (the sampler's predicted stationary law) on the
// Gaussian for the stochastic-gradient samplers and in compare mode, the measured covariance
// converging to that law (not to the truth) at a large step, and the analysis charts keeping
// bias and Monte Carlo error apart (bias rising with ε, trade-off curves crossing).

const state = (page) => page.evaluate(() => window.sgviz.state());

// One page for every sampler (switched through the sampler menu, as a student does), compare mode
// last: a page load costs ≈ 1–3 CPU s, and this test made six (issue 23; BENCHMARKS.md "CI time",
// fifth round). The stochastic bouncy sampler (no law) comes before compare mode is switched on.
test('the predicted ellipse is drawn on the Gaussian for SGLD, SGHMC, SGFS and in compare mode', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld', { reducedMotion: true });
  const choose = async (sampler) => {
    await page.selectOption('#sampler', sampler);
    await page.waitForFunction((name) => window.sgviz.app.sampler === name, sampler, { timeout: 30_000 });
  };
  for (const sampler of ['sgld', 'sghmc', 'sgfs_d', 'osgfs', 'sbps', 'sgfs_f']) {
    await choose(sampler);
    const s = await state(page);
    if (sampler === 'sbps') {
      // No law for the stochastic bouncy samplers: no ellipse and no legend entry, a reason in the state.
      assert.equal(s.predicted, null);
      assert.match(s.predicted_reason, /no closed-form/);
      assert.equal(await page.isVisible('#legend-predicted'), false);
      continue;
    }
    assert.ok(s.predicted, `${sampler}: predicted law present (${s.predicted_reason})`);
    assert.equal(s.predicted.exact, true, `${sampler}: ${s.predicted.note}`);
    assert.ok(await page.evaluate(() => window.sgviz.app.lab.predicted_ellipse().length) > 100, `${sampler}: ellipse in pixels`);
    assert.equal(await page.isVisible('#legend-predicted'), true, `${sampler}: legend entry shown`);
  }
  await page.click('#compare-toggle');
  await page.selectOption('#compare-sampler', 'sgfs_d');
  await page.waitForFunction(() => window.sgviz.app.compare.lab?.predicted_ellipse().length > 100, null, { timeout: 30_000 });
  await page.evaluate(() => { window.sgviz.app.lab.run(20_000); window.sgviz.app.compare.lab.run(20_000); });
  await page.click('#play');
  await frames(page, 36); // the page's own frames, not the clock
  await page.click('#play');
  await screenshot(page, 'law-predicted-ellipse-compare-sgfs');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the dotted predicted ellipse is drawn on top of the dashed measured one (the order the overlay stroked them)', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld', { reducedMotion: true });
  await page.evaluate(() => window.sgviz.app.lab.run(20_000));
  await page.click('#play');
  // A frame drawn after the run: both ellipses in the overlay's log of named strokes.
  await page.waitForFunction(() => {
    const drawn = window.sgviz.app.panel.strokes || [];
    return drawn.includes('sampler ellipse') && drawn.includes('predicted ellipse');
  }, null, { timeout: 60_000 });
  await page.click('#play');
  const drawn = await page.evaluate(() => [...window.sgviz.app.panel.strokes]);
  assert.ok(drawn.lastIndexOf('predicted ellipse') > drawn.lastIndexOf('sampler ellipse'), `predicted (dotted) after measured (dashed): ${drawn}`);
  await screenshot(page, 'law-predicted-on-top', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('at a large ε the measured covariance converges to the predicted law, not to the truth', async () => {
  // Full-batch SGLD at ε = 0.3 on ρ = 0.9 (stability limit 0.4): along u₂ = (1, −1)/√2 the law's
  // variance is 0.1/(1 − 0.3·10/4) = 0.4, four times the truth's. 90,000 samples (the ring keeps
  // 100,000), compared in the truth's eigenbasis within 4 batch-means MCSE (50 batches).
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&seed=3&p.rho=0.9&p.grad_noise=0&p.batch_size=100&p.step_size=0.3', { reducedMotion: true });
  const result = await page.evaluate(() => {
    const lab = window.sgviz.app.lab;
    lab.run(2_000);
    lab.discard_samples();
    for (let k = 0; k < 9; k++) lab.run(10_000);
    const rows = lab.samples_csv().trim().split('\n').slice(1).map((r) => r.split(',').map(Number));
    const r = Math.SQRT1_2;
    const y = rows.map(([a, b]) => [r * (a + b), r * (a - b)]);
    const mean = [0, 1].map((j) => y.reduce((s, p) => s + p[j], 0) / y.length);
    const entry = (a, b) => {
      const products = y.map((p) => (p[a] - mean[a]) * (p[b] - mean[b]));
      const size = Math.floor(products.length / 50);
      const means = Array.from({ length: 50 }, (_, k) => products.slice(k * size, (k + 1) * size).reduce((s, v) => s + v, 0) / size);
      const m = means.reduce((s, v) => s + v, 0) / 50;
      const se = Math.sqrt(means.reduce((s, v) => s + (v - m) ** 2, 0) / (50 * 49));
      return { estimate: products.reduce((s, v) => s + v, 0) / products.length, se };
    };
    const s = window.sgviz.state();
    const c = s.predicted.cov;
    const rotate = (m) => [
      (m[0][0] + m[1][1] + 2 * m[0][1]) / 2,
      (m[0][0] + m[1][1] - 2 * m[0][1]) / 2,
      (m[0][0] - m[1][1]) / 2,
    ];
    return { n: y.length, measured: [entry(0, 0), entry(1, 1), entry(0, 1)], predicted: rotate(c), truth: rotate(s.truth.cov) };
  });
  assert.equal(result.n, 90_000);
  for (let k = 0; k < 3; k++) {
    const { estimate, se } = result.measured[k];
    assert.ok(Math.abs(estimate - result.predicted[k]) <= 4 * se + 1e-12, `entry ${k}: measured ${estimate} vs predicted ${result.predicted[k]} (MCSE ${se})`);
  }
  const narrow = result.measured[1];
  assert.ok(Math.abs(narrow.estimate - result.truth[1]) > 20 * narrow.se, `narrow direction ${narrow.estimate} should be far from the truth's ${result.truth[1]}`);
  await page.click('#step'); // redraws the panels (the page is paused)
  await page.waitForFunction(() => window.sgviz.state().n_samples > 90_000, null, { timeout: 10_000 });
  await screenshot(page, 'law-sgld-large-step-converges-to-predicted');
  assert.deepEqual(errors, []);
  await page.close();
});

// Issue 21, s44 (docs/diagnostics.md §7 addendum, V3): where the law's spread leaves the region its
// Gaussian summary describes, the warning says no law gives the bias's size, and the dotted
// "predicted" ellipse (and its legend entry) that would show that law's size is not drawn either.
// Mixture × SGHMC at n = 10: the law's E2 0.128, runs of 200,000 samples 0.37–0.39.
test('where the law leaves its summary (V3) no predicted ellipse or legend entry is drawn, and the warning states no size', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=mixture&sampler=sghmc&seed=1&p.batch_size=10', { reducedMotion: true, viewport: { width: 1400, height: 900 } });
  await page.evaluate(() => window.sgviz.app.lab.run(6_000));
  await page.click('#play');
  await frames(page, 36);
  await page.click('#play');
  const s = await state(page);
  assert.equal(s.predicted, null, 'no predicted law in the state');
  assert.match(s.predicted_reason, /not be a prediction/);
  assert.equal(await page.evaluate(() => window.sgviz.app.lab.predicted_ellipse().length), 0, 'no ellipse in pixels');
  assert.equal(await page.isVisible('#legend-predicted'), false, 'no legend entry');
  assert.ok(s.setting_warning, 'warned');
  assert.match(s.setting_warning.text, /no law here says/);
  const [, shown, place] = await settingWarningBeside(page, s.setting_warning.param);
  assert.match(shown, /no law here says/, 'the text on screen');
  assert.ok(place.gap >= 0 && place.gap < 40 && place.height > 10, `beside its slider: ${JSON.stringify(place)}`);
  await page.locator(`#param-${s.setting_warning.param}-warning`).scrollIntoViewIfNeeded();
  await screenshot(page, 'law-v3-mixture-sghmc-n10-no-predicted-ellipse', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the analysis charts separate a bias rising with ε from the Monte Carlo error, and the trade-off curves cross', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&p.rho=0.9', { reducedMotion: true });
  await page.click('#play');
  // The sweep runs in a worker: wait for it to finish (generous limit).
  // The progress bar can reach 1 a frame before the last chart spec is posted: wait for the specs too.
  await page.waitForFunction(() => document.querySelector('#analysis-progress').value >= 1 && ['bias', 'sweep'].every((k) => window.sgviz.chart(k)), null, { timeout: 120_000 });
  await page.click('#play');
  // The charts are computed in the analysis worker: read the specs it posted.
  const chart = (kind) => page.evaluate((k) => window.sgviz.chart(k), kind);
  const bias = await chart('bias');
  const predicted = bias.series.find((s) => s.label.startsWith("bias of the sampler's law")).points;
  assert.ok(predicted.length >= 20, `${predicted.length} points`);
  for (let i = 1; i < predicted.length; i++) assert.ok(predicted[i][1] > predicted[i - 1][1], `bias rises with ε at ${predicted[i][0]}`);
  const measured = bias.series.find((s) => s.label.startsWith('measured error'));
  assert.ok(measured.points.length >= 3 && measured.point_labels.every((l) => l.startsWith('ε = ')), JSON.stringify(measured));
  assert.equal(measured.error_bars.length, measured.points.length);
  const tradeoff = await chart('sweep');
  const curves = tradeoff.series.filter((s) => s.label.endsWith('(predicted)'));
  assert.ok(curves.length >= 3 && curves.length <= 5, `${curves.length} curves`);
  const best = (pick) => curves.reduce((b, c, i) => (pick(c.points)[1] < pick(curves[b].points)[1] ? i : b), 0);
  assert.equal(best((p) => p[0]), curves.length - 1, 'the largest ε has the smallest error at the smallest budget');
  assert.equal(best((p) => p[p.length - 1]), 0, 'the smallest ε has the smallest error at the largest budget');
  await page.$eval('#chart-bias', (c) => c.scrollIntoView());
  await screenshot(page, 'law-analysis-bias-and-tradeoff');
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── was legibility.test.mjs ─────────────────────────────────────────────
// Legible from the back of a room and on a phone (issue 26), read from the page's geometry and its
// drawing state: canvas text sizes in CSS pixels, where the figures are, whether the page is wider
// than the screen. Base text sizes of the Rust drawing code (src/plot/): the charts draw ticks and
// legends at 12 × scale backing-store pixels (chart.rs), the 2-D panel its ticks at 13 × scale
// (marginal2d.rs); the trace and autocorrelation charts are drawn at the 2-D panel's scale.
// Screenshots go to test-artifacts/legibility/.

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

// Issue 26, the page's own text (a reviewer's getComputedStyle at 1400×900: lesson claims 14.4 px,
// red warnings and the plot legend 13.6 px, "Unstable above…" 12.48 px): everything a student reads
// is at least 16 px at the default text size, the plot stays on the first screen at 1400×900, and
// the phone (390×844) has no horizontal overflow with a lesson's claims open. Buttons are left out
// (tools, not content). Elements the page builds hidden (warnings, the unstable note) have their
// computed size all the same; an advice paragraph is added to #advice to read its rule.
const READ_TEXT = ['.lesson-claims li', '.setting-warning', '#speed-note', '.legend', '.unstable-note', '.field label', '.field .help', '.field .error', '.status', '.advice p', '.summary', '.counters dt', '.counters dd', '.moments td', '.moments th', '.moments caption', '.params legend', '#lesson-text'];

async function smallestPageText(page) {
  return page.evaluate((selectors) => {
    const probe = document.createElement('p');
    probe.textContent = 'probe';
    document.getElementById('advice').append(probe);
    const sizes = Object.fromEntries(selectors.map((sel) => {
      const els = [...document.querySelectorAll(sel)];
      return [sel, els.length ? Math.min(...els.map((e) => parseFloat(getComputedStyle(e).fontSize))) : null];
    }));
    probe.remove();
    return sizes;
  }, READ_TEXT);
}

test('page text a student reads is at least 16 px at 1400×900, the plot on the first screen; no overflow on a phone', async () => {
  const viewport = { width: 1400, height: 900 };
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport });
  await page.click('#lesson-open');
  await page.selectOption('#lesson-choice', 'sgld');
  await page.waitForFunction(() => document.querySelectorAll('.lesson-claims li').length > 0, null, { timeout: 60_000, polling: 100 });
  const sizes = await smallestPageText(page);
  const small = Object.entries(sizes).filter(([, px]) => px === null || px < 16);
  assert.deepEqual(small, [], `text under 16 px (or missing) at 1400×900: ${JSON.stringify(sizes)}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  const plot = await page.$eval('#stack', (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; });
  assert.ok(plot.top >= 0 && plot.bottom <= viewport.height, `the whole plot on the first screen at 1400×900 (${JSON.stringify(plot)})`);
  await screenshot(page, 'legibility/text-1400', { fullPage: false });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.waitForFunction(() => document.querySelector('#stack').getBoundingClientRect().bottom <= 1080);
  await screenshot(page, 'legibility/text-1920', { fullPage: false });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => innerWidth === 390);
  const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth);
  assert.ok(overflow <= 0, `page wider than a 390 px phone by ${overflow} px with a lesson open`);
  await screenshot(page, 'legibility/text-phone', { fullPage: false });
  await page.$eval('#play', (b) => b.scrollIntoView({ block: 'end' }));
  await screenshot(page, 'legibility/text-phone-controls', { fullPage: false });
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

// Issue 26: in present mode at 1920×1080 chart text is at least 24 px (the charts' 12 px base at
// twice its size; the 2-D panel's 13 px base likewise), on the plot step and on the step whose
// chart sits large beside the plot, with the instructor toggle on. Before, a chart ≈ 700 px wide
// drew its text at 16 px.
test('present mode at 1920×1080: chart text at least 24 px', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '?present=sgld', { reducedMotion: true, viewport: { width: 1920, height: 1080 } });
  await page.waitForFunction(() => window.sgviz.lesson() !== null);
  await page.click('#present-clean');
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.sgviz.lesson().step === 3 && document.getElementById('lesson').dataset.figure === 'noise');
  await waitForNoiseChart(page);
  await redraw(page);
  await page.waitForFunction(() => window.sgviz.drawingScales().charts['chart-noise'] !== undefined);
  await screenshot(page, 'legibility/present-clean-noise-1920', { fullPage: false });
  const text = await smallestText(page);
  assert.ok(Object.keys(text.sizes).includes('chart-noise'), 'the step\'s worker chart was measured');
  assert.ok(text.min >= 24, `present mode: smallest canvas text ${text.min} px (${JSON.stringify(text.sizes)})`);
  // Larger text must leave the chart a plot: its title, axis labels and four legend rows take about
  // eight rows of text; the canvas has room for four more, the plot (with the plot beside it at
  // its full 984 px the canvas was ≈ 250 px tall and the plot a line).
  const canvas = await page.$eval('#chart-noise', (c) => ({ width: c.clientWidth, height: c.clientHeight }));
  assert.ok(canvas.height >= 12 * 24, `the noise chart's canvas ${JSON.stringify(canvas)}: under 12 rows of 24 px text`);
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
  // Issue 26, next round: the lesson's text sat below the controls, a screen under the plot. Its
  // first lines are on the first screen with the plot, and scrolled down to Play the whole plot
  // is still on the screen (it stays at the top while the text and the controls scroll).
  const textTop = await page.$eval('#lesson-text', (e) => e.getBoundingClientRect().top);
  assert.ok(textTop < viewport.height - 48, `the lesson's text starts at ${Math.round(textTop)} px, not on the first screen`);
  await screenshot(page, 'legibility/phone-lesson', { fullPage: false });
  await page.$eval('#play', (b) => b.scrollIntoView({ block: 'end' }));
  const held = await page.evaluate(() => { const r = document.querySelector('#stack').getBoundingClientRect(); return { top: r.top, bottom: r.bottom, scrollY }; });
  assert.ok(held.scrollY > 0 && held.top >= 0 && held.bottom <= viewport.height, `scrolled to Play, the plot is off the screen (${JSON.stringify(held)})`);
  await screenshot(page, 'legibility/phone-lesson-play', { fullPage: false });
  await page.evaluate(() => window.scrollTo(0, 0));
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

// ─── was mixing-fft.test.mjs ─────────────────────────────────────────────
// Issue 26: the mixing panel's ESS and the autocorrelation chart are computed by FFT on the main
// thread (src/acf_fft.rs, docs/diagnostics.md §12) instead of direct sums; the numbers must stay
// those of the definition. The oracle is written here, separately: the direct autocorrelation sums
// and Geyer's initial monotone sequence over at most 200 lags, thinning by 2, 4, … while τ is not
// settled within them (docs/diagnostics.md §3, restated), over the last 20,000 samples the page
// retains (its CSV, exact to the last bit). Checked on the Gaussian (τ ≈ a few, no thinning) and
// on the mixture preset (τ in the hundreds to thousands: the thinning path), after a seeded run of
// a fixed number of steps driven by the test, paused; the displayed text is read after a Step, once
// the ESS worker (www/mixing.js) has answered for the chain's samples after it.

/** The page's ESS window and lag cap (src/lab/mod.rs ESS_WINDOW, diagnostics_panel ESS_MAX_LAGS; restated). */
const WINDOW = 20_000;
const MAX_LAGS = 200;
const ACF_LAGS = 100;

/** ρ(0..=maxLag) by direct sums over the centred series (docs/diagnostics.md §3). */
function rhoDirect(x, maxLag) {
  const n = x.length;
  const mean = x.reduce((s, v) => s + v, 0) / n;
  const c = x.map((v) => v - mean);
  const c0 = c.reduce((s, v) => s + v * v, 0);
  const out = [];
  for (let lag = 0; lag <= Math.min(maxLag, n - 1); lag++) {
    let s = 0;
    for (let i = 0; i + lag < n; i++) s += c[i] * c[i + lag];
    out.push(s / c0);
  }
  return out;
}

/** Geyer's τ over lags < min(maxLag, n/2) and whether it stopped at a non-positive pair sum. */
function geyer(x, maxLag) {
  const n = x.length;
  const cap = Math.min(maxLag, Math.floor(n / 2));
  const rho = rhoDirect(x, cap);
  let tau = -1;
  let previous = Infinity;
  let k = 0;
  for (; 2 * k + 1 < cap; k++) {
    const pair = Math.min(rho[2 * k] + rho[2 * k + 1], previous);
    if (pair <= 0) return { tau: Math.max(1, tau), settled: true };
    tau += 2 * pair;
    previous = pair;
  }
  return { tau: Math.max(1, tau), settled: 2 * k + 1 >= Math.floor(n / 2) };
}

/** ESS with the thinning rule: thin by 2, 4, … until τ settles within the lags or the series is short. */
function essOracle(x) {
  for (let stride = 1; ; stride *= 2) {
    const thinned = x.filter((_, i) => i % stride === 0);
    const { tau, settled } = geyer(thinned, MAX_LAGS);
    if (settled || thinned.length < 4 * MAX_LAGS) return { ess: thinned.length / tau, stride };
  }
}

/** Run `steps` steps of the paused, restarted chain, press Step once (a paused full redraw). */
async function runPaused(page, steps) {
  await pauseAndRestart(page);
  await page.evaluate((n) => { for (let done = 0; done < n; done += 5000) window.sgviz.app.lab.run(Math.min(5000, n - done)); }, steps - 1);
  await page.click('#step');
}

/**
 * The page's numbers and the oracle's, for the displayed pair. The mixing panel's numbers come from
 * the ESS worker (www/mixing.js, issue 26 stop 48): read once its answer for the chain's current
 * samples (`recorded`, the count its window was taken at) has arrived; they must be
 * `mixing_json`'s, and what the panel shows.
 */
async function compare(page) {
  // A request the busy worker leaves unanswered for a second is answered on the page (www/mixing.js
  // POOL_WAIT_MS), which happens under load (stop 51's CI: 1 of 9 on the mixture). Such an answer
  // equals mixing_json by construction, so it tests nothing here: while the answer for the current
  // samples came from the page (its `source`), one more step (Step, a new request) is taken.
  for (let tries = 0; ; tries += 1) {
    await page.click('#step');
    await page.waitForFunction(() => window.sgviz.mixing().main?.recorded === window.sgviz.app.lab.n_recorded(), null, { timeout: 30_000 });
    const source = await page.evaluate(() => window.sgviz.mixing().main.source);
    if (source === 'worker') break;
    assert.ok(tries < 10, `ten answers in a row computed on the page (source ${source})`);
  }
  const page_ = await page.evaluate(() => {
    const { app } = window.sgviz;
    const state = window.sgviz.state();
    return {
      pair: state.pair,
      csv: app.lab.samples_csv(),
      mixing: JSON.parse(app.lab.mixing_json()),
      fromWorker: window.sgviz.mixing(),
      clears: app.lab.statistics_cleared(),
      acf: JSON.parse(app.lab.chart_json('acf')),
      shown: document.querySelector('#ess').textContent,
    };
  });
  const { recorded, source, clears, ...workerMixing } = page_.fromWorker.main;
  assert.equal(source, 'worker', 'the compared answer was computed by the worker');
  assert.equal(clears, page_.clears, 'the answer is for the chain\'s current statistics (no slider moved since its window)');
  assert.deepEqual(workerMixing, page_.mixing, 'the worker\'s numbers are mixing_json\'s on the same samples');
  const rows = page_.csv.trim().split('\n').slice(1).map((line) => line.split(',').map(Number));
  const recent = rows.slice(-WINDOW);
  const oracle = page_.pair.map((j) => essOracle(recent.map((r) => r[j])));
  const rho = page_.pair.map((j) => rhoDirect(recent.map((r) => r[j]), ACF_LAGS));
  return { ...page_, recent, oracle, rho };
}

function check(label, r) {
  assert.equal(r.recent.length, WINDOW, `${label}: the ring holds at least the window`);
  assert.equal(r.mixing.window, WINDOW);
  r.oracle.forEach(({ ess }, k) => {
    const got = r.mixing.ess[k];
    assert.ok(Math.abs(got / ess - 1) < 1e-9, `${label}: ESS[${k}] ${got} vs the direct estimator's ${ess}`);
  });
  // On screen: "a, b (of the last 20,000 samples)", each at 3 significant digits.
  const shown = r.shown.split(' (')[0].split(', ').map((t) => Number(t.replace(/,/g, '')));
  r.oracle.forEach(({ ess }, k) => {
    const unit = 10 ** (Math.floor(Math.log10(ess)) - 2);
    assert.ok(Math.abs(shown[k] - ess) <= unit / 2 + 1e-9 * ess, `${label}: shown "${r.shown}" vs ${ess}`);
  });
  assert.match(r.shown, /of the last 20,000 samples/);
  r.acf.series.forEach((series, k) => {
    assert.equal(series.points.length, ACF_LAGS + 1);
    const worst = series.points.reduce((m, [lag, v]) => Math.max(m, Math.abs(v - r.rho[k][lag])), 0);
    assert.ok(worst < 1e-9, `${label}: autocorrelation chart ${k} off the direct sums by ${worst}`);
  });
}

test('the displayed ESS and autocorrelation equal a separately written estimator (Gaussian, no thinning)', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '?target=gaussian&sampler=sgld&seed=3');
  await runPaused(page, 30_000);
  const r = await compare(page);
  check('gaussian', r);
  assert.ok(r.oracle.every((o) => o.stride === 1), `no thinning expected on the Gaussian: ${JSON.stringify(r.oracle)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the same on the mixture preset, where τ exceeds the lag cap and the series is thinned', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  await page.selectOption('#preset', 'sgld-mixture');
  await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
  await runPaused(page, 200_000);
  const r = await compare(page);
  check('mixture', r);
  assert.ok(r.oracle.some((o) => o.stride > 1), `the mixture should exercise the thinning: ${JSON.stringify(r.oracle)}`);
  assert.deepEqual(errors, []);
  await page.close();
});
