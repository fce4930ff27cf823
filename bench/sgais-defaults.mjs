// The measurements that chose SGAIS's defaults (src/sgais/mod.rs, `DEFAULTS`): Bayesian linear
// regression (paper B.1, d = 5, exact log Z), every setting varied one at a time from the defaults,
// as in the paper's §7.3 sensitivity study. Each case runs `sgviz evidence` on several synthetic
// data sets (data seed = SGAIS seed = 1..S) and reports log Ẑ − log Z as mean ± sd over them, the
// largest |error|, per-datum evaluations and thread CPU seconds per run. Asserts nothing.
//
//   node bench/sgais-defaults.mjs [--quick] [--no-write]
//
// Rewrites the "## SGAIS defaults" section of BENCHMARKS.md (bench/bench.mjs keeps it when it
// rewrites the rest). Needs target/release/sgviz (cargo build --release --bin sgviz). Takes about
// 15 CPU-minutes (2 runs in parallel).

import { readFile, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { replaceSection } from './sections.mjs';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const BIN = join(ROOT, 'target/release/sgviz');
const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const run = promisify(execFile);

/** Data sets: N, noise σ, number of seeds. σ = 0.5 quadruples the curvature (discretisation). */
const DATA = [
  { key: 'N = 2·10³', n: 2000, sd: 1, seeds: quick ? 2 : 8 },
  { key: 'N = 2·10³, σ = 0.5', n: 2000, sd: 0.5, seeds: quick ? 2 : 8 },
  { key: 'N = 10⁴', n: 10000, sd: 1, seeds: quick ? 1 : 4 },
  { key: 'N = 10⁵', n: 100000, sd: 1, seeds: quick ? 1 : 4 },
];

/** One-at-a-time variations from the defaults ("" = the defaults themselves). */
const CASES = [
  ['defaults', []],
  ['paper preset (§6.1)', ['--preset', 'paper']],
  ['M = 20, ESS* = 10', ['--set', 'particles=20', '--set', 'target_ess=10']],
  ['M = 100, ESS* = 50', ['--set', 'particles=100', '--set', 'target_ess=50']],
  ['ESS* = 12.5', ['--set', 'target_ess=12.5']],
  ['ESS* = 37.5', ['--set', 'target_ess=37.5']],
  ['resampling off', ['--set', 'resampling=off']],
  ['resampling when_low', ['--set', 'resampling=when_low']],
  ['η scale total (lr/N)', ['--set', 'eta_scale=total']],
  ['η scale seen', ['--set', 'eta_scale=seen']],
  ['lr = 0.005', ['--set', 'learning_rate=0.005']],
  ['lr = 0.05', ['--set', 'learning_rate=0.05']],
  ['lr = 0.1', ['--set', 'learning_rate=0.1']],
  ['|B| = 250', ['--set', 'batch_size=250']],
  ['|B| = 1000', ['--set', 'batch_size=1000']],
  ['|C| = 500', ['--set', 'chunk_size=500']],
  ['|C| = 2000', ['--set', 'chunk_size=2000']],
  ['β̂ = 0 (fixed)', ['--set', 'noise_correction=fixed']],
  ['κ = 0.25', ['--set', 'max_noise_share=0.25']],
  ['κ = 0.9', ['--set', 'max_noise_share=0.9']],
  ['K = 5', ['--set', 'burn_in_steps=5']],
  ['K = 20', ['--set', 'burn_in_steps=20']],
  ['α = 0.5', ['--set', 'friction=0.5']],
];

async function evidence(data, seed, extra) {
  const argv = ['evidence', '--target', 'linreg', '--seed', String(seed), '--set', `n_points=${data.n}`, '--set', `noise_sd=${data.sd}`, '--set', `data_seed=${seed}`, ...extra];
  const { stdout } = await run(BIN, argv, { maxBuffer: 1 << 28 });
  const summary = JSON.parse(stdout.trim().split('\n').pop());
  return { error: summary.log_z === null ? NaN : summary.log_z - summary.exact_log_z, evals: summary.datum_evals, cpu: summary.cpu_seconds ?? summary.seconds };
}

/** Run jobs two at a time (the machine has 2 cores). */
async function pool(jobs, width = 2) {
  const results = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < jobs.length) {
      const k = next++;
      results[k] = await jobs[k]();
    }
  }));
  return results;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs) => (xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1)) : NaN);
const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const sign = (x) => (x >= 0 ? `+${f(x)}` : f(x));

const rows = [];
for (const [label, extra] of CASES) {
  const cells = [];
  for (const data of DATA) {
    const seeds = Array.from({ length: data.seeds }, (_, k) => k + 1);
    const res = await pool(seeds.map((s) => () => evidence(data, s, extra)));
    const errors = res.map((r) => r.error);
    cells.push({ mean: mean(errors), sd: sd(errors), max: Math.max(...errors.map(Math.abs)), evals: mean(res.map((r) => r.evals)), cpu: mean(res.map((r) => r.cpu)) });
  }
  rows.push({ label, cells });
  console.error(`sgais-defaults: ${label} done`);
}

const lines = [];
lines.push('## SGAIS defaults', '');
lines.push(`\`node bench/sgais-defaults.mjs\` (${new Date().toISOString().slice(0, 10)}): Bayesian linear regression (paper B.1, d = 5, exact log Z), one setting at a time varied from the defaults. Each cell: log Ẑ − log Z as mean ± sd over data sets/seeds 1..S (S = ${DATA.map((d) => d.seeds).join(' / ')}), then max |error|, then per-datum evaluations and thread CPU seconds per run (N = 10⁵ column). Defaults: M = 50, ESS* = 25, resampling always, η = lr/(n_prev + λ|C|) ("tempered"), lr = 0.02, α = 0.2, β̂ = ηV̂/2 estimated with η capped at κ = 0.5, |B| = 500, |C| = 1000, K = 10.`, '');
lines.push(`| setting | ${DATA.map((d) => d.key).join(' | ')} | N = 10⁵ cost |`);
lines.push(`|---|${DATA.map(() => '---:').join('|')}|---:|`);
for (const r of rows) {
  const last = r.cells[r.cells.length - 1];
  lines.push(`| ${r.label} | ${r.cells.map((c) => `${sign(c.mean)} ± ${f(c.sd)} (max ${f(c.max, 1)})`).join(' | ')} | ${last.evals.toExponential(2)} evals, ${f(last.cpu, 1)} s |`);
}
const section = lines.join('\n');
console.log(section);

if (!args.has('--no-write') && !quick) {
  const path = join(ROOT, 'BENCHMARKS.md');
  const old = await readFile(path, 'utf8').catch(() => '# Benchmarks\n');
  await writeFile(path, replaceSection(old, '## SGAIS defaults', section));
  console.error('sgais-defaults: wrote the SGAIS defaults section of BENCHMARKS.md');
}
