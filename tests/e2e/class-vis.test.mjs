// Issue 26, the visible defects a sixth pass fixed, each read from what the canvas drew (the texts
// its 2-D context was asked to draw: harness `recordCanvasText`), never from time:
// (2) a chart with nothing to plot is its sentence alone: BPS's "No noise chart: …" and the SGAIS
//     charts before a run (which say which button fills them) have no axes, ticks or frame;
// (9) a log-axis chart leaves its points ≤ 0 out and says how many under the x axis, on the canvas
//     (the native test src/plot/chart/tests.rs covers the SVG).
// Screenshots in test-artifacts/class6/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();

/** Texts the canvas `id` drew in its latest drawing. */
const drawnText = (page, id) => page.evaluate((i) => window.__canvasText?.[i] || [], id);

test('BPS: the noise chart is its sentence alone, no empty frame; SGAIS charts before a run name the button that fills them', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=bps', { recordCanvasText: true });
  await page.waitForFunction(() => window.sgviz.chart('noise')?.title?.startsWith('No noise chart'), null, { timeout: 120_000, polling: 250 });
  const spec = await page.evaluate(() => window.sgviz.chart('noise'));
  assert.equal(spec.series.length, 0);
  // Drawn: the sentence's words, wrapped, and nothing else (a frame would bring tick labels).
  await page.waitForFunction(() => (window.__canvasText['chart-noise'] || []).join(' ').startsWith('No noise chart'), null, { timeout: 60_000, polling: 250 });
  const noise = await drawnText(page, 'chart-noise');
  assert.equal(noise.join(' ').replace(/\s+/g, ' '), spec.title.replace(/\s+/g, ' '), `only the sentence is drawn: ${JSON.stringify(noise)}`);
  assert.ok(noise.every((t) => !/^[−-]?\d+(\.\d+)?$/.test(t.trim())), `no tick labels: ${JSON.stringify(noise)}`);
  await page.$eval('#chart-noise', (c) => c.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'class6/bps-noise-note', { fullPage: false });

  // SGAIS, before any run: both charts say what to press.
  for (const id of ['chart-evidence', 'chart-annealing']) {
    await page.$eval(`#${id}`, (c) => c.scrollIntoView({ block: 'center' }));
    await page.waitForFunction((i) => (window.__canvasText[i] || []).length > 0, id, { timeout: 60_000, polling: 250 });
    const text = (await drawnText(page, id)).join(' ');
    assert.match(text, /^Press Start \(or a Preset button above\) to draw/, `${id}: ${text}`);
    assert.equal(await page.isVisible('#sgais-start'), true, 'the button it names is on the page');
    assert.ok(/Preset/.test(await page.textContent('#sgais-preset-linreg')), 'and so are the preset buttons');
  }
  await screenshot(page, 'class6/sgais-before-run', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('log axis: the points ≤ 0 of the annealed-noise bias chart are left out and counted under its x axis, on the canvas', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, recordCanvasText: true });
  await page.selectOption('#preset', 'sgld-annealed-noise');
  // The worker's bias chart of this setting, with at least one point a log axis cannot place.
  const notPlaced = () => {
    const spec = window.sgviz.chart('bias');
    if (!spec || window.sgviz.analysis().stale.length !== 0) return 0;
    return spec.series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && ((spec.log_x && x <= 0) || (spec.log_y && y <= 0))).length;
  };
  await page.waitForFunction(notPlaced, null, { timeout: 300_000, polling: 500 });
  const k = await page.evaluate(notPlaced);
  const said = k === 1 ? '(1 point ≤ 0 not drawn: log axis)' : `(${k} points ≤ 0 not drawn: log axis)`;
  await page.$eval('#chart-bias', (c) => c.scrollIntoView({ block: 'center' }));
  await page.waitForFunction((s) => (window.__canvasText['chart-bias'] || []).some((t) => t.includes(s)), said, { timeout: 60_000, polling: 250 });
  await screenshot(page, 'class6/annealed-bias-log-note', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
