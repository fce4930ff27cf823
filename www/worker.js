// A plain module Web Worker with its own wasm instance (no SharedArrayBuffer, so no COOP/COEP
// headers: it works from any static host). It computes and posts; it never draws (plotters'
// text measurement panics in workers, WEB-NOTES.md), so charts travel as JSON specs and the main
// thread draws them. One job at a time; the page stops a job by terminating the worker. Between a
// job's slices the worker yields to its messages (`betweenSlices`), so a small request (`mixing`,
// the mixing panel's ESS: www/jobs.js `askPool`) is answered within one slice of a job that runs for
// minutes: the pool's workers serve it, and the page keeps one core of its own (issue 26).
// Jobs: `prepare` (the truth, contour grid and, for large targets, the built data), `promise` (the
// promises of chains the page is about to build, src/promise_memo.rs), `sweep` (the
// phase picture and bias–mixing sweep), `sgais` (one SGAIS replica or AIS baseline), `sgaisGroup`
// (several replicas interleaved, so each reports from the start), `multichain`
// (four chains from over-dispersed starts and their R̂), `scan` (a figure's scan chart: one measured
// number per knob value, src/scan.rs), `nested` (one nested-sampling replica at one data size,
// src/sgais/nested_page.rs), `mixing` (a chain's ESS over its window, www/mixing.js).

import init, { Lab, NestedRunner, SgaisRunner, ScanRunner, adopt_prepared, last_panic, mixing_of_window_json, promise_memo_json, curvature_memo_json } from './pkg/sgviz.js';

/**
 * The wasm instance: from the compiled module the page posts first (www/jobs.js `setWasmModule`:
 * compiled once in the page, its code shared by every worker), else compiled here from the file.
 */
let ready = null;
/** Minimum interval between progress messages, in milliseconds. */
const POST_EVERY_MS = 150;
/** Minimum interval between chart messages of the sweep, in milliseconds. */
const CHARTS_EVERY_MS = 400;
/**
 * At most this share of the sweep job's time goes to computing its progress charts: a whole-run
 * (scheduled) sweep's charts measure ESS over up to 200,000 retained samples per run and cost
 * seconds each, 99 % of the job when drawn every 400 ms (BENCHMARKS.md "CI time", fourth round).
 */
const CHARTS_SHARE = 0.2;

const post = (message, transfer) => self.postMessage(message, transfer || []);

/** Yield to the worker's message queue (a task of its own, not clamped like a nested setTimeout): a waiting request runs first. */
const channel = new MessageChannel();
const resumes = [];
channel.port1.onmessage = () => resumes.shift()?.();
function betweenSlices() {
  return new Promise((resolve) => { resumes.push(resolve); channel.port2.postMessage(null); });
}
/** The next call's work, aiming at about 50 ms a call: 0.7× after a slower call, 1.3× after a faster one, within [min, max]. */
const nextWork = (work, tookMs, min, max) => Math.max(min, Math.min(max, Math.round(work * (tookMs > 50 ? 0.7 : 1.3))));

/** A lab for the page's chain settings, with its uploaded data if any. */
function buildLab({ target, sampler, settings, seed, data }, deferred) {
  const json = JSON.stringify(settings || {});
  const lab = deferred ? Lab.deferred(target, sampler, json, seed, 64, 64, 1) : new Lab(target, sampler, json, seed, 64, 64, 1);
  if (data) lab.set_data(data.bytes, data.standardise);
  return lab;
}

/** The truth (finishing any reference run), contour grid and, for large targets, the data. */
async function prepare(job) {
  const lab = buildLab(job, false);
  let last = 0;
  for (;;) {
    await betweenSlices();
    const progress = JSON.parse(lab.advance_truth(2_000));
    if (!progress.running) break;
    if (performance.now() - last > POST_EVERY_MS) {
      last = performance.now();
      post({ type: 'progress', fraction: progress.fraction, text: progress.text });
    }
  }
  const header = lab.export_model_header();
  const model = header ? { header, features: lab.export_model_features(), labels: lab.export_model_labels() } : null;
  // A large target's chain is built on the page from these parts: its promise (the setting
  // warning's draws over the model, 136 ms of CPU for logistic regression at N = 10⁵, cost lesson
  // step 1) and grid scans go with them, as a promise job's do (src/promise_memo.rs).
  const memos = model ? { memo: promise_memo_json(), curvature: curvature_memo_json() } : {};
  post({ type: 'done', prepared: lab.export_prepared_json(), model, ...memos }, model ? [model.features.buffer, model.labels.buffer] : []);
}

