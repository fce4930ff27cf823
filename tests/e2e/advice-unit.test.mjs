// The yellow "far" box's remedy (www/stats.js `adviceFor`) on hand-made states (no browser needed):
// it names the sampler's own control and, for SGHMC at κ = 0, the cure the dynamics call for.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adviceFor, errorText } from '../../www/stats.js';

/** SGHMC's two main sliders as the registry declares them (src/sampler/sghmc.rs). */
const sghmc = { name: 'sghmc', kind: 'sg', params: [
  { name: 'sghmc_lr', label: 'Learning rate', symbol: 'η', choices: [], primary: true },
  { name: 'friction', label: 'Friction', symbol: 'κ', choices: [], primary: true },
] };
/** A chain with E2 = 1.4 after 100,000 samples (sghmc step 2 with κ dragged to 0) and no setting warning. */
const far = (friction) => ({ n_samples: 100_000, truth_pending: false, e2: 1.4, diagnostics: [], sampler_params: { sghmc_lr: 9.233e-4, friction }, setting_warning: null });

test('SGHMC far from the truth at κ = 0 is told to raise κ, not to lower a "step size" (issue 26)', () => {
  // κ = 0: the injected noise 2(κ − β̂)η is 0 and the momentum never decays (Chen et al. 2014,
  // eq. 9 with C = 0): no η makes it sample, so "lower the step size" was no cure (and not a
  // control SGHMC shows).
  const atZero = adviceFor(far(0), sghmc).find((a) => a.key === 'far').text;
  assert.match(atZero, /Raise the friction κ, then Reset\.$/, atZero);
  assert.doesNotMatch(atZero, /step size|lower/, atZero);
  // With friction, the generic remedy names SGHMC's own control, the learning rate η.
  const withFriction = adviceFor(far(0.01), sghmc).find((a) => a.key === 'far').text;
  assert.match(withFriction, /lower the learning rate η, then Reset\.$/, withFriction);
  assert.doesNotMatch(withFriction, /step size/, withFriction);
});

test('OSGFS that has stepped but kept no sample says why and names c (review s42 item 4)', () => {
  // OSGFS's two sliders as src/sampler/osgfs.rs declares them (c in [0.001, 0.99], default 0.1).
  const osgfs = { name: 'osgfs', label: 'OSGFS', kind: 'sg', params: [
    { name: 'osgfs_c', label: 'Cap on the step k', symbol: 'c', choices: [], primary: true, default: 0.1 },
    { name: 'batch_size', label: 'Minibatch size', symbol: '|S|', choices: [], primary: true },
  ] };
  // The reviewer's reading: 24,292 steps, 0 samples, eq. 17 not fired (null: NaN through JSON).
  const waiting = { steps: 24_292, n_samples: 0, n_recorded: 0, truth_pending: false, e2: null, setting_warning: null,
    diagnostics: [{ name: 'burn_in_over_step', value: null }], sampler_params: { osgfs_c: 0.001 } };
  const said = adviceFor(waiting, osgfs).find((a) => a.key === 'no-samples')?.text;
  assert.ok(said, 'a chain with no sample kept says so');
  assert.match(said, /^No sample kept yet after 24,292 steps/, said);
  assert.match(said, / at c = 0\.001 it compares/, said);
  assert.match(said, /1,000 or more gradients/, said);
  assert.match(said, /Raise the cap c, or set "Collect samples" to always/, said);
  // Once eq. 17 has fired (samples kept), or before the first step, nothing is said.
  const fired = { ...waiting, n_samples: 10, n_recorded: 10, diagnostics: [{ name: 'burn_in_over_step', value: 24_000 }] };
  assert.equal(adviceFor(fired, osgfs).find((a) => a.key === 'no-samples'), undefined);
  assert.equal(adviceFor({ ...waiting, steps: 0 }, osgfs).find((a) => a.key === 'no-samples'), undefined);
  // With OSGFS's own warning beside c (the page's state at c = 0.001 before eq. 17), one message:
  // the red one beside the slider it names; the yellow box does not say it again (stop 44 review).
  const warned = { ...waiting, setting_warning: { param: 'osgfs_c', failure: 'mixing', text: 'Raise the cap c (now 0.001), or set Collect samples to always: no sample kept yet after 24,292 steps (eq. 17 has not fired).', detail: '' } };
  assert.deepEqual(adviceFor(warned, osgfs).map((a) => a.key), []);
});

test('E1/E2 say why they are not shown, never a bare dash beside a measured E2 warning (review s42)', () => {
  // Mixture N = 1,000 with SGFS-f: the truth computed in a worker (truth_pending), 3,112 samples.
  assert.equal(errorText(null, { truth_pending: true, n_samples: 3112 }), 'waiting for the truth');
  // OSGFS before its burn-in test passes: no sample kept.
  assert.equal(errorText(null, { truth_pending: false, n_samples: 0 }), 'no samples yet');
  assert.equal(errorText(0.338, { truth_pending: false, n_samples: 5000 }), '0.338');
});

test('a runaway and a far E2: one box, the runaway\'s (it says why E2 is far; stop 53: BPS step 5\'s two boxes pushed k\'s slider below a 1920×1080 screen)', () => {
  const runaway = { since_step: 3633, distance_sd: 12, message: 'Runaway: from step 3,633 …' };
  const keys = adviceFor({ ...far(0.01), runaway }, sghmc).map((a) => a.key);
  assert.deepEqual(keys, ['runaway']);
  assert.deepEqual(adviceFor(far(0.01), sghmc).map((a) => a.key), ['far'], 'without the runaway the far box stays');
});
