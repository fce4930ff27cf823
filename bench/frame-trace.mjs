// The main thread's work per animation frame, from a Chromium trace (CDP Tracing, categories
// toplevel and devtools.timeline; the disabled-by-default ones inflate every frame, leave them
// off). Every main-thread task is charged to the frame interval it starts in (from one
// FireAnimationFrame to the next), and a frame's work is the sum of its tasks' thread time
// (`tdur`): the frame callback, its style/layout/paint, GC, worker messages, timers. Thread time
// does not count the time the thread waits for a core, so on a loaded machine it stays close to
// what a quiet machine shows (shared caches still inflate it a little); the wall-clock intervals
// do not. Used by bench/class-time.mjs (`make bench`); asserts nothing.

/** Start a trace on `cdp` (a CDPSession of the page). */
export async function startTrace(cdp) {
  await cdp.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: ['toplevel', 'devtools.timeline'] } });
}

/** End the trace and return its events (streamed back through IO.read). */
export async function endTrace(cdp) {
  const done = new Promise((resolve) => { cdp.once('Tracing.tracingComplete', resolve); });
  await cdp.send('Tracing.end');
  const { stream } = await done;
  const chunks = [];
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 22 });
    chunks.push(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data);
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(chunks.join(''));
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/** The renderer main thread with the most animation frames (the page's). */
function mainThread(events) {
  const counts = new Map();
  for (const e of events) if (e.name === 'FireAnimationFrame') counts.set(`${e.pid}:${e.tid}`, (counts.get(`${e.pid}:${e.tid}`) || 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (!best) return null;
  const [pid, tid] = best[0].split(':').map(Number);
  return { pid, tid };
}

/** A short name for what a task did: its largest inner event (a worker message, a timer, the frame). */
function label(inner) {
  if (inner.some((e) => e.name === 'FireAnimationFrame')) return 'animation frame';
  // The page's function when there is one (a timer's or a message's callback), else the largest event.
  const bySize = (a, b) => (b.tdur ?? b.dur) - (a.tdur ?? a.dur);
  const calls = inner.filter((e) => e.name === 'FunctionCall').sort(bySize);
  const named = calls[0] || inner.filter((e) => !/RunTask/.test(e.name)).sort(bySize)[0];
  if (!named) return 'native';
  const d = named.args?.data || {};
  if (named.name === 'EventDispatch') return `event ${d.type}`;
  if (named.name === 'FunctionCall') return `call ${d.functionName || '(anon)'} ${String(d.url || '').split('/').pop()}:${(d.lineNumber ?? -1) + 1}`;
  return named.name;
}

const quantile = (sorted, q) => (sorted.length ? sorted[Math.floor(q * (sorted.length - 1))] : null);

/** The mark bench/class-time.mjs leaves in the trace (console.timeStamp) when the loaded step starts playing. */
export const PLAYING_MARK = 'sgviz-bench-playing';

/**
 * A task that ran one of the bench's own DevTools commands (`page.evaluate`, a `waitForFunction`
 * poll, `Performance.getMetrics`): a mojo message on the DevTools session. Not the page's work:
 * reading 1,200 frame records back took 37–56 ms of thread time in one such task (stop 49).
 */
function benchCommands(onMain) {
  const messages = onMain.filter((e) => e.name === 'Receive mojo message' && e.args?.chrome_mojo_event_info?.mojo_interface_tag === 'blink.mojom.DevToolsSession');
  return (task) => messages.some((m) => m.ts >= task.ts && m.ts <= task.ts + task.dur);
}

/** The longest of `tasks` (thread time) and what it ran: { ms, what }. */
function longestOf(tasks, onMain) {
  const longest = tasks.reduce((m, t) => ((t.tdur ?? 0) > (m?.tdur ?? -1) ? t : m), null);
  if (!longest) return { ms: null, what: '' };
  const inner = onMain.filter((e) => e !== longest && e.ts >= longest.ts && e.ts + e.dur <= longest.ts + longest.dur);
  return { ms: longest.tdur / 1000, what: label(inner) };
}

/** Each frame's work (thread ms): the task running its callback and every task after it until the next frame's. */
function workPerFrame(top, fires) {
  let f = 0;
  const frameTasks = [];
  for (const t of top) {
    while (f < fires.length && fires[f] < t.ts) f += 1;
    if (f < fires.length && fires[f] <= t.ts + t.dur) frameTasks.push(t.ts);
  }
  const work = new Array(Math.max(0, frameTasks.length - 1)).fill(0);
  let k = -1;
  for (const t of top) {
    while (k + 1 < frameTasks.length && frameTasks[k + 1] <= t.ts) k += 1;
    if (k < 0 || k >= work.length) continue;
    work[k] += (t.tdur ?? t.dur) / 1000;
  }
  return work;
}

/**
 * Per-frame main-thread work from `events`: frames, p95 and worst interval between frames (wall),
 * p95 and max work per frame (thread ms), and the longest task (thread ms, what it was). With the
 * PLAYING_MARK in the trace, the tasks before it are the step's switch (the input event, the load
 * over its frames, the bench's wait for it: `switchMs` of thread time in all, `switchLongest`) and
 * the frames are counted from the first one after it; the bench's own DevTools commands are left
 * out of both (`benchLongest` says how long the longest was).
 */
export function frameWorkFromTrace(events) {
  const main = mainThread(events);
  if (!main) return null;
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
  const mark = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === PLAYING_MARK);
  const playingFrom = mark ? mark.ts : -Infinity;
  const tasks = onMain.filter((e) => /(^|::)RunTask$/.test(e.name) && e.cat.includes('toplevel')).sort((a, b) => a.ts - b.ts);
  // Top-level tasks only (a RunTask nested in another is counted in its parent).
  const all = [];
  for (const t of tasks) if (!all.length || t.ts >= all.at(-1).ts + all.at(-1).dur) all.push(t);
  const isBenchCommand = benchCommands(onMain);
  const bench = all.filter(isBenchCommand);
  const pageTasks = all.filter((t) => !isBenchCommand(t));
  const switching = pageTasks.filter((t) => t.ts < playingFrom);
  const top = pageTasks.filter((t) => t.ts >= playingFrom);
  // One time per frame: the page's loop and the bench's interval recorder each fire in the frame's task.
  const fires = [...new Set(onMain.filter((e) => e.name === 'FireAnimationFrame' && e.ts >= playingFrom)
    .map((e) => top.find((t) => e.ts >= t.ts && e.ts <= t.ts + t.dur)?.ts ?? e.ts))].sort((a, b) => a - b);
  const work = workPerFrame(top, fires);
  const intervals = fires.slice(1).map((t, i) => (t - fires[i]) / 1000).sort((a, b) => a - b);
  const sortedWork = [...work].sort((a, b) => a - b);
  const longest = longestOf(top, onMain);
  const switchLongest = longestOf(switching, onMain);
  return {
    frames: fires.length,
    intervalP95: quantile(intervals, 0.95),
    intervalMax: intervals.at(-1) ?? null,
    workP95: quantile(sortedWork, 0.95),
    workMax: sortedWork.at(-1) ?? null,
    workMedian: quantile(sortedWork, 0.5),
    longestTask: longest.ms,
    longestWhat: longest.what,
    switchMs: mark ? switching.reduce((sum, t) => sum + (t.tdur ?? 0) / 1000, 0) : null,
    switchLongest: mark ? switchLongest.ms : null,
    switchWhat: switchLongest.what,
    benchLongest: longestOf(bench, onMain).ms,
  };
}

/** The frame-loop parts (www/frame-cost.js) that are leaves, not sums of others. */
const LEAVES = ['jobs.truth', 'jobs.sgais', 'jobs.compare', 'jobs.figureScan', 'steps', 'compare', 'workerCharts', 'position', 'draw.density', 'draw.overlay', 'draw.numbers', 'draw.compare'];

/**
 * Which part of the frame callback makes the slow frames slow: over the page's frame records
 * (`window.sgviz.frameRecords()`), the frames at or above the p95 of the callback's wall time,
 * each leaf part's mean there (chart.* for the staggered charts); returns 'part ms, part ms'.
 */
export function dominantParts(records) {
  if (!records.length) return '';
  const sorted = records.map((r) => r.frame || 0).sort((a, b) => a - b);
  const cut = quantile(sorted, 0.95);
  const slow = records.filter((r) => (r.frame || 0) >= cut);
  const sums = new Map();
  for (const r of slow) {
    for (const [k, v] of Object.entries(r)) if (LEAVES.includes(k) || k.startsWith('chart.')) sums.set(k, (sums.get(k) || 0) + v);
  }
  const mean = (v) => v / slow.length;
  return [...sums].sort((a, b) => b[1] - a[1]).slice(0, 2).filter(([, v]) => mean(v) >= 0.1).map(([k, v]) => `${k} ${mean(v).toFixed(1)}`).join(', ');
}
