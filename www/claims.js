// Machine-checkable claims of lessons and presets: `{metric, op, value, after_samples}` read from
// the chain's state (and the compared chain's), so the page can show whether a claim holds yet and
// the browser tests can assert it at the exact settings a step loads.
//
// Metrics (all on the displayed pair unless said otherwise):
//   e1, e2               the state's error of the means / covariances against the truth (SGFS eq. 14)
//   area_ratio           area of the dashed (sampler) 2σ ellipse over the solid (truth) one, √(det S / det T)
//   det_ratio            det S / det T (≈ 0: the samples lie on a line)
//   narrow_ratio         sampler variance along the truth ellipse's short axis over the truth's
//   wide_ratio           the same along the long axis
//   var_x_ratio          sampler variance of the x coordinate over the truth's
//   var_y_ratio          the same for the y coordinate
//   mean_y_sd            distance of the sampler's mean of y from the truth's, in the truth's sd of y
//   distance_sd          distance of the current point from the truth's mean, in the truth's
//                        standard deviations (Mahalanobis, on the pair): how far burn-in still has to go
//   steps_ratio          the main chain's steps over the compared chain's (compare mode)
//   e2_ratio             the main chain's E2 over the compared chain's (compare mode)
//   ess_per_1000         smaller ESS per 1,000 gradient evaluations of the pair (state.mixing, when attached)
//   ess_ratio            the main chain's ess_per_1000 over the compared chain's (compare mode): mixing per unit of work
//   bounce_rate          bounces per unit of trajectory time (bouncy samplers: diag.bounces / diag.total_time)
//   travel_per_bounce    trajectory time travelled per bounce, its inverse
//   bounce_rate_ratio    the main chain's bounce_rate over the compared chain's (compare mode)
//   diag.NAME            the sampler's own diagnostic NAME (state.diagnostics)
//   heldout.NAME         the held-out test curves' NAME (state.heldout, targets with a test set, src/heldout.rs):
//                        accuracy, accuracy_at_1, log_joint, log_joint_rise, plateau_change, baseline, sweeps
//   compare.METRIC       METRIC of the compared chain (compare mode)
//   area_vs_predicted    area of the dashed (measured) ellipse over the dotted (predicted) one
//   predicted.area_ratio area of the predicted stationary ellipse over the truth's (when the core predicts one)
//   scan.NAME            a figure's scan chart (www/figure-scan.js; state.scan = the points of each curve as
//                        drawn, ready once state.scan_done): last_over_first (curve 1's last y over its
//                        first), increasing / decreasing (share of its neighbouring points that rise / fall),
//                        loglog_slope (least-squares slope of log y on log x), curve_ratio (curve 1 over
//                        curve 2 at the last x), curve_ratio_first (the same at the first x), first_over_reference / last_over_reference (curve 1's
//                        first / last y over the dashed reference, state.scan_reference), over_reference@X
//                        (curve 1's y at x = X over the reference)
//   band.min_gap         SBPS's live band chart (state.band, its spec): the smallest height of the upper band
//                        λ⁺(t) above the fitted line Ĝ(t) over the time axis (> 0: proposals come from above the fit)

import { formatNumber } from './format.js';

/** The 2 × 2 block of `cov` for the pair (i, j). */
function block(cov, [i, j]) {
  return [[cov[i][i], cov[i][j]], [cov[j][i], cov[j][j]]];
}

const det = (m) => m[0][0] * m[1][1] - m[0][1] * m[1][0];

/**
 * A quantity that is ≥ 0 by definition (a covariance's determinant, a variance, a quadratic form
 * of a covariance): a rounding residue below zero (samples on a line give det ≈ −2·10⁻¹⁵) reads 0,
 * never a negative number on screen (issue 26).
 */
const nonNegative = (x) => (x < 0 ? 0 : x);

/** Unit eigenvectors of a symmetric 2 × 2 matrix, smallest eigenvalue first, with the eigenvalues. */
function eigen(m) {
  const [a, b, d] = [m[0][0], m[0][1], m[1][1]];
  const mean = (a + d) / 2;
  const r = Math.hypot((a - d) / 2, b);
  const vector = (l) => {
    const v = Math.abs(b) > 1e-300 ? [l - d, b] : (Math.abs(a - l) < Math.abs(d - l) ? [1, 0] : [0, 1]);
    const n = Math.hypot(v[0], v[1]);
    return [v[0] / n, v[1] / n];
  };
  return [{ value: mean - r, vector: vector(mean - r) }, { value: mean + r, vector: vector(mean + r) }];
}

