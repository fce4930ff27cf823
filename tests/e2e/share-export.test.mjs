// What leaves the page and what enters it: the charts exported as SVG, the link that restores a
// state (and garbage in it), the CSV and PNG downloads, the embedded panel in an iframe, and an
// uploaded data file. One file and one browser context; each test opens the pages it opened
// before (issue 23: these were four files, each paying node, a context and a first page load;
// BENCHMARKS.md "CI time", sixth round). Each section below keeps the file it was, its comment and
// its tests as they were.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { useBrowser, openApp, ARTIFACTS, screenshot, downloadedBytes, waitLoaded } from './harness.mjs';

const env = useBrowser();

// ─── was export.test.mjs ─────────────────────────────────────────────
// SVG export (issue 24): every chart and the 2-D panel as SVG text drawn by plotters' SVG backend.
// Each SVG must parse as XML (the browser's own DOMParser, not the code under test) and carry the
// chart's data: the panel its sample density as blocks covering every sample and its dashed sampler ellipse, the line charts one vertex per point
// of each series (read from the chart's JSON spec, the same data the canvas draws), every legend
// label and the title as text.

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
  await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
  await page.waitForFunction(() => window.sgviz.sgais().combined, null, { timeout: 240_000, polling: 500 });
  // A combined estimate is posted before the frame that draws it: wait for the chart on screen to
  // have its point (the export reads the drawn chart's spec), not only for the run's state.
  await page.waitForFunction(() => { try { window.sgviz.svg('sgais'); return true; } catch { return false; } }, null, { timeout: 60_000, polling: 200 });
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

// ─── was sharing.test.mjs ─────────────────────────────────────────────
// Sharing: the state round-trips through the URL (same seed ⇒ same first 100 samples), and a
// garbage URL gives a visible notice, defaults and no console error.

const firstSamples = (page) => page.evaluate(() => {
  window.sgviz.app.lab.run(100);
  return window.sgviz.app.lab.samples_csv();
});

test('URL round trip restores an identical state', async () => {
  const first = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  const page = first.page;
  await page.click('#advanced > summary');
  await page.focus('#param-rho');
  for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowLeft');
  await page.focus('#param-step_size');
  for (let i = 0; i < 25; i++) await page.keyboard.press('ArrowRight');
  await page.fill('#seed', '12345');
  await page.press('#seed', 'Enter');
  await page.click('#large-font');
  // Every change is in the link and the chain rebuilt for the new seed has its truth.
  await page.waitForFunction(() => ['seed=12345', 'layout.font=large', 'p.rho=', 'p.step_size='].every((s) => location.hash.includes(s)) && !window.sgviz.app.truthPending);
  const url = page.url();
  const state = await page.evaluate(() => window.sgviz.state());
  const samples = await firstSamples(page);
  assert.equal(samples.trim().split('\n').length, 101);

  const second = await openApp(env.browser, url, '', { reducedMotion: true });
  const restored = await second.page.evaluate(() => window.sgviz.state());
  assert.deepEqual(restored.sampler_params, state.sampler_params);
  assert.deepEqual(restored.target_params, state.target_params);
  assert.equal(await second.page.inputValue('#seed'), '12345');
  assert.equal(await second.page.getAttribute('#large-font', 'aria-pressed'), 'true');
  assert.equal(await firstSamples(second.page), samples, 'same seed and settings replay the same samples');
  assert.equal(await second.page.isVisible('#banner'), false, 'a clean link gives no notice');
  await screenshot(second.page, 'sharing-restored-large-font');
  assert.deepEqual([...first.errors, ...second.errors], []);
  await page.close();
  await second.page.close();
});

