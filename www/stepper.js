// Running a chain for a bounded slice of one animation frame. Steps go in chunks sized from the
// chain's measured cost per step: the first chunk of a frame is one step, each next chunk at most
// four times the last and at most what the time left can pay for at the measured cost. A step
// that became expensive (a larger minibatch, N = 10⁶, a new sampler) therefore overruns the slice
// by about one step, not by a chunk sized for cheap steps.

/** Cost per step (ms) last measured on each chain. */
const costs = new WeakMap();
/** Cost assumed before a chain has been timed, and the floor (the clock is coarse). */
const FIRST_COST_MS = 0.05;
const MIN_COST_MS = 0.0002;

/**
 * Run at most `maxSteps` steps of `lab` within `budgetMs`; `done()` is asked before each chunk
 * (e.g. "has the compared chain caught up?"). Returns the number of steps run.
 */
export function runWithin(lab, { maxSteps, budgetMs, guarded, done = () => false }) {
  const started = performance.now();
  let cost = costs.get(lab) ?? FIRST_COST_MS;
  let previous = 0;
  let total = 0;
  while (total < maxSteps) {
    const left = budgetMs - (performance.now() - started);
    if (left <= 0 || done()) break;
    const chunk = Math.max(1, Math.min(maxSteps - total, previous ? 4 * previous : 1, Math.floor(left / cost)));
    const before = performance.now();
    const ran = guarded(() => lab.run(chunk)) || 0;
    total += ran;
    if (ran > 0) {
      cost = Math.max(MIN_COST_MS, (performance.now() - before) / ran);
      costs.set(lab, cost);
    }
    if (ran < chunk) break;
    previous = chunk;
  }
  return total;
}