/** √((x − μ)ᵀ T⁻¹ (x − μ)) on the pair. */
function mahalanobis(position, mean, truth, [i, j]) {
  const [dx, dy] = [position[i] - mean[i], position[j] - mean[j]];
  const d = det(truth);
  return Math.sqrt((truth[1][1] * dx * dx - 2 * truth[0][1] * dx * dy + truth[0][0] * dy * dy) / d);
}

const quad = (m, v) => v[0] * (m[0][0] * v[0] + m[0][1] * v[1]) + v[1] * (m[1][0] * v[0] + m[1][1] * v[1]);

/** A scan chart's number (see the header) from its curves' points `[[{x, y}, …], …]`. */
function scanMeasure(metric, curves, reference) {
  const [name, argument] = [metric.split('@')[0], Number(metric.split('@')[1])];
  const ys = (curves?.[0] || []).map((p) => (p.y === null ? NaN : p.y));
  const xs = (curves?.[0] || []).map((p) => p.x);
  const steps = ys.slice(1).map((y, k) => y - ys[k]);
  switch (name) {
    case 'over_reference': {
      const at = xs.findIndex((x) => Math.abs(x - argument) <= 1e-9 * Math.abs(argument));
      return at >= 0 && reference ? ys[at] / reference : NaN;
    }
    case 'first_over_reference': return ys.length && reference ? ys[0] / reference : NaN;
    case 'last_over_reference': return ys.length && reference ? ys[ys.length - 1] / reference : NaN;
    case 'last_over_first': return ys.length > 1 ? ys[ys.length - 1] / ys[0] : NaN;
    case 'increasing': return steps.length ? steps.filter((d) => d > 0).length / steps.length : NaN;
    case 'decreasing': return steps.length ? steps.filter((d) => d < 0).length / steps.length : NaN;
    case 'loglog_slope': {
      const lx = xs.map(Math.log);
      const ly = ys.map(Math.log);
      const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
      const my = ly.reduce((a, b) => a + b, 0) / ly.length;
      const sxy = lx.reduce((a, x, k) => a + (x - mx) * (ly[k] - my), 0);
      const sxx = lx.reduce((a, x) => a + (x - mx) ** 2, 0);
      return lx.length > 1 ? sxy / sxx : NaN;
    }
    case 'curve_ratio':
    case 'curve_ratio_first': {
      const at = name === 'curve_ratio' ? -1 : 0;
      const [a, b] = [curves?.[0]?.at(at), (curves?.[1] || []).at(at)];
      return a && b && a.x === b.x && a.y !== null && b.y !== null ? a.y / b.y : NaN;
    }
    default: throw new Error(`unknown claim metric 'scan.${name}'`);
  }
}

