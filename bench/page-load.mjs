// What one browser-test page load costs (issue 23, BENCHMARKS.md "CI time, ninth round (page
// loads)"): CPU seconds of the whole Chromium tree (browser, renderers, utility processes; the
// page's workers are threads of its renderer) and of this process (the static server), per load,
// read from /proc around each load as tests/e2e/cpu-split.mjs does. A load is what a test's
// `openApp` + `waitLoaded` does: a new page, goto, `window.__ready`, the first preset built.
// Variants (one Chromium each, launched here):
//   fresh   — a new browser context per load (empty HTTP cache, no service worker yet);
//   file    — one context for all loads, a new page per load (tests/e2e/harness.mjs `useBrowser`);
//   nosw    — as file, with service workers blocked in the context;
//   revalidate, maxage — as file, the server sending `Cache-Control: no-cache` (+ ETag, 304) or `max-age=3600`;
//   persist — as file, in a persistent context (a profile on disk: disk HTTP cache and V8's code cache).
//   clear   — the origin's storage cleared before each load (harness.mjs `clearOrigin`, as `useBrowser` does between tests).
// Joined with '+' they combine (e.g. persist+nosw+maxage).
// Usage: nice node bench/page-load.mjs [LOADS=6] [VARIANT…]
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { clearOrigin, launchOptions, openApp, startServer, waitLoaded } from '../tests/e2e/harness.mjs';
import { readThreads } from '../tests/e2e/cpu-split.mjs';

const TICK = 100; // USER_HZ
const loads = Number(process.argv[2] ?? 6);
const variants = process.argv.slice(3).length ? process.argv.slice(3) : ['fresh', 'file', 'nosw'];
const VIEWPORT = { width: 1400, height: 900 };

const last = new Map(); // pid:tid:start -> { type, comm, ticks }
/** CPU ticks of this process tree by thread name (an exited thread keeps its last reading). */
function readTree() {
  readThreads(last);
  const byName = new Map();
  for (const { type, comm, ticks } of last.values()) {
    const name = `${type}/${comm.replace(/[0-9]+$/, '')}`;
    byName.set(name, (byName.get(name) ?? 0) + ticks);
  }
  return byName;
}
const total = (m) => [...m.values()].reduce((a, b) => a + b, 0);
function diff(a, b) {
  const d = new Map();
  for (const [k, v] of b) if (v - (a.get(k) ?? 0) > 0) d.set(k, v - (a.get(k) ?? 0));
  return d;
}

/** One load; returns its wall times, page-side timings and the CPU ticks by thread of goto → ready and ready → loaded. */
async function oneLoad(context, url) {
  const before = readTree();
  const t0 = Date.now();
  const { page } = await openApp(context, url);
  const ready = Date.now() - t0;
  const atReady = readTree();
  await waitLoaded(page);
  const loaded = Date.now() - t0;
  const atLoaded = readTree();
  const timing = await page.evaluate(() => {
    const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'));
    return { wasmFetch: wasm ? Math.round(wasm.duration) : null, wasmBytes: wasm?.transferSize ?? null, sw: Boolean(navigator.serviceWorker?.controller) };
  });
  await page.close();
  return { ready, loaded, ...timing, toReady: diff(before, atReady), toLoaded: diff(atReady, atLoaded) };
}

const CACHE = { revalidate: 'no-cache', maxage: 'max-age=3600' };
const has = (variant, part) => variant.split('+').includes(part);
for (const variant of process.env.PAGE_LOAD_TRACE === '1' || process.env.PAGE_LOAD_PROFILE === '1' ? [] : variants) {
  const server = await startServer({ cache: CACHE[variant.split('+').find((v) => CACHE[v])] });
  const options = { viewport: VIEWPORT, ...(has(variant, 'nosw') ? { serviceWorkers: 'block' } : {}) };
  const persistent = has(variant, 'persist') ? await chromium.launchPersistentContext(await mkdtemp(join(tmpdir(), 'sgviz-bench-')), { ...launchOptions(), ...options }) : null;
  const browser = persistent ? null : await chromium.launch(launchOptions());
  let context = persistent ?? await browser.newContext(options);
  const byLoad = [];
  let sum = new Map();
  for (let i = 0; i < loads; i += 1) {
    if (has(variant, 'fresh') && i > 0) { await context.close(); context = await browser.newContext(options); }
    if (has(variant, 'clear') && i > 0) await clearOrigin(context, server.url);
    const { toReady, toLoaded, ...t } = await oneLoad(context, server.url);
    if (i > 0) for (const d of [toReady, toLoaded]) for (const [k, v] of d) sum.set(k, (sum.get(k) ?? 0) + v);
    byLoad.push({ cpu_s: (total(toReady) + total(toLoaded)) / TICK, ready_cpu_s: total(toReady) / TICK, ...t });
  }
  await (browser ?? context).close();
  await server.close();
  const later = byLoad.slice(1).map((r) => r.cpu_s);
  const mean = later.reduce((a, b) => a + b, 0) / later.length;
  console.log(JSON.stringify({ variant, loads: byLoad }));
  console.log(`${variant}: first load ${byLoad[0].cpu_s.toFixed(2)} CPU s, later loads mean ${mean.toFixed(2)} CPU s (${later.map((x) => x.toFixed(2)).join(', ')})`);
  const top = [...sum].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k, v]) => `${(v / TICK / later.length).toFixed(2)} ${k}`);
  console.log(`  per later load by thread: ${top.join('; ')}`);
}

