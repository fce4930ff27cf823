// A small pool of module Web Workers (www/worker.js), each with its own wasm instance, for
// everything that is not drawing: truth, data generation, the sweep, SGAIS, nested sampling, the
// figure scans and the four-chain check. Every job has an id and a group; starting a job in a
// group cancels the group's stale jobs when asked, and cancelling terminates the worker at once
// (Stop stops immediately; no cooperative checks in the core). The pool's size caps the live
// workers of every kind together: an urgent job (one the page waits for) goes to the front of
// the queue and takes the worker of a running restartable job (the sweep, which starts over
// later) if there is one; it never adds a worker. Small requests (the mixing panel's ESS,
// www/mixing.js) go to the pool's workers too (`askPool`): an idle one, else a new one within the
// cap, else a busy one, which answers between its job's slices (www/worker.js). So the page never
// has more workers than the pool's size (issue 26: one fewer than the cores).

import { wake } from './frame-loop.js';

/**
 * Workers kept for background jobs: one fewer than the cores (at least one, at most 8), so that the
 * main thread keeps a core for the animation (issue 26: p95 frame interval ≤ 20 ms with jobs running).
 */
export const POOL_SIZE = Math.max(1, Math.min(8, (navigator.hardwareConcurrency || 2) - 1));
/**
 * Every core, for the times the main thread draws nothing that moves (an SGAIS step in view, the
 * main chain paused: www/sgais-focus.js); `lend()` says when.
 */
const ALL_CORES = Math.max(1, Math.min(8, navigator.hardwareConcurrency || 2));
let lend = () => false;

/** Let the pool use every core while `when()` holds (the main thread's core is idle then). */
export function lendMainCore(when) {
  lend = when;
  pump();
}

/** Whether the main thread's core is lent to the pool now (an SGAIS step paused the sampler). */
export function mainCoreLent() {
  return lend();
}

/** Workers the pool may run now: POOL_SIZE, or every core while the main thread's core is lent. */
export function poolSize() {
  return lend() ? ALL_CORES : POOL_SIZE;
}

let nextId = 1;
/** Workers alive now and at most so far (the cap's test reads them). */
const live = { now: 0, peak: 0 };
const idle = [];
const running = new Map(); // id → { worker, job }
/** The job a worker runs now (a worker's messages are routed by it). */
const jobOn = new Map(); // worker → job
/** Requests a worker has not answered: ask id → { worker, onAnswer, onLost }. */
const asks = new Map();
let nextAsk = 1;
const queue = [];
/** Jobs started per kind, for the tests and the benchmark. */
export const jobCounts = {};
/** Workers started since the page loaded (each one instantiates the wasm module). */
export const spawned = { count: 0 };
/** The page's compiled wasm module, posted to every new worker (none: each worker compiles its own). */
let wasmModule = null;

/**
 * Give new workers the page's compiled module: instantiating it costs a worker a fraction of
 * compiling the file again, and the code V8 optimises for hot functions is shared.
 */
export function setWasmModule(module) {
  wasmModule = module;
}

function spawn() {
  live.now += 1;
  live.peak = Math.max(live.peak, live.now);
  spawned.count += 1;
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  if (wasmModule) worker.postMessage({ kind: 'module', module: wasmModule });
  worker.onmessage = ({ data }) => (data.ask !== undefined ? answered(data) : jobMessage(worker, data));
  worker.onerror = (event) => workerBroke(worker, event);
  return worker;
}

/** Terminate a worker; the requests it had not answered are lost (their `onLost` runs). */
function terminate(worker) {
  worker.terminate();
  live.now -= 1;
  jobOn.delete(worker);
  for (const [ask, request] of [...asks]) {
    if (request.worker !== worker) continue;
    asks.delete(ask);
    request.onLost();
  }
}

function launch(job) {
  const worker = idle.pop() || spawn();
  running.set(job.id, { worker, job });
  jobOn.set(worker, job);
  worker.postMessage(job.payload, job.transfer);
}

/** A message of the job `worker` runs. */
function jobMessage(worker, data) {
  const job = jobOn.get(worker);
  if (!job || !running.has(job.id)) return;
  wake(); // the frame loop polls this job's results (www/frame-loop.js)
  if (data.type === 'done' || data.type === 'error') finish(job.id, false);
  job.onMessage(data);
}

