// What the SGAIS panel says it shows while its runs go on (issue 26): with fewer workers than runs
// (one on a 2-core laptop) the variants go one after another while the replicas of one go in pairs
// that take turns in a worker (www/worker.js sgaisGroup, www/sgais.js bundleRuns), so the status line names the finished runs (whose curves
// are complete), the running ones (with their chunk) and those still waiting; `replicaLines` gives
// every replica's log Ẑ so far with the standard error its own weights predict.

import { formatCount, formatNumber } from './format.js';

const names = (runs) => [...new Set(runs.map((r) => r.label))].join('; ');

/** A run's name: its label, with its replica number when its label has several. */
const runName = (run, runs) => (runs.filter((r) => r.label === run.label && !r.ns && r.spec?.ais_n == null).length > 1 && !run.ns && run.spec?.ais_n == null ? `${run.label} replica ${run.spec.replica + 1}` : run.label);

/**
 * One line per variant with replicas: each replica's log Ẑ so far ± √(its weights' predicted
 * variance, ChunkRecord.log_z_var) at its own n. Empty for variants with one replica.
 */
export function replicaLines(runs, chunkSize) {
  const sgais = runs.filter((r) => !r.ns && r.spec.ais_n == null);
  const labels = [...new Set(sgais.map((r) => r.label))];
  return labels.map((label) => {
    const own = sgais.filter((r) => r.label === label);
    if (own.length < 2) return '';
    const parts = own.map((r) => {
      const last = r.result?.result.records.at(-1);
      if (!last) return `${r.spec.replica + 1}: no chunk yet`;
      const of = Math.ceil(r.result.n_total / chunkSize);
      const se = Math.sqrt(Math.max(0, last.log_z_var ?? 0));
      return `${r.spec.replica + 1}: ${formatNumber(last.log_z, 6)} ± ${formatNumber(se)} at n = ${formatCount(last.n)}${r.done ? '' : ` (chunk ${formatCount(r.result.result.records.length)} of ${formatCount(of)})`}`;
    });
    return `${label} replicas (log Ẑ ± the standard error its own weights predict): ${parts.join('; ')}.`;
  }).filter(Boolean).join(' ');
}

/**
 * The status line. `runs`: the panel's runs ({label, done, error, started, result}); `workers`: the
 * size of the job pool; `chunks(run)`: [chunks finished, chunks in all] of a run that reported;
 * `mainCoreLent`: whether the pool has the page's core too (www/jobs.js `mainCoreLent`).
 */
export function progressLine(runs, workers, chunks, mainCoreLent = false) {
  const finished = runs.filter((r) => r.done && !r.error);
  const running = runs.filter((r) => !r.done && r.started);
  const waiting = runs.filter((r) => !r.done && !r.started);
  const parts = [];
  if (finished.length) parts.push(`Finished (complete curves): ${names(finished)}.`);
  if (running.length) {
    parts.push(`Running: ${running.map((r) => {
      const [k, of] = r.result ? chunks(r) : [0, 0];
      // Inside a chunk, how far its annealing has come (λ from 0 to 1): before its first chunk
      // ends a run shows that much (issue 26: the paper-scale shift run's first chunk is ≈ 10⁸
      // evaluations, tens of seconds of a worker).
      const active = r.result?.active;
      const inside = active ? `; chunk ${formatCount(k + 1)} annealed to λ = ${formatNumber(active.lambda, 2)}` : '';
      return of ? `${runName(r, runs)} (chunk ${formatCount(k)} of ${formatCount(of)}${inside})` : runName(r, runs);
    }).join('; ')}.`);
  }
  if (waiting.length) {
    const pool = `${workers} background worker${workers === 1 ? '' : 's'}`;
    // While an SGAIS step has paused the sampler, the page's core is lent to the runs
    // (www/sgais-focus.js): then no core is kept for the page (review s44).
    const cores = mainCoreLent ? 'on every core, the page\'s too, while the sampler above is paused' : 'keeping a core for the page';
    parts.push(`Waiting: ${[...new Set(waiting.map((r) => runName(r, runs)))].join('; ')} (this device runs ${pool} at a time, ${cores}, so the runs go in this order, the replicas of a run two at a time, taking turns).`);
  }
  return parts.join(' ');
}
