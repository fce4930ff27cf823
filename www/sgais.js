// The SGAIS panel: online evidence as the data stream in, against the exact curve and full-data
// AIS, with annealing steps per chunk. Every run — each replica of each variant, and each AIS
// baseline — is its own job in the worker pool (www/jobs.js), so they run in parallel on a
// laptop's cores; Stop terminates them at once. The page combines the posted results in the core
// (`sgais_combine_ns_json`: log Ẑ ± standard error over replicas, the ESS explanation, the shift
// comparison) and draws the two charts within the frame budget (charts.js). Nested sampling, when
// ticked, runs as `nested` jobs beside them (www/sgais-nested.js); its points join the evidence chart.

import { sgais_combine_ns_json } from './pkg/sgviz.js';
import { formatEvals, NestedControls, nestedRows, nestedRuns } from './sgais-nested.js';
import { buildParamControls, fillSelect } from './controls.js';
import { formatCount, formatNumber } from './format.js';
import { cancelGroup, jobRunning, poolSize, startJob } from './jobs.js';
import { progressLine } from './sgais-progress.js';
import { queueChart } from './charts.js';
import { fits, note } from './frame-budget.js';

const $ = (id) => document.getElementById(id);
/** Combine and redraw at most this often while runs report. */
const REDRAW_MS = 300;

/**
 * Variants of the distribution-shift demo (paper §6.2, Fig. 5): K = 3, 5, 7 in order, then shuffled.
 * The in-order runs come first: with fewer workers than runs, the model comparison (K = 3 vs 5 vs 7
 * on the data in order) is complete before the shuffled controls start.
 */
const shiftVariants = (ks) => [false, true].flatMap((shuffled) => ks.map((k) => ({
  label: `K = ${k}, ${shuffled ? 'shuffled' : 'in order'}`,
  settings: [['n_components', String(k)], ['scenario', shuffled ? 'shift_shuffled' : 'shift']],
})));
const SHIFT_VARIANTS = shiftVariants([3, 5, 7]);
/**
 * In a lecture (issue 26) the runs start in this order, and it is what a slide sees: the 7-component
 * model in order (its run shows both change points) and shuffled (the in-order/shuffled comparison
 * of §6.2 is complete after these two; on a 2-core laptop they run side by side, the main chain
 * paused meanwhile: www/sgais-focus.js), then K = 3 and 5 in order (the model comparison), then
 * their shuffled controls.
 */
const SHIFT_VARIANTS_LECTURE = (() => {
  const all = shiftVariants([7, 3, 5]);
  const pick = (label) => all.find((v) => v.label === label);
  return ['K = 7, in order', 'K = 7, shuffled', 'K = 3, in order', 'K = 5, in order', 'K = 3, shuffled', 'K = 5, shuffled'].map(pick);
})();

/** Paper presets: Fig. 2 (linear regression, exact curve; accurate or paper settings) and Fig. 5. */
export const SGAIS_PRESETS = {
  linreg: { target: 'linreg', values: { n_points: 10000 }, variants: [], ais: true, replicas: 4 },
  paper: { target: 'linreg', values: { n_points: 10000 }, preset: 'paper', variants: [], ais: true, replicas: 4 },
  // The paper's scale: 1,000 + 9,000 + 90,000 points, one worker per variant; the registry's
  // `surprise_rule` (auto) is on for these data (docs/sgais.md §10).
  shift: { target: 'gmm', values: { n_points: 100000 }, variants: SHIFT_VARIANTS, ais: false, replicas: 1 },
  // The same runs as the paper's algorithm, the surprise rule off (the figures gallery's Fig. 1 and
  // Fig. 5: their annealing-step spikes must be the adaptive schedule's own, not the rule's raised
  // ESS* at the chunks it flags; docs/sgais.md §10).
  shiftPaperAlgorithm: { target: 'gmm', values: { n_points: 100000, surprise_rule: 1 }, variants: SHIFT_VARIANTS, ais: false, replicas: 1 },
  // Lecture scale (issue 26): the same change points with 2,000 points after the last one, and
  // M = 25 particles (ESS* = 12.5) instead of 50 and K = 10 SGHMC steps per temperature instead of
  // the mixture's 20 (docs/sgais.md §10), so that the K = 7 pair (in order and shuffled) is
  // finished within a slide's 20 s on a 2-core laptop even with one worker (BENCHMARKS.md, "Class time").
  // The surprise rule (registry `surprise_rule`, on for shifting data at the paper's scale) is off
  // here: its extra work on the first and the change points' chunks is not within that budget.
  shiftLecture: { target: 'gmm', values: { n_points: 12000, particles: 25, target_ess: 12.5, burn_in_steps: 10, learning_rate: 0.02, surprise_rule: 1 }, variants: SHIFT_VARIANTS_LECTURE, ais: false, replicas: 1 },
};

