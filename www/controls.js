// Controls built from the registry: one labelled slider per parameter (log scale where the
// registry says so), with its paper symbol, value and a help text behind a "?" button (tappable on
// phones); dropdowns for choices. A ParamSet keeps a group of them in step with the chain's
// resolved values, shows a parameter only where it applies (`visible_if`), uses the target-derived
// slider range and marks the part of the range where the chain is unstable.

import { formatNumber } from './format.js';

const SLIDER_STEPS = 1000;

/** Slider position in [0, SLIDER_STEPS] for a parameter value, over the range [spec.min, spec.max]. */
export function sliderPosition(spec, value) {
  const t = spec.log_scale
    ? (Math.log(value) - Math.log(spec.min)) / (Math.log(spec.max) - Math.log(spec.min))
    : (value - spec.min) / (spec.max - spec.min);
  return Math.round(Math.min(1, Math.max(0, t)) * SLIDER_STEPS);
}

/**
 * Parameter value for a slider position (rounded for integer parameters). A position that shows one
 * of `anchors` (the parameter's registry and derived defaults) gives that value exactly: 1,000
 * positions cannot hold a derived default such as SGFS-f's α = 1.63299, and the value one position
 * off (1.632) sat past the promise's boundary (issue 21/26, review s42: "Set α to 1.63 (now 1.63)"
 * after a round trip of the slider).
 */
export function sliderValue(spec, position, anchors = []) {
  const anchor = anchors.find((a) => Number.isFinite(a) && a >= spec.min && a <= spec.max && sliderPosition(spec, a) === position);
  if (anchor !== undefined) return anchor;
  const t = position / SLIDER_STEPS;
  let value = spec.log_scale
    ? Math.exp(Math.log(spec.min) + t * (Math.log(spec.max) - Math.log(spec.min)))
    : spec.min + t * (spec.max - spec.min);
  if (spec.integer) value = Math.round(value);
  return Math.min(spec.max, Math.max(spec.min, value));
}

/** Checks a typed value against a spec; returns an error message or null. */
export function validate(spec, value) {
  if (!Number.isFinite(value)) return `${spec.name}: not a finite number; allowed: ${allowed(spec)}`;
  if (value < spec.min || value > spec.max) return `${spec.name}: ${value} is out of range; allowed: ${allowed(spec)}`;
  if (spec.integer && !Number.isInteger(value)) return `${spec.name}: ${value} is not a whole number`;
  return null;
}

function allowed(spec) {
  return spec.choices.length ? spec.choices.join(', ') : `[${spec.min}, ${spec.max}]`;
}

/** Whether a parameter applies for the given values (its `visible_if` condition holds). */
export function applies(spec, values) {
  const when = spec.visible_if;
  return !when || when.values.includes(values[when.param]);
}

/**
 * What `sampler` says of the target parameter `spec` when it never reads it (the registry's
 * `unread`, src/spec.rs: e.g. the synthetic gradient noise s, added by the minibatch oracle only,
 * so MALA, HMC and BPS never see it), or undefined when it reads it.
 */
export function unreadBy(sampler, spec) {
  return (sampler.unread || []).find((u) => u.param === spec.name);
}

/** Fill a <select> with registry entries. */
export function fillSelect(select, entries, selected) {
  select.replaceChildren(...entries.map((e) => {
    const option = document.createElement('option');
    option.value = e.name;
    option.textContent = e.label;
    option.title = e.description;
    option.selected = e.name === selected;
    return option;
  }));
}

/**
 * A group of parameter controls. `place(spec)` says which container a control goes into (the
 * caller has emptied them); `onChange(name, value)` gets validated values and returns an error
 * message or null; `live(spec)` false applies a slider only when released (for parameters whose
 * change rebuilds the target) while its displayed value follows the drag; `idPrefix` keeps ids
 * unique when several groups show the same parameter; `unstableNote` false shades the unstable end
 * of a slider without its "Unstable above …" line (a mirror of a slider that prints it already:
 * issue 26, cost step 2 printed it twice); `exact` (MALA, HMC) words that line as collapsing acceptance.
 */
