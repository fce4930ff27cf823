// Shared harness for the browser tests: a static server over dist/ on a free loopback port and a
// headless Debian Chromium driven by playwright-core. Console errors and failed requests are
// collected so every test can assert there were none.

import { createServer } from 'node:http';
import { readFile, mkdir, mkdtemp, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { chromium } from 'playwright-core';
import { before, beforeEach, afterEach, after } from 'node:test';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const DIST = join(ROOT, 'dist');
export const ARTIFACTS = join(ROOT, 'test-artifacts');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** Serve dist/ on 127.0.0.1 at a free port (`cache`: a Cache-Control header for every file). */
export async function startServer({ cache } = {}) {
  const requests = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(path);
    const file = normalize(join(DIST, path === '/' ? 'index.html' : path));
    if (!file.startsWith(DIST)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      const headers = { 'content-type': MIME[extname(file)] || 'application/octet-stream' };
      if (cache) {
        const etag = `"${body.length}-${(await stat(file)).mtimeMs}"`;
        Object.assign(headers, { 'cache-control': cache, etag });
        if (req.headers['if-none-match'] === etag) { res.writeHead(304, headers).end(); return; }
      }
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, requests, close: () => new Promise((ok) => server.close(ok)) };
}

/** Chromium's command-line flags that work on this machine (headless, no sandbox, no GPU, no network chatter). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** The window every test page starts in, unless it asks for another. */
const VIEWPORT = { width: 1400, height: 900 };
/** How playwright-core launches Debian's Chromium (tests/e2e/shared-browser.mjs launches the shared one with these). */
export const launchOptions = (extraArgs = []) => ({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: [...CHROMIUM_ARGS, ...extraArgs],
});

/**
 * A browser context for one test file. When tests/e2e/shared-browser.mjs runs the suite
 * (scripts/test.sh), every file connects to its one Chromium (`SGVIZ_BROWSER_WS`) and gets a fresh
 * context of its own (no storage, cache or service worker shared with other files): launching
 * Chromium once per file cost ≈ 1 CPU s each (BENCHMARKS.md "CI time", fifth round). A file run
 * alone, or one that needs its own flags (`extraArgs`, e.g. the memory test's precise heap
 * figures), launches its own Chromium as before. Either way the caller gets a BrowserContext, and
 * its `close()` ends what it opened (the context, and a browser it launched). `serviceWorkers`:
 * 'block' (the default) keeps the app's offline worker (www/sw.js) from installing: it precaches
 * the whole site at a context's first load and then answers every request of every later page,
 * ≈ 0.25 CPU s per later page load, ≈ 0.4 at the first (BENCHMARKS.md "CI time, ninth round (page loads)"); the offline
 * test asks for 'allow'.
 */
export async function launchBrowser(extraArgs = [], { serviceWorkers = 'block' } = {}) {
  const shared = process.env.SGVIZ_BROWSER_WS;
  if (shared && extraArgs.length === 0) {
    const browser = await chromium.connect(shared);
    const context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers });
    const close = context.close.bind(context);
    context.close = async () => { await close().catch(() => {}); await browser.close(); };
    return context;
  }
  const userDataDir = await mkdtemp(join(tmpdir(), 'sgviz-chromium-'));
  return chromium.launchPersistentContext(userDataDir, { ...launchOptions(extraArgs), viewport: VIEWPORT, serviceWorkers });
}

/**
 * A fresh context beside `context` whose pages are `viewport` CSS px at `deviceScaleFactor` device
 * pixels each (a laptop at 150 %: 1280×720 CSS px on 1920×1080 pixels). The scale is the context's
 * own, as on such a laptop: DevTools' metrics override, which class-layouts used before, did not
 * hold for the later pages and reloads (stop 46). Its `close()` ends what it opened.
 */
export async function scaledContext(context, viewport, deviceScaleFactor) {
  const options = { viewport, deviceScaleFactor, serviceWorkers: 'block' };
  const browser = context.browser();
  if (browser) return browser.newContext(options);
  const own = await chromium.launch(launchOptions());
  const scaled = await own.newContext(options);
  const close = scaled.close.bind(scaled);
  scaled.close = async () => { await close().catch(() => {}); await own.close(); };
  return scaled;
}

