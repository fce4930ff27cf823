// The SGAIS panel: online evidence as the data stream in, against the exact curve and full-data
// AIS, with annealing steps per chunk. Every run — each replica of each variant, and each AIS
// baseline — is its own job in the worker pool (www/jobs.js), so they run in parallel on a
// laptop's cores; Stop terminates them at once. The page combines the posted results in the core
// (`sgais_combine_ns_json`: log Ẑ ± standard error over replicas, the ESS explanation, the shift
// comparison) and draws the two charts within the frame budget (charts.js). Nested sampling, when
// ticked, runs as `nested` jobs beside them (www/sgais-nested.js); its points join the evidence chart.

import { sgais_combine_ns_json } from './pkg/sgviz.js';
import { formatEvals, NestedControls, nestedRows } from './sgais-nested.js';
import { planRuns, registryPresetValues, reportedOf, sgaisDefaults, SGAIS_PRESETS } from './sgais-plan.js';
import { buildParamControls, fillSelect } from './controls.js';
import { formatCount, formatNumber } from './format.js';
import { cancelGroup, jobRunning, mainCoreLent, poolSize, startJob } from './jobs.js';
import { progressLine, replicaLines } from './sgais-progress.js';
import { queueChart } from './charts.js';
import { fits, note } from './frame-budget.js';

const $ = (id) => document.getElementById(id);
/** Combine and redraw at most this often while runs report. */
const REDRAW_MS = 300;
/** A run's chunk records so far (none for nested sampling, or before its first progress post). */
const recordsOf = (r) => (r.result && !r.ns ? r.result.result.records : []);

export { SGAIS_PRESETS };

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

/** Show or hide the runs' charts (log Ẑ/n, annealing steps): hidden while a data figure shows no run. */
function showRunCharts(shown) {
  for (const id of ['chart-evidence', 'chart-annealing']) $(id).closest('figure').hidden = !shown;
}

/** Replicas of one variant that take turns in one job: a pair, so that two of them are done (and
 * compared) within twice one replica's time, whatever the number of replicas (issue 26). */
const TURNS = 2;

/**
 * The jobs that run `runs`: each SGAIS variant's R replicas split, in order, over B = max(min(W, R),
 * ⌈R/2⌉) jobs for a pool of W `workers` (replicas ⌊kR/B⌋ … ⌊(k+1)R/B⌋ − 1 in job k), the replicas of a
 * job taking turns in its worker; every other run (AIS, nested sampling, a variant with one
 * replica) a job of its own, in the plan's order.
 */
export function bundleRuns(runs, workers) {
  const bundles = [];
  const seen = new Set();
  for (const run of runs) {
    const replica = !run.ns && run.spec.ais_n == null;
    if (!replica) { bundles.push([run]); continue; }
    if (seen.has(run.label)) continue;
    seen.add(run.label);
    const own = runs.filter((r) => r.label === run.label && !r.ns && r.spec.ais_n == null);
    const count = Math.max(Math.min(workers, own.length), Math.ceil(own.length / TURNS));
    for (let k = 0; k < count; k += 1) bundles.push(own.slice(Math.floor((k * own.length) / count), Math.floor(((k + 1) * own.length) / count)));
  }
  return bundles.filter((b) => b.length);
}

