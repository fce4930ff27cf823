// A gallery figure's scan chart (issue 27): x = a knob, y = a number measured by short runs at
// each value (src/scan.rs), computed in a Web Worker at the figure's own settings and drawn like
// the other worker charts (charts.js). The figure's `scan.claims` (www/claims.js, `scan.*`) are
// shown under the chart with their current values, ticked once the scan is complete. A scan with
// `truth_variance: i` draws the page's own truth for the variance of coordinate i as its dashed
// reference (it starts once that truth is known). A figure with `live: 'band'` instead draws the
// running SBPS chain's regression line and upper band (the paper's Fig. 2), redrawn every few frames.

import { cancelGroup, startJob } from './jobs.js';
import { dropCharts, queueChart } from './charts.js';
import { check, describe } from './claims.js';
import { formatNumber } from './format.js';
import { userMessage } from './errors.js';
import { app } from './app.js';

const $ = (id) => document.getElementById(id);
const CANVAS = 'chart-figure';
/** The live band chart is redrawn every this many frames (one heavy drawing, charts.js). */
const LIVE_EVERY_FRAMES = 6;

export class FigureScan {
  constructor() {
    this.section = $('figure-scan');
    this.preset = null;
    this.job = 0;
    this.reset();
  }

  reset() {
    clearTimeout(this.waiting);
    this.reference = null;
    this.points = [];
    this.chart = null;
    this.done = false;
    this.fraction = 0;
    this.failure = null;
  }

  /** Show and compute the scan of a figure preset, or hide the panel (`null`, or a preset without one). */
  apply(preset) {
    cancelGroup('scan');
    dropCharts(CANVAS);
    this.reset();
    this.preset = preset?.scan || preset?.live ? preset : null;
    this.section.hidden = !this.preset;
    if (!this.preset) return;
    $('figure-scan-title').textContent = `${this.preset.figure}: ${(this.preset.scan || this.preset.live).title}`;
    $('figure-scan-progress').hidden = Boolean(this.preset.live);
    queueChart(CANVAS, null);
    if (this.preset.live) this.show('Live: the running chain\'s band, redrawn as it moves.');
    // After the loader has built the figure's chain (it calls this first): its truth, not the last one's.
    else this.waiting = setTimeout(() => this.start(this.preset), 0);
  }

  /** Every frame: redraw a live chart now and then (the chain moves on the main thread). */
  tick() {
    if (!this.preset?.live || (this.frames = (this.frames || 0) + 1) % LIVE_EVERY_FRAMES !== 0 || !app.lab) return;
    let spec;
    try {
      spec = app.lab.chart_json(this.preset.live.chart);
    } catch {
      return; // no band before the chain's first step
    }
    this.chart = JSON.parse(spec);
    queueChart(CANVAS, spec);
    this.show('Live: the running chain\'s band, redrawn as it moves.');
  }

  /** Start the worker's scan, once the page's truth is known when the scan draws it. */
  start(preset) {
    if (preset !== this.preset) return;
    const { claims, truth_variance: coordinate, ...scan } = preset.scan;
    if (coordinate !== undefined) {
      const ready = app.lab && !app.building && !app.truthPending && app.target === preset.state.target;
      const truth = ready ? JSON.parse(app.lab.state_json()).truth : null;
      if (!truth) {
        this.show('Waiting for the truth (computed in a background worker): the scan draws it.');
        this.waiting = setTimeout(() => this.start(preset), 250);
        return;
      }
      this.reference = truth.cov[coordinate][coordinate];
      scan.reference = { label: 'truth (the page\'s)', y: this.reference };
    }
    this.show('Running the scan in a background worker…');
    const spec = { ...scan, target: preset.state.target, seed: preset.state.seed ?? 1 };
    const id = startJob({ kind: 'scan', spec }, {
      group: 'scan',
      onMessage: (message) => {
        if (id !== this.job) return;
        if (message.type === 'error') {
          this.failure = userMessage(message.message);
          this.show(`The scan stopped: ${this.failure}`);
          return;
        }
        this.fraction = message.fraction;
        this.points = JSON.parse(message.points);
        this.chart = JSON.parse(message.chart);
        queueChart(CANVAS, message.chart);
        $(CANVAS).setAttribute('aria-label', this.chart.title);
        this.done = message.type === 'done';
        this.show(this.done ? 'Scan complete (at the figure\'s settings, not the sliders\').' : 'Running the scan in a background worker…');
      },
    });
    this.job = id;
  }

  /** Progress, status line and the claims with their current values. */
  show(status) {
    $('figure-scan-progress').value = Math.max(0, this.fraction);
    $('figure-scan-status').textContent = status;
    const state = { scan: this.points, scan_done: this.done, scan_reference: this.reference, band: this.preset.live ? this.chart : null };
    $('figure-claims').replaceChildren(...((this.preset.scan || this.preset.live).claims || []).map((claim) => {
      const li = document.createElement('li');
      const result = check(claim, state);
      const now = Number.isFinite(result.value) ? ` (now ${formatNumber(result.value)})` : '';
      li.textContent = `${describe(claim)}${now}${result.ready ? (result.ok ? ' ✓' : ' — not shown') : ' — when the scan is complete'}`;
      li.dataset.ok = String(result.ready && result.ok);
      return li;
    }));
  }

  /** State for the tests: `window.sgviz.figureScan()`. */
  snapshot() {
    return { id: this.preset?.id ?? null, reference: this.reference, done: this.done, fraction: this.fraction, failure: this.failure, points: this.points, chart: this.chart };
  }
}
