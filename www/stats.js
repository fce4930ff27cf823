// What the chain's state says, in words and numbers: counters, moments against the truth, E1/E2,
// the sampler's own diagnostics, and advice when something is wrong (the sampling threshold far
// above 1, a chain far from the truth, a runaway the core detected).

import { $, app, specsOf } from './app.js';
import { formatCount, formatNumber, formatPower } from './format.js';
import { isFolded, showSettingWarning } from './parameters.js';

/** Sampling threshold (Welling & Teh 2011, eq. 10) above which the page warns: ≫ 1. */
export const THRESHOLD_WARNING = 10;
/** E2 above which the chain counts as far from the truth (covariance errors larger than the covariances). */
export const FAR_E2 = 1;
/** Samples needed before E2 is trusted enough to warn. */
const FAR_MIN_SAMPLES = 2000;

let shownAdvice = '';

/** Counters, moments, errors and diagnostics of the main chain. */
export function showState(state, { onDiscardSinceRunaway }) {
  $('count-steps').textContent = formatCount(state.steps);
  $('count-samples').textContent = formatCount(state.n_samples);
  // Beside E1/E2 the count the promise speaks of: samples, or events for the bouncy family
  // (their recorded "samples" are path points drawn at equal times; docs/diagnostics.md §17).
  // The count starts at the last slider move, discard or burn-in's end: say where, so that it
  // reads beside the scrubber's "step N" (issue 26: "events 8,011" beside "step 8,226", unexplained).
  const since = state.steps - state.promise_count;
  $('quick-samples-label').textContent = state.promise_unit === 'events' && since > 0 ? `events since step ${formatCount(since)}` : state.promise_unit;
  $('quick-samples').textContent = formatCount(state.promise_count);
  $('count-grads').textContent = formatCount(state.grad_evals);
  showMoments(state);
  showDiagnostics(state.diagnostics);
  app.truthPending = state.truth_pending;
  $('error-e1').textContent = errorText(state.e1, state);
  // The core reads E1 in posterior sd when the true mean is near 0 (src/diagnostics.rs).
  $('error-e1-label').textContent = state.e1_in_sd ? 'error E1 (means, in posterior sd)' : 'error E1 (means)';
  $('error-e2').textContent = errorText(state.e2, state);
  if (!state.truth_pending) $('truth-note').textContent = state.truth_error ? `Truth: ${state.truth_error}` : '';
  if (app.params) showSettingWarning(state.setting_warning, state.diverged);
  showAdvice(adviceFor(state, specsOf('samplers', app.sampler), isFolded), onDiscardSinceRunaway);
}

/**
 * E1 or E2 as shown: the number, or why there is none. While the truth is computed a bare "—" sat
 * under a box saying "measured here, E2 above 0.3" (review s42, mixture N = 1,000 with SGFS-f):
 * that box predicts the share of runs from the chain's own mixing, and the cell says the
 * chain's own E2 waits for the truth.
 */
export function errorText(value, state) {
  if (state.truth_pending) return 'waiting for the truth';
  if (!(state.n_samples > 0)) return 'no samples yet';
  return formatNumber(value);
}

const MOMENT_ROWS = ['mean x', 'mean y', 'var x', 'cov x, y', 'var y'];

/**
 * The moments table: its five rows are built once and only their cells' text changes afterwards
 * (it is updated five times a second; rebuilding the rows each time was a DOM rebuild and a layout
 * inside a frame, issue 26).
 */
function showMoments(state) {
  const body = $('moments').tBodies[0];
  if (body.rows.length !== MOMENT_ROWS.length) {
    body.replaceChildren(...MOMENT_ROWS.map((label) => {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = label;
      tr.append(th, document.createElement('td'), document.createElement('td'));
      return tr;
    }));
  }
  const [p, q] = state.pair;
  const values = [[state.mean[p], state.truth?.mean[p]], [state.mean[q], state.truth?.mean[q]], [state.cov[p][p], state.truth?.cov[p][p]],
    [state.cov[p][q], state.truth?.cov[p][q]], [state.cov[q][q], state.truth?.cov[q][q]]];
  values.forEach(([value, truth], k) => {
    const cells = body.rows[k].cells;
    setText(cells[1], sampledMoment(state, value));
    setText(cells[2], truth === undefined ? '—' : momentText(truth));
  });
  setText($('moments').caption, `x = ${state.names[p]}, y = ${state.names[q]}`);
}

/**
 * Beyond this magnitude a moment is written as a power of ten ("6.84·10⁸"), short enough for its
 * cell: "684,000,000" wrapped inside the number in a 98 px cell at 1400×900 (issue 26, stop 52).
 */
const MOMENT_POWER_FROM = 1e6;

/** A moment as its cell shows it: a power of ten from 10⁶ up, the page's usual format below. */
function momentText(value) {
  if (!Number.isFinite(value) || Math.abs(value) < MOMENT_POWER_FROM) return formatNumber(value);
  return formatPower(value);
}

