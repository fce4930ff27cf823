// One-click presets that reproduce the papers' figures (the lessons, www/lesson-table.js, build
// on them). A preset names a target, a sampler and the parameters it sets (the others take the
// registry's target-derived defaults), its seed; `compare` opens a second sampler side by side at
// the same gradient budget; `pair` picks the displayed coordinates. `claims` are what its text
// says, as predicates over the chain's state (www/claims.js), checked by tests/e2e/lessons.test.mjs.

export { LESSONS } from './lesson-table.js';

export const PRESETS = [
  {
    id: 'sgld-gaussian-bias',
    title: 'SGLD bias on a correlated Gaussian',
    source: 'Welling & Teh 2011 §3; exact discretised law',
    text: 'Full-batch SGLD on N(0, Σ), ρ = 0.9. Its stationary covariance solves Σ = AΣAᵀ + εI with A = I − εP/2: at ε = 0.05 the dashed ellipse is slightly larger than the solid truth (14 % more variance along the short axis); it grows past the truth as ε grows.',
    state: { target: 'gaussian', sampler: 'sgld', seed: 1, values: { step_size: 0.05, batch_size: 100 }, speed: 200 },
    claims: [{ metric: 'area_ratio', label: 'ellipse area, dashed / solid', op: 'between', value: [0.95, 1.25], after_samples: 200_000 }],
  },
  {
    id: 'sgld-mixture',
    title: 'SGLD on the tied-means mixture (Fig. 1–2)',
    source: 'Welling & Teh 2011, §5.1, Fig. 1 and 2',
    text: '100 points from ½N(θ₁, 2) + ½N(θ₁ + θ₂, 2); minibatch n = 1 and a polynomial schedule ε_t = a(b + t)^−0.55 that falls from 0.01 to 10⁻⁴ over the run, as in the paper (there over 10⁶ steps; here over the 2.4 million steps the page takes in 20 s at 2,000 steps per frame), samples weighted by ε_t. The posterior has two modes and the chain crosses between them: the density image shows both (the 2σ ellipse summarises both by one mean and covariance). The noise chart predicts the sampling threshold from the scores of all the data at the first step ε₀ = 0.01: far above 1, so the first steps are stochastic optimisation (the paper\'s Fig. 2); it falls in proportion to ε_t, a hundredfold by the end of the run. The diagnostics cannot measure it at n = 1 (one score per minibatch has no spread); the SGLD lesson uses n = 10 to show it. The yellow note is about SGLD\'s constant-step defaults, not this schedule.',
    state: {
      target: 'mixture', sampler: 'sgld', seed: 1, speed: 2000,
      // ε_0 = a b^−0.55 = 0.01 and ε_T = a (b + T)^−0.55 = 10⁻⁴ at T = 2,000 × 1,200 steps:
      // (b + T)/b = 100^(1/0.55), so b = T/4,328.4 = 554.5 and a = 0.01 b^0.55 = 0.323.
      values: { batch_size: 1, sgld_schedule: 1, sgld_a: 0.323, sgld_b: 554.5, sgld_gamma: 0.55, step_size: 0.01 },
    },
    claims: [
      { metric: 'diag.step_size', label: 'step size ε_t at the end of 20 s (2.4 million steps)', op: 'between', value: [0.95e-4, 1.05e-4], after_samples: 2_400_000 },
      { metric: 'var_x_ratio', label: 'variance of θ₁, sampler / truth', op: 'between', value: [0.6, 1.4], after_samples: 400_000 },
    ],
  },
  {
    id: 'sgfs-ellipses',
    title: 'SGFS-f vs SGFS-d at α = 0 (Fig. 1)',
    source: 'Ahn, Korattikara & Welling 2012, Fig. 1',
    text: 'Logistic regression on standardised breast-cancer features (N = 569), α = 0 (the largest step), on the most correlated pair, both against the same truth. The full preconditioner (left) gives the ellipse the posterior\'s shape, but at this N the α = 0 step is too large and the ellipse lies inside the truth; the diagonal one (right) ignores the correlation and is smaller still.',
    state: { target: 'logreg', sampler: 'sgfs_f', seed: 1, values: { dataset: 1, n_features: 4, sgfs_alpha: 0, batch_size: 100 }, speed: 100 },
    compare: { sampler: 'sgfs_d', values: { sgfs_alpha: 0, batch_size: 100 } },
    pair: 'most_correlated',
    claims: [
      { metric: 'area_ratio', label: 'SGFS-f ellipse area, dashed / solid', op: '<', value: 0.9, after_samples: 100_000 },
      { metric: 'compare.area_ratio', label: 'SGFS-d ellipse area, dashed / solid', op: '<', value: 0.75, after_samples: 100_000 },
    ],
  },
  {
    id: 'sgfs-alpha0-full',
    title: 'SGFS-f at α = 0 on breast cancer',
    source: 'Ahn, Korattikara & Welling 2012, Fig. 1 (left)',
    text: 'SGFS-f alone at α = 0 on the most correlated pair of the breast-cancer posterior: the right shape, too small a spread.',
    state: { target: 'logreg', sampler: 'sgfs_f', seed: 1, values: { dataset: 1, n_features: 4, sgfs_alpha: 0, batch_size: 100 }, speed: 100 },
    pair: 'most_correlated',
    claims: [{ metric: 'area_ratio', label: 'ellipse area, dashed / solid', op: '<', value: 0.9, after_samples: 100_000 }],
  },
  {
    id: 'sgfs-alpha0-diag',
    title: 'SGFS-d at α = 0 on breast cancer',
    source: 'Ahn, Korattikara & Welling 2012, Fig. 1 (right)',
    text: 'SGFS-d alone at α = 0 on the most correlated pair of the breast-cancer posterior: the diagonal preconditioner ignores the correlation.',
    state: { target: 'logreg', sampler: 'sgfs_d', seed: 1, values: { dataset: 1, n_features: 4, sgfs_alpha: 0, batch_size: 100 }, speed: 100 },
    pair: 'most_correlated',
    claims: [{ metric: 'area_ratio', label: 'ellipse area, dashed / solid', op: '<', value: 0.75, after_samples: 100_000 }],
  },
  {
    id: 'sgld-vs-mala',
    title: 'SGLD vs MALA at equal cost',
    source: 'Welling & Teh 2011 §1; Ahn, Korattikara & Welling 2012, Fig. 2',
    text: 'Logistic regression with N = 100,000, both chains starting at the origin, far out: SGLD with minibatches of 100 at a step small enough to sample (ε = 1.5·10⁻⁷: sampling threshold below 1, in the diagnostics and in the noise chart; at larger ε its minibatch noise dominates and it optimises rather than samples) against exact MALA (right) at the same number of per-datum gradient evaluations. SGLD takes 1,000 steps per MALA step, but MALA\'s first, full-gradient step already lands near the mode; after 100 passes both are at the posterior, yet SGLD\'s samples still carry its long march in from the origin and its covariance error is far above MALA\'s.',
    state: { target: 'logreg', sampler: 'sgld', seed: 1, values: { n_points: 100_000, start_at: 1, batch_size: 100, step_size: 1.5e-7 }, speed: 100 },
    compare: { sampler: 'mala', values: {} },
    claims: [
      { metric: 'compare.distance_sd', label: 'MALA\'s distance from the mean (sd)', op: '<', value: 10, after_samples: 500 },
      { metric: 'diag.sampling_threshold_mean', label: 'SGLD\'s sampling threshold, mean of the readings', op: '<', value: 1, after_samples: 100_000 },
      { metric: 'e2_ratio', label: 'SGLD\'s E2 / MALA\'s E2', op: '>', value: 10, after_samples: 100_000 },
    ],
  },
  {
    id: 'sbps-vs-sgld',
    title: 'SBPS vs SGLD on logistic regression',
    source: 'Pakman, Gilboa, Carlson & Paninski 2017, logistic-regression experiment',
    text: 'The same gradient budget for both. SBPS moves on straight lines and bounces (×) where the noisy projected gradient says the density falls; its bias diagnostic is the rate of bound violations, rare at k = 3. SGLD at a comparable cost moves by a random walk.',
    state: { target: 'logreg', sampler: 'sbps', seed: 1, values: { n_points: 1000, band_k: 3, batch_size: 100 }, speed: 50 },
    claims: [{ metric: 'diag.violation_rate', label: 'violations per bounce', op: '<', value: 0.05, after_samples: 20_000 }],
    compare: { sampler: 'sgld', values: { step_size: 0.0005, batch_size: 100 } },
  },
  {
    id: 'osgfs-burn-in',
    title: 'OSGFS detects the end of burn-in',
    source: 'El hanchi 2018, §2.3, eq. 16–17',
    text: 'OSGFS starts at the origin, outside the plot (the hollow point at its edge), far from the mode of a 10,000-point logistic posterior. The convergence criterion (eq. 17) fires once the stochastic gradients average to zero within their noise; the trace marks that step as "burn-in over" and keeps it in view. Here every sample is kept, so the march in from the origin inflates the dashed ellipse: press "Discard burn-in" (d), or set "Collect samples" to after_criterion.',
    state: { target: 'logreg', sampler: 'osgfs', seed: 1, values: { n_points: 10000, true_w: 2, true_b: -1, start_at: 1, osgfs_collect: 1, batch_size: 100 }, speed: 5 },
    claims: [
      { metric: 'diag.burn_in_over_step', label: 'step at which eq. 17 fired', op: 'between', value: [1, 5_000], after_samples: 5_000 },
      { metric: 'area_ratio', label: 'ellipse area, dashed / solid', op: '>', value: 3, after_samples: 2_000 },
    ],
  },
  {
    id: 'sgfs-bias-mixing',
    title: 'Bias–mixing trade-off of SGFS over α (Fig. 2)',
    source: 'Ahn, Korattikara & Welling 2012, Fig. 2',
    text: 'The charts below run SGFS-f at several α with the same gradient budget. The bias chart keeps the two errors apart: the bias of the sampler\'s stationary law (predicted from the Laplace approximation) and the Monte Carlo error at the budget, with measured runs as labelled points ± MCSE. The trade-off chart plots the error against the gradient budget, one curve per α.',
    state: { target: 'logreg', sampler: 'sgfs_f', seed: 1, values: { dataset: 1, n_features: 4, sgfs_alpha: 1, batch_size: 100 }, speed: 100 },
  },
  {
    id: 'sgais-linreg',
    title: 'SGAIS: online evidence for linear regression (Fig. 2)',
    source: 'Cameron, Eggers & Kroon 2019, Fig. 2',
    text: 'Bayesian linear regression with 5 features; the data arrive in chunks of 1,000 and SGAIS updates log Ẑ after each (at the accurate defaults; the paper\'s own settings are the "paper" preset of the CLI). The dashed curve is the exact sequential evidence; the points are full-data AIS at N/4, N/2 and N with the same settings and its own seed, whose run time the table compares.',
    sgais: 'linreg',
  },
  {
    id: 'sgais-shift',
    title: 'SGAIS under distribution shift (Fig. 5)',
    source: 'Cameron, Eggers & Kroon 2019, §6.2 and Fig. 5',
    text: 'Data from 3, then 5, then 7 Gaussian clusters (changes at n = 1,000 and 10,000), fitted by 3-, 5- and 7-component mixtures in order, and the 7-component model on shuffled data. The change points show as jumps in log Ẑ/n and spikes in annealing steps.',
    sgais: 'shift',
  },
  {
    id: 'sgais-shift-lecture',
    title: 'SGAIS under distribution shift, lecture scale (12,000 points)',
    source: 'Cameron, Eggers & Kroon 2019, §6.2 and Fig. 5, at an eighth of its size',
    text: 'The distribution-shift design of Fig. 5 (3, then 5, then 7 Gaussian clusters, changes at n = 1,000 and 10,000) with 12,000 points instead of 100,000, so that the runs report during a lecture: the 3-, 5- and 7-component mixtures on the data in order first, then on shuffled data. The change points show as jumps in log Ẑ/n and in the annealing steps.',
    sgais: 'shiftLecture',
  },
];

export function findPreset(id) {
  return PRESETS.find((p) => p.id === id);
}
