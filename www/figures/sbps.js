// The figures gallery's SBPS entries (Pakman, Gilboa, Carlson & Paninski 2017).
// Each entry is a preset (see www/presets.js for its fields) whose `figure` names the paper's figure
// exactly as 'SBPS Fig. <n>', with `paper` quoting the paper's headline number(s) beside the
// live ones that its `claims` pin (checked at class time by tests/e2e/class-time.test.mjs).
// A `scan` (www/figure-scan.js, src/scan.rs) is a chart over a knob computed in a worker at the
// figure's settings; its `claims` are checked by tests/e2e/figures-B.test.mjs.

/** Bounces per unit of trajectory time, and its inverse (src/scan.rs `Measure::Diagnostic`). */
const BOUNCE_RATE = { kind: 'diagnostic', numerator: 'bounces', denominator: 'total_time' };
const TRAVEL_PER_BOUNCE = { kind: 'diagnostic', numerator: 'total_time', denominator: 'bounces' };
const VIOLATION_RATE = { kind: 'diagnostic', numerator: 'violation_rate', denominator: null };

export const SBPS_FIGURES = [
  {
    id: 'sbps-noise-bounces',
    figure: 'SBPS Fig. 1',
    title: 'Gradient noise raises the bounce rate',
    source: 'Pakman et al. 2017, §2.3 and Fig. 1',
    paper: 'The paper shows it qualitatively: with noisy gradients the bounce intensity E[(v·∇U + noise)⁺] exceeds the exact one (Jensen), so the particle bounces more and travels less between bounces.',
    text: 'SBPS on a correlated Gaussian whose gradients carry synthetic noise (s = 4, left) against exact BPS (right, no noise) at the same gradient budget. SBPS\'s path is cut into many short pieces. The chart below runs both at each noise level s: exact BPS stays at its rate, SBPS\'s rate grows with s.',
    state: { target: 'gaussian', sampler: 'sbps', seed: 1, values: { rho: 0.9, grad_noise: 4 }, speed: 20 },
    // Both at unit speed (SBPS's velocities are uniform on the sphere; BPS's default law is N(0, I)).
    compare: { sampler: 'bps', values: { refresh_law: 1 } },
    claims: [
      { metric: 'bounce_rate_ratio', label: 'bounces per unit time, SBPS (s = 4) / exact BPS', op: '>', value: 1.5, after_samples: 10_000 },
    ],
    scan: {
      title: 'bounces per unit time against gradient noise s', x_label: 'gradient noise s', y_label: 'bounces per unit time',
      settings: { rho: 0.9 }, param: 'grad_noise', values: [0, 1, 2, 4, 8],
      curves: [{ label: 'SBPS (noisy gradients)', sampler: 'sbps' }, { label: 'exact BPS (no noise)', sampler: 'bps', settings: { refresh_law: 1 }, fixed: true }],
      measure: BOUNCE_RATE, replicas: 4, budget: 0, max_steps: 4_000,
      claims: [
        { metric: 'scan.increasing', label: 'SBPS\'s rate rises with s (share of steps up)', op: '>', value: 0.99 },
        { metric: 'scan.curve_ratio', label: 'SBPS / exact BPS rate at s = 8', op: '>', value: 2 },
      ],
    },
  },
  {
    id: 'sbps-minibatch-travel',
    figure: 'SBPS Fig. 10',
    title: 'Minibatch size against travel time between bounces',
    source: 'Pakman et al. 2017, App. G.1 and Fig. 10',
    paper: 'A linear relation between the minibatch size n and the average travel time between bounces (logistic regression, d = 20).',
    text: 'SBPS on the d = 20 logistic regression of the paper\'s experiment at n = 100 (the plot shows w₁ and w₂). Smaller minibatches are noisier, so the band is higher and the particle bounces sooner. The chart below runs SBPS at n from 10 to 500, each for the same data cost.',
    state: { target: 'logreg_dd', sampler: 'sbps', seed: 1, values: { batch_size: 100 }, speed: 20 },
    scan: {
      title: 'travel time between bounces against minibatch size n', x_label: 'minibatch size n', y_label: 'travel time per bounce', log_x: true, log_y: true,
      settings: { n_points: 10_000 }, param: 'batch_size', values: [50, 100, 200, 500, 1000, 2000, 5000],
      curves: [{ label: 'SBPS', sampler: 'sbps' }],
      measure: TRAVEL_PER_BOUNCE, replicas: 3, budget: 400_000, max_steps: 1_000_000,
      claims: [
        { metric: 'scan.increasing', label: 'travel per bounce rises with n (share of steps up)', op: '>', value: 0.99 },
        { metric: 'scan.loglog_slope', label: 'slope of log travel on log n', op: 'between', value: [0.25, 1.25] },
      ],
    },
  },
  {
    id: 'sbps-band-violations',
    figure: 'SBPS Fig. 11',
    title: 'Band width k against the violation rate',
    source: 'Pakman et al. 2017, App. G.2 and Fig. 11',
    paper: 'The probability of a bound violation decreases monotonically with k (bottom left panel).',
    text: 'SBPS on the d = 20 logistic regression at k = 3. k is how many predictive standard deviations the band adds above the fitted projected gradient: the chart below runs SBPS at k from 0 to 5 for the same data cost and counts the proposals where the observed rate exceeded the band.',
    state: { target: 'logreg_dd', sampler: 'sbps', seed: 1, values: { band_k: 3 }, speed: 20 },
    scan: {
      title: 'violations per bounce against band width k', x_label: 'band width k', y_label: 'violations per bounce',
      settings: {}, param: 'band_k', values: [0, 0.5, 1, 2, 3, 5],
      curves: [{ label: 'SBPS', sampler: 'sbps' }],
      measure: VIOLATION_RATE, replicas: 3, budget: 400_000, max_steps: 1_000_000,
      claims: [
        { metric: 'scan.decreasing', label: 'violation rate falls as k grows (share of steps down)', op: '>', value: 0.99 },
        { metric: 'scan.last_over_first', label: 'violation rate at k = 5 over k = 0', op: '<', value: 0.2 },
      ],
    },
  },
];