/** The sampler's moment: "diverged" once the chain has (its numbers describe the run-away, not a law). */
function sampledMoment(state, value) {
  if (!(state.n_samples > 0)) return '—';
  return state.diverged ? 'diverged' : momentText(value);
}

/** Set an element's text only when it changes (no mutation, no relayout, when it does not). */
function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

function showDiagnostics(diagnostics) {
  const list = $('diagnostics');
  const key = diagnostics.map((d) => `${d.name}|${d.label}`).join(',');
  if (list.dataset.key === key) {
    // Same diagnostics: update the numbers only, so an opened help stays open.
    diagnostics.forEach((d, k) => { list.querySelectorAll('dd')[k].textContent = formatNumber(d.value); });
    return;
  }
  list.dataset.key = key;
  // A new set (a diagnostic appeared, or a label changed when the truth arrived): the helps the
  // user opened stay open.
  const open = new Set([...list.querySelectorAll('details[open]')].map((e) => e.dataset.name));
  list.replaceChildren(...diagnostics.flatMap((d) => {
    // The name carries its help: on hover (title) and on tap or keyboard (a native disclosure).
    const dt = document.createElement('dt');
    const details = document.createElement('details');
    details.className = 'diagnostic-help';
    details.dataset.name = d.name;
    details.open = open.has(d.name);
    const summary = document.createElement('summary');
    summary.textContent = d.label;
    summary.title = d.help || '';
    const help = document.createElement('p');
    help.textContent = d.help || '';
    details.append(summary, help);
    dt.append(details);
    const dd = document.createElement('dd');
    dd.textContent = formatNumber(d.value);
    dd.dataset.diagnostic = d.name;
    return [dt, dd];
  }));
}

/** ESS of the displayed pair, overall and per 1,000 gradient evaluations. */
export function showMixing(mixing) {
  // The ESS is over the most recent samples only (not the total count shown above): say so.
  const window = Number.isFinite(mixing.window) ? ` (of the last ${formatCount(mixing.window)} samples)` : '';
  $('ess').textContent = `${mixing.ess.map((e) => formatNumber(e)).join(', ')}${window}`;
  $('ess-per-grad').textContent = mixing.ess_per_1000_grads.map((e) => formatNumber(e)).join(', ');
}

/**
 * Warnings for the state: `[{key, text, action?}]`. A runaway reported by the core (`state.runaway`)
 * comes first and offers to discard the samples since it began; then the core's warning about the
 * sampler × target pairing (`state.warning`: separated modes, or no step size meeting the defaults'
 * accuracy claim); and the core's warning about the current setting (`state.setting_warning`)
 * when the slider that caused it is out of sight under a closed "More settings" (`folded(name)`;
 * beside a main slider, or one in the opened section, it is shown there).
 */
export function adviceFor(state, samplerSpec, folded = (name) => !samplerSpec.params.find((p) => p.name === name)?.primary) {
  const advice = [];
  const runaway = state.runaway;
  if (runaway && typeof runaway === 'object') {
    const text = runaway.message || `The chain has run ${formatNumber(runaway.distance_sd)} standard deviations away from the truth since step ${formatCount(runaway.since_step)}.`;
    advice.push({ key: 'runaway', text, action: 'discard-since-runaway' });
  }
  if (typeof state.warning === 'string' && state.warning) advice.push({ key: 'pairing', text: state.warning });
  const setting = state.setting_warning;
  if (setting && folded(setting.param)) {
    // The slider it names is folded away: say where it is, or a student cannot act on it.
    advice.push({ key: 'setting', text: `${setting.text} (Its slider is under "More settings".)` });
  }
  // OSGFS's own warning beside c (src/sampler/osgfs.rs `setting_warning`) already says that no
  // sample is kept and what to change: a yellow box saying it again was a second message for one
  // cause (issue 26, stop 44's review). It stays for a chain whose warning is elsewhere or absent.
  const kept = setting?.param === 'osgfs_c' ? '' : noneKept(state, samplerSpec);
  if (kept) advice.push({ key: 'no-samples', text: kept });
  const threshold = state.diagnostics.find((d) => d.name === 'sampling_threshold')?.value;
  if (Number.isFinite(threshold) && threshold > THRESHOLD_WARNING) {
    advice.push({
      key: 'threshold',
      text: `Sampling threshold (latest reading) ${formatNumber(threshold)} ≫ 1: the minibatch-gradient noise swamps the injected noise, so SGLD is still optimising, not sampling (Welling & Teh eq. 10). Lower ε or raise the minibatch size n.`,
    });
  }
  const enough = state.n_samples >= FAR_MIN_SAMPLES && !state.truth_pending;
  // A runaway's box already says why E2 is far (its samples are suspect): one cause, one box.
  if (enough && Number.isFinite(state.e2) && state.e2 > FAR_E2 && !state.diverged && !(runaway && typeof runaway === 'object')) {
    advice.push({ key: 'far', text: `E2 = ${formatNumber(state.e2)}: the samples' covariance is far from the truth's (errors larger than the covariances themselves). ${farRemedy(state, samplerSpec)}` });
  }
  return advice;
}

