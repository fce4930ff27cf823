// The SGAIS figures' claim metrics (www/sgais-claims.js) on hand-made panel views with known
// answers (no browser needed): two variants with hand-picked annealing steps, costs and errors,
// AIS baselines, a spike, Fig. 1's share; and when a claim is ready.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimReady, measureSgais } from '../../www/sgais-claims.js';

const group = (label, annealing_steps, chunks, datum_evals, n = 1000, spikes = []) =>
  ({ label, n, chunks, annealing_steps, steps_per_chunk: annealing_steps / chunks, datum_evals, finished: true, spikes });
const view = {
  combined: {
    groups: [
      { label: 'lr = 1', summary: { log_z: { mean: -1010 }, error: { mean: -12 } } },
      { label: 'lr = 0.1', summary: { log_z: { mean: -1001 }, error: { mean: 3 } } },
    ],
  },
  gallery: {
    groups: [group('lr = 1', 30, 2, 4_000, 1000, [[10_000, 3]]), group('lr = 0.1', 12, 4, 10_000)],
    ais: [{ n: 500, log_z: -400, datum_evals: 9_000 }, { n: 1000, log_z: -1000, datum_evals: 50_000 }],
  },
  data: { new_mass_fraction: 0.39 },
};
const m = (metric, of, extra = {}) => measureSgais({ metric, of, ...extra }, view);

test('ratios read a over b; errors are absolute', () => {
  assert.equal(m('sgais.steps_ratio', ['lr = 1', 'lr = 0.1']), 30 / 12);
  assert.equal(m('sgais.steps_per_chunk_ratio', ['lr = 1', 'lr = 0.1']), 15 / 3);
  assert.equal(m('sgais.cost_ratio', ['lr = 0.1', 'lr = 1']), 10_000 / 4_000);
  assert.equal(m('sgais.error', 'lr = 1'), 12);
  assert.equal(m('sgais.error_ratio', ['lr = 1', 'lr = 0.1']), 4);
  assert.equal(m('sgais.steps_per_chunk', 'lr = 0.1'), 3);
});

test('AIS comparisons use the baseline at the largest n', () => {
  // |−1001 − (−1000)| / 1000 and 50,000 / 10,000.
  assert.equal(m('sgais.ais_gap', 'lr = 0.1'), 0.001);
  assert.equal(m('sgais.ais_cost_ratio', 'lr = 0.1'), 5);
  // A run that has not reached the largest AIS n has no cost ratio yet.
  const short = { ...view, gallery: { ...view.gallery, groups: [group('lr = 0.1', 12, 4, 10_000, 600)] } };
  assert.ok(Number.isNaN(measureSgais({ metric: 'sgais.ais_cost_ratio', of: 'lr = 0.1' }, short)));
});

test('spikes, the shift data and unknown groups', () => {
  assert.equal(m('sgais.spike', 'lr = 1', { at: 10_000 }), 3);
  assert.ok(Number.isNaN(m('sgais.spike', 'lr = 1', { at: 1_000 })));
  assert.equal(m('sgais.new_mass_fraction'), 0.39);
  assert.ok(Number.isNaN(m('sgais.steps_ratio', ['lr = 1', 'lr = 5'])));
  assert.ok(Number.isNaN(measureSgais({ metric: 'sgais.error', of: 'lr = 1' }, {})), 'nothing combined yet');
  assert.throws(() => m('sgais.nonsense', 'lr = 1'), /unknown SGAIS claim metric/);
});

test('a claim is ready when the runs are done, or with after_n when its furthest replica got that far', () => {
  const run = (label, n, done, extra = {}) => ({ label, done, spec: { replica: 0, ...extra }, result: { result: { records: [{ n }] } } });
  const claim = { metric: 'sgais.steps_ratio', of: ['a', 'b'] };
  assert.equal(claimReady(claim, [run('a', 100, true), run('b', 100, true)]), true);
  assert.equal(claimReady(claim, [run('a', 100, true), run('b', 50, false)]), false);
  assert.equal(claimReady(claim, []), false);
  const early = { metric: 'sgais.spike', of: 'a', at: 10_000, after_n: 11_000 };
  assert.equal(claimReady(early, [run('a', 11_000, false), run('b', 0, false)]), true);
  assert.equal(claimReady(early, [run('a', 10_000, false)]), false);
  // The AIS baselines do not stand in for a replica; the furthest replica, whose numbers the gallery
  // shows (src/sgais/page.rs shown_replica), does stand in for replica 0.
  assert.equal(claimReady(early, [run('a', 20_000, false, { ais_n: 20_000 }), run('a', 10_000, false)]), false);
  assert.equal(claimReady(early, [run('a', 0, false), run('a', 11_000, false, { replica: 1 }), run('b', 0, false)]), true);
  assert.equal(claimReady(early, [run('a', 0, false), run('a', 10_999, false, { replica: 1 })]), false);
  assert.equal(claimReady({ metric: 'sgais.new_mass_fraction' }, []), true);
});

test('NS against AIS reads both at the largest n where both ran', () => {
  // NS at 500 and 2,000, AIS at 500 and 1,000: the comparison is at 500 (−395 − (−400) = +5 nats);
  // the NS standard error is the one at its largest n.
  const combined = { groups: [], ais: [[500, -400, 1], [1000, -1000, 2]], ns: [{ n: 500, log_z: -395, log_z_se: 0.5 }, { n: 2000, log_z: -2100, log_z_se: 0.9 }] };
  assert.equal(measureSgais({ metric: 'sgais.ns_minus_ais' }, { combined }), 5);
  assert.equal(measureSgais({ metric: 'sgais.ns_se' }, { combined }), 0.9);
  assert.ok(Number.isNaN(measureSgais({ metric: 'sgais.ns_minus_ais' }, { combined: { ...combined, ns: [] } })));
});
