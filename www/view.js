// Drawing the main chain: while playing, the overlay (current point, trail, ellipses) every
// frame, the density image and the compared chain at most every DENSITY_INTERVAL_MS, the numbers
// (state panel, pair controls) at most every NUMBERS_INTERVAL_MS, and the trace and
// autocorrelation charts and the mixing panel one piece at most every CHART_PIECE_INTERVAL_MS,
// since their text layout is costly; paused, everything at once (an event, not a frame's work),
// and the first paused frame draws what the cadence left stale.

import { $, app } from './app.js';
import { clearStatus, guarded, showStatus } from './errors.js';
import { fitCanvas } from './format.js';
import { setPlaying } from './playback.js';
import { showMixing, showState } from './stats.js';
import { showPairControls } from './pair-controls.js';
import { fits, note } from './frame-budget.js';
import { timed } from './frame-cost.js';

/** The main chain's recorded-sample count at the last draw, to count samples binned per frame. */
let lastRecorded = { lab: null, count: 0 };

/** While playing: the density image and the compared chain at most this often (20 Hz). */
const DENSITY_INTERVAL_MS = 50;
/** While playing: the numbers (DOM text) at most this often (5 Hz). */
const NUMBERS_INTERVAL_MS = 200;
/** While playing: one piece of the secondary drawing at most this often (each chart ≈ 2.5 Hz). */
const CHART_PIECE_INTERVAL_MS = 100;
/** When each throttled part was drawn last (page clock, ms), and whether a skipped part is stale. */
const cadence = { density: -Infinity, numbers: -Infinity, piece: -Infinity, stale: false };
/** How many times each throttled part was drawn (the cadence's browser test reads them). */
export const drawCounts = { density: 0, numbers: 0, pieces: 0, overlay: 0 };
// 'heldout' (SGLD paper Fig. 3) is drawn only for targets with a test set (its figure is hidden otherwise).
const CHARTS = [['trace', 'chart-trace'], ['acf', 'chart-acf'], ['heldout', 'chart-heldout']];

/** What the view's buttons do to the chain, handed in by start-up (main.js) so that this module
 * never imports chain.js, which imports it. */
const actions = { discardSinceRunaway: null };

/** Hand the view its chain operations (called once, before the first draw). */
export function wireView({ discardSinceRunaway }) {
  actions.discardSinceRunaway = discardSinceRunaway;
}

/** Whether a throttled `part` is due at `now` (always when paused); marks the skipped ones stale. */
function due(part, interval, now) {
  if (!app.playing || now - cadence[part] >= interval) {
    cadence[part] = now;
    return true;
  }
  cadence.stale = true;
  return false;
}

export function draw() {
  if (!app.lab || app.dead) return;
  const now = performance.now();
  countBinned();
  const density = due('density', DENSITY_INTERVAL_MS, now);
  const numbers = due('numbers', NUMBERS_INTERVAL_MS, now);
  guarded(() => {
    if (density) timed('draw.density', () => app.panel.drawDensity(app.lab));
    timed('draw.overlay', () => app.panel.drawOverlay(app.lab, app.playing ? app.pieceProgress : undefined, {
      stepParts: app.slowMotion ? app.stepParts : null,
      stepProgress: app.stepProgress ?? 1,
      dragPixel: app.dragPixel,
    }));
    drawCounts.overlay += 1;
    if (density) drawCounts.density += 1;
    if (numbers) timed('draw.numbers', () => showNumbers());
  });
  if (app.compare?.enabled && density) timed('draw.compare', () => app.compare.draw());
  if (!app.playing) drawCharts();
  else timed('draw.charts', () => drawChartsStaggered(now));
}

/** The first frame after playing stopped draws what the cadence skipped (final numbers, density). */
export function drawStale() {
  if (!cadence.stale || app.playing) return;
  cadence.stale = false;
  draw();
}

/** Samples binned into the density image since the last frame (they are binned as they are drawn). */
function countBinned() {
  const count = app.lab.n_recorded();
  if (lastRecorded.lab === app.lab && count > lastRecorded.count) note('binned', count - lastRecorded.count);
  lastRecorded = { lab: app.lab, count };
}

/** The chain's numbers: state panel, pair controls, divergence message. */
function showNumbers() {
  drawCounts.numbers += 1;
  const state = JSON.parse(app.lab.state_json());
  showState(state, { onDiscardSinceRunaway: actions.discardSinceRunaway });
  showPairControls(state);
  $('legend-predicted').hidden = !state.predicted;
  $('chart-heldout').closest('figure').hidden = !state.heldout;
  if (state.diverged) {
    showStatus(state.diverged, 'divergence');
    setPlaying(false);
  } else {
    clearStatus('divergence'); // lowered the step and pressed Reset: the message has no cause
  }
}

/** The secondary drawing, in pieces: the mixing panel (ESS over the window), then each chart. */
const CHART_PIECES = [
  () => {
    guarded(() => showMixing(JSON.parse(app.lab.mixing_json())));
    app.lessons?.refresh();
    if (app.compare?.enabled) app.compare.showMixing();
  },
  ...CHARTS.map(([kind, id]) => () => {
    const canvas = $(id);
    if (canvas.closest('figure').hidden) return;
    if (fitCanvas(canvas)) guarded(() => app.lab.draw_chart(kind, canvas));
  }),
];
/** Index of the next piece of a round under way, or null between rounds. */
let nextPiece = null;

/**
 * While playing: one piece (each costs 5–30 ms) at most every CHART_PIECE_INTERVAL_MS of wall
 * time, whatever the frame rate, so that late frames do not draw charts in every frame.
 */
function drawChartsStaggered(now) {
  if (!fits('chartRedraws')) return;
  if (!due('piece', CHART_PIECE_INTERVAL_MS, now)) return;
  app.chartsDrawnAt = now;
  note('chartRedraws', 1);
  drawCounts.pieces += 1;
  CHART_PIECES[nextPiece ?? 0]();
  nextPiece = (nextPiece ?? 0) + 1 < CHART_PIECES.length ? (nextPiece ?? 0) + 1 : null;
}

/** All of the secondary drawing at once (paused, or after a change: an event, not a frame's work). */
export function drawCharts() {
  if (!app.lab || app.dead) return;
  app.chartsDrawnAt = performance.now();
  cadence.piece = app.chartsDrawnAt;
  nextPiece = null;
  for (const piece of CHART_PIECES) piece();
}
