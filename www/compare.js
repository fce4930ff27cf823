// Compare mode: a second sampler on the same target, settings, seed and data, drawn side by side
// and kept at the same gradient budget (it runs until it has spent as many per-datum gradient
// evaluations as the main chain). It shares the main chain's truth: contours, truth ellipse and
// E1/E2 on both panels. Its own parameters: the main one or two, the rest under a disclosure.

import { Lab } from './pkg/sgviz.js';
import { ParamSet, fillSelect } from './controls.js';
import { formatCount, formatNumber } from './format.js';
import { Panel2d } from './panel2d.js';
import { note, remaining } from './frame-budget.js';
import { runWithin } from './stepper.js';
import { userMessage } from './errors.js';
import { requestMixing } from './mixing.js';

const FOLLOW_BUDGET_MS = 6;
const $ = (id) => document.getElementById(id);

/**
 * Comparing, the main chain's sliders go under its own plot, as the compared chain's go under
 * its: in the controls column they sat under the lesson, Play and the advice, and the cost
 * lesson's step 2 named "the red note beside its slider" at y = 1,226–1,365 on a 900 px screen
 * (issue 26, stop 52; tests/e2e/lesson-sliders.test.mjs). Back before the advice box when not.
 */
function placeMainSliders(comparing) {
  const sliders = $('primary-params');
  if (comparing) { if (sliders.parentElement !== $('view-a')) $('view-a').append(sliders); } else if (sliders.parentElement === $('view-a')) $('advice').before(sliders);
}

export class ComparePanel {
  constructor({ registry, memory, guarded, onChange }) {
    this.registry = registry;
    this.guarded = guarded;
    this.onChange = onChange;
    this.panel = new Panel2d($('stack-b'), memory);
    this.lab = null;
    this.sampler = null;
    this.values = {};
    this.enabled = false;
    $('compare-sampler').addEventListener('change', (e) => {
      this.sampler = e.target.value;
      this.values = {};
      this.onChange();
    });
  }

  spec() {
    return this.registry.samplers.find((s) => s.name === this.sampler);
  }

  /**
   * Show or hide the panel; `sampler`/`values` (the explicitly set parameters) come from a preset
   * or the URL when given.
   */
  setEnabled(enabled, sampler, values) {
    this.enabled = enabled;
    $('view-b').hidden = !enabled;
    $('title-a').hidden = !enabled;
    document.querySelector('.views').classList.toggle('comparing', enabled);
    document.querySelector('.stage').classList.toggle('comparing', enabled);
    placeMainSliders(enabled);
    $('compare-toggle').setAttribute('aria-pressed', String(enabled));
    if (!enabled) {
      this.lab?.free();
      this.lab = null;
      return;
    }
    this.configure(enabled, sampler, values);
  }

  /**
   * Choose whether to compare, and the sampler and values, without changing the page: a preset
   * loaded over several tasks (www/adoption.js) builds the chains first; `applyLayout` then shows
   * or hides the panel (and frees a chain no longer compared) in the task that shows them.
   */
  configure(enabled, sampler, values) {
    this.enabled = enabled;
    if (!enabled) return;
    this.sampler = sampler || this.sampler || 'sgld';
    this.values = { ...(values || (sampler ? {} : this.values)) };
  }

  /** Show or hide the panel as configured (the same choice again: nothing else changes). */
  applyLayout() {
    this.setEnabled(this.enabled, this.sampler, this.values);
  }

  /** Controls for the compared sampler: primary ones beside its panel, the rest in a disclosure. */
  buildControls() {
    const primary = $('compare-primary');
    const advanced = $('compare-params');
    primary.replaceChildren();
    advanced.replaceChildren();
    this.params = new ParamSet(this.spec().params, {
      place: (spec) => (spec.primary ? primary : advanced),
      onChange: (name, value) => this.setParam(name, value),
      idPrefix: 'compare',
      exact: this.spec().kind === 'exact',
    });
  }

  /** Show the compared chain's resolved parameters (derived defaults included). */
  syncControls(state) {
    if (state) this.params?.sync(state.sampler_params, state.derived || {});
    $('compare-advanced').hidden = $('compare-params').hidden;
    this.showWarning(state);
  }

  /**
   * The compared chain's warning about its setting (`state.setting_warning`), as the main panel
   * shows its own (www/controls.js `showWarning`): beside the compared chain's slider that caused
   * it, remedy first, the longer text on hover; when that slider is folded under "More settings",
   * in the line above them, saying where it is. Cleared when the chain's state no longer has it.
   */
  showWarning(state) {
    const warning = state?.setting_warning || null;
    this.params?.showWarning(warning);
    const folded = warning && !this.spec()?.params.find((p) => p.name === warning.param)?.primary;
    const text = folded ? `${warning.text} (Its slider is under "More settings of the compared sampler".)` : '';
    const note = $('compare-setting-warning');
    note.title = folded ? warning.detail || '' : '';
    if (note.textContent !== text) note.textContent = text;
    note.hidden = !text;
  }

  /** Build the compared chain for the main chain's target, settings, seed and data, and show it. */
  rebuild(request) {
    if (!this.enabled) return;
    this.install(this.prepare(request), request.mainTitle);
  }

