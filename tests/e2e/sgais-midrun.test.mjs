// Issue 26: the sentence under the SGAIS evidence chart while the shift lecture's runs arrive (its
// lesson step 4 and the panel). The page combines the runs' latest records with the core's
// `sgais_combine_ns_json` (www/sgais.js `draw`) and shows `shift.sentence`; mid-run it compared at
// the last checkpoint every run shares and said "K = 3 has the highest evidence at every
// checkpoint" when one run had a single chunk in. Here, in Node on the built wasm (no browser),
// the runs as the workers post them (`{label, ais_n, variant, n_total, result}`, www/sgais-plan.js
// `reportedOf`), at three moments of a hand-made arrival; the oracle is worked out in the test
// from the records themselves: the checkpoints all in-order runs share, the leader there, and how
// far each run has got.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const dist = (path) => new URL(`../../dist/www/${path}`, import.meta.url);
const pkg = await import(dist('pkg/sgviz.js'));
pkg.initSync({ module: readFileSync(dist('pkg/sgviz_bg.wasm')) });

const N_TOTAL = 12_000;
const CHUNK = 1_000;

/** A chunk record as the core writes it (only n and log Ẑ matter to the comparison). */
const record = (n, logZ) => ({ n, log_z: logZ, exact_log_z: null, annealing_steps: 2, ess: 50, min_step_ess: 40, datum_evals: 10 * n, learning_rate: 1e-4, noise_ratio: 0.1, log_z_var: 0 });

/** One run as a worker posts it, with its first `chunks` records of log Ẑ = −slope · n. */
function run(components, slope, chunks) {
  const records = Array.from({ length: chunks }, (_, i) => record(CHUNK * (i + 1), -slope * CHUNK * (i + 1)));
  return {
    label: `K = ${components}, in order`, ais_n: null, variant: { components, shuffled: false }, n_total: N_TOTAL,
    result: { replica: 0, seed: 1, particles: 100, records, status: chunks * CHUNK === N_TOTAL ? 'Finished' : 'Running', datum_evals: 10 * CHUNK * chunks, seconds: null },
  };
}

/** The in-order sentence the page shows for these runs. */
function shown(runs) {
  const combined = JSON.parse(pkg.sgais_combine_ns_json(JSON.stringify(runs), '[]'));
  return combined.shift.comparisons.find((c) => !c.shuffled).sentence;
}

const group = (n) => n.toLocaleString('en-US');

/**
 * What the sentence must say, from the records: how many checkpoints all runs share, the K with
 * the highest log Ẑ at the last of them, and (while some run is further on) "so far" and where
 * each such run is.
 */
function expectations(runs) {
  const ns = runs.map((r) => new Set(r.result.records.map((c) => c.n)));
  const shared = [...ns[0]].filter((n) => ns.every((s) => s.has(n)));
  const at = Math.max(...shared);
  const logZ = (r) => r.result.records.find((c) => c.n === at).log_z;
  const leader = runs.reduce((a, b) => (logZ(b) > logZ(a) ? b : a)).variant.components;
  const ahead = runs.filter((r) => r.result.records.at(-1).n > at).map((r) => [r.variant.components, r.result.records.at(-1).n]);
  return { shared: shared.length, at, leader, ahead };
}

test('the mid-run model comparison says how many checkpoints it compares and who is further on', () => {
  // Slopes: K = 5 fits best (−1.00 per point), then K = 7 (−1.01), then K = 3 (−1.02): K = 5 leads
  // at every checkpoint once it has one. Three moments of the arrival (the lecture's two workers
  // run K = 7 first, then K = 3, then K = 5).
  const moments = [[12, 6, 1], [12, 12, 5], [12, 12, 12]];
  for (const [k7, k3, k5] of moments) {
    const runs = [run(7, 1.01, k7), run(3, 1.02, k3), run(5, 1.0, k5)];
    const sentence = shown(runs);
    const { shared, at, leader, ahead } = expectations(runs);
    const where = `K = 7, 3, 5 at ${k7}, ${k3}, ${k5} chunks: ${sentence}`;
    assert.equal(leader, 5, 'the hand-made leader');
    assert.ok(sentence.includes(`K = ${leader} has the highest log Ẑ`), where);
    assert.ok(sentence.includes(`at n = ${group(at)} its estimated log Bayes factor`), where);
    // Hand-made runs of one order: no model checked against its other order, so none leads (stop 53).
    assert.ok(!sentence.includes(" leads:") && sentence.includes("Which model leads is not decided"), where);
    const count = shared === 1 ? 'at the only checkpoint compared' : `at all ${shared} checkpoints compared`;
    assert.ok(sentence.includes(count), `says how many checkpoints it compares (${count}): ${where}`);
    assert.ok(!sentence.includes('at every checkpoint'), where);
    assert.equal(sentence.startsWith('Data in order, so far:'), ahead.length > 0, `"so far" exactly while a run is further on: ${where}`);
    for (const [k, n] of ahead) assert.match(sentence, new RegExp(`K = ${k}( is already)? at n = ${group(n)}[;, a]`), `names where K = ${k} is: ${where}`);
  }
});

// Issue 26, item 7: after a mid-run Stop the gallery's cost chart (www/sgais-figures.js, the core's
// `sgais_gallery_json`) drew each run to where it had stopped, so a run that got further (ESS* = 2,
// five chunks) stood far above one stopped earlier (ESS* = 1, two chunks): two data sizes on one
// comparison. Oracle from the records: while any run is unfinished every curve ends at the largest
// n all of them reached, and the title says so; finished runs are drawn whole.
test('the SGAIS cost chart compares unfinished runs up to the data size every run has reached', () => {
  const costRun = (label, chunks, perChunk, total = N_TOTAL) => ({
    label, ais_n: null, variant: null, n_total: total,
    result: {
      replica: 0, seed: 1, particles: 10, status: chunks * CHUNK === total ? 'Finished' : 'Running', datum_evals: perChunk * chunks, seconds: null,
      records: Array.from({ length: chunks }, (_, i) => ({ ...record(CHUNK * (i + 1), -CHUNK * (i + 1)), datum_evals: perChunk * (i + 1) })),
    },
  });
  const cost = (runs) => JSON.parse(pkg.sgais_gallery_json(JSON.stringify(runs))).cost;
  const ends = (chart) => Object.fromEntries(chart.series.map((s) => [s.label ?? s.name, s.points.at(-1)[0]]));
  const stopped = cost([costRun('ESS* = 1', 2, 1_000), costRun('ESS* = 2', 5, 3_000)]);
  assert.deepEqual(ends(stopped), { 'ESS* = 1': 2_000, 'ESS* = 2': 2_000 }, JSON.stringify(stopped.series));
  assert.match(stopped.title, /up to n = 2,000, which every run drawn has reached/);
  // A run not started yet (no chunk: the workers run the variants in turn) draws nothing and does
  // not hold the others back.
  const queued = cost([costRun('ESS* = 1', 2, 1_000), costRun('ESS* = 2', 5, 3_000), costRun('ESS* = 5', 0, 5_000)]);
  assert.deepEqual(ends(queued.series.some((s) => !s.points.length) ? { ...queued, series: queued.series.filter((s) => s.points.length) } : queued), { 'ESS* = 1': 2_000, 'ESS* = 2': 2_000 });
  const finished = cost([costRun('ESS* = 1', 12, 1_000), costRun('ESS* = 2', 12, 3_000)]);
  assert.deepEqual(ends(finished), { 'ESS* = 1': 12_000, 'ESS* = 2': 12_000 });
  assert.doesNotMatch(finished.title, /every run drawn has reached/);
});