/** An error the worker did not catch: its job fails; an idle worker is dropped. */
function workerBroke(worker, event) {
  const job = jobOn.get(worker);
  wake();
  if (job && running.has(job.id)) {
    finish(job.id, true);
    job.onMessage({ type: 'error', message: event.message || 'the worker failed' });
    return;
  }
  const at = idle.indexOf(worker);
  if (at >= 0) {
    idle.splice(at, 1);
    terminate(worker);
  }
}

/**
 * Ask a pool worker for a small answer (`payload.kind` a request of www/worker.js: `mixing`):
 * an idle worker, else a new one when the pool has room, else the busy worker with the fewest
 * unanswered requests, which answers between its job's slices. `onAnswer(data)` gets the worker's
 * answer (`data.error` when it failed); `onLost()` runs when the worker is terminated first (its
 * job cancelled or pre-empted). Never adds a worker beyond `poolSize()`.
 */
export function askPool(payload, transfer, onAnswer, onLost) {
  const ask = nextAsk++;
  const worker = workerToAsk();
  asks.set(ask, { worker, onAnswer, onLost });
  worker.postMessage({ ...payload, ask }, transfer);
  return ask;
}

function workerToAsk() {
  if (idle.length) return idle.at(-1);
  if (live.now < poolSize()) return spawnIdle();
  const load = (worker) => [...asks.values()].filter((request) => request.worker === worker).length;
  const busy = [...running.values()].map(({ worker }) => worker).sort((a, b) => load(a) - load(b));
  return busy[0] ?? spawnIdle();
}

function spawnIdle() {
  const worker = spawn();
  idle.push(worker);
  return worker;
}

function answered(data) {
  const request = asks.get(data.ask);
  if (!request) return;
  asks.delete(data.ask);
  wake();
  request.onAnswer(data);
}

/** Free a job's worker (terminated when cancelled or broken) and start the next queued job. */
function finish(id, kill) {
  const entry = running.get(id);
  if (!entry) return;
  running.delete(id);
  jobOn.delete(entry.worker);
  if (kill || idle.length + running.size >= poolSize()) terminate(entry.worker);
  else idle.push(entry.worker);
  pump();
}

function pump() {
  while (queue.length && running.size < poolSize()) launch(queue.shift());
}

/**
 * Run `payload` (with `payload.kind` one of prepare, sweep, sgais, nested, scan, chains) in a
 * worker. `urgent` jobs (the truth the page waits for, a build, a button's answer) start before
 * every queued job: at once when a worker is free, else in the place of a running `restartable`
 * job (the sweep: stopped and queued again to start over), else when the next worker frees up.
 * Returns the job id.
 */
export function startJob(payload, { group, onMessage, urgent = false, restartable = false, transfer = [] }) {
  const job = { id: nextId++, group, payload, onMessage, transfer, urgent, restartable: restartable && transfer.length === 0 };
  jobCounts[payload.kind] = (jobCounts[payload.kind] || 0) + 1;
  wake();
  if (urgent) {
    queueUrgent(job);
    if (running.size >= poolSize()) preemptRestartable();
  } else {
    queue.push(job);
  }
  pump();
  return job.id;
}

/** Queue `job` after the urgent jobs already queued and before every other. */
function queueUrgent(job) {
  const after = queue.findIndex((j) => !j.urgent);
  queue.splice(after < 0 ? queue.length : after, 0, job);
}

/** Stop one running restartable job to free its worker, and queue it again to start over. */
function preemptRestartable() {
  const entry = [...running.values()].find(({ job }) => job.restartable);
  if (!entry) return;
  running.delete(entry.job.id);
  jobOn.delete(entry.worker);
  terminate(entry.worker);
  queueUrgent(entry.job);
}

/** Workers alive now and the most alive at once since the page loaded. */
export function liveWorkers() {
  return { ...live };
}

/** Cancel one job (queued or running). */
export function cancelJob(id) {
  const at = queue.findIndex((j) => j.id === id);
  if (at >= 0) queue.splice(at, 1);
  finish(id, true);
}

/** Cancel every job of a group. */
export function cancelGroup(group) {
  for (const job of queue.filter((j) => j.group === group)) cancelJob(job.id);
  for (const [id, entry] of [...running]) if (entry.job.group === group) cancelJob(id);
}

/** Whether job `id` has a worker (started and not finished). */
export function jobRunning(id) {
  return running.has(id);
}

/** Jobs queued or running, by group (for the tests and the status line). */
export function activeJobs() {
  const out = {};
  for (const j of queue) out[j.group] = (out[j.group] || 0) + 1;
  for (const { job } of running.values()) out[job.group] = (out[job.group] || 0) + 1;
  return out;
}