  /**
   * Build the compared chain without showing it (`install` shows it): `{ lab, size, message }`,
   * `lab` null when the settings are refused. Nothing on the page changes here, so a worker-built
   * target's adoption can build it in a task of its own (www/adoption.js).
   */
  prepare({ target, targetValues, seed, data }) {
    if (!this.enabled) return null;
    const size = this.panel.size();
    let message = '';
    const lab = this.guarded(() => {
      try {
        return Lab.deferred(target, this.sampler, JSON.stringify({ ...targetValues, ...this.values }), seed, size.width, size.height, size.ratio);
      } catch (error) {
        message = userMessage(error.message || error);
        return null;
      }
    }) || null;
    if (lab && data) this.guarded(() => { try { lab.set_data(data.bytes, data.standardise); } catch (e) { message = String(e.message || e); } });
    return { lab, size, message, key: this.key() };
  }

  /** What a prepared chain was built for: the compared sampler and its explicit values. */
  key() {
    return JSON.stringify([this.sampler, this.values]);
  }

  /** Show a prepared compared chain: its menu, controls, panel and numbers change in this one call. */
  install(prepared, mainTitle) {
    if (!prepared) return;
    fillSelect($('compare-sampler'), this.registry.samplers, this.sampler);
    this.buildControls();
    $('title-a').textContent = mainTitle;
    this.panel.fit();
    $('compare-status').textContent = prepared.message;
    if (!prepared.lab) return;
    this.lab?.free();
    this.lab = prepared.lab;
    const size = this.panel.size();
    if (size.width !== prepared.size.width || size.height !== prepared.size.height || size.ratio !== prepared.size.ratio) {
      this.guarded(() => this.lab.resize(size.width, size.height, size.ratio));
    }
    this.guarded(() => this.panel.drawStatic(this.lab));
    this.syncControls(this.state());
    this.draw();
  }

  state() {
    return this.lab ? this.guarded(() => JSON.parse(this.lab.state_json())) : undefined;
  }

  /**
   * Once per frame: adopt the main chain's truth when it has arrived (the compared chain never
   * runs its own reference computation), then redraw the contours and truth ellipse.
   */
  tick() {
    if (!this.lab || !this.truthPending) return;
    if (this.guarded(() => this.lab.adopt_cached_truth())) {
      this.truthPending = false;
      this.drawStatic();
    }
  }

  setParam(name, value) {
    let message = null;
    this.guarded(() => {
      try {
        this.lab?.set_param(name, value);
        this.values[name] = value;
      } catch (error) {
        message = userMessage(error.message || error);
      }
    });
    if (!message) {
      this.syncControls(this.state());
      this.onChange({ rebuild: false });
    }
    return message;
  }

  /** Run the compared chain until it has used at least `gradEvals` (within a time slice). */
  follow(gradEvals) {
    if (!this.lab) return;
    // Cheap reads: this runs every frame, and state_json costs milliseconds.
    const state = this.guarded(() => ({ diverged: this.lab.diverged(), grad_evals: this.lab.grad_evals(), steps: this.lab.steps() }));
    if (!state || state.diverged || state.grad_evals >= gradEvals) return;
    // Steps to catch up at this chain's gradient cost per step (unknown before its first step).
    const perStep = state.steps > 0 ? state.grad_evals / state.steps : 0;
    const behind = perStep > 0 ? Math.ceil((gradEvals - state.grad_evals) / perStep) : 1;
    const maxSteps = Math.min(remaining('compareSteps'), behind);
    note('compareSteps', runWithin(this.lab, { maxSteps, budgetMs: FOLLOW_BUDGET_MS, guarded: this.guarded }));
  }

  /** Ask the ESS worker for this chain's mixing numbers (www/mixing.js); shown when they arrive, if the chain is still this one. */
  showMixing() {
    const lab = this.lab;
    if (!lab) return;
    this.guarded(() => requestMixing(lab, (mixing) => {
      if (this.lab === lab) $('compare-ess').textContent = mixing.ess_per_1000_grads.map((e) => formatNumber(e)).join(', ');
    }));
  }

  resize() {
    if (!this.lab || !this.panel.fit()) return;
    const size = this.panel.size();
    this.guarded(() => { this.lab.resize(size.width, size.height, size.ratio); this.panel.drawStatic(this.lab); });
    this.draw();
  }

  step() { this.guarded(() => this.lab?.run(1)); }
  reset() { this.guarded(() => this.lab?.reset()); }
  drawStatic() { if (this.lab) this.guarded(() => this.panel.drawStatic(this.lab)); }

  setPair(i, j) {
    if (!this.lab) return;
    this.guarded(() => { try { this.lab.set_pair(i, j); } catch { /* the main panel reports */ } });
    this.drawStatic();
  }

  /** Draw the panel; `numbers: false` leaves its text as it is (state_json costs milliseconds). */
  draw({ numbers = true } = {}) {
    if (!this.lab) return;
    this.guarded(() => {
      this.panel.drawDensity(this.lab);
      this.panel.drawOverlay(this.lab);
      if (!numbers) return;
      const state = JSON.parse(this.lab.state_json());
      $('compare-grads').textContent = formatCount(state.grad_evals);
      // The count the promise speaks of, as on the main panel (src/chain/promise_count.rs): samples,
      // or events for the bouncy family, whose recorded points are the path drawn at equal times.
      $('compare-samples-label').textContent = state.promise_unit;
      $('compare-samples').textContent = formatCount(state.promise_count);
      this.truthPending = state.truth_pending;
      $('compare-errors').textContent = `${formatNumber(state.e1)}, ${formatNumber(state.e2)}`;
      this.showWarning(state);
      if (state.diverged) $('compare-status').textContent = state.diverged;
    });
  }
}