test('garbage URL state gives a notice, defaults and no console error', async () => {
  const hostile = '#target=<img src=x onerror=alert(1)>&sampler=sgld&seed=-4&p.step_size=NaN&p.rho=7&p.bogus=1&layout.font=huge&zzz=1&p.sd1=2';
  const { page, errors } = await openApp(env.browser, env.server.url, hostile);
  const banner = await page.textContent('#banner');
  assert.match(banner, /Unknown target '<img src=x onerror=alert\(1\)>'/);
  assert.match(banner, /Seed '-4'/);
  assert.match(banner, /step_size: not a finite number/);
  assert.match(banner, /rho: 7 is out of range/);
  assert.match(banner, /Parameter 'bogus' in the link is not one of gaussian \/ sgld/);
  assert.match(banner, /layout setting 'font=huge'/);
  assert.equal(await page.$('#banner img'), null, 'no markup from the URL is rendered');
  const state = await page.evaluate(() => window.sgviz.state());
  const registryDefault = (await page.evaluate(() => window.sgviz.app.registry)).samplers[0].params.find((p) => p.name === 'step_size').default;
  assert.equal(state.sampler_params.step_size, state.derived.step_size?.default ?? registryDefault, 'invalid value replaced by the (derived) default');
  assert.ok(!('step_size' in (await page.evaluate(() => window.sgviz.app.explicit))), 'and not linked as set');
  assert.equal(state.target_params.rho, 0.9);
  assert.equal(state.target_params.sd1, 2, 'valid fields are kept');
  await screenshot(page, 'sharing-garbage-notice');
  assert.deepEqual(errors, []);
  await page.close();
});

test('parameters in the link are checked against the chosen target, not a namesake', async () => {
  // logreg allows n_points up to 10⁶; the mixture target's n_points stops at 10⁵.
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg&sampler=sgld&p.n_points=200000');
  assert.equal(await page.isVisible('#banner'), false);
  assert.equal(await page.evaluate(() => window.sgviz.state().n_data), 200000);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a correlation set by the link comes back exactly when its slider is moved one step and back', async () => {
  // ρ = 0.5 is at slider position 753, which alone gives 0.50094 (tests/e2e/slider-unit by hand).
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&p.rho=0.5', { reducedMotion: true });
  const rho = () => page.evaluate(() => window.sgviz.state().target_params.rho);
  assert.equal(await rho(), 0.5);
  await page.focus('#param-rho');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.sgviz.state().target_params.rho !== 0.5);
  assert.ok(Math.abs((await rho()) - 0.50292) < 1e-9, `one step right: ${await rho()}`);
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => window.sgviz.state().target_params.rho !== 0.50292 && Math.abs(window.sgviz.state().target_params.rho - 0.50292) > 1e-9);
  assert.equal(await rho(), 0.5, 'back on the link\'s value, not its position\'s 0.50094');
  assert.equal(await page.textContent('#param-rho-value'), '0.5');
  assert.deepEqual(errors, []);
  await page.close();
});

test('help overlay opens with ? and lists the shortcuts', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  await page.keyboard.press('?');
  assert.equal(await page.isVisible('#help'), true);
  const text = await page.textContent('#help');
  for (const key of ['Space', 'play / pause', 'one step', 'reset']) assert.ok(text.includes(key), key);
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#help'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('samples export as CSV and the panel as PNG', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  await page.click('#share-menu > summary');
  await page.evaluate(() => window.sgviz.app.lab.run(250));
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const text = (await downloadedBytes(csv)).toString('utf8');
  const lines = text.trim().split('\n');
  // ArviZ's long format: chain, draw, one column per parameter; draws 0..249 of chain 0.
  assert.equal(lines[0], 'chain,draw,θ1,θ2');
  assert.equal(lines.length, 251);
  assert.ok(lines.slice(1).every((l, k) => l.startsWith(`0,${k},`) && l.split(',').length === 4 && l.split(',').every((x) => Number.isFinite(Number(x)))));
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  const bytes = await downloadedBytes(png);
  assert.deepEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG file');
  assert.ok(png.suggestedFilename().endsWith('.png'));
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── was embed.test.mjs ─────────────────────────────────────────────
// Embed mode (issue 24): a host page with an 800×450 <iframe> of `index.html?embed=marginal#…`:
// the figure fills ≥ 80 % of the frame, moves, has no scrollbars, its canvas backing follows the
// devicePixelRatio, Tab leaves the frame, and "open in sgviz" carries the same state. The frame
// sizes 320×240 and 1920×1080 and a chart (trace) fill it too. Screenshots of the host page.

const STATE = '#target=gaussian&sampler=sgld&seed=2';

/** A host page (not sgviz's origin) with a button before and after an iframe of `src`. */
async function host(width, height, src, { deviceScaleFactor = 1 } = {}) {
  const page = await env.browser.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  if (deviceScaleFactor !== 1) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 1200, deviceScaleFactor, mobile: false });
  }
  await page.setContent(`<!doctype html><body style="margin:20px;font:16px sans-serif">
    <p>Lecture notes. <button id="before">before</button></p>
    <iframe id="fig" src="${src}" width="${width}" height="${height}" style="border:1px solid #999" title="sgviz figure"></iframe>
    <p><button id="after">after</button></p></body>`);
  const frame = await (await page.$('#fig')).contentFrame();
  await frame.waitForFunction(() => window.__ready === true, null, { timeout: 60_000 });
  return { page, frame, errors };
}