/**
 * Build chains only for their promises (src/promise_memo.rs: the setting warning's Monte-Carlo
 * draws, 40–70 ms for SGFS-d) and post this worker's promise memo for the page to import, with
 * the grid scans those builds made (src/curvature.rs: a 2-D non-Gaussian target's curvature).
 */
async function promise(job) {
  for (const build of job.builds) {
    await betweenSlices();
    buildLab(build, true).free();
  }
  post({ type: 'done', memo: promise_memo_json(), curvature: curvature_memo_json() });
}

/** The background analysis on the main chain's settings and the page's truth. */
async function sweep(job) {
  adopt_prepared(job.prepared);
  const lab = buildLab(job, true);
  lab.adopt_cached_truth();
  lab.start_analysis(job.budget, job.events);
  let slice = 20_000;
  let posted = 0;
  let charted = 0;
  let chartCost = 0;
  for (;;) {
    await betweenSlices();
    const started = performance.now();
    const fraction = lab.advance_analysis(slice);
    slice = Math.max(1_000, Math.min(5e6, slice * (performance.now() - started > 20 ? 0.7 : 1.3)));
    const now = performance.now();
    const done = fraction >= 1 || fraction < 0;
    if (done || now - charted > Math.max(CHARTS_EVERY_MS, chartCost / CHARTS_SHARE)) {
      const charts = lab.analysis_charts_json();
      charted = performance.now();
      chartCost = charted - now;
      posted = charted;
      post({ type: done ? 'done' : 'progress', fraction, charts });
    } else if (now - posted > POST_EVERY_MS) {
      posted = now;
      post({ type: 'progress', fraction });
    }
    if (done) return;
  }
}

/**
 * Drive a run to its end: `runner.advance(work)` (false once ended) with the work per call adapted
 * to about 50 ms within [min, max], `runner.result_json(seconds)` posted now and then and at the end
 * with the wall time since `started`.
 */
async function drive(runner, started, { work, min, max }) {
  let posted = performance.now();
  for (;;) {
    await betweenSlices();
    const before = performance.now();
    const running = runner.advance(work);
    work = nextWork(work, performance.now() - before, min, max);
    const seconds = (performance.now() - started) / 1000;
    if (!running) {
      post({ type: 'done', result: runner.result_json(seconds) });
      return;
    }
    if (performance.now() - posted > 4 * POST_EVERY_MS) {
      posted = performance.now();
      post({ type: 'progress', result: runner.result_json(seconds) });
    }
  }
}

/** One SGAIS run, advanced by particle-SGHMC steps. */
function sgais(job) {
  const started = performance.now();
  return drive(new SgaisRunner(JSON.stringify(job.spec), job.csv || undefined), started, { work: 2_000, min: 200, max: 200_000 });
}

/**
 * Several SGAIS runs (replicas of one variant, www/sgais.js bundleRuns) interleaved in this worker:
 * each unfinished run in turn gets one call of the same budget (about 50 ms), so with fewer workers
 * than replicas (one on a 2-core laptop, www/jobs.js POOL_SIZE) they report side by side from their
 * first chunk on instead of one waiting for the other to finish (issue 26). Each run is its own
 * SgaisRunner with its own seed and state, so its results are those of the run alone
 * (sgais-classtime.test.mjs). Posts
 * `{type: 'part', index, result, finished}` per run (as each chunk ends, and at most every 600 ms
 * within one) and `{type: 'done'}` once all have ended.
 */
