// The background analysis panels, over the running sampler's own knob (SGLD's ε, SGFS's α, SGHMC's
// η, …): the noise picture, bias against Monte Carlo error, and the bias–mixing sweep at equal
// gradient budget. The sweep runs in a Web Worker
// on the main chain's settings and truth; its charts arrive as JSON specs and are drawn within
// the frame budget (charts.js). It restarts when the setting changes (the stale job is cancelled).

import { app, specsOf } from './app.js';
import { cancelGroup, startJob } from './jobs.js';
import { dropCharts, queueChart } from './charts.js';
import { userMessage } from './errors.js';

const RESTART_DELAY_MS = 600;
const BUDGET = 200_000;
const HELD_STATUS = 'Paused while the evidence runs have the background workers; the sweep starts over when you leave the SGAIS step.';
/**
 * Whether a chart spec draws data: a note (no series, no markers: "No noise chart: BPS (exact) has
 * no step size…") is a sentence centred in a tall card, which at class time showed as an empty
 * white card below the status line (issue 26); once the sweep is done it is said there instead.
 */
const drawsData = (spec) => Boolean(spec && (spec.series?.length || spec.markers?.length));
const KINDS = [['noise', 'chart-noise'], ['bias', 'chart-bias'], ['sweep', 'chart-sweep']];
/** What each analysis chart is, for the sentence it shows while the truth is computed. */
const WAITING_TITLES = { noise: 'Noise vs the setting', bias: 'Bias vs the setting', sweep: 'Error vs gradient budget' };

export class AnalysisRunner {
  constructor({ progress, status, restart }, getLab, guarded) {
    this.progress = progress;
    this.status = status;
    this.getLab = getLab;
    this.guarded = guarded;
    this.active = false;
    this.timer = 0;
    this.job = 0;
    this.fraction = 0;
    this.done = false;
    /** The newest chart specs the worker posted, by kind (for the tests: `window.sgviz.chart(kind)`). */
    this.charts = {};
    restart.addEventListener('click', () => this.start());
  }

  /** Restart after the setting settles (slider drags call this many times). */
  schedule() {
    clearTimeout(this.timer);
    this.markStale();
    this.cancel();
    this.timer = setTimeout(() => this.start(), RESTART_DELAY_MS);
  }

  /** Whether a restart is armed (a setting changed within the settle delay); 0 is no timer. */
  get due() {
    return this.timer !== 0;
  }

  /**
   * The charts on screen belong to the earlier setting (its "current ε", its threshold): dim them
   * and say so until the new setting's charts arrive, instead of showing them as current.
   */
  markStale() {
    if (!Object.keys(this.charts).length) return;
    this.stale = new Set(KINDS.map(([kind]) => kind));
    for (const [, id] of KINDS) document.getElementById(id)?.classList.add('stale');
    this.status.textContent = 'The setting changed: the charts below are recomputed for it…';
  }

  /** A chart of the current setting arrived: no longer stale. */
  markFresh(kind, id) {
    this.stale?.delete(kind);
    document.getElementById(id)?.classList.remove('stale');
  }

  cancel() {
    cancelGroup('sweep');
    dropCharts('chart-noise');
    dropCharts('chart-bias');
    dropCharts('chart-sweep');
    this.charts = {};
    this.active = false;
    this.done = false;
    this.showCharts();
  }

  /**
   * While an SGAIS step is in view the sweep waits (www/sgais-focus.js): a running sweep is
   * stopped, and it (or one asked for meanwhile) starts over when the step is left.
   */
  hold(on) {
    this.held = on;
    this.showCharts();
    if (on) {
      // A restart armed within the settle delay is owed too (issue 26: a hold that only cancelled
      // its timer lost it, and the sweep never came back after the lesson was closed).
      const owed = this.active || this.due;
      clearTimeout(this.timer);
      this.timer = 0;
      // A finished sweep's charts stay, and say so; otherwise the line says why none are drawn.
      if (!this.done) this.status.textContent = HELD_STATUS;
      if (!owed) return;
      cancelGroup('sweep');
      this.active = false;
      this.resume = true;
    } else if (this.resume) {
      // After the settle delay: a preset leaving the step builds a new chain, which asks again.
      this.resume = false;
      this.schedule();
    }
  }

  /**
   * While the sweep is held, a chart with nothing drawn is hidden (issue 26: in the SGAIS view the
   * three boxes were empty frames with only their Save buttons); the status line says why. A chart
   * the sweep already drew stays: it is true for the chain on screen. Once the sweep is done, a
   * chart with no data for this sampler is hidden too and its note goes to the status line
   * ([`completed`]; issue 26: the BPS steps showed an empty white card under "Sweep complete.").
   */
  showCharts() {
    for (const [kind, id] of KINDS) {
      const figure = document.getElementById(id)?.closest('figure');
      if (figure) figure.hidden = (Boolean(this.held) || this.done) && !drawsData(this.charts[kind]);
    }
  }