/** The value of `metric` in `state` (and `compareState` for compare.*); NaN when unknown. */
export function measure(metric, state, compareState) {
  if (metric === 'band.min_gap') {
    const [line, band] = [state.band?.series?.[0]?.points, state.band?.series?.[1]?.points];
    return line && band && line.length === band.length ? Math.min(...band.map((p, k) => p[1] - line[k][1])) : NaN;
  }
  if (metric.startsWith('scan.')) return scanMeasure(metric.slice(5), state.scan, state.scan_reference);
  if (metric.startsWith('compare.')) return compareState ? measure(metric.slice(8), compareState) : NaN;
  if (metric.startsWith('diag.')) {
    const d = (state.diagnostics || []).find((x) => x.name === metric.slice(5));
    return d && d.value !== null ? d.value : NaN;
  }
  if (metric.startsWith('heldout.')) return state.heldout?.[metric.slice(8)] ?? NaN;
  if (metric === 'e1' || metric === 'e2') return state[metric] ?? NaN;
  if (metric === 'steps_ratio') return compareState ? state.steps / compareState.steps : NaN;
  if (metric === 'e2_ratio') return compareState ? (state.e2 ?? NaN) / (compareState.e2 ?? NaN) : NaN;
  if (metric === 'bounce_rate') return measure('diag.bounces', state) / measure('diag.total_time', state);
  if (metric === 'bounce_rate_ratio') return compareState ? measure('bounce_rate', state) / measure('bounce_rate', compareState) : NaN;
  if (metric === 'travel_per_bounce') return measure('diag.total_time', state) / measure('diag.bounces', state);
  if (metric === 'ess_per_1000') return Math.min(...(state.mixing?.ess_per_1000_grads || [NaN]).map((e) => e ?? NaN));
  if (metric === 'ess_ratio') return compareState ? measure('ess_per_1000', state) / measure('ess_per_1000', compareState) : NaN;
  if (!state.truth) return NaN;
  if (metric === 'distance_sd') return mahalanobis(state.position, state.truth.mean, block(state.truth.cov, state.pair), state.pair);
  if (state.n_samples < 2) return NaN;
  if (metric === 'mean_y_sd') return Math.abs(state.mean[state.pair[1]] - state.truth.mean[state.pair[1]]) / Math.sqrt(state.truth.cov[state.pair[1]][state.pair[1]]);
  const truth = block(state.truth.cov, state.pair);
  const sampler = metric.startsWith('predicted.')
    ? (state.predicted ? block(state.predicted.cov, state.pair) : null)
    : block(state.cov, state.pair);
  if (!sampler) return NaN;
  if (metric === 'area_vs_predicted') return state.predicted ? Math.sqrt(nonNegative(det(sampler)) / det(block(state.predicted.cov, state.pair))) : NaN;
  const name = metric.replace(/^predicted\./, '');
  const [narrow, wide] = eigen(truth);
  switch (name) {
    case 'area_ratio': return Math.sqrt(nonNegative(det(sampler)) / det(truth));
    case 'det_ratio': return nonNegative(det(sampler)) / det(truth);
    case 'narrow_ratio': return nonNegative(quad(sampler, narrow.vector)) / narrow.value;
    case 'wide_ratio': return nonNegative(quad(sampler, wide.vector)) / wide.value;
    case 'var_x_ratio': return nonNegative(sampler[0][0]) / truth[0][0];
    case 'var_y_ratio': return nonNegative(sampler[1][1]) / truth[1][1];
    default: throw new Error(`unknown claim metric '${metric}'`);
  }
}

/** Whether `value` satisfies the claim's comparison. */
export function holds(claim, value) {
  if (!Number.isFinite(value)) return false;
  switch (claim.op) {
    case '<': return value < claim.value;
    case '>': return value > claim.value;
    case 'between': return value >= claim.value[0] && value <= claim.value[1];
    default: throw new Error(`unknown claim op '${claim.op}'`);
  }
}

/** `{ready, value, ok}` of a claim in this state: ready once `after_samples` have been drawn. */
export function check(claim, state, compareState) {
  const value = measure(claim.metric, state, compareState);
  const ready = claim.metric.startsWith('band.') ? Boolean(state.band)
    : claim.metric.startsWith('scan.') ? Boolean(state.scan_done)
    : state.n_samples >= (claim.after_samples || 0) && (!claim.metric.startsWith('compare.') || Boolean(compareState));
  return { ready, value, ok: holds(claim, value) };
}

/** The claim in words, e.g. "area ratio > 1.5". */
export function describe(claim) {
  const name = claim.label || claim.metric;
  const value = claim.op === 'between' ? `in [${formatNumber(claim.value[0])}, ${formatNumber(claim.value[1])}]` : `${claim.op} ${formatNumber(claim.value)}`;
  return `${name} ${value}`;
}

/** Metrics that read the compared chain as well as the main one. */
const READS_BOTH = new Set(['steps_ratio', 'e2_ratio', 'ess_ratio', 'bounce_rate_ratio']);

/**
 * Claims that count the sampler's own events, not the samples against the truth: SBPS's band
 * violations and the bounce intensity it missed (docs/bouncy.md). A chain that ran away or sits at
 * an unstable setting does not make them wrong; on the lesson step that sets k = 0 they are the
 * reason it runs away (bps step 5). Only a diverged chain voids them.
 */
