// What the SGAIS panel says it shows while its runs go on (issue 26): with fewer workers than runs
// (one on a 2-core laptop) the runs go one after another, so the status line names the finished
// runs (whose curves are complete), the running ones (with their chunk) and those still waiting.

import { formatCount } from './format.js';

const names = (runs) => [...new Set(runs.map((r) => r.label))].join('; ');

/**
 * The status line. `runs`: the panel's runs ({label, done, error, started, result}); `workers`: the
 * size of the job pool; `chunks(run)`: [chunks finished, chunks in all] of a run that reported.
 */
export function progressLine(runs, workers, chunks) {
  const finished = runs.filter((r) => r.done && !r.error);
  const running = runs.filter((r) => !r.done && r.started);
  const waiting = runs.filter((r) => !r.done && !r.started);
  const parts = [];
  if (finished.length) parts.push(`Finished (complete curves): ${names(finished)}.`);
  if (running.length) {
    parts.push(`Running: ${running.map((r) => {
      const [k, of] = r.result ? chunks(r) : [0, 0];
      return of ? `${r.label} (chunk ${formatCount(k)} of ${formatCount(of)})` : r.label;
    }).join('; ')}.`);
  }
  if (waiting.length) {
    const pool = `${workers} background worker${workers === 1 ? '' : 's'}`;
    parts.push(`Waiting: ${names(waiting)} (this device runs ${pool} at a time, so the runs go in this order).`);
  }
  return parts.join(' ');
}
