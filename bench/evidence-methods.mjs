// SGAIS vs nested sampling vs full-data AIS (issue 22): the paper's comparison (§7.1, Fig. 2–4:
// 3.3× linear, 10.4× softmax, 4.9× mixture faster than NS at 10⁶) on linear regression, softmax
// regression and the Gaussian mixture, through `sgviz evidence --ais --ns`. Reports log Ẑ with each
// method's own error bar, wall and thread-CPU seconds and per-datum evaluations (which a loaded
// machine does not inflate), and rewrites the "## SGAIS vs NS vs AIS" section of BENCHMARKS.md.
//
// node bench/evidence-methods.mjs [--quick] [--no-write] [--sizes 10000,100000] [--models linreg,softmax,gmm] [--no-ais-above N]
// --quick: linear regression at N = 10⁴ only, printed, BENCHMARKS.md untouched (what `make bench` runs).

import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { replaceSection } from './sections.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name, fallback) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
const quick = flag('--quick');
const sizes = (option('--sizes', quick ? '10000' : '10000,100000')).split(',').map(Number);
const models = (option('--models', quick ? 'linreg' : 'linreg,softmax,gmm')).split(',');
/** Above this N full-data AIS is skipped (the paper stopped AIS on softmax beyond 10⁵). */
const aisMax = Number(option('--no-ais-above', 'Infinity'));
const HEADING = '## SGAIS vs NS vs AIS';

/**
 * Per-model settings passed explicitly: the per-model SGAIS defaults (src/sgais/model_defaults.rs),
 * softmax K = 40 SGHMC steps per temperature and lr = 0.1 (docs/sgais.md §13), the mixture K = 20
 * and lr = 0.1.
 */
const SETTINGS = {
  linreg: [],
  softmax: ['burn_in_steps=40', 'learning_rate=0.1'],
  gmm: ['burn_in_steps=20', 'learning_rate=0.1'],
};

/**
 * Where the CLI has no exact log Z: the independent references of docs/sgais.md (data seed 1, the
 * CLI's default): softmax by importance sampling at the Laplace mode ((SGAIS.14), §13,
 * `cargo run --release --example softmax_reference -- N 1 S`), ± its own standard error.
 */
const REFERENCE = { 'softmax:2000': [-1091.13, 0.02], 'softmax:10000': [-5149.33, 0.03] };

function run(model, n) {
  const args = ['evidence', '--target', model, '--set', `n_points=${n}`, ...SETTINGS[model].flatMap((s) => ['--set', s]), '--seed', '1', '--ns'];
  if (n <= aisMax) args.push('--ais');
  console.error(`bench: sgviz ${args.join(' ')}`);
  const out = execFileSync(join(ROOT, 'target/release/sgviz'), args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const s = JSON.parse(out.trim().split('\n').pop());
  return {
    model, n, settings: SETTINGS[model].join(', ') || 'defaults',
    exact: s.exact_log_z ?? null,
    reference: REFERENCE[`${model}:${n}`] ?? null,
    sgais: { logZ: s.log_z, se: null, seconds: s.seconds, cpu: s.cpu_seconds, evals: s.datum_evals, ess: s.ess },
    ais: s.ais_log_z === undefined ? null : { logZ: s.ais_log_z, seconds: s.ais_seconds, cpu: s.ais_cpu_seconds, evals: s.ais_datum_evals },
    ns: { logZ: s.ns_log_z, se: s.ns_log_z_se, seconds: s.ns_seconds, cpu: s.ns_cpu_seconds, evals: s.ns_datum_evals },
  };
}

const fmt = (x, d = 3) => (Number.isFinite(x) ? x.toPrecision(d) : '—');
const sci = (x) => (Number.isFinite(x) ? x.toExponential(2) : '—');
const z = (x) => (Number.isFinite(x) ? x.toFixed(1) : '—');

function section(rows) {
  const lines = [`${HEADING} (\`node bench/evidence-methods.mjs\`: \`sgviz evidence --target T --set n_points=N --seed 1 --ais --ns\`)`, ''];
  lines.push(`One run of each method per row (seed 1; NS and AIS each with their own seed derived from it). SGAIS at its defaults (softmax: ${SETTINGS.softmax.join(', ')}; the mixture: ${SETTINGS.gmm.join(', ')}); AIS is SGAIS's kernel on the full data with the same settings; NS is Skilling's nested sampling with 25 live points and 20 constrained SGHMC steps per replacement (docs/sgais.md §7), its ± the √(H/M) standard error. Cost: wall and thread-CPU seconds (other jobs on the shared machine inflate wall time, not CPU time) and per-datum evaluations (independent of load). Ratio = NS cost / SGAIS cost. Measured ${new Date().toISOString().slice(0, 16)} UTC, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} cores.`, '');
  lines.push('| model | N | exact (or reference) log Z | SGAIS log Ẑ | NS log Ẑ ± SE | AIS log Ẑ | SGAIS CPU s (evals) | NS CPU s (evals) | AIS CPU s (evals) | NS/SGAIS CPU (evals) | AIS/SGAIS CPU (evals) |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const a = r.ais;
    lines.push(`| ${r.model} | ${r.n} | ${r.exact !== null ? z(r.exact) : r.reference ? `${z(r.reference[0])} ± ${fmt(r.reference[1], 1)} (IS)` : '—'} | ${z(r.sgais.logZ)} | ${z(r.ns.logZ)} ± ${fmt(r.ns.se, 2)} | ${a ? z(a.logZ) : 'not run'} | ${fmt(r.sgais.cpu)} (${sci(r.sgais.evals)}) | ${fmt(r.ns.cpu)} (${sci(r.ns.evals)}) | ${a ? `${fmt(a.cpu)} (${sci(a.evals)})` : '—'} | ${fmt(r.ns.cpu / r.sgais.cpu)} (${fmt(r.ns.evals / r.sgais.evals)}) | ${a ? `${fmt(a.cpu / r.sgais.cpu)} (${fmt(a.evals / r.sgais.evals)})` : '—'} |`);
  }
  return lines.join('\n');
}

const rows = [];
for (const n of sizes) {
  for (const model of models) {
    rows.push(run(model, n));
    console.error(`bench: ${JSON.stringify(rows.at(-1))}`); // each row as it comes (long runs)
  }
}
const text = section(rows);
console.log(text);
console.error(JSON.stringify(rows)); // the rows as data, beside the table (stdout is the table alone)
if (!quick && !flag('--no-write')) {
  const path = join(ROOT, 'BENCHMARKS.md');
  const old = await readFile(path, 'utf8');
  await writeFile(path, replaceSection(old, HEADING, text));
  console.error('bench: updated the SGAIS vs NS vs AIS section of BENCHMARKS.md');
}