const SAMPLER_EVENTS = new Set(['diag.violation_rate', 'diag.missed_bounce_share']);

/**
 * Why a chain's readings cannot support a claim: it diverged, the core confirmed a runaway, or a
 * slider sits past the stability limit the core derived for it (the shaded end of its track: the
 * chain has no stationary law there, so any reading is of a transient; not for an exact sampler,
 * `state.sampler_kind` 'exact', whose Metropolis test keeps its law there); null when none applies.
 */
export function unsound(state) {
  if (!state) return null;
  if (state.diverged) return 'the chain diverged';
  if (state.runaway && typeof state.runaway === 'object') return 'the chain ran away from the truth';
  // An exact sampler (MALA, HMC) past its limit rejects nearly every proposal: slow, not unsound.
  const past = state.sampler_kind !== 'exact' && Object.entries(state.derived || {}).some(([name, d]) => {
    const value = state.sampler_params?.[name];
    return Number.isFinite(d?.unstable_above) && Number.isFinite(value) && value > d.unstable_above;
  });
  return past ? 'the chain is unstable at this setting (the shaded end of the slider)' : null;
}

/** Metrics read without the truth: the sampler's own counts, curves and charts. */
const WITHOUT_TRUTH = /^(diag\.|heldout\.|scan\.|band\.|compare\.|steps_ratio$|bounce_rate|travel_per_bounce$|ess_)/;

/**
 * Why a claim has no number on this run, when the reason is known (stop 44's review: a claim about
 * a chart or a law absent at this setting read "— not yet" forever): what it waits for, or that it
 * cannot be read here and why; null when no such reason applies.
 */
export function unreadable(claim, state, compareState) {
  const m = claim.metric;
  if ((m.startsWith('compare.') || READS_BOTH.has(m)) && !compareState) return 'cannot be read here: there is no compared chain';
  if (m.startsWith('heldout.') && !state.heldout) return 'cannot be read here: this target has no held-out test set';
  if (m.startsWith('scan.') && !state.scan_done) return 'waiting for the figure\'s scan to finish';
  if (m.startsWith('band.') && !state.band) return 'cannot be read here: no band chart at this setting (SBPS draws it)';
  if (!WITHOUT_TRUTH.test(m) && !state.truth) return state.truth_pending ? 'waiting for the truth (computed in a background worker)' : 'cannot be read here: this target has no truth to compare with';
  if ((m.startsWith('predicted.') || m === 'area_vs_predicted') && !state.predicted && state.n_samples >= 2) return 'cannot be read here: no law predicts an ellipse at these settings';
  return null;
}

/**
 * What a claim not yet ready waits for: its samples, a chart's claims their chart, and an OSGFS
 * chain that keeps no sample before its burn-in test fires (src/sampler/osgfs.rs) that test: "after
 * 5,000 samples" would wait forever at a cap c whose window eq. 17 does not pass in class time.
 */
function waitingFor(claim, state) {
  if (claim.metric.startsWith('scan.')) return 'waiting for the figure\'s scan to finish';
  if (claim.metric.startsWith('band.')) return 'waiting for the band chart';
  const burnIn = state?.diagnostics?.find((d) => d.name === 'burn_in_over_step');
  if (burnIn && !Number.isFinite(burnIn.value) && state.steps > 0 && state.n_recorded === 0) return 'waiting for the burn-in test (eq. 17) to fire: no sample is kept before it';
  return `after ${formatNumber(claim.after_samples || 0)} samples`;
}

/**
 * A claim's current value as printed beside its mark: three significant digits, or more where
 * three would read as the other verdict (review s44: a ratio of 1,004.9 printed "1,000" beside
 * "in [500, 1,000] — not yet"). The printed number, read back, always agrees with the mark.
 */
export function shownValue(claim, value) {
  const verdict = holds(claim, value);
  for (let digits = 3; digits < 12; digits += 1) {
    // formatNumber prints `digits` significant digits, i.e. this number:
    if (holds(claim, Number(value.toPrecision(digits))) === verdict) return formatNumber(value, digits);
  }
  return String(value);
}