/**
 * Why a chain that has stepped has kept no sample (review s42 item 4: OSGFS at c = 0.001, 24,292
 * steps, 0 samples, empty charts and nothing said): OSGFS keeps samples only once its eq. 17
 * burn-in test fires (src/sampler/osgfs.rs; the diagnostic `burn_in_over_step` is null until then),
 * and its window of ⌈1/k⌉ gradients, k ≤ c, is long at a small cap c.
 */
function noneKept(state, samplerSpec) {
  const test = state.diagnostics.find((d) => d.name === 'burn_in_over_step');
  if (!test || Number.isFinite(test.value) || !(state.steps > 0) || state.n_recorded > 0) return '';
  const c = samplerSpec.params.find((p) => p.name === 'osgfs_c');
  const cap = state.sampler_params?.osgfs_c;
  const cause = c && Number.isFinite(cap) ? ` at ${c.symbol} = ${formatNumber(cap)} it compares the mean of the last ${formatCount(Math.ceil(1 / cap))} or more gradients with their spread (eq. 17)` : ' its burn-in test (eq. 17) has not fired';
  return `No sample kept yet after ${formatCount(state.steps)} steps: ${samplerSpec.label} keeps samples only once its burn-in is over, and${cause}, which has not yet passed. Raise the cap ${c ? c.symbol : 'c'}, or set "Collect samples" to always (under "More settings").`;
}

/**
 * What to change when E2 is large: for OSGFS, whose eq. 17 detector reported the end of burn-in, the
 * march in from the start (still among the samples) is the likely cause; otherwise burn-in or too
 * large a step, in the sampler's own terms (SGFS steps shrink as α grows).
 */
function farRemedy(state, samplerSpec) {
  if (samplerSpec.kind === 'bouncy') return 'Raise k or the minibatch size, then Reset.';
  const burnInOver = state.diagnostics.find((d) => d.name === 'burn_in_over_step')?.value;
  if (Number.isFinite(burnInOver) && burnInOver > 0) {
    return `Burn-in ended at step ${formatCount(burnInOver)} (eq. 17), but the march in from the start is still among the samples: press "Discard burn-in" (d).`;
  }
  // A red setting warning beside a slider already says what to change (or that no single slider
  // can): a second, generic remedy here would contradict it on the same screen (issue 26: cost
  // step 2's "otherwise lower the step size" beside "No single slider keeps the promise").
  // SGHMC at κ = 0 (issue 26, sghmc 2's friction slider at its minimum): no friction damps the
  // momentum and the injected noise 2(κ − β̂)η is 0, so the point circles on one energy level
  // (Chen et al. 2014, eq. 9 with C = 0); the cure is friction, not a smaller η.
  const friction = samplerSpec.params.find((p) => p.name === 'friction');
  if (friction && state.sampler_params?.friction === 0) {
    return `At friction ${friction.symbol} = 0 nothing damps the momentum and no noise is injected: the point keeps circling, its energy never redrawn, and does not sample. Raise the friction ${friction.symbol}, then Reset.`;
  }
  const setting = state.setting_warning;
  const spec = setting && samplerSpec.params.find((p) => p.name === setting.param);
  if (spec) {
    const where = spec.primary ? `the red note beside the ${spec.label.toLowerCase()} ${spec.symbol} slider` : 'the note on the setting above';
    return `If the chain started far from the bulk, press "Discard burn-in" (d); otherwise ${where} says what to change.`;
  }
  // The sampler's own step control by its label (SGHMC's is the learning rate η, not "the step size").
  const knob = samplerSpec.params.find((p) => !p.choices?.length && p.name !== 'batch_size');
  const smaller = samplerSpec.name.startsWith('sgfs') ? 'raise α (smaller steps)' : `lower the ${knob ? `${knob.label.toLowerCase()} ${knob.symbol}` : 'step size'}`;
  return `If the chain started far from the bulk, press "Discard burn-in" (d); otherwise ${smaller}, then Reset.`;
}

function showAdvice(advice, onDiscardSinceRunaway) {
  const signature = advice.map((a) => `${a.key}:${a.text}`).join('|');
  if (signature === shownAdvice) return;
  shownAdvice = signature;
  $('advice').replaceChildren(...advice.map((a) => {
    const p = document.createElement('p');
    p.dataset.advice = a.key;
    p.textContent = a.text;
    if (a.action === 'discard-since-runaway' && onDiscardSinceRunaway) {
      const button = document.createElement('button');
      button.type = 'button';
      button.id = 'discard-since-runaway';
      button.textContent = 'Discard since then';
      button.addEventListener('click', onDiscardSinceRunaway);
      p.append(document.createElement('br'), button);
    }
    return p;
  }));
}