/** A chart spec that is only its sentence (src/plot/chart/note.rs draws it without a frame). */
const noteSpec = (title) => JSON.stringify({ title, x_label: '', y_label: '', log_x: false, log_y: false, series: [], markers: [] });

/**
 * Started runs that have not finished a chunk yet: the charts say what is coming, not the previous
 * runs' curves (issue 26: a preset stopped before its first chunk showed the last preset's).
 */
function showWaitingForChunk() {
  queueChart('chart-evidence', noteSpec('Running: log Ẑ/n appears here once the first chunk of data is in.'));
  queueChart('chart-annealing', noteSpec('Running: the annealing steps appear here once the first chunk of data is in.'));
}

/** Before the first run the two charts say which button fills them (issue 26: blank frames). */
function showBeforeRun() {
  queueChart('chart-evidence', noteSpec('Press Start (or a Preset button above) to draw log Ẑ/n as the data stream in, with the exact curve and the AIS and NS points.'));
  queueChart('chart-annealing', noteSpec('Press Start (or a Preset button above) to draw the annealing steps each chunk of data needs.'));
}

export class SgaisPanel {
  constructor(registry, guarded) {
    this.sgais = registry.sgais;
    this.guarded = guarded;
    this.target = 'linreg';
    this.values = {};
    this.variants = [];
    this.runs = [];
    this.running = false;
    this.dirty = false;
    this.drawnAt = 0;
    this.combined = null;
    this.startedAt = 0;
    this.wallSeconds = null;
    this.csv = null;
    fillSelect($('sgais-target'), this.sgais.targets, this.target);
    this.nested = new NestedControls(this.sgais.ns_params, $('sgais-ns'), $('sgais-ns-params'), $('sgais-ns-error'));
    // A new model brings its own SGAIS defaults; the settings the user changed stay.
    $('sgais-target').addEventListener('change', (e) => this.select(e.target.value, this.changedSgaisValues()));
    $('sgais-start').addEventListener('click', () => this.start());
    $('sgais-stop').addEventListener('click', () => this.stop('Stopped.'));
    for (const name of Object.keys(SGAIS_PRESETS)) $(`sgais-preset-${name}`)?.addEventListener('click', () => this.applyPreset(name));
    $('sgais-file').addEventListener('change', async () => {
      const file = $('sgais-file').files[0];
      const limit = registry.limits.max_upload_bytes;
      if (file && file.size > limit) {
        // Checked before the file is read whole.
        this.csv = null;
        $('sgais-file').value = '';
        $('sgais-status').textContent = `${file.name} was not loaded: it is ${(file.size / 1048576).toFixed(1)} MB; the limit is ${Math.round(limit / 1048576)} MB.`;
        return;
      }
      this.csv = file ? new Uint8Array(await file.arrayBuffer()) : null;
      $('sgais-status').textContent = file ? `${file.name} will be used by the next run.` : '';
    });
    this.select(this.target);
    showBeforeRun();
  }

  spec() {
    return this.sgais.targets.find((t) => t.name === this.target);
  }

  /**
   * The values a run on `target` starts from: every parameter's default, with the model's own SGAIS
   * defaults laid over them (registry `sgais.defaults_by_model`, src/sgais/model_defaults.rs).
   */
  defaults(target) {
    const spec = this.sgais.targets.find((t) => t.name === target);
    const own = this.sgais.defaults_by_model?.[target]?.values ?? {};
    return { ...Object.fromEntries([...this.sgais.params, ...spec.params].map((p) => [p.name, p.default])), ...own };
  }