/**
 * Clear what a test may have left in `context` for the next one on `url`'s origin (the test
 * server's): local storage, IndexedDB, Cache Storage, service workers, cookies (Chromium's
 * `Storage.clearDataForOrigin`, 'all'; session storage and the URL belong to a page, and each test
 * opens its own). The HTTP cache is kept: it holds the served files, not the app's state. A page of
 * the context is borrowed for the DevTools session, or a blank one opened and closed.
 */
export async function clearOrigin(context, url) {
  const borrowed = context.pages()[0];
  const page = borrowed ?? await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(url).origin, storageTypes: 'all' });
  await cdp.detach();
  if (!borrowed) await page.close();
}

/**
 * Open the app, wait for readiness; returns { page, errors, outsideRequests }. Options: `viewport`
 * ({width, height}) set before the page loads; `reducedMotion: true` emulates the system setting
 * under which the page does not start playing (for tests that drive the chain step by step).
 */
export async function openApp(context, url, query = '', { viewport, reducedMotion = false, recordCanvasText = false, cores } = {}) {
  const page = await context.newPage();
  await throttleForShaking(context, page);
  // `cores`: the page is told it has that many (its worker pool follows from it, www/jobs.js).
  if (cores) await page.addInitScript((n) => { Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }); }, cores);
  if (recordCanvasText) await page.addInitScript(recordFillText);
  if (viewport) await page.setViewportSize(viewport);
  if (reducedMotion) await page.emulateMedia({ reducedMotion: 'reduce' });
  const errors = [];
  const outsideRequests = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('request', (req) => { if (!req.url().startsWith(url) && !req.url().startsWith('data:') && !req.url().startsWith('blob:')) outsideRequests.push(req.url()); });
  await page.goto(url + query);
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
  return { page, errors, outsideRequests };
}

/**
 * Shaking the suite for races (issue 23, stop 47): with SGVIZ_CPU_THROTTLE=R set, every page
 * `openApp` opens runs R times slower (DevTools' Emulation.setCPUThrottlingRate, set on the page's
 * session), so the page's messages, redraws and timers interleave with a test's reads as on a
 * loaded CI machine. Unset (every ordinary run), nothing changes.
 */
async function throttleForShaking(context, page) {
  const rate = Number(process.env.SGVIZ_CPU_THROTTLE);
  if (!(rate > 1)) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/**
 * Runs in the page before its scripts (openApp's `recordCanvasText`): every text a 2-D canvas
 * context draws is kept, by canvas id, in `window.__canvasText[id]` (the texts of that canvas's
 * latest drawing: a fill of the whole canvas, how a chart starts, begins a new list). What is on
 * a canvas, read from the drawing calls themselves rather than from the spec it was drawn from.
 */
function recordFillText() {
  window.__canvasText = {};
  const proto = CanvasRenderingContext2D.prototype;
  const { fillText, fillRect } = proto;
  proto.fillRect = function (x, y, w, h) {
    if (this.canvas.id && x <= 0 && y <= 0 && w >= this.canvas.width - 2 && h >= this.canvas.height - 2) window.__canvasText[this.canvas.id] = [];
    return fillRect.call(this, x, y, w, h);
  };
  proto.fillText = function (text, ...rest) {
    if (this.canvas.id) (window.__canvasText[this.canvas.id] ||= []).push(String(text));
    return fillText.call(this, text, ...rest);
  };
}

/**
 * Save a screenshot to test-artifacts/NAME.png: the whole page, or only the first screen.
 * `framesHeld`: the test itself holds the page's animation frames (load-actions' frame gate), so the
 * picture is of the held state and cannot wait for a frame.
 */
export async function screenshot(page, name, { fullPage = true, framesHeld = false } = {}) {
  await mkdir(ARTIFACTS, { recursive: true });
  // A chart just scrolled into view is drawn in its first frame there (www/view.js `chartsDue`):
  // the picture waits for that drawing, as a student's eye would not see the one before.
  // Read after the page's next frame: a scroll just asked for is seen in that frame's scroll event.
  if (!framesHeld) await page.waitForFunction(() => new Promise((ok) => requestAnimationFrame(() => ok(!window.sgviz?.chartsDue || window.sgviz.chartsDue().length === 0))), null, { timeout: 60_000 });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/** The bytes of a download (read through its stream: `path()` is not available from a shared, connected browser). */
export async function downloadedBytes(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Resolve after `n` animation frames of the page (a wait measured in the page's own work, not time). */
export function frames(page, n) {
  return page.evaluate((count) => new Promise((done) => {
    // A paused, idle page's loop sleeps (www/frame-loop.js); a change the test made through
    // page.evaluate does not wake it as a click would, so these frames are the loop's frames too.
    window.sgviz?.wakeLoop?.();
    let k = 0;
    const tick = () => { k += 1; if (k < count) requestAnimationFrame(tick); else done(k); };
    requestAnimationFrame(tick);
  }), n);
}

/** Number of non-white pixels in a canvas (to tell a drawn layer from a blank one). */
export async function paintedPixels(page, selector) {
  return page.$eval(selector, (canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let painted = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 0 && (data[i] < 250 || data[i + 1] < 250 || data[i + 2] < 250)) painted++;
    }
    return painted;
  });
}

/** Poll `read()` every 200 ms until `done(value)`; throws `what` with the last value after `timeout`. */
async function pollUntil(read, done, what, timeout) {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - start > timeout) throw new Error(`${what} after ${timeout} ms (last: ${String(value).slice(0, 80)})`);
    await new Promise((resolve) => { setTimeout(resolve, 200); });
  }
}

