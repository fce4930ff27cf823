// Which main-thread tasks are long, in the main thread's own CPU time (issue 26: "no frame over
// 50 ms"). A Chromium trace (CDP Tracing: toplevel, devtools.timeline and v8 categories) of one
// preset or lesson step played as bench/class-time.mjs plays it, for SECONDS of wall time, with a
// CPU profile (CDP Profiler) beside it. Every main-thread task whose thread time (`tdur`, robust to
// other processes loading the machine, unlike wall time) exceeds THRESHOLD_MS is listed with the
// trace events inside it (a worker message, an animation frame, GC, layout, paint, compile) and
// the page's own functions the profiler's samples fall in. A diagnostic; asserts nothing.
// Usage: TRACE_STEPS=preset:sgld-vs-mala,cost:1 [TRACE_SECONDS=20] [TRACE_THRESHOLD_MS=30]
//        node bench/long-task-trace.mjs
// A step `A>B` loads A first, untraced, for TRACE_BEFORE_SECONDS (default 3), then traces B: what
// B costs when A left the page scrolled (`preset:sgld-heldout>preset:sgfs-ellipses`).

import { startServer, launchBrowser, openApp } from '../tests/e2e/harness.mjs';

const STEPS = (process.env.TRACE_STEPS || 'preset:sgld-vs-mala').split(',');
const SECONDS = Number(process.env.TRACE_SECONDS || 20);
const THRESHOLD_MS = Number(process.env.TRACE_THRESHOLD_MS || 30);
const BEFORE_SECONDS = Number(process.env.TRACE_BEFORE_SECONDS || 3);
// The disabled-by-default timeline categories and a fine profiler inflate the work they record (a
// 25 ms `Commit` per frame with them on this machine): off unless asked for (TRACE_HEAVY=1,
// TRACE_PROFILE=1).
const HEAVY = Boolean(process.env.TRACE_HEAVY);
const PROFILE = Boolean(process.env.TRACE_PROFILE);
const CATEGORIES = ['toplevel', 'devtools.timeline', 'v8', ...(HEAVY ? ['disabled-by-default-devtools.timeline', 'v8.execute'] : [])];

const server = await startServer();
const context = await launchBrowser();

/** Collect a whole trace (streamed back through IO.read). */
async function traceWhile(cdp, work) {
  await cdp.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: CATEGORIES } });
  await work();
  const done = new Promise((resolve) => { cdp.once('Tracing.tracingComplete', resolve); });
  await cdp.send('Tracing.end');
  const { stream } = await done;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 22 });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/** The renderer main thread with the most animation frames (the page's). */
function mainThread(events) {
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const count = (m) => events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'FireAnimationFrame').length;
  return mains.map((m) => ({ pid: m.pid, tid: m.tid, frames: count(m) })).sort((a, b) => b.frames - a.frames)[0];
}

/** A short label for a trace event: the JS function, the event type, the GC kind. */
function label(e) {
  const d = e.args?.data || e.args?.beginData || {};
  if (e.name === 'FunctionCall') return `FunctionCall ${d.functionName || '(anon)'} ${String(d.url || '').split('/').pop()}:${d.lineNumber ?? ''}`;
  if (e.name === 'EventDispatch') return `EventDispatch ${d.type}`;
  if (e.name === 'TimerFire') return 'TimerFire';
  return e.name;
}

/** The page's functions the profile's samples inside [from, to] (µs) fall in, by self time. */
function profiled(profile, from, to) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const name = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
  const self = new Map();
  const own = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    t += profile.timeDeltas[i];
    if (t < from || t > to) continue;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const leaf = byId.get(profile.samples[i]);
    self.set(name(leaf), (self.get(name(leaf)) || 0) + dt);
    const frames = [];
    for (let at = profile.samples[i]; at !== undefined; at = parent.get(at)) frames.push(byId.get(at));
    const pageFrames = frames.filter((n) => /www\/.*\.js$/.test(n.callFrame.url) && !/pkg\//.test(n.callFrame.url)).map(name);
    const key = pageFrames.slice(0, 3).reverse().join(' > ') || '(no page frame)';
    own.set(key, (own.get(key) || 0) + dt);
  }
  const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, ms]) => `${ms.toFixed(0)} ms ${n}`);
  return { self: top(self, 5), own: top(own, 4) };
}