export class ParamSet {
  constructor(specs, { place, onChange, idPrefix = 'param', live = () => true, unstableNote = true, exact = false }) {
    this.controls = specs.map((spec) => {
      const control = spec.choices.length ? new ChoiceControl(spec, `${idPrefix}-${spec.name}`, onChange) : new SliderControl(spec, `${idPrefix}-${spec.name}`, onChange, live(spec));
      control.unstableNote = unstableNote;
      control.exact = exact;
      place(spec).append(control.field);
      return control;
    });
    this.containers = [...new Set(specs.map(place))];
  }

  /**
   * Show `values` (resolved by the chain), hide what does not apply, and use the derived ranges
   * (`derived[name] = {min, max, unstable_above}`); a container with nothing to show is hidden.
   */
  sync(values, derived = {}) {
    for (const control of this.controls) {
      control.field.hidden = !applies(control.spec, values);
      control.show(values[control.spec.name], derived[control.spec.name]);
    }
    for (const container of this.containers) {
      container.hidden = !this.controls.some((c) => !c.field.hidden && container.contains(c.field));
    }
  }

  /**
   * Show the core's warning about the current setting (`state.setting_warning = {param, failure,
   * text, detail}`, or null) beside the control of the parameter that caused it, its remedy first
   * and the longer explanation on hover; clear the others.
   */
  showWarning(warning, pointer = null) {
    for (const control of this.controls) {
      const mine = warning && warning.param === control.spec.name;
      control.warn(mine ? warning.text : '', mine ? warning.detail || '' : '');
      control.point?.(!mine && pointer?.name === control.spec.name ? pointer.text : '');
    }
  }

  /**
   * Say beside a slider when the chain clamps its value (issue 26): the minibatch n above the data
   * (N = 10 under n = 100 was accepted silently; the gradient oracle clamps n to N,
   * src/sampler/gradient.rs, so every step uses the full batch; `nData` is the chain's N,
   * `state.n_data`), and SGHMC's noise estimate β̂ above the friction κ (the injected noise
   * 2(κ − β̂)η would be negative; src/sampler/sghmc.rs clamps β̂ to κ, so no noise is injected
   * and the ellipse collapses with nothing on screen naming β̂).
   */
  showClamp(values, nData) {
    const fmt = formatNumber;
    const n = values.batch_size;
    this.note('batch_size', Number.isFinite(nData) && Number.isFinite(n) && n > nData
      ? `n = ${fmt(n)} is more than the N = ${fmt(nData)} data points: every step uses all ${fmt(nData)} (the full batch), as if n = ${fmt(nData)}. Lower n or raise the number of data points.` : '');
    const [beta, kappa] = [values.beta_hat, values.friction];
    this.note('beta_hat', Number.isFinite(beta) && Number.isFinite(kappa) && beta > kappa
      ? `β̂ = ${fmt(beta)} is above the friction κ = ${fmt(kappa)}: the injected noise 2(κ − β̂)η would be negative, so SGHMC injects none (β̂ is used as ${fmt(kappa)}) and the chain runs cold. Lower β̂ below κ.` : '');
  }

  /** Show `text` in the clamp note beside `name`'s slider (when shown), or hide it when empty. */
  note(name, text) {
    const control = this.control(name);
    if (control?.clampNote) showBeside(control, control.clampNote, text);
  }

  /** The control of `name`, if this set has one. */
  control(name) {
    return this.controls.find((c) => c.spec.name === name);
  }
}

/** Controls for `specs` in one container (keeps its <legend>), shown with `values`. */
export function buildParamControls(container, specs, values, onChange, { idPrefix = 'param', live = true } = {}) {
  const legend = container.querySelector('legend');
  container.replaceChildren(...(legend ? [legend] : []));
  const set = new ParamSet(specs, { place: () => container, onChange, idPrefix, live: () => live });
  set.sync(values);
  return set;
}

/** The paragraph beside a control that carries the core's warning about its current value. */
function warningNote(inputId) {
  const note = document.createElement('p');
  note.id = `${inputId}-warning`;
  note.className = 'setting-warning';
  note.hidden = true;
  note.warn = (text, detail = '') => {
    note.title = detail;
    if (note.textContent === text) return;
    note.textContent = text;
    note.hidden = !text;
  };
  return note;
}

