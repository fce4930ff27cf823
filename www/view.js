// Drawing the main chain each frame: the density and overlay layers of the 2-D panel, the state
// panels, the compared chain, and (a few times a second while running) the trace and
// autocorrelation charts, whose text layout is costly.

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

/** Secondary charts redraw at most this often while running. */
const CHART_INTERVAL_MS = 250;
// 'heldout' (SGLD paper Fig. 3) is drawn only for targets with a test set (its figure is hidden otherwise).
const CHARTS = [['trace', 'chart-trace'], ['acf', 'chart-acf'], ['heldout', 'chart-heldout']];

/** What the view's buttons do to the chain, handed in by start-up (main.js) so that this module
 * never imports chain.js, which imports it. */
const actions = { discardSinceRunaway: null };

/** Hand the view its chain operations (called once, before the first draw). */
export function wireView({ discardSinceRunaway }) {
  actions.discardSinceRunaway = discardSinceRunaway;
}

export function draw() {
  if (!app.lab || app.dead) return;
  guarded(() => {
    timed('draw.density', () => app.panel.drawDensity(app.lab));
    timed('draw.overlay', () => app.panel.drawOverlay(app.lab, app.playing ? app.pieceProgress : undefined, {
      stepParts: app.slowMotion ? app.stepParts : null,
      stepProgress: app.stepProgress ?? 1,
      dragPixel: app.dragPixel,
    }));
    timed('draw.numbers', () => showNumbers());
  });
  if (app.compare?.enabled) timed('draw.compare', () => app.compare.draw());
  if (!app.playing) drawCharts();
  else timed('draw.charts', drawChartsStaggered);
}

/** The chain's numbers: state panel, pair controls, divergence message. */
function showNumbers() {
  const state = JSON.parse(app.lab.state_json());
  if (lastRecorded.lab === app.lab && state.n_recorded > lastRecorded.count) note('binned', state.n_recorded - lastRecorded.count);
  lastRecorded = { lab: app.lab, count: state.n_recorded };
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

/** While playing: a round every CHART_INTERVAL_MS, one piece per frame (each costs 5–30 ms). */
function drawChartsStaggered() {
  if (!fits('chartRedraws')) return;
  if (nextPiece === null) {
    if (performance.now() - app.chartsDrawnAt <= CHART_INTERVAL_MS) return;
    app.chartsDrawnAt = performance.now();
    nextPiece = 0;
  }
  note('chartRedraws', 1);
  CHART_PIECES[nextPiece]();
  nextPiece = nextPiece + 1 < CHART_PIECES.length ? nextPiece + 1 : null;
}

/** All of the secondary drawing at once (paused, or after a change: an event, not a frame's work). */
export function drawCharts() {
  if (!app.lab || app.dead) return;
  app.chartsDrawnAt = performance.now();
  nextPiece = null;
  for (const piece of CHART_PIECES) piece();
}
