// What class-time.test.mjs checks on each lesson step besides class time, in the same page load
// (issue 23: one load per step instead of three files each loading all of them): the numbers a
// step's sentence states for a slider against what the slider shows (issue 26), and every claim at
// exactly the settings the step loads, its chains run until the claim's `after_samples` (the
// predicates are www/claims.js, the code the lesson panel uses live; tests/e2e/class-run.mjs runs
// them along the class-time trajectory). Waits are on sample counts, never on wall-clock progress.

import assert from 'node:assert/strict';
import { parseShown } from './harness.mjs';

/** Steps run per page call while driving a chain to a sample count. */
const CHUNK_STEPS = 50_000;
/** Generous limit on page calls per claim (a chain that stops producing samples fails, not hangs). */
const MAX_CALLS = 2_000;

/**
 * "symbol = number" statements of a sentence: [symbol, value, the matched text]. A number the
 * sentence compares with ("higher than at κ = 0.2", "its value at α = 0") is not a claim about the
 * slider and is left out, and so is one about the paper's own run ("the paper's own run (n = 1, …)");
 * so are formulas ("ε = 4/λₘₐₓ").
 */
export function statements(text) {
  const found = [];
  const pattern = /(than at |value at |at most |up to )?\(?([^\s(),;:]+) = (−?\d[\d,]*(?:\.\d+)?)(?![\d/·^⁰¹²³⁴⁵⁶⁷⁸⁹.]|\.\d)/g;
  for (const m of text.matchAll(pattern)) {
    if (m[1]) continue; // a comparison, not the current setting
    if (/paper's own run \($/.test(text.slice(Math.max(0, m.index - 20), m.index + (m[0].startsWith('(') ? 1 : 0)))) continue;
    found.push([m[2], Number(m[3].replace(/,/g, '').replace('−', '-')), m[0]]);
  }
  return found;
}

/**
 * Each "symbol = number" of the step's sentence whose symbol names a parameter slider on screen
 * (the main panel's, or the SGAIS panel's for a step that loads an SGAIS preset) against the value
 * that slider shows (its aria-valuetext, "κ = 0.2"). Pushes the matched statements to `checked`
 * and the disagreements to `failures`.
 */
export async function checkSliderNumbers(page, text, sgais, where, checked, failures) {
  // A slider hidden by visible_if is not on screen: left out.
  const shown = await page.$$eval('input[type=range][aria-valuetext]', (inputs, inSgais) => inputs
    .filter((i) => i.closest('[hidden]') === null && (i.closest('.sgais') !== null) === inSgais)
    .map((i) => i.getAttribute('aria-valuetext')), sgais);
  const sliders = new Map(shown.map((t) => { const [symbol, value] = t.split(' = '); return [symbol.trim(), value]; }));
  for (const [symbol, value, matched] of statements(text)) {
    // The shift demo's runs each have their own K (3, 5, 7); the panel's K slider is a single run's.
    if (sgais && symbol === 'K') continue;
    if (!sliders.has(symbol)) continue;
    const onScreen = parseShown(sliders.get(symbol));
    checked.push(`${where}: "${matched}" — slider ${symbol} = ${sliders.get(symbol)}`);
    // The slider prints 3–4 significant figures: agree to 1 %, or exactly for zero.
    const agree = value === 0 ? onScreen === 0 : Math.abs(onScreen - value) <= 0.01 * Math.abs(value);
    if (!agree) failures.push(`${where}: the sentence says "${matched}", the slider shows ${symbol} = ${sliders.get(symbol)}`);
  }
}

/**
 * Run both chains (the compared one to the same gradient budget) until `samples`, or until the main
 * chain has taken `maxSteps` steps since its restart, whichever comes first; returns the states,
 * or null when stopped at `maxSteps` short of `samples`.
 */
async function runTo(page, samples, maxSteps) {
  for (let call = 0; call < MAX_CALLS; call++) {
    const done = await page.evaluate(([target, chunk, cap]) => {
      const { app } = window.sgviz;
      const state = JSON.parse(app.lab.state_json());
      if (state.diverged) return { state };
      if (state.n_samples < target && state.steps < cap) app.lab.run(Math.min(chunk, Math.max(64, target - state.n_samples), cap - state.steps));
      const main = JSON.parse(app.lab.state_json());
      if (main.n_samples < target && !main.diverged && main.steps >= cap) return { capped: true };
      let compareState;
      if (app.compare?.enabled && app.compare.lab) {
        let cs = JSON.parse(app.compare.lab.state_json());
        // Equal budget: whole steps until it has spent at least as much (at most one step over).
        while (!cs.diverged && cs.grad_evals < main.grad_evals) {
          const perStep = cs.steps > 0 ? cs.grad_evals / cs.steps : 0;
          const steps = perStep > 0 ? Math.floor((main.grad_evals - cs.grad_evals) / perStep) : 1;
          app.compare.lab.run(Math.max(1, Math.min(steps, chunk)));
          cs = JSON.parse(app.compare.lab.state_json());
        }
        compareState = { ...cs, mixing: JSON.parse(app.compare.lab.mixing_json()) };
      }
      main.mixing = JSON.parse(app.lab.mixing_json());
      return main.n_samples >= target || main.diverged ? { state: main, compareState } : null;
    }, [samples, CHUNK_STEPS, maxSteps]);
    if (done?.capped) return null;
    if (done) return done;
  }
  throw new Error(`no ${samples} samples after ${MAX_CALLS} calls`);
}

/**
 * Check one claim at the settings the step or preset loaded: its chains (restarted from their
 * seeded start by the caller) run on to the claim's `after_samples`, but not past `maxSteps` steps
 * since the restart. Returns the line for the log (a failed claim's line also goes to `failures`,
 * all reported together at the end), or null when stopped at `maxSteps` first.
 */
export async function checkClaimAt(page, claim, where, failures, maxSteps = Number.MAX_SAFE_INTEGER) {
  const reached = await runTo(page, claim.after_samples || 0, maxSteps);
  if (!reached) return null;
  const { state, compareState } = reached;
  assert.equal(state.diverged, null, `${where}: diverged`);
  const result = await page.evaluate(async ([c, s, cs]) => {
    const { check } = await import('./www/claims.js');
    return check(c, s, cs);
  }, [claim, state, compareState ?? null]);
  const line = `${where} at its settings: ${claim.metric} = ${result.value} (claim ${claim.op} ${JSON.stringify(claim.value)} after ${claim.after_samples}; n = ${state.n_samples})`;
  if (!(result.ready && result.ok)) failures.push(line);
  return line;
}

/** The claims a lesson step checks after loading a preset, as `${preset} ${claim}` keys. */
export function lessonClaimKeys(lessons) {
  return new Set(lessons.flatMap((l) => l.steps.filter((s) => s.preset).flatMap((s) => (s.claims || []).map((c) => `${s.preset} ${JSON.stringify(c)}`))));
}