/**
 * The mark after a claim on screen, `{text, ok}` (issue 26): ✓ once it holds after its samples;
 * while more samples could still change it, what it waits for (`waitingFor`), or why it has no
 * number on this run (`unreadable`); for a closed form of the settings
 * (`predicted.*`, exact from the first sample) that fails, that it does not hold at these
 * settings, with the value the law gives; and for a claim read from a chain that diverged, ran
 * away or is unstable (`unsound`), that the chain did, never a ✓ nor a wait for more samples.
 * `moved` lists the step's settings a slider has since changed (`{symbol, stated, now}`): a claim
 * that fails there and that no law excludes says it was stated for the step's values, not "not
 * yet" (SGHMC step 2 asks for κ = 0.2, where its ESS claim for κ = 0.01 fails for good).
 */
export function claimMark(claim, state, compareState, moved = []) {
  const result = state ? check(claim, state, compareState) : { ready: false, value: NaN, ok: false };
  const now = Number.isFinite(result.value) ? ` (now ${shownValue(claim, result.value)})` : '';
  const closedForm = claim.metric.startsWith('predicted.');
  const compared = claim.metric.startsWith('compare.') || READS_BOTH.has(claim.metric);
  const main = !claim.metric.startsWith('compare.');
  const events = SAMPLER_EVENTS.has(claim.metric) && !state?.diverged;
  const why = closedForm || events ? null
    : (main && unsound(state)) || (compared && unsound(compareState) && `the compared ${unsound(compareState).slice(4)}`);
  if (why) return { text: `${now} — ${why}: its readings do not count`, ok: false };
  const blocked = state && !Number.isFinite(result.value) ? unreadable(claim, state, compareState) : null;
  if (blocked) return { text: ` — ${blocked}`, ok: false };
  if (!result.ready) return { text: ` — ${waitingFor(claim, state)}`, ok: false };
  // The ESS comes from a worker (www/mixing.js): none yet for this chain (no answer, or an answer
  // without a number for this window) is a wait, not "no value".
  if (!Number.isFinite(result.value) && /(^|\.)ess_/.test(claim.metric)) return { text: ' — waiting for the ESS (computed in a background worker)', ok: false };
  // Ready, and still no number: no reason above applies, but "not yet" would wait forever.
  if (!Number.isFinite(result.value)) return { text: ' — cannot be read at these settings (no value)', ok: false };
  if (result.ok) return { text: `${now} ✓`, ok: true };
  if (closedForm && Number.isFinite(result.value)) {
    return { text: ` — does not hold at these settings: the law gives ${formatNumber(result.value)} whatever the number of samples`, ok: false };
  }
  const law = lawExcludes(claim, state);
  if (law) return { text: `${now} — cannot hold at this setting: the law predicts ${law} (the dotted ellipse), whatever the number of samples`, ok: false };
  if (moved.length) return { text: `${now} — stated for the step's ${settings(moved, 'stated')}, not for ${settings(moved, 'now')}: press "Load this step" to check it`, ok: false };
  return { text: `${now} — not yet`, ok: false };
}

/** "κ = 0.01, n = 30" from `[{symbol, stated, now}]`, at the stated or the current values. */
function settings(moved, which) {
  return moved.map((m) => `${m.symbol} = ${formatNumber(m[which])}`).join(', ');
}

/** Ellipse ratios the core's stationary law predicts (`predicted.*` in `measure`). */
const PREDICTED = new Set(['area_ratio', 'det_ratio', 'narrow_ratio', 'wide_ratio', 'var_x_ratio', 'var_y_ratio']);

/**
 * The value the chain's own stationary law gives for a measured ellipse claim that this law puts
 * outside the claim, printed; null when no law applies or it allows the claim (issue 26 item 4:
 * SGLD step 2 at ε = 0.1, whose short axis tends to 1/(1 − ε·λmax/4) = 1.33 of the truth,
 * read "in [3, 5.2] — not yet" forever).
 */
function lawExcludes(claim, state) {
  if (!PREDICTED.has(claim.metric) || !state?.predicted) return null;
  const value = measure(`predicted.${claim.metric}`, state);
  return Number.isFinite(value) && !holds(claim, value) ? shownValue(claim, value) : null;
}
