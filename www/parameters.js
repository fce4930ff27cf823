// The main chain's parameter controls: the one or two that matter for the chosen sampler and
// target (registry `primary`) beside the plot, the rest under "More settings"; the parameter the
// analysis charts mark again next to them. All of them show the chain's resolved
// values (derived defaults included) and ranges, read back from its state.

import { $, app, specsOf } from './app.js';
import { ParamSet, fillSelect, unreadBy } from './controls.js';

function emptied(container) {
  const legend = container.querySelector(':scope > legend');
  container.replaceChildren(...(legend ? [legend] : []));
  return container;
}

/** Build the selects and every parameter control for the chosen target and sampler. */
export function buildParameterControls(onChange) {
  fillSelect($('target'), app.registry.targets, app.target);
  fillSelect($('sampler'), app.registry.samplers, app.sampler);
  const target = specsOf('targets', app.target);
  const sampler = specsOf('samplers', app.sampler);
  const primary = emptied($('primary-params'));
  const samplerBox = emptied($('sampler-params'));
  const targetBox = emptied($('target-params'));
  const isTarget = (spec) => target.params.includes(spec);
  // A target knob the sampler never reads is not shown (a knob that changes nothing on screen);
  // the panel says why.
  const ignored = target.params.filter((spec) => unreadBy(sampler, spec));
  app.params = new ParamSet([...sampler.params, ...target.params.filter((spec) => !ignored.includes(spec))], {
    place: (spec) => (spec.primary ? primary : isTarget(spec) ? targetBox : samplerBox),
    live: (spec) => !isTarget(spec),
    onChange,
    exact: sampler.kind === 'exact',
  });
  if (ignored.length) primary.append(ignoredNote(ignored, sampler));
  const mirrored = analysisKnob(sampler);
  const mirrorBox = emptied($('analysis-params'));
  app.mirror = new ParamSet(mirrored, { place: () => mirrorBox, idPrefix: 'analysis', onChange, unstableNote: false, exact: sampler.kind === 'exact' });
  app.upload.refresh(target);
  showLegendKeys(sampler);
}

/** The panel's line saying which target knobs are hidden because `sampler` never reads them, and why (registry `unread`). */
function ignoredNote(ignored, sampler) {
  const note = document.createElement('p');
  note.id = 'ignored-params';
  note.className = 'ignored-note';
  note.textContent = ignored.map((spec) => `${spec.label} (${spec.symbol}): not shown, ${sampler.label} never reads it: ${unreadBy(sampler, spec).why}.`).join(' ');
  return note;
}

/** Show the chain's resolved values, derived ranges and what applies. */
export function syncParameterControls(state) {
  if (!app.params || !state) return;
  const values = { ...state.target_params, ...state.sampler_params };
  app.params.sync(values, state.derived || {});
  // The setting warning with them: controls built for a new chain show its warning in the frame
  // that shows the chain, not at the next numbers update (never an "ok" slider while it is known).
  showSettingWarning(state.setting_warning, state.diverged);
  app.params.showClamp(values, state.n_data);
  app.mirror.sync(values, state.derived || {});
  // Comparing, the mirrored n goes (the main chain's n is under its plot, and the first view keeps
  // to 8 sliders: tests/e2e/classroom.test.mjs).
  const comparing = document.querySelector('.stage.comparing') !== null;
  for (const c of app.mirror.controls) if (c.spec.name === 'batch_size' && comparing && specsOf('samplers', app.sampler).kind !== 'bouncy') c.field.hidden = true;
  $('analysis-params').hidden = !app.mirror.controls.some((c) => !c.field.hidden);
}

/**
 * The parameters the analysis charts mark as "current" (src/analysis.rs): the sampler's first
 * numeric parameter other than the minibatch size (SGLD's ε, SGFS's α, …), then the minibatch size; for the bouncy
 * samplers, the knobs their sweep varies (src/registry.rs `bouncy_swept_params`: n and k, n, or λ_ref;
 * classfix: the mirror stayed empty though the sweep marks them).
 */