  /** The SGAIS settings that differ from the current model's defaults (what the user changed). */
  changedSgaisValues() {
    const defaults = this.defaults(this.target);
    return Object.fromEntries(this.sgais.params.filter((p) => this.values[p.name] !== defaults[p.name]).map((p) => [p.name, this.values[p.name]]));
  }

  select(target, values = {}, variants = []) {
    this.stop();
    this.target = target;
    $('sgais-target').value = target;
    this.values = { ...this.defaults(target), ...values };
    this.variants = variants;
    const set = (name, value) => { this.values[name] = value; return null; };
    buildParamControls($('sgais-target-params'), this.spec().params, this.values, set, { idPrefix: 'sgais-t', live: false });
    buildParamControls($('sgais-params'), this.sgais.params, this.values, set, { idPrefix: 'sgais', live: false });
    $('sgais-file').closest('.field').hidden = !this.spec().accepts_data;
    const own = this.sgais.defaults_by_model?.[target];
    $('sgais-model-defaults').textContent = own ? `Defaults for this model: ${own.reason}.` : '';
    $('sgais-model-defaults').hidden = !own;
  }

  /** A preset's SGAIS settings (e.g. the paper's §6.1 values) as `{name: value}`. */
  presetValues(name) {
    const preset = (this.sgais.presets || []).find((p) => p.name === name);
    return preset ? Object.fromEntries(preset.settings) : {};
  }

  /** Apply a preset and start it; `overrides` (e.g. a smaller N in tests) replace its values. */
  applyPreset(name, overrides = {}) {
    const preset = SGAIS_PRESETS[name];
    this.select(preset.target, { ...(preset.preset ? this.presetValues(preset.preset) : {}), ...preset.values, ...overrides }, preset.variants);
    $('sgais-ais').checked = preset.ais;
    $('sgais-ns').checked = Boolean(preset.ns);
    this.nested.showIfTicked();
    $('sgais-replicas').value = String(preset.replicas);
    this.start();
    this.loadedPreset = name;
  }

  /** Whether the runs of preset `name` are going or finished (so a second lesson step keeps them). */
  showsPreset(name) {
    return this.loadedPreset === name && this.runs.length > 0 && (this.running || this.runs.every((r) => r.done));
  }

  /**
   * The runs to start: every replica of every variant, then the AIS baselines of the first, then
   * nested sampling at the same data sizes, one run per replica.
   */
  plan() {
    const settings = Object.entries(this.values).map(([k, v]) => [k, String(v)]);
    const variants = this.variants.length ? this.variants : [{ label: 'SGAIS', settings: [] }];
    const replicas = Math.max(1, Math.min(16, Math.round(Number($('sgais-replicas').value) || 1)));
    const runs = [];
    for (const variant of variants) {
      const merged = [...settings.filter(([k]) => !variant.settings.some(([v]) => v === k)), ...variant.settings];
      for (let replica = 0; replica < replicas; replica += 1) {
        runs.push({ label: variant.label, spec: { target: this.target, settings: merged, seed: 1, replica } });
      }
    }
    const n = Number(this.values.n_points) || 0;
    const chunk = Number(this.values.chunk_size) || 1;
    // N/4 and N/2 rounded up to whole chunks (once each: with two chunks they coincide).
    const sizes = new Set([0.25, 0.5, 1].map((fraction) => Math.min(n, Math.ceil((fraction * n) / chunk) * chunk)));
    if ($('sgais-ais').checked) {
      for (const aisN of sizes) {
        runs.push({ label: `AIS, full data n = ${aisN}`, spec: { target: this.target, settings: runs[0].spec.settings, seed: 1, replica: 0, ais_n: aisN } });
      }
    }
    if ($('sgais-ns').checked) runs.push(...nestedRuns(this.target, [...runs[0].spec.settings, ...this.nested.settings()], sizes, replicas));
    return runs;
  }

