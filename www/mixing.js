// A chain's mixing numbers (the ESS of the displayed pair over its last 20,000 samples, and per
// 1,000 gradient evaluations: `mixing_json`) computed in a worker. On the main thread
// the FFTs took 2–9 ms of CPU a call, twice a second for each chain shown, and the lesson's claims
// about the ESS asked again with the numbers at 5 Hz (issue 26, stop 48: BENCHMARKS.md "Issue 26,
// stop 48"). The page takes the window (`mixing_window`, O(window), a copy), posts it, and shows the
// worker's numbers when they arrive, with the count of recorded samples they were computed on.
// The requests go to the job pool's workers (www/jobs.js `askPool`): an idle one, or the one running
// the sweep for minutes, which answers between its slices (www/worker.js). Stop 48 had given the ESS
// a worker of its own beside the pool: two workers and the page on 2 cores; since stop 49 the page
// keeps the pool's rule, one worker fewer than the cores (issue 26).

import { askPool } from './jobs.js';
import { wake } from './frame-loop.js';

/** Request id → `{ lab, recorded, clears, onMixing, again }` for the requests the worker has not answered. */
const waiting = new Map();
/**
 * Chain (a wasm Lab) → its newest mixing numbers, with `recorded`: its recorded samples when its window was taken,
 * and `clears`: how many times its statistics had been cleared then (`statistics_cleared`). A slider move clears them;
 * numbers taken before belong to the old setting and are neither kept nor shown (stop 53's CI: SGHMC step 2
 * showed the κ = 0.01 chain's ESS 0.112 ✓ as κ = 0.2's, which the claim says fails).
 */
const latest = new WeakMap();
/**
 * Requests posted and answered, answers computed on the page after a worker failed or was late (`late`), requests lost
 * with their worker, and the wall ms from posting to the answer (sum and most: a busy worker
 * answers between its job's slices; the tests and bench/mixing-wait.mjs read them).
 */
export const mixingCounts = { posted: 0, answered: 0, onPage: 0, late: 0, lost: 0, waitedMs: 0, longestWaitMs: 0 };

/**
 * Ask for `lab`'s mixing numbers; `onMixing(mixing)` gets them when a worker answers. While a
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
  const request = { lab, recorded, clears: lab.statistics_cleared(), onMixing, again: null, posted: performance.now() };
  mixingCounts.posted += 1;
  const id = askPool({ kind: 'mixing', packed }, [packed.buffer], (data) => (data.error ? computeOnPage(id) : answer(id, JSON.parse(data.mixing), 'worker')), () => lost(id));
  waiting.set(id, request);
  setTimeout(() => { if (waiting.has(id)) { mixingCounts.late += 1; computeOnPage(id); } }, POOL_WAIT_MS);
}

/**
 * How long a request waits for the pool before the page computes it: a pool worker answers between
 * its job's slices, but some jobs are one long wasm call (`Lab::start_analysis`: 3.9 and 7.7 s on
 * sgld-mixture at load ≈ 5, BENCHMARKS.md "Issue 26, stop 49"), and the ESS must not go stale that
 * long. Then one `mixing_json` on the page (0.1–6 ms) answers it; the worker's late answer is dropped.
 */
const POOL_WAIT_MS = 1000;

/**
 * `lab`'s newest mixing numbers (with `recorded`, and `source`: 'worker', or 'page' when the page
 * computed them after the worker failed or was late), or null before the first answer.
 */
export function latestMixing(lab) {
  const value = latest.get(lab);
  return value && value.clears === lab.statistics_cleared() ? value : null;
}

function answer(id, mixing, source) {
  const request = waiting.get(id);
  if (!request) return;
  waiting.delete(id);
  mixingCounts.answered += 1;
  const waited = performance.now() - request.posted;
  mixingCounts.waitedMs += waited;
  mixingCounts.longestWaitMs = Math.max(mixingCounts.longestWaitMs, waited);
  if (!sameStatistics(request)) {
    requestAgain(request.lab, request.again || request.onMixing);
    return;
  }
  const value = { ...mixing, recorded: request.recorded, clears: request.clears, source };
  latest.set(request.lab, value);
  wake();
  request.onMixing(value);
  if (request.again) requestAgain(request.lab, request.again);
}

/** Whether `request`'s chain still has the statistics its window was taken from (false when it was freed). */
function sameStatistics(request) {
  try {
    return request.lab.statistics_cleared() === request.clears;
  } catch {
    return false;
  }
}

/** A request made while another was unanswered, for a chain that may have been freed since. */
function requestAgain(lab, onMixing) {
  try {
    requestMixing(lab, onMixing);
  } catch {
    // The chain was replaced (freed) meanwhile: nothing to show for it.
  }
}

/** The worker was terminated before it answered (its job cancelled or pre-empted): ask again, on a window taken now. */
function lost(id) {
  const request = waiting.get(id);
  if (!request) return;
  waiting.delete(id);
  mixingCounts.lost += 1;
  requestAgain(request.lab, request.again || request.onMixing);
}

/** The worker's wasm failed on this request (a panic), or has not answered within POOL_WAIT_MS: it is computed here. */
function computeOnPage(id) {
  const request = waiting.get(id);
  if (!request) return;
  mixingCounts.onPage += 1;
  try {
    request.recorded = request.lab.n_recorded(); // computed on the chain as it is now
    request.clears = request.lab.statistics_cleared();
    answer(id, JSON.parse(request.lab.mixing_json()), 'page');
  } catch {
    waiting.delete(id);
  }
}