/** A page in a context that has loaded the app once (its HTTP cache warm), not yet navigated;
 * `load` navigates it and waits until the first preset is built. */
async function warmPage() {
  const server = await startServer();
  const browser = await chromium.launch(launchOptions());
  const context = await browser.newContext({ viewport: VIEWPORT });
  await oneLoad(context, server.url);
  const page = await context.newPage();
  const load = async () => {
    await page.goto(server.url);
    await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
    await waitLoaded(page);
  };
  const close = async () => { await browser.close(); await server.close(); };
  return { browser, context, page, load, close };
}

/** With PAGE_LOAD_TRACE=1: a Chromium trace of one later load in one context, the renderer main
 * thread's self time by event name (where the page's own load goes). */
async function traceOneLoad() {
  const { browser, page, load, close } = await warmPage();
  await browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'v8.wasm', 'disabled-by-default-devtools.timeline', 'blink', 'loading'] });
  await load();
  const trace = JSON.parse(String(await browser.stopTracing()));
  await close();
  const events = trace.traceEvents ?? trace;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((x) => x.pid === e.pid && x.name === 'TracingStartedInBrowser' || x.pid === e.pid && x.name === 'ParseHTML'));
  const byThread = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  for (const [label, keep] of [['renderer main thread', (e) => e.pid === main.pid && e.tid === main.tid], ['other threads of the renderer', (e) => e.pid === main.pid && e.tid !== main.tid]]) {
    const xs = events.filter((e) => e.ph === 'X' && keep(e) && e.dur > 0).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const self = new Map();
    const stack = [];
    for (const e of xs) {
      while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
      const key = `${byThread.get(`${e.pid}:${e.tid}`)?.replace(/[0-9]+$/, '')}/${e.name}`;
      self.set(key, (self.get(key) ?? 0) + e.dur);
      if (stack.length) { const p = stack.at(-1); const pk = `${byThread.get(`${p.pid}:${p.tid}`)?.replace(/[0-9]+$/, '')}/${p.name}`; self.set(pk, self.get(pk) - Math.min(e.dur, p.ts + p.dur - e.ts)); }
      stack.push(e);
    }
    const sum = [...self.values()].reduce((a, b) => a + b, 0);
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, v]) => `${(v / 1000).toFixed(0)} ms ${k}`);
    console.log(`${label}: ${(sum / 1000).toFixed(0)} ms in trace events; self time by event: ${top.join('; ')}`);
  }
}
if (process.env.PAGE_LOAD_TRACE === '1') await traceOneLoad();

/** With PAGE_LOAD_PROFILE=1: V8's sampling profile of one later load's main thread, self time by
 * script (wasm functions as "wasm"), and the top functions. */
async function profileOneLoad() {
  const { context, page, load, close } = await warmPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await load();
  const { profile } = await cdp.send('Profiler.stop');
  await close();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byScript = new Map();
  const byFn = new Map();
  for (const [id, us] of dt) {
    const { callFrame: f } = nodes.get(id);
    const script = f.url.endsWith('.wasm') || /^wasm/.test(f.url) ? 'wasm' : (f.url.split('/').pop() || `(${f.functionName || 'program'})`);
    byScript.set(script, (byScript.get(script) ?? 0) + us);
    const fn = `${script}:${f.functionName || '(anon)'}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
  }
  // wasm (and the glue's) self time charged to the nearest caller in the app's own scripts
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const isGlue = (f) => f.url.endsWith('.wasm') || /^wasm/.test(f.url) || f.url.endsWith('sgviz.js') || f.url === '';
  const byCaller = new Map();
  for (const [id, us] of dt) {
    if (!isGlue(nodes.get(id).callFrame) || !nodes.get(id).callFrame.url) continue;
    let up = parent.get(id);
    while (up && isGlue(nodes.get(up).callFrame)) up = parent.get(up);
    const f = up ? nodes.get(up).callFrame : { url: '?', functionName: '?' };
    const key = `${f.url.split('/').pop()}:${f.functionName || '(anon)'}`;
    byCaller.set(key, (byCaller.get(key) ?? 0) + us);
  }
  const fmt = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${(v / 1000).toFixed(0)} ms ${k}`).join('; ');
  console.log(`main thread, goto → loaded, self time by script: ${fmt(byScript, 14)}`);
  console.log(`top functions: ${fmt(byFn, 16)}`);
  console.log(`wasm and its glue by the app's caller: ${fmt(byCaller, 16)}`);
}
if (process.env.PAGE_LOAD_PROFILE === '1') await profileOneLoad();