  start() {
    this.stop();
    this.loadedPreset = null;
    // A bad nested-sampling value stops here, with the message beside its control (nothing is lost).
    const problem = $('sgais-ns').checked ? this.nested.check() : null;
    if (problem) { $('sgais-status').textContent = `Not started: ${problem}`; return; }
    const csv = this.spec().accepts_data ? this.csv : null;
    this.runs = this.plan().map((run) => ({ ...run, result: null, done: false, error: null }));
    this.running = true;
    this.combined = null;
    this.startedAt = performance.now();
    this.wallSeconds = null;
    $('sgais-start').disabled = true;
    $('sgais-stop').disabled = false;
    $('sgais-comparison').textContent = '';
    $('sgais-ess-note').textContent = '';
    $('sgais-agreement').textContent = '';
    $('sgais-table').tBodies[0].replaceChildren();
    $('sgais-progress').value = 0;
    showWaitingForChunk();
    this.runs.forEach((run) => {
      run.job = startJob({ kind: run.ns ? 'nested' : 'sgais', spec: run.spec, csv }, {
        group: 'sgais',
        onMessage: (message) => this.receive(run, message),
      });
    });
    this.showProgress();
  }

  receive(run, message) {
    if (!this.runs.includes(run)) return;
    if (message.type === 'error') {
      run.error = message.message;
      run.done = true;
    } else {
      run.result = JSON.parse(message.result);
      run.done = message.type === 'done';
    }
    this.dirty = true;
    if (this.runs.every((r) => r.done)) {
      this.wallSeconds = (performance.now() - this.startedAt) / 1000;
      // The final combination at once, so the summary is whole the moment the runs are.
      this.dirty = false;
      this.draw();
      const failed = this.runs.filter((r) => r.error);
      if (failed.length === this.runs.length) this.stop(`Not started: ${failed[0].error}`);
      else this.stop(failed.length ? `Finished; ${failed.length} run(s) failed: ${failed[0].error}` : `Finished in ${formatNumber(this.wallSeconds)} s.`);
    }
  }

  /** The status line while running: which runs are finished, running and waiting (sgais-progress.js). */
  showProgress() {
    this.statusAt = performance.now();
    for (const run of this.runs) run.started = run.started || Boolean(run.result) || jobRunning(run.job);
    const chunkSize = Number(this.values.chunk_size) || 1;
    const chunks = (r) => (r.ns ? [0, 0] : [r.result.result.records.length, Math.ceil(r.result.n_total / chunkSize)]);
    $('sgais-status').textContent = progressLine(this.runs, poolSize(), chunks);
  }

  stop(message) {
    cancelGroup('sgais');
    if (this.running && this.runs.some((r) => !r.done)) this.dirty = true;
    this.running = false;
    $('sgais-start').disabled = false;
    $('sgais-stop').disabled = true;
    if (message) $('sgais-status').textContent = message;
    // Stopped before any chunk of these runs: the charts go back to what fills them.
    if (this.runs.length && !this.runs.some((r) => r.result && !r.ns)) showBeforeRun();
  }

  /** Once per frame: combine and queue the charts now and then (drawing is budgeted). */
  tick() {
    if (this.running && performance.now() - this.statusAt > REDRAW_MS) this.showProgress();
    if (!this.dirty || performance.now() - this.drawnAt < REDRAW_MS || !fits('chartRedraws')) return;
    note('chartRedraws', 1);
    this.dirty = false;
    this.draw();
  }

  draw() {
    this.drawnAt = performance.now();
    const reported = this.runs.filter((r) => r.result && !r.ns).map((r) => ({ label: r.label, ais_n: r.spec.ais_n ?? null, ...r.result }));
    const nested = this.runs.filter((r) => r.result && r.ns).map((r) => r.result);
    if (!reported.length) return;
    const combined = this.guarded(() => JSON.parse(sgais_combine_ns_json(JSON.stringify(reported), JSON.stringify(nested))));
    if (!combined) return;
    this.combined = combined;
    queueChart('chart-evidence', JSON.stringify(combined.evidence));
    queueChart('chart-annealing', JSON.stringify(combined.annealing));
    const total = this.runs.reduce((sum, r) => sum + (r.done ? 1 : r.result && !r.ns ? r.result.result.records.length / Math.max(1, Math.ceil(r.result.n_total / Number(this.values.chunk_size || 1))) : 0), 0);
    $('sgais-progress').value = Math.min(1, total / this.runs.length);
    this.fillTable(combined);
    $('sgais-comparison').textContent = combined.shift ? combined.shift.sentence : '';
    const notes = combined.groups.map((g) => g.summary.ess_note).filter(Boolean);
    const warnings = combined.groups.map((g) => g.summary.warning && `${g.label}: ${g.summary.warning}`).filter(Boolean);
    // Which chunks the surprise rule gave extra work (src/sgais/surprise_note.rs; empty when none).
    $('sgais-ess-note').textContent = [...warnings, notes.length ? `ESS: ${notes[0]}` : '', combined.surprise_note].filter(Boolean).join(' ');
    // Replicas that scatter beyond what their own weights predict (src/sgais/agreement.rs).
    const disagreeing = combined.groups.filter((g) => g.summary.agreement?.disagree);
    $('sgais-ess-note').classList.toggle('sgais-disagree', disagreeing.length > 0);
    $('sgais-agreement').textContent = disagreeing.map((g) => `${g.label}: ${g.summary.agreement.text}`).join(' ');
    this.afterDraw?.(reported, nested); // the figures gallery's chart and claims (www/sgais-figures.js)
  }

