// `make bench` (via scripts/bench.sh): sampler throughput natively and in wasm under Node, browser
// frame times and start-up, bundle sizes; prints a Markdown table and writes BENCHMARKS.md.
// Asserts nothing about time. Requires target/release/sgviz-bench and dist/ (bench.sh builds both).
//
//   node bench/bench.mjs [--quick] [--no-browser] [--no-write] [--sgais-only]
//
// --sgais-only: only the SGAIS vs full-data AIS table (needs target/release/sgviz), updated in place.
// The "## SGAIS defaults" section comes from bench/sgais-defaults.mjs and is kept.

import { readFile, writeFile, readdir, stat } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import os from 'node:os';
import { extractSection, replaceSection } from './sections.mjs';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const DIST = join(ROOT, 'dist');
const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const cases = JSON.parse(await readFile(join(ROOT, 'bench/cases.json'), 'utf8'));
const minSeconds = quick ? 0.2 : cases.min_seconds;

function caseList() {
  const list = [];
  for (const t of cases.targets) for (const s of cases.samplers) for (const n of cases.batch_sizes) {
    list.push({ target: t, sampler: s, batch: n, settings: { ...t.settings, ...s.settings, batch_size: n } });
  }
  return list;
}

/** Per-part cost of one SGLD/SGHMC step on logistic regression (`sgviz-bench --breakdown`). */
function nativeBreakdown() {
  const out = execFileSync(join(ROOT, 'target/release/sgviz-bench'), ['--breakdown', '--min-seconds', quick ? '0.05' : '0.3'], { encoding: 'utf8' });
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

/** The hand-written part of BENCHMARKS.md (after HAND_WRITTEN), kept when the file is rewritten. */
const HAND_WRITTEN = '<!-- Hand-written below this line (before/after records, comparisons); make bench keeps it. -->';
async function handWrittenPart() {
  const text = await readFile(join(ROOT, 'BENCHMARKS.md'), 'utf8').catch(() => '');
  const at = text.indexOf(HAND_WRITTEN);
  return at < 0 ? '' : text.slice(at);
}

function nativeThroughput() {
  const out = execFileSync(join(ROOT, 'target/release/sgviz-bench'), [join(ROOT, 'bench/cases.json'), '--min-seconds', String(minSeconds)], { encoding: 'utf8' });
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

async function wasmThroughput() {
  const pkg = await import(join(DIST, 'www/pkg/sgviz.js'));
  pkg.initSync({ module: await readFile(join(DIST, 'www/pkg/sgviz_bg.wasm')) });
  const rows = [];
  for (const c of caseList()) {
    const chain = new pkg.BenchChain(c.target.target, c.sampler.sampler, JSON.stringify(c.settings), cases.seed);
    chain.run(1000);
    const steps0 = chain.steps();
    const evals0 = chain.grad_evals();
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    let chunk = 1000;
    while ((performance.now() - started) / 1000 < minSeconds && chain.status() === 'running') {
      chain.run(chunk);
      chunk = Math.min(chunk * 2, 1 << 22);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStarted);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    rows.push({
      steps_per_cpu_second: (chain.steps() - steps0) / cpuSeconds,
      target: c.target.label, sampler: c.sampler.sampler, batch_size: c.batch, seconds,
      steps_per_second: (chain.steps() - steps0) / seconds,
      grad_evals_per_second: (chain.grad_evals() - evals0) / seconds,
      status: chain.status(),
    });
    chain.free();
  }
  return rows;
}

function quantile(sorted, q) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function browserFigures() {
  const { startServer, launchBrowser } = await import(join(ROOT, 'tests/e2e/harness.mjs'));
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    // Record the moment the page declares itself ready (ms since navigation start).
    await page.addInitScript(() => {
      let ready = false;
      Object.defineProperty(window, '__ready', {
        configurable: true,
        get: () => ready,
        set: (v) => { ready = v; if (v && window.__readyAt === undefined) window.__readyAt = performance.now(); },
      });
    });
    await page.goto(server.url);
    await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
    const readyMs = await page.evaluate(() => window.__readyAt);
    // Fill the ring (10⁵ retained samples on the 2-D panel) quickly, then measure at two speeds.
    await page.evaluate(() => { window.sgviz.app.speed = 20000; });
    // The page plays on load; press Play only if it is paused.
    if (!(await page.evaluate(() => window.sgviz.app.playing))) await page.click('#play');
    await page.waitForFunction(() => window.sgviz.state().retained >= 100000, null, { timeout: 120_000, polling: 250 });
    const results = [];
    for (const speed of [20, 2000]) {
      const measured = await page.evaluate(async ({ speed, ms }) => {
        window.sgviz.app.speed = speed;
        await new Promise((ok) => setTimeout(ok, 300));
        window.sgviz.app.frameTimes.length = 0;
        const intervals = [];
        let last = performance.now();
        const until = last + ms;
        await new Promise((ok) => {
          const tick = (now) => { intervals.push(now - last); last = now; if (now < until) requestAnimationFrame(tick); else ok(); };
          requestAnimationFrame(tick);
        });
        return { work: window.sgviz.frameTimes(), intervals, retained: window.sgviz.state().retained };
      }, { speed, ms: quick ? 2000 : 5000 });
      const work = [...measured.work].sort((a, b) => a - b);
      const intervals = [...measured.intervals].sort((a, b) => a - b);
      results.push({
        speed, retained: measured.retained, frames: work.length,
        work_median: quantile(work, 0.5), work_p95: quantile(work, 0.95),
        interval_median: quantile(intervals, 0.5), interval_p95: quantile(intervals, 0.95),
      });
    }
    await page.click('#play');
    return { readyMs, results };
  } finally {
    await browser.close();
    await server.close();
  }
}

async function sizes() {
  const wasm = await readFile(join(DIST, 'www/pkg/sgviz_bg.wasm'));
  const jsFiles = [join(DIST, 'www/pkg/sgviz.js'), ...(await readdir(join(DIST, 'www'))).filter((f) => f.endsWith('.js')).map((f) => join(DIST, 'www', f))];
  const js = Buffer.concat(await Promise.all(jsFiles.map((f) => readFile(f))));
  return { wasmRaw: wasm.length, wasmGzip: gzipSync(wasm, { level: 9 }).length, jsRaw: js.length, jsGzip: gzipSync(js, { level: 9 }).length, jsFiles: jsFiles.length };
}

function sh(cmd, cmdArgs) {
  try { return execFileSync(cmd, cmdArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n')[0]; } catch { return 'unavailable'; }
}

async function machine() {
  const cpuinfo = await readFile('/proc/cpuinfo', 'utf8').catch(() => '');
  const model = (cpuinfo.match(/model name\s*:\s*(.*)/) || [])[1] || os.cpus()[0]?.model || 'unknown';
  return {
    nproc: sh('nproc', []), cpu: model, memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    rustc: sh('rustc', ['--version']), node: process.version,
    chromium: sh(process.env.CHROMIUM || '/usr/bin/chromium', ['--version']),
    load: os.loadavg().map((x) => x.toFixed(2)).join(' '),
  };
}

const SGAIS_REPLICAS = quick ? 1 : 4;

/**
 * SGAIS and the full-data AIS baseline at the same settings (the AIS with its own seed), through
 * the CLI with independent replicas: error mean ± sd, wall and thread-CPU seconds per run.
 */
function sgaisVsAis() {
  const cases = quick
    ? [{ n: 10000, preset: 'accurate', replicas: 1 }]
    : [{ n: 10000, preset: 'accurate', replicas: SGAIS_REPLICAS }, { n: 100000, preset: 'accurate', replicas: SGAIS_REPLICAS }, { n: 100000, preset: 'paper', replicas: 2 }];
  return cases.map(({ n, preset, replicas }) => {
    const out = execFileSync(join(ROOT, 'target/release/sgviz'), ['evidence', '--target', 'linreg', '--set', `n_points=${n}`, '--preset', preset, '--seed', '1', '--replicas', String(replicas), '--ais'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const s = JSON.parse(out.trim().split('\n').pop());
    return {
      n, preset, replicas,
      sgaisError: s.error, sgaisSeconds: s.seconds, sgaisCpu: s.cpu_seconds, sgaisEvals: s.datum_evals,
      aisError: s.ais.error, aisSeconds: s.ais_seconds, aisCpu: s.ais_cpu_seconds, aisEvals: s.ais_datum_evals,
    };
  });
}

const fmt = (x, digits = 3) => (Number.isFinite(x) ? x.toPrecision(digits) : String(x));
const sci = (x) => (Number.isFinite(x) ? x.toExponential(2) : String(x));

/** The "## SGAIS vs full-data AIS" section from the rows of sgaisVsAis(). */
function sgaisSection(rows) {
  const lines = [];
lines.push('## SGAIS vs full-data AIS (`sgviz evidence --target linreg --replicas R --ais`, Bayesian linear regression, d = 5, exact log Z known)', '');
lines.push(`Both at the same settings (the accurate defaults: M = 50, ESS* = 25, K = 10, resampling always, η = lr/(n_prev + λ|C|), estimated β̂; or the paper preset), R independent replicas each (seed 1, replica seeds derived from it); the AIS baseline runs with its own seed. Error = log Ẑ − log Z, mean ± sd over the replicas; times are per run (wall, and thread CPU, which other jobs on the shared machine do not inflate); evals = per-datum likelihood/gradient evaluations. Equal accuracy is judged from the error columns. Measured ${new Date().toISOString().slice(0, 10)}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} cores.`, '');
lines.push('| N | settings | R | SGAIS error | SGAIS s (CPU s) | SGAIS evals | AIS error | AIS s (CPU s) | AIS evals | AIS/SGAIS time (CPU) |');
lines.push('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
const spread = (e) => (e ? `${e.mean >= 0 ? '+' : ''}${fmt(e.mean)}${e.sd === null || e.sd === undefined ? '' : ` ± ${fmt(e.sd, 2)}`}` : 'n/a');
for (const r of rows) {
  lines.push(`| ${r.n} | ${r.preset} | ${r.replicas} | ${spread(r.sgaisError)} | ${fmt(r.sgaisSeconds)} (${fmt(r.sgaisCpu)}) | ${sci(r.sgaisEvals)} | ${spread(r.aisError)} | ${fmt(r.aisSeconds)} (${fmt(r.aisCpu)}) | ${sci(r.aisEvals)} | ${fmt(r.aisSeconds / r.sgaisSeconds)} (${fmt(r.aisCpu / r.sgaisCpu)}) |`);
}
  return lines.join('\n');
}


if (args.has('--sgais-only')) {
  // Only the SGAIS vs AIS section, updated in place (the rest of BENCHMARKS.md is kept).
  console.error('bench: SGAIS vs AIS…');
  const section = sgaisSection(sgaisVsAis());
  console.log(section);
  if (!args.has('--no-write') && !quick) {
    const old = await readFile(join(ROOT, 'BENCHMARKS.md'), 'utf8').catch(() => '# Benchmarks\n');
    await writeFile(join(ROOT, 'BENCHMARKS.md'), replaceSection(old, '## SGAIS vs full-data AIS', section));
    console.error('bench: updated the SGAIS vs full-data AIS section of BENCHMARKS.md');
  }
  process.exit(0);
}

const host = await machine();
console.error('bench: native throughput…');
const native = nativeThroughput();
console.error('bench: native per-part breakdown…');
const breakdown = nativeBreakdown();
console.error('bench: wasm throughput under Node…');
const wasm = await wasmThroughput();
const size = await sizes();
let browser = null;
if (!args.has('--no-browser')) {
  console.error('bench: headless Chromium…');
  try { browser = await browserFigures(); } catch (error) { browser = { error: String(error.message || error) }; }
}
console.error('bench: SGAIS vs AIS…');
const sgais = sgaisVsAis();
const lines = [];
lines.push('## Sampler throughput (logistic regression, N = 10⁴, `logreg_dd`, chains start at the mode)', '');
lines.push('Native: `target/release/sgviz-bench`; wasm: the `dist/` build under Node (`initSync`), same cases and seed. Steps/CPU-s divides by the thread\'s (native) or process\'s (Node) CPU time, so it is not distorted by other jobs on the shared machine; the wasm/native ratio uses it. Grad evals = per-datum gradient evaluations.', '');
lines.push('| target | sampler | n | native steps/s | native steps/CPU-s | native grad evals/s | wasm steps/s | wasm steps/CPU-s | wasm grad evals/s | wasm/native (per CPU-s) | status |');
lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const n of native) {
  const w = wasm.find((x) => x.target === n.target && x.sampler === n.sampler && x.batch_size === n.batch_size);
  const status = n.status === 'running' && w?.status === 'running' ? 'ok' : `native ${n.status}; wasm ${w?.status}`;
  lines.push(`| ${n.target} | ${n.sampler} | ${n.batch_size} | ${sci(n.steps_per_second)} | ${sci(n.steps_per_cpu_second)} | ${sci(n.grad_evals_per_second)} | ${sci(w?.steps_per_second)} | ${sci(w?.steps_per_cpu_second)} | ${sci(w?.grad_evals_per_second)} | ${fmt(w ? w.steps_per_cpu_second / n.steps_per_cpu_second : NaN, 2)} | ${status} |`);
}
lines.push('', '### Where one step\'s time goes (native, logreg d=4, n = 32)', '');
lines.push('`sgviz-bench --breakdown`: each part timed alone on this thread\'s CPU clock (median of 5 runs), θ at the mode, gradients on stored fresh minibatches. "limit" = the step\'s irreducible work (n index draws + n dot products and sigmoids + d normals).', '');
lines.push('| part | ns per step | what |', '|---|---:|---|');
for (const b of breakdown) lines.push(`| ${b.part} | ${fmt(b.ns_per_step)} | ${b.what} |`);
lines.push('', '## Browser (headless Chromium, `--disable-gpu`, software rendering)', '');
if (!browser) lines.push('skipped (--no-browser)');
else if (browser.error) lines.push(`failed: ${browser.error}`);
else {
  lines.push(`Time to first interactive render (navigation start → \`window.__ready\`): **${fmt(browser.readyMs, 4)} ms**`, '');
  lines.push('Frame times while playing SGLD on the 2-D Gaussian with the sample ring full. "work" = the page\'s own probe (`window.sgviz.frameTimes()`: sampling + drawing inside one frame); "interval" = time between animation frames.', '');
  lines.push('| steps/frame | retained samples | frames | work median (ms) | work p95 (ms) | interval median (ms) | interval p95 (ms) | fps (median interval) |');
  lines.push('|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of browser.results) {
    lines.push(`| ${r.speed} | ${r.retained} | ${r.frames} | ${fmt(r.work_median)} | ${fmt(r.work_p95)} | ${fmt(r.interval_median)} | ${fmt(r.interval_p95)} | ${fmt(1000 / r.interval_median)} |`);
  }
}
lines.push('', '## Size', '');
lines.push('| artefact | raw bytes | gzip -9 bytes |', '|---|---:|---:|');
lines.push(`| sgviz_bg.wasm | ${size.wasmRaw} | ${size.wasmGzip} = ${(size.wasmGzip / 1024).toFixed(1)} KiB (target ≤ 400 KB) |`);
lines.push(`| JavaScript (${size.jsFiles} files incl. wasm-bindgen glue) | ${size.jsRaw} | ${size.jsGzip} |`);
lines.push('', sgaisSection(sgais));
const table = lines.join('\n');
console.log(table);

const header = [
  '# Benchmarks', '',
  'Latest figures from `make bench` (scripts/bench.sh → bench/bench.mjs; cases in bench/cases.json). Nothing here is asserted by tests.', '',
  '## Machine', '',
  `- ${host.nproc} cores: ${host.cpu}, ${host.memory} RAM (load average at start: ${host.load}; the machine is shared, so wall-clock rates vary — native steps/CPU-s is the contention-free figure)`,
  `- ${host.rustc}; Node ${host.node}; ${host.chromium}`,
  `- Date: ${new Date().toISOString()}`, '',
].join('\n');
if (!args.has('--no-write') && !quick) {
  // Keeps everything below the hand-written marker, including the "## SGAIS defaults" section
  // that bench/sgais-defaults.mjs writes (a 15-minute sweep run on its own).
  const kept = await handWrittenPart();
  await writeFile(join(ROOT, 'BENCHMARKS.md'), `${header}\n${table}\n${kept ? `\n${kept}` : ''}`);
  console.error('bench: wrote BENCHMARKS.md');
}
