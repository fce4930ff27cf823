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
    paper: 'The paper shows it qualitatively: with noisy gradients the bounce intensity E[(v·∇U + noise)⁺] exceeds the exact one (Jensen), so the particle bounces more and travels less between bounces',
    text: 'The chart under the two plots (scroll down to it), "bounces per unit time against gradient noise s", runs SBPS and exact BPS at each noise level s: exact BPS stays at its rate, SBPS\'s rate grows with s. Above it, SBPS on a correlated Gaussian whose gradients carry synthetic noise (s = 4, first plot) runs against exact BPS (second plot, no noise) at the same gradient budget, its path cut into many short pieces.',
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
    id: 'sbps-band',
    figure: 'SBPS Fig. 2',
    title: 'The proposal band since the last bounce, live',
    source: 'Pakman et al. 2017, §4 and Fig. 2',
    paper: 'The proposal intensity is a linear regression of the noisy projected gradients observed since the last bounce, plus k predictive standard deviations (eqs. 11–15); the figure shows it evolving between bounces (no numbers given)',
    text: 'SBPS on a 2-parameter logistic regression (N = 1,000, minibatches of 500, k = 3), one trajectory piece at a time. The chart below is the running chain\'s own band: after each minibatch the fitted projected gradient Ĝ(t) (solid) is refitted through the observations since the last bounce, the upper band λ⁺(t) (dashed) lies k predictive standard deviations above it, and the next proposal time is drawn from the band. At a bounce the regression starts again from one observation, and the band is wide.',
    state: { target: 'logreg', sampler: 'sbps', seed: 1, values: { n_points: 1000, band_k: 3, batch_size: 500 }, speed: 1 },
    claims: [
      { metric: 'diag.violation_rate', label: 'violations per bounce at k = 3', op: '<', value: 0.1, after_samples: 50 },
    ],
    live: {
      chart: 'band', title: 'SBPS\'s regression line and upper band since the last bounce',
      claims: [
        { metric: 'band.min_gap', label: 'smallest height of the band above the fitted line', op: '>', value: 0 },
      ],
    },
  },
  {
    id: 'sbps-psbps-convergence',
    figure: 'SBPS Fig. 3',
    title: 'pSBPS against SBPS on an anisotropic posterior',
    source: 'Pakman et al. 2017, §5 and Fig. 3',
    paper: '"pSBPS converges to the posterior mode faster than SBPS, and mixes faster in the direction of greatest covariance" (d = 20 logistic regression, one feature of variance 1/500)',
    text: 'The d = 20 logistic regression of the paper\'s experiment: feature 1 has variance 1/500, so the posterior\'s standard deviation along w₁ (horizontal) is 7 to 24 times that along the other weights, and 12.5 times w₂\'s (vertical): its 2σ ellipse here is 12.5 times wider than tall. The plot scales each axis to the posterior\'s spread, so that ellipse is drawn nearly round: read the numbers on the axes. pSBPS (first plot) learns a diagonal preconditioner and moves faster along w₁; SBPS (second plot), at the same gradient budget, crawls along it. Both start at the mode here, so the figure shows the mixing half of the paper\'s claim.',
    state: { target: 'logreg_dd', sampler: 'psbps', seed: 1, values: {}, speed: 20 },
    compare: { sampler: 'sbps', values: {} },
    claims: [
      { metric: 'ess_ratio', label: 'ESS per 1,000 gradients, pSBPS / SBPS', op: '>', value: 1.5, after_samples: 2_000 },
      { metric: 'e2_ratio', label: 'covariance error E2, pSBPS / SBPS', op: '<', value: 0.7, after_samples: 2_000 },
    ],
  },
  {
    id: 'sbps-vs-lipsbps',
    figure: 'SBPS Fig. 4',
    title: 'SBPS against lipSBPS at equal gradient budget',
    source: 'Pakman et al. 2017, §7.1 and Fig. 4',
    paper: 'SBPS "converges orders of magnitude faster than lipSBPS and ZZ-SS" and outperforms optimally tuned SGLD and mSGNHT (d = 20 logistic regression)',
    text: 'The d = 20 logistic regression at equal gradient budget: SBPS (first plot) bounces against a band fitted to its noisy projected gradients; lipSBPS (second plot) is exact, thinning against a global bound on the gradient\'s change, which is loose: at the same budget it has explored a small fraction of the posterior, its ellipse a few per cent of the truth\'s. (The paper\'s chart of error against gradient evaluations, with SGLD and mSGNHT, is not drawn here; SBPS against SGLD is the "SBPS vs SGLD" demonstration.)',
    state: { target: 'logreg_dd', sampler: 'sbps', seed: 1, values: {}, speed: 20 },
    compare: { sampler: 'lipsbps', values: {} },
    claims: [
      { metric: 'area_ratio', label: 'SBPS ellipse area, dashed / solid', op: 'between', value: [0.7, 1.4], after_samples: 2_000 },
      { metric: 'compare.area_ratio', label: 'lipSBPS ellipse area, dashed / solid', op: '<', value: 0.2, after_samples: 2_000 },
    ],
  },
  {
    id: 'sbps-continuous-estimator',
    figure: 'SBPS Fig. 5',
    title: 'Continuous-trajectory against discrete estimates of a fast-varying function',
    source: 'Pakman et al. 2017, §6.3 and Fig. 5',
    paper: '"the error in the expectation is lower in the continuous case" for a test function varying on a short length ℓ (logistic example; no numbers given)',
    text: 'SBPS on a correlated Gaussian (the plot). The chart below estimates E[cos(θ₁/ℓ)], whose exact value is exp(−1/(2ℓ²)), from the same SBPS paths in two ways: integrating along the straight pieces exactly (continuous), or averaging at points every 0.5 units of path time (discrete). For a slowly varying function (large ℓ) both errors agree; for a fast one (small ℓ) the discrete points alias it and their error is larger. Here the target is a Gaussian instead of the paper\'s logistic regression, so that E[f] is exact.',
    state: { target: 'gaussian', sampler: 'sbps', seed: 1, values: { rho: 0.9 }, speed: 20 },
    scan: {
      title: 'error of E[cos(θ₁/ℓ)] against the test function\'s length ℓ', x_label: 'length scale ℓ of the test function', y_label: '|estimate − exp(−1/(2ℓ²))|', log_x: true, log_y: true,
      settings: { rho: 0.9 }, param: 'length', values: [0.03, 0.1, 0.3, 1, 3],
      curves: [
        { label: 'continuous (integral along the path)', sampler: 'sbps' },
        { label: 'discrete (points every 0.5 of path time)', sampler: 'sbps', measure: { kind: 'cosine_error', coordinate: 0, center: 0, sd: 1, spacing: 0.5, discrete: true } },
      ],
      measure: { kind: 'cosine_error', coordinate: 0, center: 0, sd: 1, spacing: 0.5, discrete: false }, replicas: 6, budget: 0, max_steps: 6_000,
      claims: [
        { metric: 'scan.curve_ratio_first', label: 'error at ℓ = 0.03, continuous / discrete', op: '<', value: 0.7 },
      ],
    },
  },
  {
    id: 'sbps-hyperbola',
    figure: 'SBPS Fig. 7',
    title: 'SBPS against SGLD on a hyperbola ridge (after App. D)',
    source: 'Pakman et al. 2017, App. D and Fig. 7',
    paper: 'On the hyperboloid posterior SGLD and mSGNHT "deviate into low density regions while not mixing as well as SBPS" (no numbers given)',
    text: 'A stand-in for the paper\'s hyperboloid, whose formula is lost: y_i ~ N(w₁w₂, 1), N = 20, so only the product w₁w₂ is identified and the mass lies along a hyperbola (docs/bouncy.md §12). SBPS (first plot) runs along the ridge on straight pieces and covers it; SGLD at its derived step and the same gradient budget (second plot) diffuses slowly along the curved ridge and covers a fraction of it.',
    state: { target: 'hyperbola', sampler: 'sbps', seed: 1, values: {}, speed: 200 },
    compare: { sampler: 'sgld', values: {} },
    claims: [
      { metric: 'e2_ratio', label: 'covariance error E2, SBPS / SGLD', op: '<', value: 0.2, after_samples: 156_000 },
      { metric: 'ess_ratio', label: 'ESS per 1,000 gradients, SBPS / SGLD', op: '>', value: 5, after_samples: 156_000 },
    ],
  },
  {
    id: 'sbps-multimodal',
    figure: 'SBPS Fig. 8',
    title: 'SBPS with auxiliary observations on a two-mode target (after App. E)',
    source: 'Pakman et al. 2017, App. E and Fig. 8',
    paper: 'With one auxiliary observation (m = 1) "SBPS is able to correctly sample from the target while avoiding the issues posed by the multimodality" (no numbers given)',
    text: 'A stand-in for the paper\'s multimodal toy, whose formula is lost: the tied-means mixture with modes near (0, g) and (g, −g), g = 1.5 (docs/bouncy.md §12). SBPS with one auxiliary observation (first plot) crosses the valley again and again, so its ellipse has about the truth\'s area (within 30 %), though in 20 s the time it has spent in each mode is still uneven (the histograms, and E1); SGLD at the same gradient budget (second plot) stays in the mode it started in. On this toy the auxiliary observations are rarely needed (a handful in 20 s): the horizon already stops long excursions.',
    state: { target: 'multimodal', sampler: 'sbps', seed: 1, values: { aux_points: 1, mode_gap: 1.5 }, speed: 200 },
    compare: { sampler: 'sgld', values: {} },
    claims: [
      { metric: 'area_ratio', label: 'SBPS ellipse area, dashed / solid', op: 'between', value: [0.7, 1.3], after_samples: 188_000 },
      { metric: 'compare.area_ratio', label: 'SGLD ellipse area, dashed / solid', op: '<', value: 0.5, after_samples: 188_000 },
    ],
  },
  {
    id: 'sbps-sgld-step-scan',
    figure: 'SBPS Fig. 9',
    title: 'Choosing SGLD\'s step size: a scan over ε',
    source: 'Pakman et al. 2017, App. F and Fig. 9',
    paper: 'SGLD\'s step was chosen as the largest ε whose per-datum NLL variance still matches the Laplace approximation\'s: the comparison needs a scan over ε, which SBPS does not (no numbers given)',
    text: 'SGLD with minibatches of 10 on a 2-parameter logistic regression (N = 1,000) at ε = 0.001 (the panel). Its stationary law is biased and the bias grows with ε: the chart below runs SGLD at ε from 10⁻⁵ to 0.003, each for the same gradient budget, and plots its variance of w against the truth\'s (dashed). At this budget the smallest steps have not explored the posterior yet (their variance is too small), ε ≈ 10⁻⁴ matches the truth, and larger steps overshoot it: the paper\'s criterion picks the largest ε that still matches. The paper scans the variance of the per-datum NLL instead; here the variance of w stands in for it.',
    state: { target: 'logreg', sampler: 'sgld', seed: 1, values: { batch_size: 10, step_size: 0.001 }, speed: 200 },
    claims: [
      { metric: 'var_x_ratio', label: 'variance of w at ε = 0.001, SGLD / truth', op: '>', value: 1.5, after_samples: 100_000 },
    ],
    scan: {
      title: 'SGLD\'s variance of w against its step size ε', x_label: 'step size ε', y_label: 'variance of w', log_x: true, log_y: true,
      settings: { batch_size: 10 }, param: 'step_size', values: [1e-5, 1e-4, 3e-4, 1e-3, 3e-3],
      curves: [{ label: 'SGLD (n = 10)', sampler: 'sgld' }], truth_variance: 0,
      measure: { kind: 'variance', coordinate: 0 }, replicas: 3, budget: 200_000, max_steps: 1_000_000,
      claims: [
        { metric: 'scan.first_over_reference', label: 'variance at ε = 10⁻⁵ over the truth\'s (not mixed yet)', op: '<', value: 0.8 },
        { metric: 'scan.over_reference@0.0001', label: 'variance at ε = 10⁻⁴ over the truth\'s', op: 'between', value: [0.7, 1.3] },
        { metric: 'scan.last_over_reference', label: 'variance at ε = 0.003 over the truth\'s', op: '>', value: 2 },
      ],
    },
  },
  {
    id: 'sbps-minibatch-travel',
    figure: 'SBPS Fig. 10',
    title: 'Minibatch size against travel time between bounces',
    source: 'Pakman et al. 2017, App. G.1 and Fig. 10',
    paper: 'A linear relation between the minibatch size n and the average travel time between bounces (logistic regression, d = 20)',
    text: 'SBPS on the d = 20 logistic regression of the paper\'s experiment at n = 100 (the plot shows w₁ and w₂). Smaller minibatches are noisier, so the band is higher and the particle bounces sooner. The chart below runs SBPS on the same model with N = 10,000 (so that n can grow a hundredfold and still leave noise) at n from 50 to 5,000, each for the same data cost. In class time the plot\'s chain (about 24,000 events at this speed, 20 s) has not mixed on d = 20: its dashed ellipse and E2 are far from the truth, and the red warning under the sliders says so (measured here: runs this short leave E2 above 0.3). The plot shows the sampler moving; the chart below is the figure.',
    state: { target: 'logreg_dd', sampler: 'sbps', seed: 1, values: { batch_size: 100 }, speed: 20 },
    claims: [
      { metric: 'e2', label: 'E2 of the plot\'s chain in class time (not mixed yet: the chart is the figure)', op: '>', value: 0.3, after_samples: 2_000 },
    ],
    scan: {
      title: 'travel time between bounces against minibatch size n', x_label: 'minibatch size n', y_label: 'travel time per bounce', log_x: true, log_y: true,
      settings: { n_points: 10_000 }, param: 'batch_size', values: [50, 100, 200, 500, 1000, 5000],
      curves: [{ label: 'SBPS', sampler: 'sbps' }],
      measure: TRAVEL_PER_BOUNCE, replicas: 3, budget: 200_000, max_steps: 1_000_000,
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
    paper: 'The probability of a bound violation decreases monotonically with k (bottom left panel)',
    text: 'SBPS on the d = 20 logistic regression at k = 3. k is how many predictive standard deviations the band adds above the fitted projected gradient: the chart below runs SBPS at k from 0 to 5 for the same data cost and counts the proposals where the observed rate exceeded the band. In class time the plot\'s chain (about 24,000 events at this speed, 20 s) has not mixed on d = 20: its dashed ellipse and E2 are far from the truth, and the red warning under the sliders says so (measured here: runs this short leave E2 above 0.3). The plot shows the sampler moving; the chart below is the figure.',
    state: { target: 'logreg_dd', sampler: 'sbps', seed: 1, values: { band_k: 3 }, speed: 20 },
    claims: [
      { metric: 'e2', label: 'E2 of the plot\'s chain in class time (not mixed yet: the chart is the figure)', op: '>', value: 0.3, after_samples: 2_000 },
    ],
    scan: {
      title: 'violations per bounce against band width k', x_label: 'band width k', y_label: 'violations per bounce',
      settings: {}, param: 'band_k', values: [0, 0.5, 1, 2, 3, 5],
      curves: [{ label: 'SBPS', sampler: 'sbps' }],
      measure: VIOLATION_RATE, replicas: 3, budget: 200_000, max_steps: 1_000_000,
      claims: [
        { metric: 'scan.decreasing', label: 'violation rate falls as k grows (share of steps down)', op: '>', value: 0.99 },
        { metric: 'scan.last_over_first', label: 'violation rate at k = 5 over k = 0', op: '<', value: 0.2 },
      ],
    },
  },
];
