// SVG export (issue 24): every chart and the 2-D panel as SVG text drawn by plotters' SVG backend.
// Each SVG must parse as XML (the browser's own DOMParser, not the code under test) and carry the
// chart's data: the panel its sample density as blocks covering every sample and its dashed sampler ellipse, the line charts one vertex per point
// of each series (read from the chart's JSON spec, the same data the canvas draws), every legend
// label and the title as text.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { useBrowser, openApp, ARTIFACTS } from './harness.mjs';

const env = useBrowser();

/** Parse SVG text in the page; report parse errors, the root, texts, polylines and circles. */
const analyse = (page, text) => page.evaluate((svg) => {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const error = doc.querySelector('parsererror');
  const vertices = (p) => p.getAttribute('points').trim().split(/\s+/).length;
  return {
    error: error ? error.textContent : null,
    root: doc.documentElement.nodeName,
    width: Number(doc.documentElement.getAttribute('width')),
    texts: [...doc.querySelectorAll('text')].map((t) => t.textContent.trim()),
    polylines: [...doc.querySelectorAll('polyline')].map((p) => ({ stroke: p.getAttribute('stroke'), n: vertices(p) })),
    circles: [...doc.querySelectorAll('circle')].map((c) => c.getAttribute('fill')),
  };
}, text);

