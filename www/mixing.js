// A chain's mixing numbers (the ESS of the displayed pair over its last 20,000 samples, and per
// 1,000 gradient evaluations: `mixing_json`) computed in a worker of their own. On the main thread
// the FFTs took 2–9 ms of CPU a call, twice a second for each chain shown, and the lesson's claims
// about the ESS asked again with the numbers at 5 Hz (issue 26, stop 48: BENCHMARKS.md "Issue 26,
// stop 48"). The page takes the window (`mixing_window`, O(window), a copy), posts it, and shows the
// worker's numbers when they arrive, with the count of recorded samples they were computed on.
// The worker is outside the job pool (www/jobs.js): on 2 cores the pool has one worker, which runs
// the sweep for minutes; a request queued there would wait for it, or stop it.

import { compiledModule } from './jobs.js';
import { wake } from './frame-loop.js';

let worker = null;
let nextId = 1;
/** Request id → `{ lab, recorded, onMixing, again }` for the requests the worker has not answered. */
const waiting = new Map();
/** Chain (a wasm Lab) → its newest mixing numbers, with `recorded`: its recorded samples when its window was taken. */
const latest = new WeakMap();
/** Requests posted and answered, and answers computed on the page after the worker failed (tests read them). */
export const mixingCounts = { posted: 0, answered: 0, onPage: 0 };

function startWorker() {
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const module = compiledModule();
  if (module) worker.postMessage({ kind: 'module', module });
  worker.onmessage = ({ data }) => (data.type === 'done' ? answer(data.id, JSON.parse(data.mixing)) : workerFailed());
  worker.onerror = workerFailed;
}

/**
 * Ask for `lab`'s mixing numbers; `onMixing(mixing)` gets them when the worker answers. While a
 * request for `lab` is unanswered a second one is not posted: the newest `onMixing` is asked again,
 * on a window taken when the first answer arrives.
 */
export function requestMixing(lab, onMixing) {
  const unanswered = [...waiting.values()].find((request) => request.lab === lab);
  if (unanswered) {
    unanswered.again = onMixing;
    return;
  }
  const packed = lab.mixing_window();
  const recorded = lab.n_recorded();
  if (!worker) startWorker();
  const id = nextId++;
  waiting.set(id, { lab, recorded, onMixing, again: null });
  mixingCounts.posted += 1;
  worker.postMessage({ kind: 'mixing', id, packed }, [packed.buffer]);
}

/** `lab`'s newest mixing numbers from the worker (with `recorded`), or null before the first answer. */
export function latestMixing(lab) {
  return latest.get(lab) ?? null;
}

function answer(id, mixing) {
  const request = waiting.get(id);
  if (!request) return;
  waiting.delete(id);
  mixingCounts.answered += 1;
  const value = { ...mixing, recorded: request.recorded };
  latest.set(request.lab, value);
  wake();
  request.onMixing(value);
  if (request.again) requestAgain(request.lab, request.again);
}

/** A request made while another was unanswered, for a chain that may have been freed since. */
function requestAgain(lab, onMixing) {
  try {
    requestMixing(lab, onMixing);
  } catch {
    // The chain was replaced (freed) meanwhile: nothing to show for it.
  }
}

/** The worker broke (it cannot start, or its wasm panicked): the unanswered requests are computed here, and the next one starts a new worker. */
function workerFailed() {
  worker?.terminate();
  worker = null;
  const requests = [...waiting.entries()];
  waiting.clear();
  for (const [id, request] of requests) {
    try {
      waiting.set(id, request);
      mixingCounts.onPage += 1;
      answer(id, JSON.parse(request.lab.mixing_json()));
    } catch {
      waiting.delete(id);
    }
  }
}
