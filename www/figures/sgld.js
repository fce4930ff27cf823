// The figures gallery's SGLD entries (Welling & Teh 2011).
// Each entry is a preset (see www/presets.js for its fields) whose `figure` names the paper's figure
// exactly as 'SGLD Fig. <n>', with `paper` quoting the paper's headline number(s) beside the
// live ones that its `claims` pin (checked at class time by tests/e2e/class-time.test.mjs).

export const SGLD_FIGURES = [
  {
    id: 'sgld-mixture',
    figure: 'SGLD Fig. 1',
    title: 'SGLD on the tied-means mixture (Fig. 1)',
    source: 'Welling & Teh 2011, §5.1, Fig. 1 and 2',
    paper: 'θ₁ = 0, θ₂ = 1, σ₁² = 10, σ₂² = 1, σₓ² = 2, 100 points, n = 1, 10,000 sweeps, εₜ = a(b + t)^−0.55 from 0.01 to 0.0001: "the estimated posterior distribution is very accurate"',
    text: 'The posterior has two modes and the chain crosses between them: the density image shows both (the 2σ ellipse summarises both by one mean and covariance). 100 points from ½N(θ₁, 2) + ½N(θ₁ + θ₂, 2); minibatch n = 1 and a polynomial schedule εₜ = a(b + t)^−0.55 that falls from 0.01 to 10⁻⁴ over the run, as in the paper (there over 10⁶ steps; here over the 2.4 million steps the page takes in 20 s at 2,000 steps per frame), samples weighted by εₜ. The noise chart, drawn over the run\'s iterations, predicts the sampling threshold from the scores of all the data: at the first step ε₀ = 0.01 far above 1, so the first steps are stochastic optimisation; it falls in proportion to εₜ, a hundredfold by the end of the run (the paper\'s Fig. 2, the next preset). The diagnostics cannot measure it at n = 1 (one score per minibatch has no spread); the SGLD lesson uses n = 10 to show it. Beside the schedule scale a the page first warns that 5,000 samples are too few here: they cover Langevin time Σεₜ = 22.4, and the widest direction needs about 69; the note goes once the run passes the count it names (about 36,500 samples, under a second at this speed). Drag a to its minimum and the note asks for billions of samples: the chain is frozen.',
    state: {
      target: 'mixture', sampler: 'sgld', seed: 1, speed: 2000,
      // ε_0 = a b^−0.55 = 0.01 and ε_T = a (b + T)^−0.55 = 10⁻⁴ at T = 2,000 × 1,200 steps:
      // (b + T)/b = 100^(1/0.55), so b = T/4,328.4 = 554.5 and a = 0.01 b^0.55 = 0.323.
      values: { batch_size: 1, sgld_schedule: 1, sgld_a: 0.323, sgld_b: 554.5, sgld_gamma: 0.55, step_size: 0.01 },
    },
    claims: [
      { metric: 'diag.step_size', label: 'step size εₜ at the end of 20 s (2.4 million steps)', op: 'between', value: [0.95e-4, 1.05e-4], after_samples: 2_400_000 },
      { metric: 'var_x_ratio', label: 'variance of θ₁, sampler / truth', op: 'between', value: [0.6, 1.4], after_samples: 400_000 },
      { metric: 'var_y_ratio', label: 'variance of θ₂ (both modes visited), sampler / truth', op: 'between', value: [0.8, 1.25], after_samples: 2_400_000 },
      { metric: 'mean_y_sd', label: 'mean of θ₂ (the modes\' weights), distance from the truth\'s in sd', op: '<', value: 0.1, after_samples: 2_400_000 },
    ],
  },
  {
    id: 'sgld-annealed-noise',
    figure: 'SGLD Fig. 2',
    title: 'The two noises over an annealed SGLD run (Fig. 2)',
    source: 'Welling & Teh 2011, §5.1 and Fig. 2',
    chart: 'noise',
    paper: 'the run of Fig. 1: "a first phase where the stochastic gradient noise dominates the injected noise, and a second phase where the converse occurs"; right: MH rejection probability falling to 0 as ε → 0',
    text: 'The run of Fig. 1 (tied-means mixture, n = 1, εₜ = a(b + t)^−0.55 from 0.01 to 10⁻⁴ over the 2.4 million steps of 20 s). The noise chart is drawn over the iterations of this run, as in the paper: the injected variance εₜ (solid) and the stochastic-gradient-noise variance εₜ²/4 · N²/n · λ (dashed), λ the largest eigenvalue of the score covariance over all 100 data at samples of the run. The gradient noise falls twice as fast on log–log axes; where the two cross (grey marker, the sampling threshold falls through 1) SGLD turns from stochastic optimisation into sampling. The paper\'s right panel, the rejection probability of a full-data MH correction against ε, is the curve labelled "MH rejection probability" in the bias chart. The schedule ignores a constant ε, so the trade-off chart sweeps its scale a instead (a/9 … 9a, up to where ε₀ reaches the stability limit; each run from t = 0 for 200,000 gradient evaluations): error against ESS per 1,000 gradients, as in the SGFS paper\'s Fig. 2. From the current a up, larger steps mix faster and carry more bias; the smallest a has not crossed between the modes in that budget, so its error is large too.',
    state: {
      target: 'mixture', sampler: 'sgld', seed: 1, speed: 2000,
      values: { batch_size: 1, sgld_schedule: 1, sgld_a: 0.323, sgld_b: 554.5, sgld_gamma: 0.55, step_size: 0.01 },
    },
    claims: [
      { metric: 'diag.step_size', label: 'step size εₜ at the end of 20 s (2.4 million steps)', op: 'between', value: [0.95e-4, 1.05e-4], after_samples: 2_400_000 },
    ],
  },
  {
    id: 'sgld-heldout',
    figure: 'SGLD Fig. 3',
    title: 'SGLD logistic regression: log joint and held-out accuracy over sweeps (Fig. 3)',
    source: 'Welling & Teh 2011, §5.2 and Fig. 3',
    chart: 'heldout',
    paper: 'a9a (32,561 rows, 123 features), trained on a random 80 %, tested on 20 %, n = 10: "the joint probability converging after at most 10 iterations, while the accuracy converging after less than 1 iteration through the dataset"',
    text: 'The chart draws, over sweeps (log axis), the log joint per training datum at the current θₜ (up to the prior\'s constant) and the accuracy on the held-out rows of the predictive averaged over the run so far, with the accuracy of always guessing the majority class (dashed). As in the paper, the accuracy is there within one sweep and the log joint levels off within ten. Stand-in data (a9a is not shipped): the breast-cancer set, its first 10 features standardised, every fifth row held out (456 training rows, 113 test rows; the logreg_heldout target), Gaussian prior σ_p = 1 (the paper: Laplace with scale 1). SGLD from θ = 0 with minibatches of n = 10 and a constant ε = 10⁻³, one step per frame: 20 s are 26 sweeps through the training data.',
    state: {
      target: 'logreg_heldout', sampler: 'sgld', seed: 1, speed: 1,
      values: { n_features: 10, prior_sd: 1, start_at: 1, batch_size: 10, step_size: 1e-3 },
    },
    claims: [
      { metric: 'heldout.accuracy_at_1', label: 'test accuracy after 1 sweep (majority class: 0.63)', op: '>', value: 0.85, after_samples: 1_200 },
      { metric: 'heldout.accuracy', label: 'test accuracy after 20 s', op: '>', value: 0.85, after_samples: 1_200 },
      { metric: 'heldout.log_joint_rise', label: 'rise of the log joint per datum from θ = 0', op: '>', value: 0.4, after_samples: 1_200 },
      { metric: 'heldout.plateau_change', label: 'change of the log joint per datum from sweep 10 to the end', op: '<', value: 0.05, after_samples: 1_200 },
    ],
  },
];