const hex = ([r, g, b]) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`.toUpperCase();

async function save(name, text) {
  await mkdir(ARTIFACTS, { recursive: true });
  await writeFile(join(ARTIFACTS, `export-${name}.svg`), text);
}

/** Whether `text` is one text element or consecutive ones joined by spaces (a title wrapped to the chart's width). */
function hasWrappedText(texts, text) {
  return texts.some((_, i) => {
    let joined = '';
    for (let j = i; j < texts.length && joined.length < text.length; j += 1) joined = joined ? `${joined} ${texts[j]}` : texts[j];
    return joined === text;
  });
}

/** Checks shared by every chart: valid XML, an <svg> root, the title and every legend label as text (each possibly wrapped). */
function assertChart(name, svg, spec) {
  assert.equal(svg.error, null, `${name}: ${svg.error}`);
  assert.equal(svg.root, 'svg', name);
  if (spec.title) assert.ok(hasWrappedText(svg.texts, spec.title), `${name}: title "${spec.title}" in ${JSON.stringify(svg.texts)}`);
  // A legend entry too long for its row is wrapped at spaces into whole lines (src/plot/chart/mod.rs).
  for (const s of spec.series.filter((s) => s.label)) assert.ok(hasWrappedText(svg.texts, s.label), `${name}: legend "${s.label}" in ${JSON.stringify(svg.texts)}`);
}

/** A line series whose points all lie in the fitted ranges is one polyline with every point (+ its 2-point legend sample). */
function assertLineVertices(name, svg, series) {
  const drawn = svg.polylines.filter((p) => p.stroke === hex(series.colour)).reduce((sum, p) => sum + p.n, 0);
  assert.equal(drawn, series.points.length + (series.label ? 2 : 0), `${name}: vertices of "${series.label}"`);
}

test('the panel, trace and autocorrelation export as SVG with their data', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&seed=5', { reducedMotion: true });
  // 400 samples of the Gaussian: all within the panel's view (it spans well beyond ±3σ).
  await page.evaluate(() => window.sgviz.app.lab.run(400));
  const panelText = await page.evaluate(() => window.sgviz.svg('marginal'));
  await save('marginal', panelText);
  const panel = await analyse(page, panelText);
  assert.equal(panel.error, null);
  assert.equal(panel.root, 'svg');
  const rows = await page.evaluate(() => window.sgviz.app.lab.samples_long_csv().trim().split('\n').length - 1);
  assert.equal(rows, 400);
  // The density as on the canvas, not dots: every sample's pixel lies in a coloured rectangle of
  // the density, and there are fewer rectangles than samples (blocks of pixels, equal ones merged).
  const covered = await page.evaluate((svg) => {
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    const rects = [...doc.querySelectorAll('rect')].filter((r) => !['#FFFFFF', 'none'].includes(r.getAttribute('fill')))
      .map((r) => ['x', 'y', 'width', 'height'].map((a) => Number(r.getAttribute(a))));
    const trail = window.sgviz.app.lab.trail(400);
    let inside = 0;
    for (let k = 0; k < trail.length; k += 2) {
      const [x, y] = [Math.floor(trail[k]), Math.floor(trail[k + 1])];
      if (rects.some(([rx, ry, w, h]) => x >= rx - 1 && x <= rx + w && y >= ry - 1 && y <= ry + h)) inside += 1;
    }
    return { rects: rects.length, samples: trail.length / 2, inside };
  }, panelText);
  assert.equal(covered.samples, 400);
  assert.equal(covered.inside, 400, `every sample in a density rectangle (${JSON.stringify(covered)})`);
  assert.ok(covered.rects > 0 && covered.rects < 400, `blocks, not one mark per sample (${covered.rects})`);
  assert.equal(panel.circles.filter((f) => f === '#1F77B4').length, 0, 'no sample dots');
  // The sampler's ellipse dashed as on the canvas: many short pieces in its red.
  const ellipse = panel.polylines.filter((p) => p.stroke === '#D62728');
  assert.ok(ellipse.length >= 10, `the sampler ellipse in dashes (${ellipse.length} pieces)`);
  // Rendered by the browser for a look (test-artifacts/export-marginal-svg.png).
  const view = await env.browser.newPage();
  await view.setContent(panelText);
  await view.screenshot({ path: join(ARTIFACTS, 'export-marginal-svg.png') });
  await view.close();
  assert.ok(panel.texts.includes('θ1') && panel.texts.includes('θ2'), `axis names in ${JSON.stringify(panel.texts)}`);
  // The marginal bands: each axis's histogram is one filled polygon, as on the canvas.
  assert.equal((panelText.match(/<polygon/g) || []).length, 2, 'two marginal histograms');

  for (const [name, kind] of [['trace', 'trace'], ['autocorrelation', 'acf']]) {
    const text = await page.evaluate((n) => window.sgviz.svg(n), name);
    await save(name, text);
    const spec = JSON.parse(await page.evaluate((k) => window.sgviz.app.lab.chart_json(k), kind));
    const svg = await analyse(page, text);
    assertChart(name, svg, spec);
    assert.ok(spec.series.length >= 2, `${name}: two coordinates`);
    for (const series of spec.series.filter((s) => s.style === 'Line')) assertLineVertices(name, svg, series);
  }
  // An unknown name is refused with the list of names.
  const refused = await page.evaluate(() => { try { window.sgviz.svg('pie'); return null; } catch (e) { return e.message; } });
  assert.match(refused, /unknown chart 'pie'; allowed: marginal, trace, autocorrelation, noise, bias, tradeoff, sgais/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the analysis charts (noise, bias, trade-off) export as SVG with their data', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&seed=5', { reducedMotion: true });
  await page.waitForFunction(() => ['noise', 'bias', 'sweep'].every((k) => window.sgviz.chart(k)) && window.sgviz.analysis().done, null, { timeout: 240_000, polling: 500 });
  for (const [name, kind] of [['noise', 'noise'], ['bias', 'bias'], ['tradeoff', 'sweep']]) {
    const spec = await page.evaluate((k) => window.sgviz.chart(k), kind);
    const text = await page.evaluate((n) => window.sgviz.svg(n), name);
    await save(name, text);
    const svg = await analyse(page, text);
    assertChart(name, svg, spec);
    assert.ok(svg.polylines.length + svg.circles.length > 0, `${name}: data drawn`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the SGAIS evidence chart exports as SVG once a run has a point, and says why not before', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  const before = await page.evaluate(() => { try { window.sgviz.svg('sgais'); return null; } catch (e) { return e.message; } });
  assert.match(before, /^There is no SGAIS evidence chart to save yet: press "Start" in the SGAIS panel first\.$/);
  await page.selectOption('#preset', 'sgais-linreg');
  await page.waitForFunction(() => window.sgviz.sgais().combined, null, { timeout: 240_000, polling: 500 });
  await page.click('#sgais-stop');
  const text = await page.evaluate(() => window.sgviz.svg('sgais'));
  await save('sgais', text);
  const svg = await analyse(page, text);
  assert.equal(svg.error, null);
  assert.equal(svg.root, 'svg');
  assert.ok(svg.polylines.length + svg.circles.length > 0, 'data drawn');
  assert.deepEqual(errors, []);
  await page.close();
});
