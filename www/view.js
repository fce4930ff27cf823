// Drawing the main chain: while playing, the overlay (current point, trail, ellipses) every
// frame, the density image and the compared chain at most every DENSITY_INTERVAL_MS (never both in
// one frame: `densityTurns`), the numbers
// (state panel, pair controls, the compared chain's numbers, the open lesson's claims) at most
// every NUMBERS_INTERVAL_MS, and one piece of the secondary drawing (trace; twice a second the
// mixing panel, once a second the autocorrelation and held-out charts) at most every
// CHART_PIECE_INTERVAL_MS, since their text layout is costly (a chart off screen is skipped while
// playing and drawn as soon as it scrolls into view: www/on-screen.js); paused, everything at once
// (an event, not a frame's work), and the first paused frame draws what the cadence left stale.

import { $, app } from './app.js';
import { requestMixing } from './mixing.js';
import { clearStatus, guarded, showStatus } from './errors.js';
import { fitCanvas } from './format.js';
import { setPlaying } from './playback.js';
import { showMixing, showState } from './stats.js';
import { showPairControls } from './pair-controls.js';
import { fits, note } from './frame-budget.js';
import { timed } from './frame-cost.js';
import { onScreen, watchOnScreen } from './on-screen.js';
import { chartsPending } from './charts.js';

/** The main chain's recorded-sample count at the last draw, to count samples binned per frame. */
let lastRecorded = { lab: null, count: 0 };

/** While playing: the density image and the compared chain at most this often (20 Hz). */
const DENSITY_INTERVAL_MS = 50;
/** While playing: the numbers (DOM text) at most this often (5 Hz). */
const NUMBERS_INTERVAL_MS = 200;
/** While playing: one piece of the secondary drawing at most this often (each chart ≈ 2.5 Hz). */
const CHART_PIECE_INTERVAL_MS = 100;
/** When each throttled part was drawn last (page clock, ms), and whether a skipped part is stale. */
const cadence = { density: -Infinity, compareDensity: -Infinity, numbers: -Infinity, compareNumbers: -Infinity, piece: -Infinity, stale: false };
/** How many times each throttled part was drawn (the cadence's browser test reads them). */
export const drawCounts = { density: 0, numbers: 0, pieces: 0, overlay: 0, claims: 0, offScreen: 0 };
// 'heldout' (SGLD paper Fig. 3) is drawn only for targets with a test set (its figure is hidden otherwise).
const CHARTS = [['trace', 'chart-trace'], ['acf', 'chart-acf'], ['heldout', 'chart-heldout']];

/** What the view's buttons do to the chain, handed in by start-up (main.js) so that this module
 * never imports chain.js, which imports it. */
const actions = { discardSinceRunaway: null };

/** Hand the view its chain operations (called once, before the first draw). */
export function wireView({ discardSinceRunaway }) {
  actions.discardSinceRunaway = discardSinceRunaway;
  // A chart skipped while off screen is drawn in the first frame it is seen (`justShown`).
  CHART_PIECES.forEach((piece, i) => { if (piece.canvas) watchOnScreen($(piece.canvas), () => { pieceDrawnAt[i] = -Infinity; if (app.playing) justShown.add(i); }); });
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
  const [density, compareDensity] = densityTurns(now);
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
  if (compareDensity) timed('draw.compare', () => app.compare.draw({ numbers: due('compareNumbers', NUMBERS_INTERVAL_MS, now) }));
  if (!app.playing) drawCharts();
  else timed('draw.charts', () => drawChartsStaggered(now));
}

/**
 * Whether this frame draws the main density image and the compared chain's panel (each at most every
 * DENSITY_INTERVAL_MS while playing). Playing, never both in one frame (issue 26, stop 48: the two
 * panels' images in one frame made compare mode's slowest frames, cost lesson step 1's p95 33 ms):
 * when both are due, the one waiting longer draws and the other is drawn in the next frame. Paused,
 * both.
 */