/** Label row (name, value, help button) and the hidden help text of a field. */
function fieldShell(spec, inputId) {
  const field = document.createElement('div');
  field.className = 'field';
  field.dataset.param = spec.name;
  const head = document.createElement('label');
  head.htmlFor = inputId;
  const name = document.createElement('span');
  name.className = 'name';
  name.textContent = spec.symbol ? `${spec.label} (${spec.symbol})` : spec.label;
  head.append(name);
  const help = document.createElement('p');
  help.id = `${inputId}-help`;
  help.className = 'help';
  help.hidden = true;
  help.textContent = spec.help;
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'help-toggle';
  toggle.textContent = '?';
  toggle.setAttribute('aria-label', `What is ${spec.label}?`);
  toggle.setAttribute('aria-expanded', 'false');
  toggle.setAttribute('aria-controls', help.id);
  toggle.addEventListener('click', () => {
    help.hidden = !help.hidden;
    toggle.setAttribute('aria-expanded', String(!help.hidden));
  });
  const row = document.createElement('div');
  row.className = 'field-head';
  row.append(head, toggle);
  field.append(row);
  return { field, head, help };
}

class SliderControl {
  constructor(spec, id, onChange, live) {
    this.spec = spec;
    this.range = spec;
    this.anchors = [spec.default];
    this.setFromOutside = [];
    this.unstableAbove = null;
    const { field, head, help } = fieldShell(spec, id);
    this.field = field;
    this.help = help;
    this.output = document.createElement('output');
    this.output.htmlFor = id;
    this.output.id = `${id}-value`;
    head.append(this.output);
    this.input = document.createElement('input');
    Object.assign(this.input, { type: 'range', id, min: '0', max: String(SLIDER_STEPS), step: '1' });
    this.input.dataset.param = spec.name;
    this.input.setAttribute('aria-describedby', `${id}-help ${id}-unstable ${id}-warning`);
    this.zone = document.createElement('div');
    this.zone.className = 'unstable-zone';
    this.zone.hidden = true;
    this.zone.setAttribute('aria-hidden', 'true');
    const slider = document.createElement('div');
    slider.className = 'slider';
    slider.append(this.zone, this.input);
    this.note = document.createElement('p');
    this.note.id = `${id}-unstable`;
    this.note.className = 'unstable-note';
    this.note.hidden = true;
    this.error = document.createElement('span');
    this.error.className = 'error';
    this.error.setAttribute('role', 'alert');
    const apply = () => { this.error.textContent = onChange(spec.name, this.display()) || ''; };
    this.input.addEventListener('input', live ? apply : () => this.display());
    if (!live) this.input.addEventListener('change', apply);
    this.input.addEventListener('keydown', (event) => {
      const direction = stepDirection(event.key);
      if (!this.spec.integer || direction === 0) return;
      event.preventDefault();
      this.input.value = String(nextIntegerPosition(this.range, Number(this.input.value), direction));
      apply();
    });
    this.warning = warningNote(id);
    // Where the value exceeds what the chain can use (ParamSet `showClamp`).
    this.clampNote = document.createElement('p');
    this.clampNote.id = `${id}-clamp`;
    this.clampNote.className = 'clamp-note';
    this.clampNote.hidden = true;
    // Where to look when this slider's move is warned or diverged beside another control (ParamSet `showWarning`).
    this.pointer = document.createElement('p');
    this.pointer.id = `${id}-pointer`;
    this.pointer.className = 'pointer-note';
    this.pointer.hidden = true;
    this.input.setAttribute('aria-describedby', `${id}-help ${id}-unstable ${id}-clamp ${id}-pointer ${id}-warning`);
    field.append(slider, this.note, this.clampNote, this.pointer, this.warning, help, this.error);
  }

  /** Show `text` in the pointer line (where to look for this slider's warning), or hide it when empty. */
  point(text) {
    showBeside(this, this.pointer, text);
  }

  warn(text, detail) {
    this.warning.warn(text, detail);
  }

  /** The value under the thumb, shown in the label; returned for applying. */
  display() {
    const value = sliderValue(this.range, Number(this.input.value), this.anchors);
    this.label(value);
    return value;
  }

  label(value) {
    const text = formatNumber(value);
    this.output.textContent = text;
    this.input.setAttribute('aria-valuetext', `${this.spec.symbol || this.spec.label} = ${text}`);
    const past = this.unstableAbove !== null && value > this.unstableAbove;
    this.output.classList.toggle('unstable', past);
    this.note.classList.toggle('past', past);
  }