/**
 * Wait until a canvas has more than `min` painted pixels (charts are drawn within the frame budget,
 * one heavy drawing per frame, so on a loaded machine a chart can lag its data by several frames).
 * A hang guard, not a speed requirement; returns the count.
 */
export function waitForPainted(page, selector, min, timeout = 60_000) {
  return pollUntil(() => paintedPixels(page, selector), (painted) => painted > min, `${selector}: not more than ${min} painted pixels`, timeout);
}

/** Wait until `read()` (a page-side value such as a canvas's data URL) differs from `before`. */
export async function waitForChange(read, before, what, timeout = 60_000) {
  await pollUntil(read, (value) => value !== before, `${what}: unchanged`, timeout);
}

/** How long the test server lets Chromium keep a file without asking again (dist/ does not change
 * during a run): later page loads of a file take the app's scripts and wasm from the HTTP cache,
 * ≈ 0.5 CPU s less per later load (BENCHMARKS.md "CI time, ninth round (page loads)"). */
export const TEST_CACHE = 'max-age=3600';

/** Pages `useBrowser` leaves open after a test (see `keptAcrossTests`). */
const kept = new WeakSet();

/** Mark what `openApp` returned as a page the file shares among its tests (closed by the file itself), so `useBrowser` does not close it after each test. */
export function keptAcrossTests(opened) {
  kept.add(opened.page);
  return opened;
}

/**
 * One static server and one browser for a test file: registers before/after hooks and returns
 * an object whose `server` and `browser` are set once the hooks have run. Each test starts with
 * the origin's storage cleared (`clearOrigin`) once the file's pages have requested anything: tests
 * of a file share a context (and its HTTP cache), never what the app or a test stored. Options:
 * `serviceWorkers` ('block' by default, see `launchBrowser`) and `cache` (the Cache-Control the
 * server sends, `TEST_CACHE` by default; null for none, as the offline test needs: its reload must
 * come from the service worker, not from the HTTP cache). Every page a test leaves open is closed
 * after it, but those marked with `keptAcrossTests`.
 */
export function useBrowser({ serviceWorkers = 'block', cache = TEST_CACHE } = {}) {
  const shared = {};
  let served = 0;
  before(async () => {
    shared.server = await startServer({ cache });
    shared.browser = await launchBrowser([], { serviceWorkers });
  });
  beforeEach(async () => {
    if (shared.server.requests.length === served) return;
    await clearOrigin(shared.browser, shared.server.url);
    served = shared.server.requests.length;
  });
  // A page a test leaves open (never closed, or its test failed first) keeps playing and running
  // its workers through the rest of the file, taking the CPU the next tests' waits and frame
  // budgets read (stop 45's sgais-classtime failure; BENCHMARKS.md "CI time, seventeenth round").
  // A page the file shares among its tests on purpose is marked with `keptAcrossTests`.
  afterEach(async () => {
    await Promise.all(shared.browser.pages().filter((page) => !kept.has(page)).map((page) => page.close().catch(() => {})));
  });
  after(async () => {
    await shared.browser?.close();
    await shared.server?.close();
  });
  return shared;
}

