// The yellow "far" box's remedy (www/stats.js `adviceFor`) on hand-made states (no browser needed):
// it names the sampler's own control and, for SGHMC at κ = 0, the cure the dynamics call for.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adviceFor } from '../../www/stats.js';

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