  /** Show `value` over the derived range (when given) and mark the unstable part of the track. */
  show(value, derived) {
    if (value === undefined) return;
    const min = derived ? Math.min(derived.min, value) : this.spec.min;
    const max = derived ? Math.max(derived.max, value) : this.spec.max;
    this.range = { ...this.spec, min: Math.max(this.spec.min, min), max: Math.min(this.spec.max, max) };
    this.setFromOutside = rememberSetValue(this.setFromOutside, this.range, value);
    this.anchors = [...this.setFromOutside, derived?.default, this.spec.default];
    const unstable = derived?.unstable_above;
    this.unstableAbove = Number.isFinite(unstable) && unstable < this.range.max ? unstable : null;
    this.zone.hidden = this.unstableAbove === null;
    this.note.hidden = this.zone.hidden || this.unstableNote === false;
    if (this.unstableAbove !== null) {
      const from = sliderPosition(this.range, Math.max(this.unstableAbove, this.range.min)) / SLIDER_STEPS;
      this.zone.style.left = `${(100 * from).toFixed(2)}%`;
      this.zone.dataset.from = String(this.unstableAbove);
      // An exact sampler (MALA, HMC) does not diverge past its limit: its Metropolis test rejects
      // nearly every proposal and the chain almost never moves (review s52, F10: MALA's zone read
      // "Unstable"). One line, as "Unstable above …": the warning below stays within a line of the slider.
      this.note.textContent = this.exact
        ? `Acceptance collapses above ${formatNumber(this.unstableAbove)} on this target (shaded).`
        : `Unstable above ${formatNumber(this.unstableAbove)} on this target (shaded).`;
    }
    this.input.value = String(sliderPosition(this.range, value));
    this.label(value);
  }
}

/**
 * The values a slider keeps as anchors because they were set from outside it (a preset, a lesson
 * step, a link): `value` is added, most recent first, when no slider position gives it exactly, so
 * dragging away and back returns it rather than its position's rounded neighbour (ρ = 0.9 over
 * [−0.99, 0.99] sits at position 955, which alone gives 0.90090). At most four are kept.
 */
export function rememberSetValue(kept, range, value) {
  if (!Number.isFinite(value) || sliderValue(range, sliderPosition(range, value)) === value) return kept;
  return [value, ...kept.filter((v) => v !== value)].slice(0, 4);
}

/** +1 for → / ↑, −1 for ← / ↓, 0 for any other key. */
function stepDirection(key) {
  if (key === 'ArrowRight' || key === 'ArrowUp') return 1;
  if (key === 'ArrowLeft' || key === 'ArrowDown') return -1;
  return 0;
}

/**
 * The slider position an arrow key moves an integer slider to: the first position (from `position`
 * in `direction`) that shows a different whole number, so each press changes the value by at least
 * one (on a log scale near its minimum one value spans many of the 1,000 positions).
 */
export function nextIntegerPosition(range, position, direction) {
  const value = sliderValue(range, position);
  let p = position;
  while (p + direction >= 0 && p + direction <= SLIDER_STEPS) {
    p += direction;
    if (sliderValue(range, p) !== value) return p;
  }
  return position;
}

class ChoiceControl {
  constructor(spec, id, onChange) {
    this.spec = spec;
    const { field, help } = fieldShell(spec, id);
    this.field = field;
    this.input = document.createElement('select');
    this.input.id = id;
    this.input.dataset.param = spec.name;
    this.input.setAttribute('aria-describedby', `${help.id} ${id}-warning`);
    spec.choices.forEach((choice, index) => this.input.append(new Option(choice, String(index))));
    this.input.addEventListener('change', () => onChange(spec.name, Number(this.input.value)));
    this.warning = warningNote(id);
    field.append(this.input, this.warning, help);
  }

  warn(text, detail) {
    this.warning.warn(text, detail);
  }

  show(value) {
    if (value !== undefined) this.input.value = String(value);
  }
}

/** Show `text` in `line`, one of `control`'s notes (nothing while the control's field is hidden); hide the line when empty. */
function showBeside(control, line, text) {
  const shown = control.field.hidden ? '' : text;
  if (line.textContent !== shown) line.textContent = shown;
  line.hidden = !shown;
}