/** The exact log Z beside the estimate: at the final n, or (mid-run) at the n the estimate is compared at. */
function exactCell(s, soFar) {
  const exact = soFar ? s.curve.find((p) => p.n === soFar.n)?.exact_log_z ?? null : s.exact_log_z;
  return exact === null || exact === undefined ? '—' : formatNumber(exact, 6);
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

  /** The values a run on `target` starts from (www/sgais-plan.js `sgaisDefaults`). */
  defaults(target) {
    return sgaisDefaults(this.sgais, target);
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
    return registryPresetValues(this.sgais, name);
  }

  /** Apply a preset and start it; `overrides` (e.g. a smaller N in tests) replace its values. */
  applyPreset(name, overrides = {}) {
    const preset = SGAIS_PRESETS[name];
    this.select(preset.target, { ...(preset.preset ? this.presetValues(preset.preset) : {}), ...preset.values, ...overrides }, preset.variants);
    $('sgais-ais').checked = preset.ais;
    $('sgais-ns').checked = Boolean(preset.ns);
    this.nested.showIfTicked();
    $('sgais-replicas').value = String(preset.replicas);
    this.presetNote = preset.note ?? '';
    this.start();
    this.loadedPreset = name;
  }

  /**
   * A data figure's settings without its runs (SGAIS Fig. 1 shows the data, issue 26: it started
   * the six runs of Fig. 5, whose charts were still empty axes after 150 s): the panel holds the
   * settings, the evidence and annealing charts say why they are empty and how to fill them.
   */
  loadSettings(name) {
    const preset = SGAIS_PRESETS[name];
    this.select(preset.target, { ...(preset.preset ? this.presetValues(preset.preset) : {}), ...preset.values }, preset.variants);
    $('sgais-ais').checked = preset.ais;
    $('sgais-ns').checked = Boolean(preset.ns);
    this.nested.showIfTicked();
    $('sgais-replicas').value = String(preset.replicas);
    this.runs = [];
    this.combined = null;
    this.loadedPreset = null;
    $('sgais-preset-note').hidden = true;
    $('sgais-table').tBodies[0].replaceChildren();
    $('sgais-table').hidden = true;
    for (const id of ['sgais-comparison', 'sgais-ess-note', 'sgais-agreement', 'sgais-replicas-now']) $(id).textContent = '';
    $('sgais-progress').value = 0;
    $('sgais-status').textContent = 'Not started: this figure is the data themselves (the chart beside). Press Start to run SGAIS on them, or load SGAIS Fig. 5 for the paper\'s runs.';
    showBeforeRun();
    showRunCharts(false);
  }

  /** Whether the runs of preset `name` are going or finished (so a second lesson step keeps them). */
  showsPreset(name) {
    return this.loadedPreset === name && this.runs.length > 0 && (this.running || this.runs.every((r) => r.done));
  }

  /** The runs to start (www/sgais-plan.js `planRuns`) from the panel's settings and boxes. */
  plan() {
    return planRuns({
      target: this.target,
      values: this.values,
      variants: this.variants,
      replicas: $('sgais-replicas').value,
      ais: $('sgais-ais').checked,
      nsSettings: $('sgais-ns').checked ? this.nested.settings() : null,
    });
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
    // What a preset says of its own size (its `note`); a run started by hand has none.
    $('sgais-preset-note').textContent = this.presetNote ?? '';
    $('sgais-preset-note').hidden = !this.presetNote;
    this.presetNote = null;
    $('sgais-start').disabled = true;
    $('sgais-stop').disabled = false;
    $('sgais-comparison').textContent = '';
    $('sgais-ess-note').textContent = '';
    $('sgais-agreement').textContent = '';
    $('sgais-replicas-now').textContent = '';
    $('sgais-table').tBodies[0].replaceChildren();
    $('sgais-progress').value = 0;
    showWaitingForChunk();
    this.beforeChunk?.(true);
    showRunCharts(true);
    $('sgais-table').hidden = false;
    for (const bundle of bundleRuns(this.runs, poolSize())) {
      if (bundle.length === 1) {
        const [run] = bundle;
        run.job = startJob({ kind: run.ns ? 'nested' : 'sgais', spec: run.spec, csv }, { group: 'sgais', onMessage: (message) => this.receive(run, message) });
        continue;
      }
      // Replicas that share a worker take turns in it (www/worker.js sgaisGroup): each reports
      // from its first chunk on, so the spread shows in class time (issue 26).
      const job = startJob({ kind: 'sgaisGroup', specs: bundle.map((r) => r.spec), csv }, { group: 'sgais', onMessage: (message) => this.receiveShared(bundle, message) });
      for (const run of bundle) run.job = job;
    }
    this.showProgress();
  }

  receive(run, message) {
    // After Stop, a message a cancelled worker had already posted changes nothing on screen.
    if (!this.runs.includes(run) || !this.running) return;
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

  /** A message of a job shared by the runs `bundle`: one run's result, or an error for all. */
  receiveShared(bundle, message) {
    if (message.type === 'part') this.receive(bundle[message.index], { type: message.finished ? 'done' : 'progress', result: message.result });
    else if (message.type === 'error') for (const run of bundle.filter((r) => !r.done)) this.receive(run, message);
  }

  /** The status line while running: which runs are finished, running and waiting (sgais-progress.js). */
  showProgress() {
    this.statusAt = performance.now();
    for (const run of this.runs) run.started = run.started || Boolean(run.result) || jobRunning(run.job);
    const chunkSize = Number(this.values.chunk_size) || 1;
    const chunks = (r) => (r.ns ? [0, 0] : [r.result.result.records.length, Math.ceil(r.result.n_total / chunkSize)]);
    $('sgais-status').textContent = progressLine(this.runs, poolSize(), chunks, mainCoreLent());
  }

  stop(message) {
    cancelGroup('sgais');
    if (this.running && this.runs.some((r) => !r.done)) this.dirty = true;
    this.running = false;
    $('sgais-start').disabled = false;
    $('sgais-stop').disabled = true;
    if (message) $('sgais-status').textContent = message;
    // Stopped before any chunk of these runs: the charts go back to what fills them. A run's progress
    // within its first chunk is a result with no record yet, so count records, not results (stop 48's
    // CI: a progress post came in before Stop and the evidence chart kept a series).
    if (this.runs.length && !this.runs.some((r) => recordsOf(r).length > 0)) { showBeforeRun(); this.beforeChunk?.(false); }
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
    const { reported, nested } = reportedOf(this.runs);
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
    $('sgais-ess-note').textContent = [...warnings, this.withoutResampling(combined), notes.length ? `ESS: ${notes[0]}` : '', combined.surprise_note].filter(Boolean).join(' ');
    // Replicas that scatter beyond what their own weights predict (src/sgais/agreement.rs).
    // Before the replicas finish, the same check on their log Ẑ so far (src/sgais/prefix.rs).
    const check = (g) => (g.summary.finished < g.summary.replicas || this.runs.some((r) => r.label === g.label && !r.done) ? g.prefix?.agreement && { text: g.prefix.text, disagree: g.prefix.agreement.disagree } : g.summary.agreement);
    const disagreeing = combined.groups.filter((g) => check(g)?.disagree);
    $('sgais-ess-note').classList.toggle('sgais-disagree', disagreeing.length > 0);
    $('sgais-agreement').textContent = disagreeing.map((g) => `${g.label}: ${check(g).text}`).join(' ');
    $('sgais-replicas-now').textContent = replicaLines(this.runs, Number(this.values.chunk_size) || 1);
    // The status line from the same results as the charts (issue 26: a chart with the first
    // chunk beside a status still reading "chunk 0 of 10").
    if (this.running) this.showProgress();
    this.afterDraw?.(reported, nested); // the figures gallery's chart and claims (www/sgais-figures.js)
  }

  /**
   * Why the weights collapsed, where they did and the runs never resample (the paper's §6.1
   * setting, its preset; issue 26: the paper-settings run showed ESS 1 without saying why).
   */
  withoutResampling(combined) {
    const collapsed = combined.groups.some((g) => /weights collapsed/.test(g.summary.warning || ''));
    if (!collapsed || !['off', 0, '0'].includes(this.values.resampling)) return '';
    return 'Why: these runs never resample (Resampling: off, the paper\'s own setting, §6.1), so each particle\'s weight keeps multiplying over every chunk and a few particles soon carry all of it; the accurate-defaults preset resamples before every move (Resampling: always).';
  }

  fillTable(combined) {
    const cell = (text) => { const td = document.createElement('td'); td.textContent = text; return td; };
    const groupRows = combined.groups.map((g) => {
      const s = g.summary;
      const spread = s.agreement ? ` (sd ${formatNumber(s.agreement.between_sd)}, range ${formatNumber(s.agreement.range)}${s.agreement.disagree ? ': replicas disagree' : ''})` : '';
      // Before a replica finishes, the latest checkpoint the charts plot, said to be so far
      // (issue 26: the table read "—" beside an evidence chart already showing the run's points).
      const latest = s.curve.at(-1);
      // The group's SGAIS runs (not its AIS baselines), started or not: after Stop, replicas still
      // queued have no result, and the data column says how far the replicas' combined curve
      // reaches, as the charts do (issue 26: it read "0 / 10,000" beside a chart at n = 10,000).
      const runs = this.runs.filter((r) => r.label === g.label && r.spec.ais_n == null && !r.ns);
      // Before every replica is done, the replicas' log Ẑ where two or more can be compared (same
      // data prefix, src/sgais/prefix.rs): the spread and the flag in class time (issue 26).
      const total = Math.max(runs.length, s.replicas);
      const soFar = s.finished < total ? g.prefix : null;
      // The value says which replicas it is over (classfix item 6: "SGAIS (0/4 replicas)" stood
      // beside a value without saying it came from 2 of them at n = 500).
      const logZ = soFar ? `${formatNumber(soFar.log_z.mean, 6)} ± ${formatNumber(soFar.log_z.se)} so far: ${soFar.replicas} of ${total} replicas at n = ${formatCount(soFar.n)} (sd ${formatNumber(soFar.log_z.sd)}, range ${formatNumber(soFar.log_z.max - soFar.log_z.min)}${soFar.agreement?.disagree ? ': replicas disagree' : ''})`
        : s.log_z ? `${formatNumber(s.log_z.mean, 6)}${s.log_z.se === null ? '' : ` ± ${formatNumber(s.log_z.se)}`}${spread}`
          : latest ? `${formatNumber(latest.log_z.mean, 6)} so far (at n = ${formatCount(latest.n)})` : '—';
      const essNow = soFar ? s.curve.find((p) => p.n === soFar.n)?.ess : !s.ess ? latest?.ess : null;
      const ess = s.ess && !soFar ? formatNumber(s.ess.mean) : essNow ? `${formatNumber(essNow.mean)} so far` : '—';
      const n = s.curve.at(-1)?.n ?? 0;
      const nTotal = runs.find((r) => r.result)?.result.n_total ?? 0;
      const steps = s.curve.reduce((sum, p) => sum + p.annealing_steps.mean, 0);
      const tr = document.createElement('tr');
      tr.append(cell(s.finished < total ? `${g.label} (${s.finished} of ${total} replicas finished)` : `${g.label} (${total} replicas)`), cell(`${formatCount(n)} / ${formatCount(nTotal)}`), cell(logZ),
        cell(exactCell(s, soFar)), cell(ess),
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
      runs: this.runs.map((r) => ({ label: r.label, spec: r.spec, started: Boolean(r.started), done: r.done, error: r.error, ais: r.spec.ais_n != null, ns: Boolean(r.ns), records: recordsOf(r), nested: r.ns ? r.result : null })),
      combined: this.combined,
      wallSeconds: this.wallSeconds,
      gallery: this.gallery ?? null,
    };
  }
}

