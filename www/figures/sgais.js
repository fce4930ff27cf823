// The figures gallery's SGAIS entries (Cameron, Eggers & Kroon 2019).
// Each entry is a preset (see www/presets.js for its fields) whose `figure` names the paper's figure
// exactly as 'SGAIS Fig. <n>', with `paper` quoting the paper's headline number(s). An SGAIS figure
// runs in the SGAIS panel: `sgais` names its runs (www/sgais-plan.js SGAIS_PRESETS, or `runs` here, which
// its `registerFigureRuns` registers under that name: target, its values, a base preset of SGAIS
// settings, the variants — one per value of the setting a sensitivity figure varies —, AIS
// baselines, replicas); `sgaisChart` picks the figure's own chart ('cost' against data seen, or
// 'data' for Fig. 1); `annealingLog` draws the annealing steps on log–log axes; its `claims` read what the panel shows (metrics in www/sgais-figures.js) and
// are checked when the workers are done by tests/e2e/figures-C.test.mjs.

/** The paper's §6.1/§7.3 default settings (M = 10, ESS* = 5, S = 20, lr = 0.1, β̂ = 0, |B| = |C| = 500). */
const PAPER = 'paper';
/**
 * Sensitivity figures run on linear regression with 20,000 points: its exact evidence measures the
 * error, and every variant finishes within seconds (the paper: the mixture model, up to 10⁶ points).
 */
const SENSITIVITY_DATA = { n_points: 20000 };

/** One variant per value of setting `name`, labelled `${symbol} = value`; `extra(v)` adds settings. */
const scan = (name, symbol, values, extra = () => []) =>
  values.map((v) => ({ label: `${symbol} = ${v}`, settings: [[name, String(v)], ...extra(v)] }));

const sensitivity = (variants) => ({ target: 'linreg', preset: PAPER, values: SENSITIVITY_DATA, variants, ais: false, replicas: 1 });

const SENSITIVITY_TEXT = 'Linear regression with 20,000 points at the paper\'s settings (M = 10, ESS* = 5, S = 20 SGHMC steps per temperature, lr = 0.1, β̂ = 0, |B| = |C| = 500), one setting varied. The three charts are the paper\'s panels: log Ẑ/n against the exact curve (a), annealing steps per chunk (c, log–log: the first chunks need many times the steps of the later ones) and the run cost (b; per-datum evaluations, which the run time is proportional to). The paper varies it on its 2-D mixture with up to 10⁶ points; here the exact evidence of the linear model measures the error.';