function analysisKnob(sampler) {
  if (sampler.kind === 'bouncy') return (app.registry.bouncy_swept?.[sampler.name] ?? []).map((name) => sampler.params.find((p) => p.name === name)).filter(Boolean);
  const knob = sampler.params.find((p) => p.name !== 'batch_size' && !p.choices.length);
  // And the minibatch size, which moves the noise chart's gradient-noise line: on SGLD step 3 (its
  // figure the noise chart) "the warning beside n" was 620 px above the screen at 1400×900 (issue
  // 26, stop 52; tests/e2e/lesson-sliders.test.mjs).
  const batch = sampler.params.find((p) => p.name === 'batch_size');
  return [knob, batch].filter(Boolean);
}

/** Legend keys only for what the sampler draws: bounces (BPS family), MH proposals (exact). */
function showLegendKeys(sampler) {
  $('legend-bounce').hidden = sampler.kind !== 'bouncy';
  $('legend-proposal').hidden = sampler.kind !== 'exact';
}

/** The "More settings" section holding `name`'s slider, or null when the slider is a main one. */
function foldOf(name) {
  return document.getElementById(`param-${name}`)?.closest('details') ?? null;
}

/** Whether `element` is drawn and at least partly inside the viewport. */
function onScreen(element) {
  const box = element.getBoundingClientRect();
  return box.height > 0 && box.bottom > 0 && box.top < innerHeight;
}

/** Whether `name`'s slider is out of sight: under "More settings" while that section is closed. */
export function isFolded(name) {
  const fold = foldOf(name);
  return Boolean(fold && !fold.open);
}

let revealed = null;

/**
 * A line beside the slider the student moved last when what it caused is said elsewhere (review
 * s52, F7: in 34 of 60 warned moves the warning sat beside the remedy's slider, not the one moved;
 * F6: the mixture's N → 100,000 diverged with nothing beside N): where to look, `{name, text}`, or
 * null. The remedy stays beside its own slider (remedy first, issue 21).
 */
function pointerFor(warning, diverged) {
  const moved = app.lastMoved;
  const spec = moved && app.params?.control(moved)?.spec;
  if (!spec) return null;
  if (diverged) return { name: moved, text: 'The chain diverged: the message under Play says what to change.' };
  if (!warning || warning.param === moved) return null;
  const remedy = app.params.control(warning.param)?.spec;
  if (!remedy) return null;
  return { name: moved, text: `Warned at this value: see the note under ${remedy.label} (${remedy.symbol}).` };
}

/**
 * Show the core's setting warning beside its slider, and when that slider is under a closed "More
 * settings", open the section once, as the warning appears (issue 21, s45: mixture × SGHMC's V3
 * warning at n = 10 sat beside a folded minibatch slider, seen only in the advice list). A student
 * who closes it again keeps it closed until another warning comes; the advice list then repeats
 * the warning (www/stats.js `adviceFor`). The analysis panel's copy of the slider shows it when
 * the one beside the plot is off screen.
 */
export function showSettingWarning(warning, diverged = null) {
  app.params.showWarning(warning, pointerFor(warning, diverged));
  // And beside the analysis panel's copy of the knob while the slider beside the plot is off
  // screen: on a lesson step whose figure is a chart, that copy is the only ε / η slider in view
  // (review s52: the remedy sat 747 px above the screen). Not both: one warning on a screen. Read
  // again with every numbers update (www/stats.js), so a scroll moves it within one.
  const main = warning && document.getElementById(`param-${warning.param}`);
  app.mirror?.showWarning(main && onScreen(main) ? null : warning);
  const key = warning ? `${warning.param}|${warning.failure}` : null;
  if (key && key !== revealed && isFolded(warning.param)) foldOf(warning.param).open = true;
  revealed = key;
}
