// The figures gallery's SGFS entries (Ahn, Korattikara & Welling 2012).
// Each entry is a preset (see www/presets.js for its fields) whose `figure` names the paper's figure
// exactly as 'SGFS Fig. <n>', with `paper` quoting the paper's headline number(s) beside the
// live ones that its `claims` pin (checked at class time by tests/e2e/class-time.test.mjs).

export const SGFS_FIGURES = [
  {
    id: 'sgfs-ellipses',
    figure: 'SGFS Fig. 1',
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
    id: 'sgfs-bias-mixing',
    figure: 'SGFS Fig. 2',
    title: 'Bias–mixing trade-off of SGFS over α (Fig. 2)',
    source: 'Ahn, Korattikara & Welling 2012, Fig. 2',
    text: 'The charts below run SGFS-f at several α with the same gradient budget. The bias chart keeps the two errors apart: the bias of the sampler\'s stationary law (predicted from the Laplace approximation) and the Monte Carlo error at the budget, with measured runs as labelled points ± MCSE. The trade-off chart plots the error against the gradient budget, one curve per α.',
    state: { target: 'logreg', sampler: 'sgfs_f', seed: 1, values: { dataset: 1, n_features: 4, sgfs_alpha: 1, batch_size: 100 }, speed: 100 },
  },
];