async function sgaisGroup(job) {
  const runs = job.specs.map((spec) => ({ runner: new SgaisRunner(JSON.stringify(spec), job.csv || undefined), seconds: 0, posted: 0, chunks: 0, running: true }));
  const partPost = (index, finished) => {
    const run = runs[index];
    run.posted = performance.now();
    run.chunks = run.runner.chunks();
    post({ type: 'part', index, finished, result: run.runner.result_json(run.seconds) });
  };
  // One budget for every run of a round, adapted from the round's mean time per run: the runs
  // advance in lockstep, so one cannot race ahead of its partner on a machine whose load makes one
  // call slow (a budget per run did: replica 2 finished while replica 1, its calls preempted and its
  // budget shrunk, was still in its first chunk; sgais-classtime, stop 47).
  let work = 2_000;
  for (;;) {
    const live = runs.map((run, index) => [run, index]).filter(([run]) => run.running);
    if (!live.length) break;
    let roundTook = 0;
    for (const [run, index] of live) {
      await betweenSlices();
      const before = performance.now();
      run.running = run.runner.advance(work);
      const took = performance.now() - before;
      roundTook += took;
      // Each run's own CPU time in this worker: the seconds the table shows are that run's cost.
      run.seconds += took / 1000;
      // A chunk that ended is posted at once (a partner must not look idle beside a run that
      // finished within the rate limit, sgais-classtime); progress within a chunk, rate-limited.
      if (!run.running) partPost(index, true);
      else if (run.runner.chunks() > run.chunks || performance.now() - run.posted > 4 * POST_EVERY_MS) partPost(index, false);
    }
    work = nextWork(work, roundTook / live.length, 200, 200_000);
  }
  post({ type: 'done' });
}

/** One nested-sampling run, advanced by iterations (each ns_steps constrained SGHMC steps on the full data). */
function nested(job) {
  const started = performance.now();
  return drive(new NestedRunner(JSON.stringify(job.spec), job.csv || undefined), started, { work: 4, min: 1, max: 10_000 });
}

/** Several chains from over-dispersed starts: R̂, bulk/tail ESS and MCSE per coordinate. */
function multichain(job) {
  const lab = buildLab(job, false);
  post({ type: 'done', result: lab.multichain_json(job.chains, job.steps) });
}

/** A figure's scan chart: runs at each knob value, the chart and points posted as they finish. */
async function scan(job) {
  const runner = new ScanRunner(JSON.stringify(job.spec));
  let slice = 20_000;
  let posted = 0;
  for (;;) {
    await betweenSlices();
    const started = performance.now();
    const fraction = runner.advance(slice);
    slice = Math.max(1_000, Math.min(5e6, slice * (performance.now() - started > 50 ? 0.7 : 1.3)));
    const done = fraction >= 1 || fraction < 0;
    if (fraction < 0) throw new Error(runner.failure() || 'a run of the scan failed');
    if (done || performance.now() - posted > CHARTS_EVERY_MS) {
      posted = performance.now();
      post({ type: done ? 'done' : 'progress', fraction, chart: runner.chart_json(), points: runner.points_json() });
    }
    if (done) return;
  }
}

/**
 * A chain's ESS over its window from the packed samples the page took (www/mixing.js through
 * www/jobs.js `askPool`): the same `mixing_json` the page's main thread computed before (2–9 ms a
 * call there, issue 26 stop 48). Answered between a running job's slices; `ask` is the request's id.
 */
function mixing(request) {
  return { mixing: mixing_of_window_json(request.packed) };
}

const JOBS = { prepare, promise, sweep, sgais, sgaisGroup, nested, multichain, scan };
/** Requests answered at once, beside the job (between its slices): `{ask, ...answer}` or `{ask, error}`. */
const REQUESTS = { mixing };

self.onmessage = async ({ data }) => {
  if (data.kind === 'module') {
    ready ||= init({ module_or_path: data.module });
    return;
  }
  if (REQUESTS[data.kind]) {
    await answerRequest(data);
    return;
  }
  try {
    ready ||= init();
    await ready;
    await JOBS[data.kind](data);
  } catch (error) {
    post({ type: 'error', message: last_panic() || String(error.message || error) });
  }
};

async function answerRequest(data) {
  try {
    ready ||= init();
    await ready;
    post({ ask: data.ask, ...REQUESTS[data.kind](data) });
  } catch (error) {
    post({ ask: data.ask, error: last_panic() || String(error.message || error) });
  }
}
