// One-click presets that reproduce the papers' figures, and the guided lessons built on them.
// A preset names a target, a sampler and the parameters it sets (the others take the registry's
// target-derived defaults); `compare` opens a second sampler side by side; `pair` picks the
// displayed coordinates. A lesson step's `tryValues` are the settings its action asks the student
// to try, so the browser tests can check that following the action does not diverge.

export const PRESETS = [
  {
    id: 'sgld-gaussian-bias',
    title: 'SGLD bias on a correlated Gaussian',
    source: 'Welling & Teh 2011 §3; exact discretised law',
    text: 'Full-batch SGLD on N(0, Σ), ρ = 0.9. Its stationary covariance solves Σ = AΣAᵀ + εI with A = I − εP/2: the dashed ellipse grows past the solid truth as ε grows.',
    state: { target: 'gaussian', sampler: 'sgld', values: { step_size: 0.05, batch_size: 100 }, speed: 200 },
  },
  {
    id: 'sgld-mixture',
    title: 'SGLD on the tied-means mixture (Fig. 1–2)',
    source: 'Welling & Teh 2011, §5.1, Fig. 1 and 2',
    text: '100 points from ½N(θ₁, 2) + ½N(θ₁ + θ₂, 2); minibatch n = 1 and a polynomial schedule ε_t = a(b + t)^−0.55 from 0.01 down. Early steps are in the optimisation phase (threshold ≫ 1); as ε_t shrinks, injected noise wins and SGLD samples both modes.',
    state: {
      target: 'mixture', sampler: 'sgld', speed: 2000,
      values: { batch_size: 1, sgld_schedule: 1, sgld_a: 0.0355, sgld_b: 10, sgld_gamma: 0.55, step_size: 0.01 },
    },
  },
  {
    id: 'sgfs-ellipses',
    title: 'SGFS-f vs SGFS-d at α = 0 (Fig. 1)',
    source: 'Ahn, Korattikara & Welling 2012, Fig. 1',
    text: 'Logistic regression on standardised breast-cancer features, α = 0 (the largest step). The full preconditioner matches the Bernstein–von Mises posterior; the diagonal one underestimates the variance along correlated directions. The pair shown is the most correlated one.',
    state: { target: 'logreg', sampler: 'sgfs_f', values: { dataset: 1, n_features: 4, sgfs_alpha: 0, batch_size: 100 }, speed: 100 },
    compare: { sampler: 'sgfs_d', values: { sgfs_alpha: 0, batch_size: 100 } },
    pair: 'most_correlated',
  },
  {
    id: 'sbps-vs-sgld',
    title: 'SBPS vs SGLD on logistic regression',
    source: 'Pakman, Gilboa, Carlson & Paninski 2017, logistic-regression experiment',
    text: 'The same gradient budget for both. SBPS moves on straight lines and bounces (×) where the noisy projected gradient says the density falls; its bias diagnostic is the rate of bound violations. SGLD at a comparable cost moves by a random walk.',
    state: { target: 'logreg', sampler: 'sbps', values: { n_points: 1000, band_k: 3, batch_size: 100 }, speed: 50 },
    compare: { sampler: 'sgld', values: { step_size: 0.0005, batch_size: 100 } },
  },
  {
    id: 'osgfs-burn-in',
    title: 'OSGFS detects the end of burn-in',
    source: 'El hanchi 2018, §2.3, eq. 16–17',
    text: 'OSGFS starts at the origin, far from the mode of a 10,000-point logistic posterior. The convergence criterion (eq. 17) fires once the stochastic gradients average to zero within their noise; the trace plot marks that step as "burn-in over". Here every sample is kept, so the march in from the origin inflates the dashed ellipse: press "Discard burn-in" (d), or set "Collect samples" to after_criterion.',
    state: { target: 'logreg', sampler: 'osgfs', values: { n_points: 10000, true_w: 2, true_b: -1, osgfs_collect: 1, batch_size: 100 }, speed: 5 },
  },
  {
    id: 'sgfs-bias-mixing',
    title: 'Bias–mixing trade-off of SGFS over α (Fig. 2)',
    source: 'Ahn, Korattikara & Welling 2012, Fig. 2',
    text: 'The sweep below runs SGFS-f at several α and SGLD at several ε with the same gradient budget, plotting covariance error against ESS per 1,000 gradients. Small α mixes fast with a small bias; SGLD trades the two more steeply.',
    state: { target: 'logreg', sampler: 'sgfs_f', values: { dataset: 1, n_features: 4, sgfs_alpha: 1, batch_size: 100 }, speed: 100 },
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
];

export const LESSONS = [
  {
    id: 'sgld',
    title: 'SGLD: noise, step size and bias',
    steps: [
      { preset: 'sgld-gaussian-bias', text: 'Press play. The dashed sampler ellipse settles on the solid truth: at ε = 0.05 the discretisation bias is small.', action: 'Now drag the step size ε up towards 0.3 and watch the dashed ellipse grow past the truth, most in the narrow direction. Beyond ε = 4/λ_max = 0.4 the chain is unstable on this target.', tryValues: { step_size: 0.3 } },
      { preset: 'sgld-gaussian-bias', text: 'Gradient noise: set "Gradient noise (s)" to 5. The noise-vs-step-size panel moves the dashed gradient-noise line up; where it crosses the injected noise is the sampling threshold.', action: 'Move ε left of the threshold line and compare the ellipses: injected noise dominates and SGLD samples.', tryValues: { grad_noise: 5 } },
      { preset: 'sgld-mixture', text: 'The paper\'s mixture with minibatches of one and a decreasing step. Watch the sampling threshold in the diagnostics fall below 1 as ε_t shrinks.', action: 'Switch the schedule to "constant" with ε = 0.05 and see the chain overshoot: the stochastic-optimisation phase.', tryValues: { sgld_schedule: 0, step_size: 0.05 } },
    ],
  },
  {
    id: 'sgfs',
    title: 'SGFS: Fisher scoring meets Langevin',
    steps: [
      { preset: 'sgfs-ellipses', text: 'At α = 0 SGFS-f (left) uses the full empirical Fisher and its ellipse lies on the truth; SGFS-d (right) keeps only the diagonal.', action: 'Raise α on both sides: with smaller steps both approach the posterior, and mix more slowly.', tryValues: { sgfs_alpha: 5 } },
      { preset: 'sgfs-bias-mixing', text: 'The bias–mixing panel below sweeps α at equal gradient budget (SGFS paper Fig. 2).', action: 'Drag α and watch the highlighted point move along the SGFS curve.', tryValues: { sgfs_alpha: 3 } },
    ],
  },
  {
    id: 'osgfs',
    title: 'OSGFS: knowing when burn-in is over',
    steps: [
      { preset: 'osgfs-burn-in', text: 'OSGFS starts far away and marches to the mode; its convergence test (eq. 17) fires when the averaged stochastic gradient is indistinguishable from zero.', action: 'Watch the trace plot: the dashed marker shows the step at which collection starts.' },
    ],
  },
  {
    id: 'bps',
    title: 'Bouncy particle samplers',
    steps: [
      { state: { target: 'gaussian', sampler: 'bps', values: { refresh_rate: 1 }, speed: 2 }, text: 'Exact BPS moves in straight lines and bounces (×) off the density\'s level sets; refreshes redraw the velocity.', action: 'Set the refresh rate near 0 on an uncorrelated Gaussian (ρ = 0): the path stays on a ring — BPS without refresh is not ergodic.', tryValues: { rho: 0, refresh_rate: 0.01 } },
      { preset: 'sbps-vs-sgld', text: 'SBPS replaces exact event times by a statistical upper band fitted to noisy minibatch gradients.', action: 'Lower the band multiple k to 1 and watch the bound-violation rate (its bias diagnostic) climb.', tryValues: { band_k: 1 } },
    ],
  },
  {
    id: 'sgais',
    title: 'SGAIS: the evidence as data stream in',
    steps: [
      { preset: 'sgais-linreg', text: 'SGAIS anneals its particles from p(θ | y<n) to p(θ | y≤n) for every new chunk, using SGHMC moves on minibatches of the history. Its log Ẑ/n follows the exact curve.', action: 'Compare the time column: SGAIS processed all N for a fraction of one full-data AIS run.' },
      { preset: 'sgais-shift', text: 'When the data-generating process changes, the new chunk is surprising: more annealing steps are needed and log Ẑ/n drops.', action: 'Find the spikes in the annealing-steps plot at n = 1,000 and 10,000; the shuffled run has none.' },
    ],
  },
];

export function findPreset(id) {
  return PRESETS.find((p) => p.id === id);
}
