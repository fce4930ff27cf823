// The figures gallery's OSGFS entries (El hanchi 2018).
// Each entry is a preset (see www/presets.js for its fields) whose `figure` names the paper's figure
// exactly as 'OSGFS Fig. <n>', with `paper` quoting the paper's headline number(s) beside the
// live ones that its `claims` pin (checked at class time by tests/e2e/class-time.test.mjs).

export const OSGFS_FIGURES = [
  {
    id: 'osgfs-vs-metropolis',
    figure: 'OSGFS Fig. 1',
    title: 'OSGFS vs an exact Metropolis sampler on logistic data (Fig. 1)',
    source: 'El hanchi 2018, §3.1 and Fig. 1',
    paper: 'Skin Segmentation (N = 245,057), Cod RNA (N = 488,566), Run or Walk (N = 88,589); k = 4|S|/(N + |S|); OSGFS\'s covariance ellipse (yellow) lies on the Metropolis one (red) in all three',
    text: 'First plot: OSGFS; second plot: exact MALA, a Metropolis-adjusted sampler standing in for the report\'s random-walk Metropolis, at the same number of gradient evaluations; the solid ellipse is the truth from a long exact reference run. OSGFS\'s dashed ellipse lies on the truth; MALA, which pays a full pass over the data per step, has covered less of it. Stand-in data: the report\'s three data sets are not shipped, so this is logistic regression on the first 4 standardised breast-cancer features (N = 569, 5 parameters with the bias), minibatch |S| = 100 and k = 4|S|/(N + |S|) = 0.60 as in the report (the cap c is lifted to 0.99 so that eq. 16 gives that k).',
    state: { target: 'logreg', sampler: 'osgfs', seed: 1, values: { dataset: 1, n_features: 4, osgfs_c: 0.99, batch_size: 100 }, speed: 100 },
    compare: { sampler: 'mala', values: {} },
    pair: 'most_correlated',
    claims: [
      { metric: 'area_ratio', label: 'OSGFS ellipse area, dashed / solid', op: 'between', value: [0.8, 1.1], after_samples: 100_000 },
      { metric: 'e2_ratio', label: 'OSGFS\'s E2 / MALA\'s E2 at equal gradient evaluations', op: '<', value: 0.6, after_samples: 100_000 },
    ],
  },
  {
    id: 'osgfs-conditioning',
    figure: 'OSGFS Fig. 2',
    title: 'OSGFS with and without the convergence test (Fig. 2)',
    source: 'El hanchi 2018, §2.3 eq. 17 and Fig. 2',
    paper: '10,000 iterations from the same start; without eq. 17 (left) the samples trace the path in from the start, with it (right) only the posterior is collected',
    text: 'First plot: OSGFS keeping every sample; second plot: the report\'s algorithm, collecting only once the convergence test (eq. 17) has fired. The march in from the origin inflates the first plot\'s ellipse; the second plot\'s describes the posterior. Logistic regression on 10,000 synthetic points, both chains starting at the origin (outside the plot). The same seed, the same minibatches, 12,000 steps each.',
    state: { target: 'logreg', sampler: 'osgfs', seed: 1, values: { n_points: 10000, true_w: 2, true_b: -1, start_at: 1, osgfs_collect: 1, batch_size: 100 }, speed: 10 },
    compare: { sampler: 'osgfs', values: { osgfs_collect: 0, batch_size: 100 } },
    claims: [
      { metric: 'area_ratio', label: 'every sample kept: ellipse area, dashed / solid', op: '>', value: 2, after_samples: 10_000 },
      { metric: 'compare.area_ratio', label: 'collected after eq. 17: ellipse area, dashed / solid', op: 'between', value: [0.8, 1.25], after_samples: 10_000 },
      { metric: 'compare.diag.burn_in_over_step', label: 'step at which eq. 17 fired', op: 'between', value: [1, 5_000], after_samples: 10_000 },
    ],
  },
];
