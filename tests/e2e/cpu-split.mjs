// Where a browser-test file's CPU goes, by phase (BENCHMARKS.md "CI time", fifth round): with
// E2E_CPU_SPLIT=1, `charge(name)` adds the CPU (user + system) that this test process and every
// process under it (Chromium's browser, renderers and GPU/utility processes; the page's workers
// are threads of its renderer) used since the previous `charge` to `name`; `report()` prints the
// totals since the previous report, and of each phase the share of the page's worker threads (Chromium names them
// "DedicatedWorker…"), and the whole file's CPU by process type and thread name. Without the
// variable both do nothing. Read from /proc, as bench/e2e-cpu.mjs does; for a file run alone (under
// the shared Chromium of scripts/test.sh the browser is not under this process and is not counted).

import { readFileSync, readdirSync } from 'node:fs';
import { after, afterEach, beforeEach } from 'node:test';

const ON = process.env.E2E_CPU_SPLIT === '1';
const TICK = 100; // USER_HZ on Linux
const last = new Map(); // pid:tid:starttime -> { type, comm, ticks } at the latest reading
const totals = new Map();
const workerTotals = new Map();
let charged = { all: 0, worker: 0 };

function stat(path) {
  try {
    const s = readFileSync(`${path}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { comm: s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), start: f[19] };
  } catch { return null; }
}

function processType(pid) {
  try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').match(/--type=([a-z-]+)/)?.[1] ?? (pid === process.pid ? 'node' : 'browser'); } catch { return '?'; }
}

/**
 * Read the CPU ticks of every thread of this process tree into `threads` (pid:tid:starttime ->
 * { type, comm, ticks }); a thread that has exited keeps its last reading. Also used by
 * bench/page-load.mjs.
 */
export function readThreads(threads) {
  const all = new Map();
  for (const name of readdirSync('/proc')) if (/^\d+$/.test(name)) { const s = stat(`/proc/${name}`); if (s) all.set(Number(name), s); }
  const tree = new Set([process.pid]);
  let grew = true;
  while (grew) { grew = false; for (const [pid, s] of all) if (!tree.has(pid) && tree.has(s.ppid)) { tree.add(pid); grew = true; } }
  for (const pid of tree) {
    let tids = [];
    try { tids = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    const type = processType(pid);
    for (const tid of tids) { const s = stat(`/proc/${pid}/task/${tid}`); if (s) threads.set(`${pid}:${tid}:${s.start}`, { type, comm: s.comm, ticks: s.ticks }); }
  }
  return threads;
}

/** Ticks used so far by this process tree, all and by worker threads. */
function treeTicks() {
  readThreads(last);
  let sum = 0;
  let worker = 0;
  for (const { type, comm, ticks } of last.values()) { sum += ticks; if (/Worker/.test(`${type}/${comm}`)) worker += ticks; }
  return { all: sum, worker };
}

/** Charge the CPU since the previous call to `name`. */
export function charge(name) {
  if (!ON) return;
  const now = treeTicks();
  totals.set(name, (totals.get(name) ?? 0) + (now.all - charged.all));
  workerTotals.set(name, (workerTotals.get(name) ?? 0) + (now.worker - charged.worker));
  charged = now;
}

/** Print the totals (CPU s per phase, largest first). */
export function report(title) {
  if (!ON) return;
  charge('(unattributed)');
  const s = (t) => (t / TICK).toFixed(1).padStart(7);
  const rows = [...totals].sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${s(v)} ${s(workerTotals.get(k))} ${k}`);
  const byThread = new Map();
  for (const { type, comm, ticks } of last.values()) byThread.set(`${type}/${comm}`, (byThread.get(`${type}/${comm}`) ?? 0) + ticks);
  const threads = [...byThread].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `  ${s(v)} ${k}`);
  totals.clear();
  workerTotals.clear();
  console.log(`CPU split (${title}), CPU s (all, of which worker threads):\n${rows.join('\n')}\nby thread:\n${threads.join('\n')}`);
}

/** Charge each test of the file to its name (what its own `charge` calls leave) and report at the end. */
export function splitByTest(title) {
  if (!ON) return;
  beforeEach(() => charge('(between tests)'));
  afterEach((t) => charge(`test: ${t.name}`));
  after(() => report(title));
}