/**
 * Wait until the preset or lesson step just chosen is on screen: its chains are built over three
 * frames (www/chain.js `rebuildLabInSteps`) or by a worker (both set app.building meanwhile), and
 * only then are its controls, pair and playing state set.
 */
export function waitLoaded(page, timeout = 120_000) {
  return page.waitForFunction(() => !window.sgviz.app.building, null, { timeout });
}

/** Wait until the page's scroll position holds over two frames (a preset scrolls its figure into view). */
export const stillScroll = (page) => page.waitForFunction(() => new Promise((ok) => { const y = scrollY; requestAnimationFrame(() => requestAnimationFrame(() => ok(scrollY === y))); }), null, { timeout: 10_000 });

/**
 * Choose `preset` (an entry of www/presets.js) in the Preset menu, wait for its note, and for a
 * still page. With `stopRuns`, an SGAIS preset's runs are stopped first, so that they do not load
 * the machine for the rest of a walk: clicked in the page, a no-op once the button is disabled
 * (Playwright's click waits for it to be enabled, and a button enabled when asked and disabled a
 * moment later, its runs ended, hung a walk 30 s and failed it: stop 50, 1 of 3 runs under load).
 */
export async function showPreset(page, preset, { stopRuns = false } = {}) {
  await page.selectOption('#preset', preset.id);
  await page.waitForFunction((title) => document.getElementById('preset-note').textContent.startsWith(title), preset.title);
  if (stopRuns && preset.sgais) await page.$eval('#sgais-stop', (b) => b.click());
  await stillScroll(page);
}

/**
 * Pause and restart the loaded lesson step's or preset's chains from their seeded start (so that
 * what played before the pause does not matter), once the truth (and a pair preset) is known.
 * Large targets are built in a worker (app.building); the compared chain exists once they arrive.
 */
export async function pauseAndRestart(page) {
  // Loaded first: a preset's chains built over three frames start playing when shown.
  await waitLoaded(page);
  await page.evaluate(() => { if (window.sgviz.app.playing) document.querySelector('#play').click(); });
  await page.waitForFunction(() => {
    const { app } = window.sgviz;
    return !app.building && !app.truthPending && !app.pendingPair && (!app.compare?.enabled || Boolean(app.compare.lab));
  }, null, { timeout: 120_000 });
  await page.evaluate(() => { window.sgviz.app.lab.reset(); window.sgviz.app.compare?.lab?.reset(); });
}

/** Waits until the setting warning names `param` and its box under that slider is shown, then
 * returns the core's warning, the text on screen, and the box's place: its gap below the slider,
 * its height and the slider field it sits in (issue 21: the warning beside the slider that caused it). */
