// Controls built from the registry: one labelled slider per parameter (log scale where the
// registry says so), with its paper symbol, value and a one-line tooltip; dropdowns for choices.

import { formatNumber } from './format.js';

const SLIDER_STEPS = 1000;

/** Slider position in [0, SLIDER_STEPS] for a parameter value. */
export function sliderPosition(spec, value) {
  const t = spec.log_scale
    ? (Math.log(value) - Math.log(spec.min)) / (Math.log(spec.max) - Math.log(spec.min))
    : (value - spec.min) / (spec.max - spec.min);
  return Math.round(Math.min(1, Math.max(0, t)) * SLIDER_STEPS);
}

/** Parameter value for a slider position (rounded for integer parameters). */
export function sliderValue(spec, position) {
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
 * Build the controls of a parameter list into `container` (keeps its <legend>).
 * `values` maps names to current values; `onChange(name, value)` is called with validated values
 * and returns an error message or null. Options: `idPrefix` keeps element ids unique when several
 * panels show the same parameter; `live: false` applies a slider only when released (for
 * parameters whose change rebuilds the target), while its displayed value follows the drag.
 */
export function buildParamControls(container, specs, values, onChange, { idPrefix = 'param', live = true } = {}) {
  const legend = container.querySelector('legend');
  container.replaceChildren(legend);
  container.hidden = specs.length === 0;
  for (const spec of specs) {
    const id = `${idPrefix}-${spec.name}`;
    container.append(spec.choices.length ? choiceControl(spec, id, values[spec.name], onChange) : sliderControl(spec, id, values[spec.name], onChange, live));
  }
}

function fieldShell(spec, inputId) {
  const field = document.createElement('div');
  field.className = 'field';
  field.title = spec.help;
  const label = document.createElement('label');
  label.htmlFor = inputId;
  const name = document.createElement('span');
  name.textContent = spec.symbol ? `${spec.label} (${spec.symbol})` : spec.label;
  label.append(name);
  field.append(label);
  return { field, label };
}

function sliderControl(spec, id, value, onChange, live) {
  const { field, label } = fieldShell(spec, id);
  const output = document.createElement('output');
  output.htmlFor = id;
  output.id = `${id}-value`;
  output.textContent = formatNumber(value);
  label.append(output);
  const slider = document.createElement('input');
  Object.assign(slider, { type: 'range', id, min: '0', max: String(SLIDER_STEPS), step: '1' });
  slider.value = String(sliderPosition(spec, value));
  slider.dataset.param = spec.name;
  slider.setAttribute('aria-describedby', `${id}-help`);
  slider.setAttribute('aria-valuetext', `${spec.symbol || spec.label} = ${formatNumber(value)}`);
  const help = document.createElement('span');
  help.id = `${id}-help`;
  help.hidden = true;
  help.textContent = spec.help;
  const error = document.createElement('span');
  error.className = 'error';
  error.setAttribute('role', 'alert');
  const show = () => {
    const v = sliderValue(spec, Number(slider.value));
    output.textContent = formatNumber(v);
    slider.setAttribute('aria-valuetext', `${spec.symbol || spec.label} = ${formatNumber(v)}`);
    return v;
  };
  const apply = () => { error.textContent = onChange(spec.name, show()) || ''; };
  slider.addEventListener('input', live ? apply : show);
  if (!live) slider.addEventListener('change', apply);
  field.append(slider, help, error);
  return field;
}

function choiceControl(spec, id, value, onChange) {
  const { field } = fieldShell(spec, id);
  const select = document.createElement('select');
  select.id = id;
  select.dataset.param = spec.name;
  spec.choices.forEach((choice, index) => {
    const option = document.createElement('option');
    option.value = String(index);
    option.textContent = choice;
    option.selected = index === value;
    select.append(option);
  });
  select.addEventListener('change', () => onChange(spec.name, Number(select.value)));
  field.append(select);
  return field;
}
