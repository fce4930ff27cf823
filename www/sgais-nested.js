// Nested sampling in the SGAIS panel (issue 22): the runs the panel starts when "Nested sampling
// baseline" is ticked — one `nested` worker job per replica and data size, each replica with its own
// seed (src/sgais/nested_page.rs) — and their rows in the panel's table, from the combined
// `ns` points (log Ẑ ± √(Σ SE²)/R, wall time, per-datum evaluations) — and its own settings (live
// points, steps per replacement, step), built from the registry (`sgais.ns_params`, the CLI's
// `--set ns_…`), checked by the core before a run starts.

import { sgais_check_ns_settings } from './pkg/sgviz.js';
import { buildParamControls } from './controls.js';
import { formatCount, formatNumber } from './format.js';

/**
 * The nested sampler's controls under the panel's NS box (shown while it is ticked). `values` are
 * the user's, kept across model changes; `problem()` is the core's message for a bad value (naming
 * the control), shown beside the controls until the value is fixed.
 */
export class NestedControls {
  constructor(specs, box, fieldset, error) {
    this.specs = specs;
    this.fieldset = fieldset;
    this.error = error;
    this.box = box;
    this.values = nsDefaults(specs);
    this.controls = buildParamControls(fieldset, specs, this.values, (name, value) => this.set(name, value), { idPrefix: 'sgais-ns', live: false });
    box.addEventListener('change', () => this.showIfTicked());
    this.showIfTicked();
  }

  showIfTicked() {
    this.fieldset.hidden = !this.box.checked;
  }

  /**
   * Set `name` (from a slider, a preset or a test), show it on its slider (the label shows the value
   * even outside the slider's range, so the message and the control agree) and say at once whether
   * the core accepts it.
   */
  set(name, value) {
    this.values[name] = value;
    this.controls.sync(this.values);
    this.showIfTicked();
    return this.check();
  }

  /** The settings as `[name, text]` pairs for the nested worker jobs. */
  settings() {
    return nsSettings(this.values);
  }

  /** The core's message for a bad value, shown beside the controls (null when none). */
  check() {
    const problem = sgais_check_ns_settings(JSON.stringify(this.settings())) || null;
    this.error.textContent = problem ?? '';
    this.error.hidden = !problem;
    return problem;
  }
}

/** The nested sampler's values at its registry defaults (`sgais.ns_params`), as the controls start. */
export const nsDefaults = (specs) => Object.fromEntries(specs.map((p) => [p.name, p.default]));

/** Nested-sampling values as the `[name, text]` pairs of the nested worker jobs' settings. */
export const nsSettings = (values) => Object.entries(values).map(([k, v]) => [k, String(v)]);

/** Per-datum evaluations compactly ("333 M"), for the table's last column. */
export const formatEvals = (x) => (Number.isFinite(x) ? (x >= 1e6 ? `${Number((x / 1e6).toPrecision(3)).toLocaleString('en-US')} M` : formatCount(Math.round(x))) : '—');

/** Row label of the nested-sampling runs on the first `n` data. */
export const nestedLabel = (n) => `NS, full data n = ${formatCount(n)}`;

/** One run per replica and data size, with the SGAIS runs' target and settings. */
export function nestedRuns(target, settings, sizes, replicas) {
  return [...sizes].flatMap((n) => Array.from({ length: replicas }, (_, replica) => ({
    label: nestedLabel(n),
    ns: true,
    spec: { target, settings, seed: 1, replica, ns_n: n },
  })));
}

/** Table rows of the combined nested-sampling points; `cell(text)` makes a td. */
export function nestedRows(points, cell) {
  return (points || []).map((p) => {
    const tr = document.createElement('tr');
    tr.className = 'sgais-ns-row';
    const problems = p.problems.length ? ` (${p.problems.length} stopped early)` : '';
    tr.append(cell(`${nestedLabel(p.n)} (${p.finished}/${p.replicas} replicas)${problems}`), cell(formatCount(p.n)),
      cell(`${formatNumber(p.log_z, 6)} ± ${formatNumber(p.log_z_se)}`), cell(p.exact_log_z == null ? '—' : formatNumber(p.exact_log_z, 6)), cell('—'), cell('—'),
      cell(p.seconds === null ? '—' : formatNumber(p.seconds)), cell(formatEvals(p.datum_evals)));
    return tr;
  });
}
