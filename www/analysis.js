// The background analysis panels: SGLD's noise-vs-step-size phase picture, bias and MH rejection
// against ε, and the bias–mixing sweep at equal gradient budget. The sweep runs in bounded slices
// inside the animation frame, so the page stays responsive; it restarts when the setting changes.

import { fitCanvas } from './format.js';

const SLICE_MS = 4;
const RESTART_DELAY_MS = 600;
const REDRAW_MS = 400;
const BUDGET = 200_000;
const KINDS = [['noise', 'chart-noise'], ['bias', 'chart-bias'], ['sweep', 'chart-sweep']];

export class AnalysisRunner {
  constructor({ progress, status, restart }, getLab, guarded) {
    this.progress = progress;
    this.status = status;
    this.getLab = getLab;
    this.guarded = guarded;
    this.active = false;
    this.sliceEvals = 20_000;
    this.drawnAt = 0;
    this.timer = 0;
    restart.addEventListener('click', () => this.start());
  }

  /** Restart after the setting settles (slider drags call this many times). */
  schedule() {
    clearTimeout(this.timer);
    this.active = false;
    this.timer = setTimeout(() => this.start(), RESTART_DELAY_MS);
  }

  start() {
    clearTimeout(this.timer);
    const lab = this.getLab();
    try {
      lab.start_analysis(BUDGET);
      this.active = true;
      this.status.textContent = 'Sweeping step sizes at equal gradient budget…';
      this.drawnAt = 0;
    } catch (error) {
      this.active = false;
      this.status.textContent = `Analysis unavailable: ${error.message || error}`;
      this.progress.value = 0;
      this.clear();
    }
  }

  /** Called once per animation frame: one bounded slice of work and, now and then, a redraw. */
  tick() {
    if (!this.active) return;
    const lab = this.getLab();
    const started = performance.now();
    const fraction = this.guarded(() => lab.advance_analysis(this.sliceEvals));
    const elapsed = performance.now() - started;
    // Keep a slice near SLICE_MS whatever the target's cost per gradient.
    this.sliceEvals = Math.max(1_000, Math.min(5e6, this.sliceEvals * (elapsed > SLICE_MS ? 0.7 : 1.3)));
    if (fraction === undefined || fraction < 0) { this.active = false; return; }
    this.progress.value = fraction;
    const done = fraction >= 1;
    if (done || performance.now() - this.drawnAt > REDRAW_MS) this.draw();
    if (done) {
      this.active = false;
      this.status.textContent = 'Sweep complete.';
    }
  }

  /** Blank the analysis charts so results of an earlier setting are never shown as current. */
  clear() {
    for (const [, id] of KINDS) {
      const canvas = document.getElementById(id);
      canvas.getContext('2d').clearRect(0, 0, canvas.width, canvas.height);
    }
  }

  draw() {
    this.drawnAt = performance.now();
    const lab = this.getLab();
    for (const [kind, id] of KINDS) {
      const canvas = document.getElementById(id);
      if (fitCanvas(canvas)) this.guarded(() => lab.draw_chart(kind, canvas));
    }
  }
}
