// The SGAIS panel: online evidence as the data stream in, against the exact curve and full-data
// AIS, with annealing steps per chunk. Work is done in bounded slices per animation frame; Stop
// ends it at once. Wall time per run is measured here (there is no clock inside wasm).

import { EvidenceLab } from './pkg/sgviz.js';
import { buildParamControls, fillSelect } from './controls.js';
import { formatCount, formatNumber, drawingScale, fitCanvas } from './format.js';

const $ = (id) => document.getElementById(id);
const SLICE_MS = 8;
const REDRAW_MS = 300;

/** Paper presets: Fig. 2 (linear regression, exact curve) and Fig. 5 (distribution shift). */
export const SGAIS_PRESETS = {
  linreg: {
    target: 'linreg',
    values: { n_points: 10000 },
    variants: [],
    ais: true,
  },
  shift: {
    target: 'gmm',
    // Lighter than the defaults (M = 20) so that four runs share one thread at a usable pace.
    values: { n_points: 12000, scenario: 1, particles: 20, target_ess: 10, chunk_size: 500 },
    variants: [
      { label: 'K = 3, in order', settings: [['n_components', '3']] },
      { label: 'K = 5, in order', settings: [['n_components', '5']] },
      { label: 'K = 7, in order', settings: [['n_components', '7']] },
      { label: 'K = 7, shuffled', settings: [['n_components', '7'], ['scenario', 'shift_shuffled']] },
    ],
    ais: false,
  },
};

export class SgaisPanel {
  constructor(registry, guarded) {
    this.sgais = registry.sgais;
    this.guarded = guarded;
    this.target = 'linreg';
    this.values = {};
    this.variants = [];
    this.job = null;
    this.running = false;
    this.budget = 2_000;
    this.drawnAt = 0;
    this.csv = null;
    fillSelect($('sgais-target'), this.sgais.targets, this.target);
    $('sgais-target').addEventListener('change', (e) => this.select(e.target.value));
    $('sgais-start').addEventListener('click', () => this.start());
    $('sgais-stop').addEventListener('click', () => this.stop('Stopped.'));
    $('sgais-preset-linreg').addEventListener('click', () => this.applyPreset('linreg'));
    $('sgais-preset-shift').addEventListener('click', () => this.applyPreset('shift'));
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
  }

  spec() {
    return this.sgais.targets.find((t) => t.name === this.target);
  }

  select(target, values = {}, variants = []) {
    this.stop();
    this.target = target;
    $('sgais-target').value = target;
    const defaults = Object.fromEntries([...this.sgais.params, ...this.spec().params].map((p) => [p.name, p.default]));
    this.values = { ...defaults, ...values };
    this.variants = variants;
    const set = (name, value) => { this.values[name] = value; return null; };
    buildParamControls($('sgais-target-params'), this.spec().params, this.values, set, { idPrefix: 'sgais-t', live: false });
    buildParamControls($('sgais-params'), this.sgais.params, this.values, set, { idPrefix: 'sgais', live: false });
    $('sgais-file').closest('.field').hidden = !this.spec().accepts_data;
  }

  applyPreset(name) {
    const preset = SGAIS_PRESETS[name];
    this.select(preset.target, preset.values, preset.variants);
    $('sgais-ais').checked = preset.ais;
    this.start();
  }

  start() {
    this.stop();
    const ratio = drawingScale();
    let message = '';
    const csv = this.spec().accepts_data ? this.csv : null;
    this.job = this.guarded(() => {
      try {
        return new EvidenceLab(this.target, JSON.stringify(this.values), 1, JSON.stringify(this.variants), $('sgais-ais').checked, csv, ratio);
      } catch (error) {
        message = String(error.message || error);
        return null;
      }
    });
    if (!this.job) {
      $('sgais-status').textContent = `Not started: ${message}`;
      return;
    }
    this.running = true;
    $('sgais-start').disabled = true;
    $('sgais-stop').disabled = false;
    $('sgais-status').textContent = 'Running…';
    this.draw();
  }

  stop(message) {
    this.running = false;
    $('sgais-start').disabled = false;
    $('sgais-stop').disabled = true;
    if (message) $('sgais-status').textContent = message;
  }

  /** One bounded slice of work per animation frame. */
  tick() {
    if (!this.running || !this.job) return;
    const started = performance.now();
    while (performance.now() - started < SLICE_MS) {
      const before = performance.now();
      const index = this.guarded(() => this.job.advance(this.budget));
      const elapsed = performance.now() - before;
      if (index === undefined) { this.stop('Stopped after an internal error.'); return; }
      if (index < 0) {
        this.stop('Finished.');
        this.draw();
        return;
      }
      this.job.add_seconds(index, elapsed / 1000);
      this.budget = Math.max(200, Math.min(200_000, Math.round(this.budget * (elapsed > SLICE_MS / 2 ? 0.7 : 1.3))));
    }
    if (performance.now() - this.drawnAt > REDRAW_MS) this.draw();
  }

  draw() {
    if (!this.job) return;
    this.drawnAt = performance.now();
    for (const [kind, id] of [['evidence', 'chart-evidence'], ['annealing', 'chart-annealing']]) {
      const canvas = $(id);
      if (fitCanvas(canvas)) this.guarded(() => this.job.draw_chart(kind, canvas));
    }
    const summary = this.guarded(() => JSON.parse(this.job.summary_json()));
    if (!summary) return;
    $('sgais-progress').value = summary.progress;
    const cell = (text) => { const td = document.createElement('td'); td.textContent = text; return td; };
    $('sgais-table').tBodies[0].replaceChildren(...summary.runs.map((r) => {
      const tr = document.createElement('tr');
      const status = r.status === 'running' || r.status === 'finished' ? '' : ` (${r.status})`;
      tr.append(cell(r.label + status), cell(`${formatCount(r.n)} / ${formatCount(r.n_total)}`), cell(formatNumber(r.log_z, 6)),
        cell(r.exact_log_z === null ? '—' : formatNumber(r.exact_log_z, 6)), cell(formatNumber(r.ess)), cell(formatCount(r.annealing_steps)),
        cell(formatNumber(r.seconds)));
      return tr;
    }));
  }

  /** State for tests and the benchmark. */
  summary() {
    return this.job ? JSON.parse(this.job.summary_json()) : null;
  }
}