export async function settingWarningBeside(page, param, timeout = 30_000) {
  await page.waitForFunction((p) => window.sgviz.state().setting_warning?.param === p, param, { timeout });
  await page.waitForFunction((p) => !document.getElementById(`param-${p}-warning`).hidden, param, { timeout: 30_000 });
  return page.evaluate((p) => {
    const box = document.getElementById(`param-${p}-warning`);
    const slider = document.getElementById(`param-${p}`).getBoundingClientRect();
    const rect = box.getBoundingClientRect();
    // Lines as drawn: the distinct tops of the text's line boxes.
    const range = document.createRange();
    range.selectNodeContents(box);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    return [window.sgviz.state().setting_warning, box.textContent, { gap: rect.top - slider.bottom, height: rect.height, lines, field: box.closest('.field')?.dataset.param }];
  }, param);
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/**
 * A number as the page prints it (www/format.js `formatNumber`, src/promise.rs `show`: "0.00499",
 * "5,000", "100,000", "1.5·10⁻⁷", "−0.3") read back; NaN for anything else ("—", "", words).
 * Written here from the printed forms, not imported from the page: every test that reads a
 * displayed number reads it through this one parser (issue 26: Number("100,000") is NaN).
 */
export function parseShown(text) {
  const t = String(text ?? '').trim().replace(/^−/, '-');
  const power = t.match(/^(-?\d+(?:\.\d+)?)·10(⁻?)([⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/);
  if (power) {
    const exponent = Number([...power[3]].map((c) => SUPERSCRIPT.indexOf(c)).join(''));
    return Number(power[1]) * 10 ** (power[2] ? -exponent : exponent);
  }
  if (!/^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(t)) return NaN;
  return Number(t.replace(/,/g, ''));
}

/** The opening words of every setting warning: the remedy, before any reason (issue 26). */
export const REMEDY_FIRST = /^(Set .+ to \S+ \(now \S+\): |Raise .+ \(now \S+\)[^:]*: |Change the .+: |Let it run to (about|at least) \S+ (samples|events): |Runs of \S+ (samples|events) are too short here: |Choose .+ in the Sampler menu: |No single slider keeps the promise here)/;

/** Sets `param` back to `value` through the page's slider path and waits until the setting
 * warning is gone from the state and its box under that slider is hidden (a message disappears
 * when its cause does). */
export async function settingWarningClearedAt(page, param, value) {
  await page.evaluate(([p, v]) => window.sgviz.setParam(p, v), [param, value]);
  await page.waitForFunction(() => window.sgviz.state().setting_warning === null, null, { timeout: 30_000 });
  await page.waitForFunction((p) => document.getElementById(`param-${p}-warning`).hidden, param, { timeout: 30_000 });
}

/** The heavy entry points (`window.sgviz.entryCounts()`) that must run only in workers. */
const HEAVY = ['sweep', 'truth', 'sgais', 'large_build'];

/** Those of the heavy entry points the main thread's wasm instance ran, with their counts ({} when none). */
export async function mainThreadHeavyCalls(page) {
  const counts = await page.evaluate(() => window.sgviz.entryCounts());
  return Object.fromEntries(HEAVY.filter((k) => counts[k]).map((k) => [k, counts[k]]));
}

/**
 * Chart `canvasId` as drawn now: its SVG (the same drawing code as the canvas) at the canvas's
 * backing size and drawing scale, laid out by the browser; every text's box (in CSS px of the SVG),
 * the overlapping pairs, the texts outside the canvas, and the data area in CSS px.
 */
export const chartLayout = (page, canvasId) => page.evaluate(async (id) => {
  const { chart_json_svg: svg, chart_json_plot_area: plotArea } = await import('./www/pkg/sgviz.js');
  const { shownSpec } = await import('./www/charts.js');
  const canvas = document.getElementById(id);
  // A chain rebuilt between the caller's wait and this read drops the chart's spec until its new
  // one is queued (www/charts.js dropCharts; stop 46's CI read it undefined): wait for it, on state.
  for (let tries = 0; shownSpec(id) === undefined && tries < 600; tries += 1) await new Promise((resolve) => requestAnimationFrame(resolve));
  const spec = shownSpec(id);
  const scale = window.sgviz.drawingScales().charts[id];
  const ratio = devicePixelRatio;
  const holder = document.createElement('div');
  holder.style.cssText = `position:absolute;left:0;top:0;width:${canvas.width}px;height:${canvas.height}px;`;
  holder.innerHTML = svg(spec, canvas.width, canvas.height, scale);
  document.body.append(holder);
  const origin = holder.getBoundingClientRect();
  const boxes = [...holder.querySelectorAll('text')].filter((t) => t.textContent.trim()).map((t) => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent.trim(), left: r.left - origin.left, right: r.right - origin.left, top: r.top - origin.top, bottom: r.bottom - origin.top };
  });
  holder.remove();
  const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const pairs = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (hit(boxes[i], boxes[j])) pairs.push(`"${boxes[i].text}" × "${boxes[j].text}"`);
  const outside = boxes.filter((b) => b.left < -1 || b.top < -1 || b.right > canvas.width + 1 || b.bottom > canvas.height + 1).map((b) => b.text);
  const [left, top, right, bottom] = JSON.parse(plotArea(spec, canvas.width, canvas.height, scale));
  return { texts: boxes.length, pairs, outside, plot: { width: (right - left) / ratio, height: (bottom - top) / ratio }, css: { width: canvas.clientWidth, height: canvas.clientHeight } };
}, canvasId);

/** Go to step `step` (1-based) of lesson `id` through the lesson panel's own menu and Next button; returns the step shown. */
export async function lessonStep(page, id, step) {
  if (await page.isHidden('#lesson')) await page.click('#lesson-open');
  await page.selectOption('#lesson-choice', id);
  await waitLoaded(page);
  for (let k = 1; k < step; k++) {
    await page.$eval('#lesson-next', (b) => b.click());
    await waitLoaded(page);
  }
  return (await page.evaluate(() => window.sgviz.lesson())).step;
}
