// `make bench` (before class-time.mjs): how much work the page's background workers finish per
// second of wall time on this machine, while the page plays (issue 26). The browser test
// tests/e2e/class-time.test.mjs lets the workers do only "20 s × this rate" of work before it reads
// what a step shows (a fixed work count, so the test does not depend on the machine's load); its
// constants restate the numbers measured here.
//
// Measured: the lecture-scale SGAIS shift preset ('sgais-shift-lecture': six runs, one after
// another on a 2-core machine's single worker), loaded through the preset menu and played at
// 1920×1080. Work = per-datum likelihood/gradient evaluations (`datum_evals` of every chunk
// record); rate = all runs' evaluations / wall time until the last run finished. Also the wall time
// until the K = 7 pair (in order and shuffled) and the in-order model comparison were complete.
// Rewrites its own BENCHMARKS.md section; asserts nothing.

import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { replaceSection } from './sections.mjs';
import { startServer, launchBrowser, openApp } from '../tests/e2e/harness.mjs';

const SECTION = '## Class time: the workers\' rate';
const PRESET = 'sgais-shift-lecture';
const LIMIT_S = 300;

const server = await startServer();
const context = await launchBrowser();
const { page } = await openApp(context, server.url, '', { viewport: { width: 1920, height: 1080 } });
const load = loadavg().map((x) => x.toFixed(2)).join(' ');
const pool = await page.evaluate(async () => (await import('./www/jobs.js')).POOL_SIZE);
const started = Date.now();
await page.selectOption('#preset', PRESET);
const finishedAt = {};
let summary;
for (;;) {
  summary = await page.evaluate(() => window.sgviz.sgais());
  const seconds = (Date.now() - started) / 1000;
  for (const run of summary.runs) if (run.done && finishedAt[run.label] === undefined) finishedAt[run.label] = seconds;
  if ((summary.runs.length && summary.runs.every((r) => r.done)) || seconds > LIMIT_S) break;
  await new Promise((resolve) => { setTimeout(resolve, 250); });
}
const allDone = Math.max(...Object.values(finishedAt));
const evals = summary.runs.map((r) => r.records.at(-1)?.datum_evals ?? 0);
const total = evals.reduce((a, b) => a + b, 0);
const rate = total / allDone;
const by = (labels) => Math.max(...labels.map((l) => finishedAt[l] ?? Infinity));
const pair = by(['K = 7, in order', 'K = 7, shuffled']);
const models = by(['K = 7, in order', 'K = 7, shuffled', 'K = 3, in order', 'K = 5, in order']);
await page.close();
await context.close();
await server.close();

// The same runs in wasm under Node, timed on the process's CPU clock: the rate of a worker that has
// a core to itself (the pool keeps one fewer worker than cores for that), free of other jobs' load.
const pkg = await import(new URL('../dist/www/pkg/sgviz.js', import.meta.url));
pkg.initSync({ module: await readFile(new URL('../dist/www/pkg/sgviz_bg.wasm', import.meta.url)) });
const cpu = summary.runs.map((r) => {
  const before = process.cpuUsage();
  const runner = new pkg.SgaisRunner(JSON.stringify(r.spec), undefined);
  while (runner.advance(20_000));
  const used = process.cpuUsage(before);
  const records = JSON.parse(runner.result_json(0)).result.records;
  return { seconds: (used.user + used.system) / 1e6, evals: records.at(-1).datum_evals };
});
const cpuTotal = cpu.reduce((a, c) => a + c.seconds, 0);
// The slowest run's rate: no run in the test gets more work than it did at the measured speed.
const slowest = Math.min(...cpu.map((c) => c.evals / c.seconds));
const cpuRate = cpu.reduce((a, c) => a + c.evals, 0) / cpuTotal;
const cpuUntil = (n) => cpu.slice(0, n).reduce((a, c) => a + c.seconds, 0);

const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const lines = [SECTION, '',
  `Headless Chromium at 1920×1080 playing the page, \`bench/worker-rate.mjs\`, ${new Date().toISOString()}: ${cpus().length} logical CPUs, job pool of ${pool} worker(s), load average at start ${load} (the machine is shared with other jobs: wall times include their contention). Preset '${PRESET}' loaded through the preset menu; work = per-datum evaluations (\`datum_evals\`).`, '',
  '| run (in start order) | datum evaluations | page: finished at (s, wall) | wasm under Node: CPU s | … cumulative | evaluations per CPU s |',
  '|---|---:|---:|---:|---:|---:|',
  ...summary.runs.map((r, k) => `| ${r.label} | ${evals[k].toExponential(3)} | ${fmt(finishedAt[r.label])} | ${fmt(cpu[k].seconds, 2)} | ${fmt(cpuUntil(k + 1), 2)} | ${(cpu[k].evals / cpu[k].seconds).toExponential(2)} |`),
  '',
  `In the page: all six runs, ${total.toExponential(3)} evaluations, in ${fmt(allDone)} s of wall time = ${(rate / 1e6).toFixed(2)}·10⁶ datum evaluations per second at this load; the K = 7 pair (in order and shuffled, the §6.2 check) was complete at ${fmt(pair)} s, with K = 3 and 5 in order (the model comparison) at ${fmt(models)} s.`,
  '',
  `The same runs in wasm under Node (\`SgaisRunner\`, the worker's code) on the process's CPU clock, i.e. a worker with a core to itself: ${fmt(cpuTotal, 2)} CPU s = ${(cpuRate / 1e6).toFixed(2)}·10⁶ datum evaluations per second on average; the K = 7 pair needs ${fmt(cpuUntil(2), 2)} s of it and the model comparison ${fmt(cpuUntil(4), 2)} s. The slowest run's rate, **${(slowest / 1e6).toFixed(2)}·10⁶ per second**, is what the class-time test lets a worker do per second of class time (\`WORKER_DATUM_EVALS_PER_S\`).`,
  ''];
console.log(lines.join('\n'));
if (!process.argv.includes('--no-write')) {
  const path = new URL('../BENCHMARKS.md', import.meta.url);
  await writeFile(path, replaceSection(await readFile(path, 'utf8'), SECTION, lines.join('\n')));
}
