// One-click presets that reproduce the papers' figures (the lessons, www/lesson-table.js, build
// on them). A preset names a target, a sampler and the parameters it sets (the others take the
// registry's target-derived defaults), its seed; `compare` opens a second sampler side by side at
// the same gradient budget; `pair` picks the displayed coordinates. `claims` are what its text
// says, as predicates over the chain's state (www/claims.js), checked by tests/e2e/class-time.test.mjs
// at these settings and at class time. A gallery figure (www/figures/) also has
// `figure: '<PAPER> Fig. <n>'` and `paper`: the paper's headline number(s), quoted; `chart` (a
// lesson figure name: noise, bias, sweep, …) puts the note beside that chart and scrolls to it.

export { LESSONS } from './lesson-table.js';
import { FIGURES } from './figures/index.js';

/** Presets that are not one paper figure: demonstrations the lessons build on. */
export const DEMOS = [
  {
    id: 'sgld-gaussian-bias',
    title: 'SGLD bias on a correlated Gaussian',
    source: 'Welling & Teh 2011 §3; exact discretised law',
    text: 'Full-batch SGLD on N(0, Σ), ρ = 0.9. Its stationary covariance solves Σ = AΣAᵀ + εI with A = I − εP/2: at ε = 0.05 the dashed ellipse is slightly larger than the solid truth (14 % more variance along the short axis); it grows past the truth as ε grows.',
    state: { target: 'gaussian', sampler: 'sgld', seed: 1, values: { step_size: 0.05, batch_size: 100 }, speed: 200 },
    claims: [{ metric: 'area_ratio', label: 'ellipse area, dashed / solid', op: 'between', value: [0.95, 1.25], after_samples: 200_000 }],
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
    text: 'SGLD (first plot, minibatches of 100) against exact MALA (second plot) on a logistic regression with N = 100,000, at the same number of per-datum gradient evaluations, both starting at the origin, far out. SGLD takes 1,000 steps per MALA step, but MALA\'s first, full-gradient step already lands near the mode; after 100 passes both are at the posterior, yet SGLD\'s samples still carry its long march in from the origin and its covariance error is far above MALA\'s. SGLD\'s step is small enough to sample (ε = 1.5·10⁻⁷: sampling threshold below 1, in the diagnostics and in the noise chart); at larger ε its minibatch noise dominates and it optimises rather than samples.',
    state: { target: 'logreg', sampler: 'sgld', seed: 1, values: { n_points: 100_000, start_at: 1, batch_size: 100, step_size: 1.5e-7 }, speed: 100 },
    compare: { sampler: 'mala', values: {} },
    claims: [
      { metric: 'compare.distance_sd', label: 'MALA\'s distance from the mean (sd)', op: '<', value: 10, after_samples: 500 },
      { metric: 'diag.sampling_threshold_mean', label: 'SGLD\'s sampling threshold, mean of its minibatch readings (the noise chart\'s threshold is from all N data, without the minibatch scatter)', op: '<', value: 1, after_samples: 100_000 },
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
    text: 'OSGFS starts at the origin (both coefficients zero), far off the plot (the march in shows in the trace\'s first samples), far from the mode of a 10,000-point logistic posterior. The convergence criterion (eq. 17) fires once the stochastic gradients average to zero within their noise; the trace marks that step as "burn-in over" (once the run is long, the trace shows its recent window and its legend names the sample where burn-in ended). Here every sample is kept, so the march in from the origin inflates the dashed ellipse: press "Discard burn-in" (d), or set "Collect samples" to after_criterion.',
    state: { target: 'logreg', sampler: 'osgfs', seed: 1, values: { n_points: 10000, true_w: 2, true_b: -1, start_at: 1, osgfs_collect: 1, batch_size: 100 }, speed: 5 },
    claims: [
      { metric: 'diag.burn_in_over_step', label: 'step at which eq. 17 fired', op: 'between', value: [1, 5_000], after_samples: 5_000 },
      { metric: 'area_ratio', label: 'ellipse area, dashed / solid', op: '>', value: 3, after_samples: 2_000 },
    ],
  },
  {
    id: 'sgais-shift-lecture',
    title: 'SGAIS under distribution shift, lecture scale (12,000 points)',
    source: 'Cameron, Eggers & Kroon 2019, §6.2 and Fig. 5, at an eighth of its size',
    text: 'The distribution-shift design of Fig. 5 (3, then 5, then 7 Gaussian clusters, changes at n = 1,000 and 10,000) at lecture scale. The change points show as jumps in log Ẑ/n and in the annealing steps. The runs have 12,000 points instead of 100,000 and 25 particles instead of 50 (with 10 SGHMC steps per temperature and lr = 0.02, not the mixture\'s 20 and 0.1), so that they report during a lecture. While it is shown the animation is paused and the runs have every core of the machine: the 7-component mixture on the data in order and shuffled first (the in-order/shuffled check), then the 3- and 5-component mixtures in order (the model comparison), then their shuffled controls; the line under Start says which are finished.',
    sgais: 'shiftLecture',
  },
];

/** Every preset: the demonstrations, then the figures gallery (www/figures/). */
export const PRESETS = [...DEMOS, ...FIGURES];

export function findPreset(id) {
  return PRESETS.find((p) => p.id === id);
}