/** Load one preset or lesson step the way bench/class-time.mjs does. */
async function load(page, step) {
  if (step.startsWith('preset:')) { await page.selectOption('#preset', step.slice(7)); return; }
  const [lesson, k] = step.split(':');
  await page.click('#lesson-open');
  await page.selectOption('#lesson-choice', lesson);
  for (let i = 1; i < Number(k); i += 1) await page.$eval('#lesson-next', (b) => b.click());
}

for (const entry of STEPS) {
  const { page } = await openApp(context, server.url, '', { viewport: { width: 1920, height: 1080 } });
  const chain = entry.split('>');
  const step = chain.pop();
  for (const first of chain) {
    await load(page, first);
    await page.waitForTimeout(BEFORE_SECONDS * 1000);
  }
  const cdp = await context.newCDPSession(page);
  if (PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
    await cdp.send('Profiler.start');
  }
  const events = await traceWhile(cdp, async () => {
    await load(page, step);
    await page.waitForTimeout(SECONDS * 1000);
  });
  const profile = PROFILE ? (await cdp.send('Profiler.stop')).profile : null;
  const main = mainThread(events);
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
  const tasks = onMain.filter((e) => e.cat.includes('toplevel') && (e.name.endsWith('RunTask') || e.name === 'RunTask'));
  const long = tasks.filter((e) => (e.tdur ?? 0) / 1000 > THRESHOLD_MS).sort((a, b) => b.tdur - a.tdur);
  const frames = onMain.filter((e) => e.name === 'FireAnimationFrame').length;
  const t0 = tasks.length ? tasks[0].ts : 0;
  // The typical frame's task, to tell a load-inflated machine (every frame long) from single long tasks.
  const frameTasks = tasks.filter((task) => onMain.some((e) => e.name === 'FireAnimationFrame' && e.ts >= task.ts && e.ts <= task.ts + task.dur)).map((e) => (e.tdur ?? 0) / 1000).sort((a, b) => a - b);
  const median = frameTasks[Math.floor(frameTasks.length / 2)] ?? 0;
  const view = await page.evaluate(() => {
    const trace = document.getElementById('chart-trace');
    const r = trace.getBoundingClientRect();
    return `scrollY ${Math.round(window.scrollY)}; trace chart ${Math.round(r.width)}×${Math.round(r.height)} CSS px at top ${Math.round(r.top)} (backing ${trace.width}×${trace.height})`;
  });
  console.log(`\n${entry}: ${SECONDS} s, ${view};`);
  console.log(`  ${step}: ${SECONDS} s, ${tasks.length} main-thread tasks, ${frames} animation frames; longest thread time ${((long[0]?.tdur ?? Math.max(0, ...tasks.map((e) => e.tdur ?? 0))) / 1000).toFixed(1)} ms; ${long.length} tasks over ${THRESHOLD_MS} ms of thread time; a frame's task: median ${median.toFixed(1)} ms, p95 ${(frameTasks[Math.floor(0.95 * (frameTasks.length - 1))] ?? 0).toFixed(1)} ms of thread time`);
  for (const task of long) {
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
    const byLabel = new Map();
    for (const e of inside) {
      const k = label(e);
      const v = byLabel.get(k) || { n: 0, tdur: 0 };
      byLabel.set(k, { n: v.n + 1, tdur: v.tdur + (e.tdur ?? e.dur) / 1000 });
    }
    const parts = [...byLabel].filter(([k]) => !k.endsWith('RunTask')).sort((a, b) => b[1].tdur - a[1].tdur).slice(0, 8)
      .map(([k, v]) => `${k}${v.n > 1 ? ` ×${v.n}` : ''} ${v.tdur.toFixed(1)}`).join('; ');
    const prof = profile ? profiled(profile, task.ts, task.ts + task.dur) : null;
    console.log(`- at ${((task.ts - t0) / 1e6).toFixed(2)} s: thread ${(task.tdur / 1000).toFixed(1)} ms (wall ${(task.dur / 1000).toFixed(1)} ms)\n    events (thread ms, nested counted twice): ${parts}${prof ? `\n    self: ${prof.self.join('; ')}\n    page: ${prof.own.join('; ')}` : ''}`);
  }
  await page.close();
}
await context.close();
await server.close();
