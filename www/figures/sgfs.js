// The figures gallery's SGFS entries (Ahn, Korattikara & Welling 2012).
// Each entry is a preset (see www/presets.js for its fields) whose `figure` names the paper's figure
// exactly as 'SGFS Fig. <n>', with `paper` quoting the paper's headline number(s) beside the
// live ones that its `claims` pin (checked at class time by tests/e2e/class-time.test.mjs).

export const SGFS_FIGURES = [
  {
    id: 'sgfs-ellipses',
    figure: 'SGFS Fig. 1',
    title: 'SGFS-f vs SGFS-d at α = 0 in the paper\'s logistic-regression setup (Fig. 1)',
    source: 'Ahn, Korattikara & Welling 2012, §5.1 and Fig. 1',
    paper: 'MNIST 7 vs 9, N = 10,000, 50 random projections, λ = 1, α = 0: "the fit for SGFS-f is almost perfect while SGFS-d underestimates the variance"',
    text: 'First plot SGFS-f, second SGFS-d, on the most correlated pair, both against the same truth (a long exact reference run). SGFS-f has the posterior\'s shape and the smaller error; SGFS-d ignores the correlation and underestimates the variance, as in the paper. The paper\'s setup (the logreg_sgfs target): digits 7 vs 9, random projections, a bias, prior precision λ = 1, α = 0 (no injected noise, the largest step), minibatches of n = 100 (the paper: n > 100). Stand-in data: the shipped 8 × 8 UCI digits have N = 359 (not MNIST\'s 10,000), so the projection is to k = 5 directions (6 parameters) to keep N per parameter large. Unlike the paper, SGFS-f\'s ellipse is also too small here: at N = 359 the empirical Fisher is a rougher stand-in for the posterior\'s curvature than at N = 10,000.',
    state: { target: 'logreg_sgfs', sampler: 'sgfs_f', seed: 1, values: { projection_dim: 5, sgfs_alpha: 0, batch_size: 100 }, speed: 100 },
    compare: { sampler: 'sgfs_d', values: { sgfs_alpha: 0, batch_size: 100 } },
    pair: 'most_correlated',
    claims: [
      { metric: 'e2_ratio', label: 'SGFS-f\'s E2 / SGFS-d\'s E2', op: '<', value: 0.7, after_samples: 100_000 },
      { metric: 'compare.area_ratio', label: 'SGFS-d ellipse area, dashed / solid', op: '<', value: 0.6, after_samples: 100_000 },
      { metric: 'area_ratio', label: 'SGFS-f ellipse area, dashed / solid', op: 'between', value: [0.5, 1.1], after_samples: 100_000 },
    ],
  },
  {
    id: 'sgfs-bias-mixing',
    figure: 'SGFS Fig. 2',
    title: 'Bias–mixing trade-off of SGFS over α, and HMC at the same cost (Fig. 2)',
    source: 'Ahn, Korattikara & Welling 2012, Fig. 2',
    paper: 'error after T = 100 s and 3,000 s against the mixing rate (inverse autocorrelation time per unit computation), α = 0…6 for SGFS, ε = 10⁻³…10⁻⁶ for SGLD, 50…1 leapfrog steps for HMC: "HMC is not faring well because it is computationally expensive to run (which hurts both its mixing rate and error at time T)"',
    text: 'First plot: SGFS-f at α = 1, minibatches of 100; second plot: exact HMC at the same number of per-datum gradient evaluations (the paper\'s T is seconds of computation; here it is the 1.2·10⁷ gradient evaluations of 20 s of class time). The mixing rate per unit of work (ESS per 1,000 gradient evaluations, in the panels) is the paper\'s x axis: HMC pays a full pass over the data per leapfrog step and mixes two orders of magnitude slower per gradient. Logistic regression on the first 4 standardised breast-cancer features (N = 569). Unlike the paper, at this small N HMC\'s covariance error at the budget is below SGFS-f\'s, whose floor is its bias at α = 1. The charts below run SGFS-f at several α with the same gradient budget: the bias chart keeps the bias of the sampler\'s stationary law (predicted from the Laplace approximation) apart from the Monte Carlo error at the budget, with measured runs as labelled points ± MCSE; the trade-off chart plots the error against the gradient budget, one curve per α (the paper\'s two budgets, T = 100 s and 3,000 s, are two vertical slices of such a chart, 30 × apart). SGFS-d, SGLD and HMC are not on these charts.',
    state: { target: 'logreg', sampler: 'sgfs_f', seed: 1, values: { dataset: 1, n_features: 4, sgfs_alpha: 1, batch_size: 100 }, speed: 100 },
    compare: { sampler: 'hmc', values: {} },
    claims: [
      { metric: 'ess_ratio', label: 'SGFS-f\'s ESS per 1,000 gradients / HMC\'s', op: '>', value: 10, after_samples: 100_000 },
      { metric: 'e2', label: 'SGFS-f\'s E2 at the budget', op: '<', value: 0.35, after_samples: 100_000 },
    ],
  },
];
