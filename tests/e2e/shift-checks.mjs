// The distribution-shift demo's runs as the page holds them once they have all finished (issue 23:
// one set of checks for the lecture-scale runs that class-time.test.mjs already waits for in
// `make test`, and for the larger runs of workers.test.mjs in `make soak`): every run finished in
// a worker without error, the in-order runs' annealing steps spike at the change points (paper
// Fig. 5b), the comparison sentence names the in-order leader and is the one on screen, and the
// main thread's wasm instance ran none of the heavy entry points.

import { mainThreadHeavyCalls } from './harness.mjs';

/** The change points of the shift design (paper §6.2): 3 → 5 clusters at 1,000, 5 → 7 at 10,000. */
export const CHANGE_POINTS = [1_000, 10_000];

/** Annealing steps at the chunk that takes in change point `cp`, and the median of its neighbours
 * (up to 6 chunks either side, skipping the next one, which may still be adapting). */
export function spikeAt(records, cp) {
  const at = records.findIndex((r) => r.n > cp);
  const neighbours = records.slice(Math.max(0, at - 6), at).concat(records.slice(at + 2, at + 8)).map((r) => r.annealing_steps).sort((a, b) => a - b);
  return { spike: records[at]?.annealing_steps, median: neighbours[Math.floor(neighbours.length / 2)] };
}

/**
 * The finished shift runs of the loaded page. `factors[cp]` is the factor by which every in-order
 * run's change-point chunk must exceed its neighbours' median, `skip` lists `"K = k at cp"` pairs
 * not asserted (with the reason at the caller), `heavyBefore` the main thread's heavy entry-point
 * counts before the demo was loaded (a test that computed something heavy in the page itself).
 * Returns the failures and the measured spikes.
 */
export async function checkShiftRuns(page, { runs: expectedRuns, factors, skip = [], heavyBefore = {} }) {
  const failures = [];
  const summary = await page.evaluate(() => window.sgviz.sgais());
  if (summary.runs.length !== expectedRuns) failures.push(`${summary.runs.length} runs, expected ${expectedRuns} (K = 3, 5, 7 in order and shuffled)`);
  if (!summary.runs.every((r) => r.done && !r.error)) failures.push(`not every run finished without error: ${JSON.stringify(summary.runs.map((r) => [r.label, r.done, r.error]))}`);
  const spikes = [];
  for (const run of summary.runs.filter((r) => r.label.includes('in order'))) {
    const k = run.label.match(/K = (\d+)/)[1];
    for (const cp of CHANGE_POINTS) {
      const { spike, median } = spikeAt(run.records, cp);
      spikes.push(`K = ${k} at ${cp}: ${spike} annealing steps vs median ${median}`);
      if (skip.includes(`K = ${k} at ${cp}`)) continue;
      if (!(spike >= factors[cp] * median)) failures.push(`${run.label}: ${spike} annealing steps at the chunk after n = ${cp} vs median ${median} of its neighbours (expected ≥ ${factors[cp]}×)`);
    }
  }
  const shift = summary.combined?.shift;
  if (!shift) return { failures: [...failures, 'no shift comparison combined'], spikes };
  const points = shift.change_points.map(([n]) => n).join(',');
  if (points !== CHANGE_POINTS.join(',')) failures.push(`change points ${points}`);
  const best = shift.best_of_orders ?? [];
  if (!best.length) failures.push(`no evidence per K to compare: ${JSON.stringify(shift).slice(0, 200)}`);
  else {
    const [winner] = best.reduce((a, b) => (b[1] > a[1] ? b : a));
    if (!shift.sentence.includes(`K = ${winner} has the highest evidence`)) failures.push(`the sentence does not name K = ${winner}: ${shift.sentence}`);
  }
  const onScreen = await page.textContent('#sgais-comparison');
  if (onScreen !== shift.sentence) failures.push(`#sgais-comparison shows "${onScreen}", not the combined sentence`);
  const heavy = Object.entries(await mainThreadHeavyCalls(page)).filter(([k, n]) => n > (heavyBefore[k] ?? 0));
  if (heavy.length) failures.push(`the main thread ran heavy entry points since the demo was loaded: ${JSON.stringify(heavy)} (before: ${JSON.stringify(heavyBefore)})`);
  return { failures, spikes };
}