/** Share of the frame's area covered by the figure's element, and the scroll overflow. */
const geometry = (frame, selector) => frame.evaluate((sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  const doc = document.documentElement;
  return {
    fill: (r.width * r.height) / (window.innerWidth * window.innerHeight),
    overflowX: doc.scrollWidth - doc.clientWidth,
    overflowY: doc.scrollHeight - doc.clientHeight,
  };
}, selector);

test('an embedded panel in an 800×450 iframe fills it, moves, has no scrollbars, and Tab leaves it', async () => {
  const { page, frame, errors } = await host(800, 450, `${env.server.url}index.html?embed=marginal${STATE}`, { deviceScaleFactor: 2 });
  const g = await geometry(frame, '#overlay-layer');
  assert.ok(g.fill >= 0.8, `the figure covers ${(100 * g.fill).toFixed(1)} % of the frame`);
  assert.equal(g.overflowX, 0, 'no horizontal scrollbar');
  assert.equal(g.overflowY, 0, 'no vertical scrollbar');
  // devicePixelRatio 2: the backing store is twice the CSS size.
  await frame.waitForFunction(() => {
    const c = document.getElementById('overlay-layer');
    return window.devicePixelRatio === 2 && c.width === Math.round(c.clientWidth * 2) && c.height === Math.round(c.clientHeight * 2);
  }, null, { timeout: 30_000 });
  // It plays: the chain moves on its own.
  const before = await frame.evaluate(() => window.sgviz.state().n_samples);
  await frame.waitForFunction((n) => window.sgviz.state().n_samples > n + 100, before, { timeout: 60_000 });
  assert.equal(await frame.textContent('#play'), 'Pause');
  // "open in sgviz" carries the state and not the embed parameter.
  const href = await frame.$eval('#embed-open', (a) => a.getAttribute('href'));
  assert.ok(href.includes('target=gaussian') && href.includes('seed=2') && !href.includes('embed='), href);
  // Tab from the host's button goes through the frame's controls and out again.
  await page.focus('#before');
  let left = false;
  for (let k = 0; k < 12 && !left; k++) {
    await page.keyboard.press('Tab');
    left = await page.evaluate(() => document.activeElement?.id === 'after');
  }
  assert.ok(left, 'Tab reached the host button after the frame');
  await screenshot(page, 'embed-800x450', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('embedded figures fill frames from 320×240 to 1920×1080; a chart embeds too; an unknown figure is named', async () => {
  for (const [w, h, figure, selector] of [[320, 240, 'marginal', '#overlay-layer'], [1920, 1080, 'marginal', '#overlay-layer'], [800, 450, 'trace', '#chart-trace']]) {
    const { page, frame, errors } = await host(w, h, `${env.server.url}index.html?embed=${figure}${STATE}`);
    const g = await geometry(frame, selector);
    assert.ok(g.fill >= 0.8 - (h < 300 ? 0.1 : 0), `${figure} at ${w}×${h}: ${(100 * g.fill).toFixed(1)} %`);
    assert.equal(g.overflowX + g.overflowY, 0, `${figure} at ${w}×${h}: no scrollbars`);
    if (figure === 'trace') {
      await frame.waitForFunction(() => {
        const c = document.getElementById('chart-trace');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let painted = 0;
        for (let i = 0; i < d.length; i += 16) if (d[i + 3] > 0 && d[i] < 200) painted++;
        return painted > 500;
      }, null, { timeout: 60_000 });
      await screenshot(page, 'embed-trace-800x450', { fullPage: false });
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
  const { page, frame } = await host(800, 450, `${env.server.url}index.html?embed=pie${STATE}`);
  assert.match(await frame.textContent('.embed-notice'), /Unknown figure "pie".*showing marginal \(allowed: marginal, trace, autocorrelation, noise, bias, tradeoff, sgais\)/);
  await page.close();
});

test('Share offers the embed code with the current state', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.server.url}${STATE}`);
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
  const code = await page.evaluate(async () => (await import('./www/embed.js')).embedCode('marginal'));
  assert.match(code, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=marginal#target=gaussian&sampler=sgld&seed=2[^"]*" width="800" height="450"/);
  assert.equal(await page.isVisible('#copy-embed'), false, 'inside the closed Share menu');
  await page.close();
});

// ─── was data-upload.test.mjs ─────────────────────────────────────────────
// CSV upload in the page: a valid file replaces the posterior; a broken one shows a message that
// names the row and column, and the data already loaded stay in place.

function csvFile(name, text) {
  return { name, mimeType: 'text/csv', buffer: Buffer.from(text) };
}

const staticLayerPixels = (page) => page.$eval('#static-layer', (c) => c.toDataURL());

test('upload a CSV, see the new posterior; a broken file keeps the previous data', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  await page.selectOption('#target', 'logreg');
  await page.click('#advanced > summary');
  assert.equal(await page.isVisible('#data-controls'), true, 'data controls shown for regression targets');
  const builtIn = await page.evaluate(() => window.sgviz.state().n_data);
  const before = await staticLayerPixels(page);

  const rows = ['x,y'];
  for (let i = 0; i < 40; i++) rows.push(`${(i / 10 - 2).toFixed(2)},${i % 3 === 0 ? 1 : 0}`);
  await page.setInputFiles('#data-file', csvFile('tiny.csv', rows.join('\n')));
  await page.waitForFunction(() => window.sgviz.state().has_data === true);
  assert.equal(await page.evaluate(() => window.sgviz.state().n_data), 40);
  assert.match(await page.textContent('#data-summary'), /tiny\.csv: 40 rows × 1 features \(standardised\)/);
  assert.notEqual(await staticLayerPixels(page), before, 'the new posterior is drawn');
  await page.click('#play');
  await page.waitForFunction(() => window.sgviz.state().n_samples > 200);
  await page.click('#play');
  await screenshot(page, 'upload-loaded');

  await page.setInputFiles('#data-file', csvFile('broken.csv', 'x,y\n1,0\nabc,1\n'));
  await page.waitForFunction(() => document.querySelector('#data-error').textContent.length > 0);
  const message = await page.textContent('#data-error');
  assert.match(message, /broken\.csv was not loaded: row 3, column 1 \('x'\): 'abc' is not a number/);
  assert.equal(await page.evaluate(() => window.sgviz.state().n_data), 40, 'previous data kept');
  assert.match(await page.textContent('#data-summary'), /tiny\.csv/);

  await page.setInputFiles('#data-file', csvFile('oneclass.csv', 'x,y\n1,1\n2,1\n'));
  await page.waitForFunction(() => /oneclass/.test(document.querySelector('#data-error').textContent));
  assert.match(await page.textContent('#data-error'), /both classes/);
  assert.equal(await page.evaluate(() => window.sgviz.state().n_data), 40, 'previous data kept');
  await screenshot(page, 'upload-rejected');

  await page.click('#data-clear');
  assert.equal(await page.evaluate(() => window.sgviz.state().n_data), builtIn);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the SGAIS panel refuses a file above the size limit before reading it, and a 1-based label file on start', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  const { mkdtempSync, openSync, ftruncateSync, closeSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'sgviz-upload-'));
  // A sparse file one byte over 50 MB: nothing is transferred, only its size matters.
  const huge = join(dir, 'huge.csv');
  const fd = openSync(huge, 'w');
  ftruncateSync(fd, 50 * 1024 * 1024 + 1);
  closeSync(fd);
  await page.selectOption('#sgais-target', 'softmax');
  await page.setInputFiles('#sgais-file', huge);
  await page.waitForFunction(() => /the limit is 50 MB/.test(document.querySelector('#sgais-status').textContent));
  assert.match(await page.textContent('#sgais-status'), /huge\.csv was not loaded: it is 50\.0 MB; the limit is 50 MB/);
  rmSync(dir, { recursive: true, force: true });

  const rows = ['x,label'];
  for (let i = 0; i < 30; i++) rows.push(`${(i / 10).toFixed(1)},${(i % 3) + 1}`);
  await page.setInputFiles('#sgais-file', csvFile('one-based.csv', rows.join('\n')));
  await page.waitForFunction(() => /one-based\.csv will be used/.test(document.querySelector('#sgais-status').textContent));
  await page.click('#sgais-start');
  await page.waitForFunction(() => /Not started/.test(document.querySelector('#sgais-status').textContent));
  assert.match(await page.textContent('#sgais-status'), /class 0 has no rows.*1-based/);
  assert.deepEqual(errors, []);
  await page.close();
});
