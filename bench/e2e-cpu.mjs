// CPU seconds of one browser-test file (BENCHMARKS.md "CI time"): runs `node --test FILE [args]`
// and, every 0.5 s, reads utime + stime of every process under it from /proc (Chromium's
// renderers and workers are not reaped through node, so node's rusage misses them); each
// process's last reading is summed. Prints one JSON line: file, cpu_s, wall_s, exit code, and
// per test (from the TAP output) its wall ms; E2E_CPU_TAP=FILE keeps the whole TAP output.
// Several files (or a directory) are run by one `node --test` and counted together; with
// E2E_CPU_SHARED_BROWSER=1 they run under tests/e2e/shared-browser.mjs as scripts/test.sh runs
// them (one Chromium for all files, its CPU counted too). Usage:
//   node bench/e2e-cpu.mjs tests/e2e/NAME.test.mjs [more files…] [node --test args…]
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';

const TICK = 100; // USER_HZ on Linux
const given = process.argv.slice(2);
const files = given.filter((a) => !a.startsWith('-'));
const extra = given.filter((a) => a.startsWith('-'));
const file = files.join(' ');
const run = [process.execPath, '--test', '--test-reporter=tap', ...extra, ...files];
const wrapped = process.env.E2E_CPU_SHARED_BROWSER ? [process.execPath, new URL('../tests/e2e/shared-browser.mjs', import.meta.url).pathname, ...run] : run;
const child = spawn(wrapped[0], wrapped.slice(1), { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
let out = '';
child.stdout.on('data', (d) => { out += d; });
const last = new Map(); // pid:starttime -> cpu ticks

function stat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), start: f[19] };
  } catch { return null; }
}
function sample() {
  const all = new Map();
  for (const name of readdirSync('/proc')) if (/^\d+$/.test(name)) { const s = stat(name); if (s) all.set(Number(name), s); }
  const tree = new Set([child.pid]);
  let grew = true;
  while (grew) { grew = false; for (const [pid, s] of all) if (!tree.has(pid) && tree.has(s.ppid)) { tree.add(pid); grew = true; } }
  for (const pid of tree) { const s = all.get(pid); if (s) last.set(`${pid}:${s.start}`, s.ticks); }
}
const started = Date.now();
const timer = setInterval(sample, 500);
child.on('exit', (code) => {
  clearInterval(timer);
  if (process.env.E2E_CPU_TAP) writeFileSync(process.env.E2E_CPU_TAP, out); // the whole TAP output (the tests' logs)
  const cpu = [...last.values()].reduce((a, b) => a + b, 0) / TICK;
  const tests = [...out.matchAll(/^\s*(ok|not ok) \d+ - (.*)\n(?:.*\n){0,3}?\s*duration_ms: ([\d.]+)/gm)].map((m) => ({ ok: m[1] === 'ok', name: m[2], ms: Math.round(Number(m[3])) }));
  console.log(JSON.stringify({ file, cpu_s: Math.round(cpu * 10) / 10, wall_s: Math.round((Date.now() - started) / 100) / 10, code, tests }));
  if (code !== 0) console.error(out.split('\n').filter((l) => /not ok|Error|error:|expected|actual/.test(l)).slice(0, 30).join('\n'));
});