export const SGAIS_FIGURES = [
  {
    id: 'sgais-shift-data',
    figure: 'SGAIS Fig. 1',
    title: 'The distribution-shift data, phase by phase (Fig. 1)',
    source: 'Cameron, Eggers & Kroon 2019, §6.2 and Fig. 1',
    text: 'The 100,000 points of the distribution-shift experiment: the first 1,000 from 3 Gaussian clusters, the next 9,000 from 5 (the 3 and two more), the rest from 7 (600 of each phase drawn, the later phases underneath). The new clusters land where the first phase put no point; some overlap, so the number of clusters is not obvious by eye. The runs of Fig. 5 start on these data.',
    paper: 'histograms of the first 1,000, the next 9,000 and the last 90,000 observations (3, 5, 7 clusters) and of all of them',
    sgais: 'shiftPaperAlgorithm',
    sgaisChart: 'data',
    claims: [{ metric: 'sgais.new_mass_fraction', label: 'share of the last phase\'s points where the first phase has none', op: '>', value: 0.25 }],
  },
  {
    id: 'sgais-linreg',
    figure: 'SGAIS Fig. 2',
    title: 'SGAIS: online evidence for linear regression (Fig. 2)',
    source: 'Cameron, Eggers & Kroon 2019, Fig. 2',
    text: 'SGAIS\'s log Ẑ/n (the curve, updated after each chunk of 1,000 data) against the exact sequential evidence (dashed); the points are full-data AIS at N/4, N/2 and N with the same settings and its own seed. The third chart is Fig. 2b: the cost of each (per-datum evaluations, which the run time is proportional to): SGAIS pays once per datum, AIS starts over for every N. The model is Bayesian linear regression with 5 features, at the accurate defaults (the paper\'s own settings are the "paper" preset of the CLI).',
    paper: 'final error of SGAIS on 10⁶ points about 0.1 %; speed-up over AIS 24.9×, over NS 3.3× (at 10⁶ points)',
    sgais: 'linreg',
    sgaisChart: 'cost',
    claims: [
      { metric: 'sgais.error', of: 'SGAIS', label: '|log Ẑ − log Z| of SGAIS (nats, mean of 4 replicas)', op: '<', value: 3 },
      { metric: 'sgais.ais_cost_ratio', of: 'SGAIS', label: 'cost of AIS at N over SGAIS up to N', op: '>', value: 3 },
    ],
  },
  {
    id: 'sgais-softmax',
    figure: 'SGAIS Fig. 3',
    title: 'SGAIS vs AIS on softmax regression (Fig. 3)',
    source: 'Cameron, Eggers & Kroon 2019, §7.1 and Fig. 3',
    text: 'SGAIS\'s online log Ẑ/n (the curve) against full-data AIS at N/2 and N (the points; N/4 rounds up to the first chunk), and the cost of each in the third chart, on softmax (multinomial logistic) regression with 10 features and 4 classes, 44 parameters, 2,000 generated points in chunks of 1,000. The paper goes to 10⁶ points, where AIS took over 4,000 s per run; here 2,000, so that AIS finishes in class. For the same reason both run at the fast settings K = 10 SGHMC steps per temperature and lr = 0.02, at which both are about 6 % low against an independent reference (docs/sgais.md §13); softmax\'s own defaults (K = 40, lr = 0.1) are within 0.3 % at 4 times the cost.',
    paper: 'NS and SGAIS differ by about 0.6 % on 10⁶ points; SGAIS 10.4× faster than NS; AIS not run beyond 10⁵ points (over 4,000 s per run)',
    sgais: 'fig3',
    runs: { target: 'softmax', values: { n_points: 2000, burn_in_steps: 10, learning_rate: 0.02 }, variants: [], ais: true, replicas: 1 },
    sgaisChart: 'cost',
    claims: [
      { metric: 'sgais.ais_gap', of: 'SGAIS', label: '|log Ẑ SGAIS − log Ẑ AIS| / |log Ẑ AIS| at N', op: '<', value: 0.01 },
      { metric: 'sgais.ais_cost_ratio', of: 'SGAIS', label: 'cost of AIS at N over SGAIS up to N', op: '>', value: 1.3 },
    ],
  },
  {
    id: 'sgais-gmm',
    figure: 'SGAIS Fig. 4',
    title: 'SGAIS vs AIS on the Gaussian mixture (Fig. 4)',
    source: 'Cameron, Eggers & Kroon 2019, §7.1 and Fig. 4',
    text: 'SGAIS\'s online log Ẑ/n (the curve) against full-data AIS at N/4, N/2 and N (the points), and the cost of each in the third chart: only the cost is claimed here. The model is a 5-component mixture of 2-D Gaussians (25 parameters) on 1,000 points from 5 clusters, in chunks of 250 (the paper: up to 10⁶ points), at the mixture\'s own SGAIS defaults (K = 20 SGHMC steps per temperature, lr = 0.1). SGAIS ends within about 5 nats of an independent reference (Laplace at the mode plus log 5!, −3,611); full-data AIS runs at its own settings for the mixture (smaller temperature steps, ESS* = 0.9 M; docs/sgais.md §6) and ends within about 1 nat of that reference (−3,611 to −3,612, three replicas natively). With SGAIS\'s settings it was about 1 % lower (−3,652, seed 1): annealed from the prior on all 1,000 points at once, some of its particles missed posterior mass, and a low log Ẑ is what that produces.',
    paper: 'NS and SGAIS differ by about 0.1 % on 10⁶ points; SGAIS 4.9× faster than NS',
    sgais: 'fig4',
    runs: { target: 'gmm', values: { n_points: 1000, chunk_size: 250, batch_size: 250 }, variants: [], ais: true, replicas: 1 },
    sgaisChart: 'cost',
    claims: [{ metric: 'sgais.ais_cost_ratio', of: 'SGAIS', label: 'cost of AIS at N over SGAIS up to N', op: '>', value: 1.5 }],
  },
  {
    id: 'sgais-shift',
    figure: 'SGAIS Fig. 5',
    title: 'SGAIS under distribution shift (Fig. 5)',
    source: 'Cameron, Eggers & Kroon 2019, §6.2 and Fig. 5',
    text: 'Data from 3, then 5, then 7 Gaussian clusters (changes at n = 1,000 and 10,000), fitted by 3-, 5- and 7-component mixtures in order, and the 7-component model on shuffled data. The change points show as jumps in log Ẑ/n and spikes in annealing steps. As the paper ran it: without the surprise rule that the panel\'s own Fig. 5 preset uses.',
    paper: 'sharp changes of log Ẑ/n at 1,000 and 10,000 observations for the data in order; annealing steps spike at the change points and stay high once the data have more clusters than the model',
    sgais: 'shiftPaperAlgorithm',
    claims: [{ metric: 'sgais.spike', of: 'K = 3, in order', at: 10000, after_n: 11000, label: 'annealing steps after n = 10,000 over the level before (K = 3, in order)', op: '>', value: 2 }],
  },
  {
    id: 'sgais-target-ess',
    figure: 'SGAIS Fig. 6',
    title: 'Sensitivity to the target ESS (Fig. 6)',
    source: 'Cameron, Eggers & Kroon 2019, §7.3.1 and Fig. 6',
    text: `A higher target ESS* needs more annealing steps (the annealing-steps chart, one curve per ESS*); ESS* = 1 = 0.1 M needs none (one step per chunk). The paper\'s point that no annealing makes the early estimates vary needs replicas to see: one run each here. ${SENSITIVITY_TEXT} ESS* is honoured step by step (every annealing step\'s incremental weights keep an ESS of at least ESS*), but the table\'s ESS is that of the accumulated weights, and without resampling (the paper\'s setting) they collapse onto one particle within the first chunk at every ESS*: so all four runs warn "ESS 1.0 of M = 10", each log Ẑ rests on one particle, and one run\'s error is luck. At this seed ESS* = 1 ends 0.8 nats off and ESS* = 8 22 nats off; at seeds 2 and 3 ESS* = 1 was 3,141 and 1,942 nats off and ESS* = 8 112 and 45 (measured natively).`,
    paper: 'a higher target ESS gives more annealing steps, most of them early; ESS* = 1 (= 0.1 M) needs no annealing and has high variance early; any ESS* > 1 converges to the log-ML within acceptable accuracy',
    sgais: 'fig6',
    runs: sensitivity(scan('target_ess', 'ESS*', [1, 2, 5, 8])),
    annealingLog: true,
    sgaisChart: 'cost',
    claims: [
      { metric: 'sgais.steps_ratio', of: ['ESS* = 8', 'ESS* = 2'], label: 'annealing steps, ESS* = 8 over ESS* = 2', op: '>', value: 1.5 },
      { metric: 'sgais.steps_per_chunk', of: 'ESS* = 1', label: 'annealing steps per chunk at ESS* = 1', op: 'between', value: [1, 1] },
    ],
  },
  {
    id: 'sgais-learning-rate',
    figure: 'SGAIS Fig. 7',
    title: 'Sensitivity to the learning rate (Fig. 7)',
    source: 'Cameron, Eggers & Kroon 2019, §7.3.2 and Fig. 7',
    text: `The smallest rate, lr = 0.01, moves the particles least per step: they equilibrate slowly, so its chunks need the most annealing steps, at the highest cost (the annealing-steps and cost charts). Between lr = 0.1 and 1 the order is not fixed: the large rate\'s discretisation error makes its later chunks need more annealing steps, so lr = 1 can cost more than lr = 0.1 (compare the table\'s evaluations). ${SENSITIVITY_TEXT} Unlike the paper, the smaller rates are the more accurate here (log Ẑ − log Z = +1.6, −13, −165 nats for lr = 0.01, 0.1, 1): the large rate\'s discretisation error, as in Fig. 8, outweighs slow equilibration on this model.`,
    paper: 'smaller learning rates give less accurate estimates over a longer time and more annealing steps per observation',
    sgais: 'fig7',
    runs: sensitivity(scan('learning_rate', 'lr', [0.01, 0.1, 1])),
    annealingLog: true,
    sgaisChart: 'cost',
    claims: [
      { metric: 'sgais.steps_ratio', of: ['lr = 0.01', 'lr = 1'], label: 'annealing steps, lr = 0.01 over lr = 1', op: '>', value: 2 },
      { metric: 'sgais.cost_ratio', of: ['lr = 0.01', 'lr = 1'], label: 'cost, lr = 0.01 over lr = 1', op: '>', value: 1.5 },
    ],
  },
  {
    id: 'sgais-lr-steps',
    figure: 'SGAIS Fig. 8',
    title: 'Learning rate × SGHMC steps held constant (Fig. 8)',
    source: 'Cameron, Eggers & Kroon 2019, §7.3.3 and Fig. 8',
    text: `Every run here has lr × S = 2: a larger learning rate with fewer SGHMC steps is cheaper (the cost chart). Its discretisation error makes the chunks need more annealing steps (the annealing-steps chart) and the estimate less accurate (the table\'s log Ẑ against the exact). ${SENSITIVITY_TEXT}`,
    paper: 'fewer steps with a larger learning rate is faster; a smaller learning rate is more accurate; a larger one needs more annealing steps; lr = 1.0 still acceptable on 10⁶ points, 83× faster than NS',
    sgais: 'fig8',
    runs: sensitivity(scan('learning_rate', 'lr', [0.05, 0.1, 0.5, 1], (v) => [['burn_in_steps', String(Math.round(2 / v))]]).map((s) => ({ ...s, label: `${s.label}, S = ${s.settings[1][1]}` }))),
    annealingLog: true,
    sgaisChart: 'cost',
    claims: [
      { metric: 'sgais.steps_ratio', of: ['lr = 1, S = 2', 'lr = 0.05, S = 40'], label: 'annealing steps, lr = 1 over lr = 0.05', op: '>', value: 1.2 },
      { metric: 'sgais.cost_ratio', of: ['lr = 0.05, S = 40', 'lr = 1, S = 2'], label: 'cost, lr = 0.05 over lr = 1', op: '>', value: 4 },
      { metric: 'sgais.error_ratio', of: ['lr = 1, S = 2', 'lr = 0.05, S = 40'], label: 'error, lr = 1 over lr = 0.05', op: '>', value: 2 },
    ],
  },
  {
    id: 'sgais-particles',
    figure: 'SGAIS Fig. A2',
    title: 'Sensitivity to the number of particles (Fig. A2a)',
    source: 'Cameron, Eggers & Kroon 2019, Appendix C, Fig. A2–A4 (a)',
    text: `M = 10, 20, 50 particles with ESS* = M/2: the cost grows in proportion to M (the cost chart), the annealing steps hardly change (the annealing-steps chart). Unlike the paper, the table need not show higher accuracy with more particles (at this seed M = 50's error is the largest): each M is one seeded run whose particle weights collapse after the last chunk (ESS 1, the note under the table), so each error is a single draw whose spread one run does not show; the paper's trend would need replicas of each. ${SENSITIVITY_TEXT}`,
    paper: 'Fig. A2–A4 (a), §7.3: more particles give higher accuracy and a longer run time without much effect on the number of annealing steps',
    sgais: 'figA2',
    runs: sensitivity(scan('particles', 'M', [10, 20, 50], (m) => [['target_ess', String(m / 2)]])),
    annealingLog: true,
    sgaisChart: 'cost',
    claims: [
      { metric: 'sgais.cost_ratio', of: ['M = 50', 'M = 10'], label: 'cost, M = 50 over M = 10', op: 'between', value: [4, 6] },
      { metric: 'sgais.steps_ratio', of: ['M = 50', 'M = 10'], label: 'annealing steps, M = 50 over M = 10', op: 'between', value: [0.75, 1.33] },
    ],
  },
  {
    id: 'sgais-burn-in',
    figure: 'SGAIS Fig. A3',
    title: 'Sensitivity to the SGHMC steps per temperature (Fig. A3b)',
    source: 'Cameron, Eggers & Kroon 2019, Appendix C, Fig. A2–A4 (b)',
    text: `S = 5, 20, 80 SGHMC steps per temperature: fewer steps are cheaper (the cost chart), equilibrate less, need more annealing steps (the annealing-steps chart) and give a less accurate estimate (the table\'s log Ẑ against the exact). ${SENSITIVITY_TEXT}`,
    paper: 'Fig. A2–A4 (b), §7.3: fewer burn-in SGHMC steps typically give lower accuracy and a shorter run time, and more annealing steps',
    sgais: 'figA3',
    runs: sensitivity(scan('burn_in_steps', 'S', [5, 20, 80])),
    annealingLog: true,
    sgaisChart: 'cost',
    claims: [
      { metric: 'sgais.cost_ratio', of: ['S = 80', 'S = 5'], label: 'cost, S = 80 over S = 5', op: '>', value: 3 },
      { metric: 'sgais.steps_ratio', of: ['S = 5', 'S = 80'], label: 'annealing steps, S = 5 over S = 80', op: '>', value: 1.5 },
      { metric: 'sgais.error_ratio', of: ['S = 5', 'S = 80'], label: 'error, S = 5 over S = 80', op: '>', value: 1.5 },
    ],
  },
  {
    id: 'sgais-minibatch',
    figure: 'SGAIS Fig. A4',
    title: 'Sensitivity to the minibatch size (Fig. A4f)',
    source: 'Cameron, Eggers & Kroon 2019, Appendix C, Fig. A2–A4 (f)',
    text: `The minibatch (and chunk, as in the paper) holds 100, 500 or 2,000 points: larger ones cost more per SGHMC step and give fewer Bayesian updates, each needing more annealing steps (the annealing-steps chart), and a more accurate estimate (the table\'s log Ẑ against the exact). ${SENSITIVITY_TEXT}`,
    paper: 'Fig. A2–A4 (f), §7.3: larger minibatches give higher accuracy but more computation per SGHMC step, fewer Bayesian updating steps and more annealing steps per new chunk',
    sgais: 'figA4',
    runs: sensitivity(scan('batch_size', '|B| = |C|', [100, 500, 2000], (b) => [['chunk_size', String(b)]])),
    annealingLog: true,
    sgaisChart: 'cost',
    claims: [
      { metric: 'sgais.steps_per_chunk_ratio', of: ['|B| = |C| = 2000', '|B| = |C| = 100'], label: 'annealing steps per chunk, 2,000 over 100', op: '>', value: 3 },
      { metric: 'sgais.error_ratio', of: ['|B| = |C| = 100', '|B| = |C| = 2000'], label: 'error, |B| = 100 over 2,000', op: '>', value: 2 },
    ],
  },
  {
    id: 'sgais-ns-vs-ais',
    figure: 'SGAIS Fig. A1',
    title: 'Nested sampling against AIS on a 1-D mixture (Fig. A1)',
    source: 'Cameron, Eggers & Kroon 2019, Appendix A.2 and Fig. A1',
    text: 'The paper\'s correctness check: nested sampling (purple points, ± its standard error) and full-data AIS (red) work in completely different ways, so if they agree both are probably right. A 3-component mixture on 200 scalar points from three clusters (9 parameters), at N/4, N/2 and N; AIS with the mixture\'s SGHMC settings (K = 20 steps per temperature, lr = 0.1), NS with 25 live points, three replicas. Measured against the exact evidence (a sum over all allocations with a 1-D quadrature, possible up to N = 14): at N = 10 and 14 both are within 0.2 nats of it. At N = 200 they agree within 0.3 nats. At the SGAIS defaults (K = 10, lr = 0.02) AIS came out 8 nats below NS at N = 200 (5 runs each): NS was right, AIS\'s particles had not equilibrated (more steps and a larger lr bring it to NS\'s value).',
    paper: '5 runs each for 20 … 1,000 points: "the typical results of NS and AIS tend to agree"',
    sgais: 'figA1',
    runs: { target: 'gmm1d', values: { n_points: 200, chunk_size: 50, batch_size: 50, burn_in_steps: 20, learning_rate: 0.1 }, variants: [], ais: true, ns: true, replicas: 3 },
    sgaisChart: 'cost',
    claims: [
      { metric: 'sgais.ns_minus_ais', label: 'log Ẑ of NS minus log Ẑ of AIS at N (nats)', op: 'between', value: [-3, 3] },
      { metric: 'sgais.ns_se', label: 'standard error of NS at N (nats)', op: '<', value: 1.5 },
    ],
  },
];