  fillTable(combined) {
    const cell = (text) => { const td = document.createElement('td'); td.textContent = text; return td; };
    const groupRows = combined.groups.map((g) => {
      const s = g.summary;
      const spread = s.agreement ? ` (sd ${formatNumber(s.agreement.between_sd)}, range ${formatNumber(s.agreement.range)}${s.agreement.disagree ? ': replicas disagree' : ''})` : '';
      const logZ = s.log_z ? `${formatNumber(s.log_z.mean, 6)}${s.log_z.se === null ? '' : ` ± ${formatNumber(s.log_z.se)}`}${spread}` : '—';
      // The group's SGAIS runs (not its AIS baselines), started or not: after Stop, replicas still
      // queued have no result, and the data column says how far the replicas' combined curve
      // reaches, as the charts do (issue 26: it read "0 / 10,000" beside a chart at n = 10,000).
      const runs = this.runs.filter((r) => r.label === g.label && r.spec.ais_n == null && !r.ns);
      const n = s.curve.at(-1)?.n ?? 0;
      const nTotal = runs.find((r) => r.result)?.result.n_total ?? 0;
      const steps = s.curve.reduce((sum, p) => sum + p.annealing_steps.mean, 0);
      const tr = document.createElement('tr');
      tr.append(cell(`${g.label} (${s.finished}/${Math.max(runs.length, s.replicas)} replicas)`), cell(`${formatCount(n)} / ${formatCount(nTotal)}`), cell(logZ),
        cell(s.exact_log_z === null ? '—' : formatNumber(s.exact_log_z, 6)), cell(s.ess ? formatNumber(s.ess.mean) : '—'),
        cell(formatCount(Math.round(steps))), cell(s.seconds ? formatNumber(s.seconds.mean) : '—'), cell(s.datum_evals ? formatEvals(s.datum_evals.mean) : '—'));
      return tr;
    });
    const aisEvals = (n) => this.runs.find((r) => r.spec.ais_n === n && r.done && r.result)?.result.result.datum_evals;
    const aisRows = combined.ais.map(([n, logZ, seconds]) => {
      const tr = document.createElement('tr');
      tr.append(cell(`AIS, full data n = ${formatCount(n)}`), cell(formatCount(n)), cell(formatNumber(logZ, 6)), cell('—'), cell('—'), cell('—'), cell(seconds === null ? '—' : formatNumber(seconds)), cell(formatEvals(aisEvals(n))));
      return tr;
    });
    $('sgais-table').tBodies[0].replaceChildren(...groupRows, ...aisRows, ...nestedRows(combined.ns, cell));
  }

  /** State for tests and the benchmark: the runs' progress, the combined summary, wall time. */
  summary() {
    return {
      running: this.running,
      runs: this.runs.map((r) => ({ label: r.label, spec: r.spec, started: Boolean(r.started), done: r.done, error: r.error, ais: r.spec.ais_n != null, ns: Boolean(r.ns), records: r.result && !r.ns ? r.result.result.records : [], nested: r.ns ? r.result : null })),
      combined: this.combined,
      wallSeconds: this.wallSeconds,
      gallery: this.gallery ?? null,
    };
  }
}