function densityTurns(now) {
  const comparing = Boolean(app.compare?.enabled);
  if (!app.playing) return [due('density', DENSITY_INTERVAL_MS, now), comparing && due('compareDensity', DENSITY_INTERVAL_MS, now)];
  const waited = (part) => now - cadence[part];
  const mainDue = waited('density') >= DENSITY_INTERVAL_MS;
  const compareDue = comparing && waited('compareDensity') >= DENSITY_INTERVAL_MS;
  const main = mainDue && !(compareDue && waited('compareDensity') > waited('density'));
  const compare = compareDue && !main;
  if (main) cadence.density = now;
  if (compare) cadence.compareDensity = now;
  if (!main || (comparing && !compare)) cadence.stale = true;
  return [main, compare];
}

/** Whether a paused frame has the cadence's skipped parts to draw (www/frame-loop.js stays awake). */
export function viewStale() {
  return cadence.stale && !app.playing;
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

/** The chain's numbers: state panel, pair controls, divergence message, the lesson's claims. */
function showNumbers() {
  drawCounts.numbers += 1;
  // The claims re-checked with the numbers (5 Hz while playing, issue 26: once a second added up to
  // 1 s to a claim's time); cheap: they read the state parsed here, and the ESS (by FFT) only for
  // claims about it.
  const state = JSON.parse(app.lab.state_json());
  if (app.lessons?.refresh(state)) drawCounts.claims += 1;
  showState(state, { onDiscardSinceRunaway: actions.discardSinceRunaway });
  showPairControls(state);
  $('legend-predicted').hidden = !state.predicted;
  $('chart-heldout').closest('figure').hidden = !state.heldout;
  if (state.diverged) {
    showStatus(state.diverged, 'divergence');
    // Paused by the divergence, not by the user: play resumes once a setting change or Reset
    // gives a chain that has not diverged (review s52, F1: the SGLD lesson sat paused at step 0
    // after ρ went to −0.99 and back, with nothing on screen saying so).
    // Any other call of setPlaying (Play, Pause, a preset that pauses) cancels the resume.
    if (app.playing) {
      setPlaying(false);
      app.resumeAfterDivergence = true;
    }
  } else {
    clearStatus('divergence'); // lowered the step and pressed Reset: the message has no cause
    if (app.resumeAfterDivergence) setPlaying(true);
  }
}

/**
 * The secondary drawing, in pieces, each redrawn while playing at most every `every` ms: the
 * mixing panel twice a second (its window posted to the ESS worker, www/mixing.js, and shown when
 * the answer arrives; the FFTs, O(window · log window), src/acf_fft.rs, run there), the
 * autocorrelation and held-out charts once a second, the trace as often as the pieces come round.
 */
const SLOW_PIECE_MS = 1000;
const MIXING_PIECE_MS = 500;
const CHART_PIECES = [
  { every: MIXING_PIECE_MS, draw: () => timed('chart.mixing', () => guarded(() => requestMainMixing())) },
  // The compared chain's ESS is a piece of its own (issue 26, stop 48: with the main chain's in one
  // piece, two windows taken, and before the worker two FFTs, in one frame).
  { every: MIXING_PIECE_MS, shown: () => Boolean(app.compare?.enabled), draw: () => timed('chart.compareMixing', () => app.compare.showMixing()) },
  ...CHARTS.map(([kind, id]) => ({ every: kind === 'trace' ? 0 : SLOW_PIECE_MS, canvas: id, draw: () => timed(`chart.${kind}`, () => {
    const canvas = $(id);
    if (canvas.closest('figure').hidden) return;
    if (fitCanvas(canvas)) guarded(() => app.lab.draw_chart(kind, canvas));
  }) })),
];
/** Ask the ESS worker for the main chain's mixing numbers (www/mixing.js); shown when they arrive, if the chain is still the one shown. */
function requestMainMixing() {
  const lab = app.lab;
  requestMixing(lab, (mixing) => { if (app.lab === lab && !app.dead) guarded(() => showMixing(mixing)); });
}
/** When each piece was drawn last (page clock, ms), and the piece whose turn is next. */
const pieceDrawnAt = CHART_PIECES.map(() => -Infinity);
/** Whether the last frame that drew a chart while playing gave its redraw to a piece (see `drawChartsStaggered`). */
let pieceTookLastRedraw = false;
let nextPiece = 0;
/**
 * Pieces whose chart came into view while playing and has not been drawn since: each is drawn
 * ahead of the cadence and the turn order, in the first frame with room for a chart (issue 26,
 * stop 41: an autocorrelation chart scrolled into view kept its first, empty drawing ≤ 300 ms).
 */
const justShown = new Set();

/** The charts on screen still showing a drawing from before they came into view (ids; the screenshot tests wait for none). */
export function chartsDue() {
  return app.playing && !app.dead ? [...justShown].map((i) => CHART_PIECES[i].canvas) : [];
}

/**
 * While playing: one piece (each costs 5–30 ms, the mixing panel more) at most every
 * CHART_PIECE_INTERVAL_MS of wall time, whatever the frame rate, the next in turn that is due.
 */
function drawChartsStaggered(now) {
  if (!fits('chartRedraws')) return;
  // A chart that just came into view is drawn first, even before a waiting worker chart: it is
  // on screen with an old drawing now (CI s49 flake: the trace, scrolled into view in a frame whose
  // redraw went to a pending analysis chart, kept its old picture). It cannot starve the worker's
  // charts: a chart enters `justShown` only when it comes into view.
  if (justShown.size) {
    drawPiece([...justShown][0], now);
    return;
  }
  // A worker's chart (analysis, SGAIS) waiting since the frame a piece took the redraw gets this
  // one (www/charts.js draws it later in the frame): with frames over CHART_PIECE_INTERVAL_MS
  // apart a piece was due in every frame, and the analysis cards kept their old drawing for as
  // long as the chain played (flakes s47: "waiting for the truth" never drawn in 13 s at < 5 fps).
  if (pieceTookLastRedraw && chartsPending()) {
    pieceTookLastRedraw = false;
    cadence.stale = true;
    return;
  }
  pieceTookLastRedraw = false;
  if (now - cadence.piece < CHART_PIECE_INTERVAL_MS) {
    cadence.stale = true;
    return;
  }
  for (let k = 0; k < CHART_PIECES.length; k++) {
    const i = (nextPiece + k) % CHART_PIECES.length;
    if (now - pieceDrawnAt[i] < CHART_PIECES[i].every || CHART_PIECES[i].shown?.() === false) continue;
    // Off screen (below the plot on a projector): not redrawn while playing; due again when shown.
    if (CHART_PIECES[i].canvas && !onScreen($(CHART_PIECES[i].canvas))) {
      drawCounts.offScreen += 1;
      continue;
    }
    drawPiece(i, now);
    return;
  }
  cadence.stale = true;
}

/** Draw piece `i` now, as this frame's chart redraw; the next turn is the piece after it. */
function drawPiece(i, now) {
  pieceTookLastRedraw = true;
  justShown.delete(i);
  cadence.piece = now;
  pieceDrawnAt[i] = now;
  nextPiece = (i + 1) % CHART_PIECES.length;
  app.chartsDrawnAt = now;
  note('chartRedraws', 1);
  drawCounts.pieces += 1;
  CHART_PIECES[i].draw();
}

/** All of the secondary drawing at once (paused, or after a change: an event, not a frame's work). */
export function drawCharts() {
  if (!app.lab || app.dead) return;
  app.chartsDrawnAt = performance.now();
  cadence.piece = app.chartsDrawnAt;
  nextPiece = 0;
  justShown.clear();
  for (const [i, piece] of CHART_PIECES.entries()) {
    pieceDrawnAt[i] = app.chartsDrawnAt;
    if (piece.shown?.() !== false) piece.draw();
  }
}