  /** The sweep's last words: done, and why a hidden chart has nothing to show (its note's title). */
  completed() {
    // "No noise chart: why", "No bias chart: why" with one reason become "No noise or bias chart: why."
    const byReason = new Map();
    for (const [kind] of KINDS) {
      const title = this.charts[kind] && !drawsData(this.charts[kind]) ? this.charts[kind].title : null;
      const [, reason] = title?.match(/^No \w+ chart: (.*)$/) ?? [null, title];
      if (reason) byReason.set(reason, [...(byReason.get(reason) ?? []), kind]);
    }
    const notes = [...byReason].map(([reason, kinds]) => `No ${kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}` : kinds[0]} chart: ${reason}.`);
    this.status.textContent = ['Sweep complete.', ...notes].join(' ');
    this.showCharts();
  }

  start() {
    clearTimeout(this.timer);
    this.timer = 0;
    if (this.held) {
      this.resume = true;
      return;
    }
    this.cancel();
    const lab = this.getLab();
    if (!lab || app.building) {
      // The target is being built in a worker; its arrival schedules the sweep again.
      this.status.textContent = 'Waiting for the data (built in a background worker)…';
      return;
    }
    const state = this.guarded(() => JSON.parse(lab.state_json()));
    if (!state) return;
    if (!state.truth) {
      this.status.textContent = 'Waiting for the truth (computed in a background worker): the sweep needs it.';
      this.progress.value = 0;
      this.waiting = true;
      this.showWaiting();
      return;
    }
    this.waiting = false;
    this.truthSeen = null;
    const prepared = this.guarded(() => lab.export_prepared_json());
    this.active = true;
    this.done = false;
    this.fraction = 0;
    this.progress.value = 0;
    this.status.textContent = specsOf('samplers', app.sampler)?.kind === 'bouncy'
      ? `Sweeping the sampler's own settings, ${(app.speed * 1200).toLocaleString('en-US')} events a point (what the page draws in 20 s; in a background worker)…`
      : 'Sweeping the sampler\'s own setting at equal gradient budget (in a background worker)…';
    const payload = {
      kind: 'sweep', target: app.target, sampler: app.sampler, settings: { ...app.explicit }, seed: app.seed,
      data: app.upload?.current(), prepared, budget: BUDGET,
      // A bouncy sampler's points: what the page draws in 20 s at 60 fps (docs/bouncy.md §15).
      events: app.speed * 1200,
    };
    const id = startJob(payload, {
      group: 'sweep',
      urgent: true,
      restartable: true, // an urgent job (the truth, a build, the four-chain check) may stop it; it starts over
      onMessage: (message) => {
        if (id !== this.job) return; // a stale job's last words
        if (message.type === 'error') {
          this.active = false;
          this.status.textContent = `Analysis unavailable: ${userMessage(message.message)}`;
          this.progress.value = 0;
          this.clear();
          return;
        }
        this.fraction = message.fraction;
        this.progress.value = Math.max(0, message.fraction);
        if (message.charts) {
          const charts = JSON.parse(message.charts);
          Object.assign(this.charts, charts);
          for (const [kind, canvas] of KINDS) {
            if (!charts[kind]) continue;
            queueChart(canvas, JSON.stringify(charts[kind]));
            document.getElementById(canvas)?.setAttribute('aria-label', charts[kind].title);
            this.markFresh(kind, canvas);
          }
        }
        if (message.type === 'done') {
          this.active = false;
          this.done = true;
          this.completed();
        }
      },
    });
    this.job = id;
  }

  /**
   * The truth's worker reached `fraction` (0–1, undefined where it does not say): while the sweep
   * waits for it, the charts say how far it is and about how long is left (issue 26: three blank
   * frames while waiting).
   */
  truthProgress(fraction) {
    if (!Number.isFinite(fraction)) return;
    const now = performance.now();
    if (!this.truthSeen || fraction < this.truthSeen.fraction) this.truthSeen = { at: now, fraction };
    this.truthNow = { at: now, fraction };
    if (this.waiting) this.showWaiting();
  }

  /** "34 %, about 12 s left" from the truth's progress since it was first seen, or '' before any. */
  truthLeft() {
    const [seen, now] = [this.truthSeen, this.truthNow];
    if (!seen || !now || now.fraction <= seen.fraction) return now ? `${Math.round(100 * now.fraction)} % done` : '';
    const rate = (now.fraction - seen.fraction) / (now.at - seen.at);
    return `${Math.round(100 * now.fraction)} % done, about ${Math.max(1, Math.round((1 - now.fraction) / rate / 1000))} s left`;
  }

  /** Each analysis chart as a sentence saying what it waits for, never an empty frame. */
  showWaiting() {
    const left = this.truthLeft();
    for (const [kind, id] of KINDS) {
      const title = `${WAITING_TITLES[kind]}: waiting for the truth (computed in a background worker${left ? `, ${left}` : ''}); drawn when it arrives.`;
      queueChart(id, JSON.stringify({ title, x_label: '', y_label: '', log_x: false, log_y: false, series: [], markers: [], x_range: null, y_range: null }));
      document.getElementById(id)?.setAttribute('aria-label', title);
      this.markFresh(kind, id);
    }
  }

  /** Nothing to do per frame: the worker posts progress and charts. */
  tick() {}

  /** Blank the analysis charts so results of an earlier setting are never shown as current. */
  clear() {
    for (const [kind, id] of KINDS) {
      queueChart(id, null);
      this.markFresh(kind, id);
    }
  }

  /** State for the tests. */
  snapshot() {
    return { active: this.active, held: Boolean(this.held), owed: Boolean(this.resume) || this.due, done: this.done, fraction: this.fraction, job: this.job, stale: [...(this.stale ?? [])] };
  }
}
