// Playing: the Play/Pause state, and how much sampling one animation frame does (a bounded number
// of steps within a time budget, or one bouncy event animated over several frames). The speed
// slider promises `speed` steps per frame at 60 frames per second, i.e. speed × 60 steps per
// second of wall time: a frame that comes late (dropped frames on a loaded machine) runs the steps
// of the time that passed, so what a slide shows after 20 s does not depend on the frame rate.

import { $, app, specsOf } from './app.js';
import { note, remaining as allowed } from './frame-budget.js';
import { runWithin } from './stepper.js';
import { countSteps } from './frame-cost.js';
import { clearAnimatedNote, notePace, resetPace, showAnimatedNote } from './pace-note.js';
import { ANIMATE_BELOW_SPEED, FRAMES_PER_PIECE } from './playback-rates.js';
import { wake } from './frame-loop.js';

/** Wall-clock budget for sampling work in one frame at 60 fps, in milliseconds. */
const FRAME_WORK_BUDGET_MS = 8;
/** A late frame's budget grows with the time that passed, to half of it, up to this. */
const LATE_FRAME_BUDGET_MS = 16;
/** The frame rate at which the speed slider counts its steps. */
const NOMINAL_FPS = 60;
/** Steps owed for at most this much wall time are kept (a stall or a hidden tab is not made up for). */
const MAX_OWED_MS = 250;
/** Steps owed to the main chain (the time since the last frame × speed × 60, minus steps run). */
const pace = { lab: null, lastAt: null, owed: 0 };
/** Frames spent drawing one slow-motion step (its arrows one after another, then a pause). */
const FRAMES_PER_SLOW_STEP = 90;

export function setPlaying(playing) {
  app.playing = playing && !app.dead;
  app.resumeAfterDivergence = false; // www/view.js: a pause a divergence made is the caller's now
  pace.lastAt = null; // a pause is not owed
  pace.owed = 0;
  resetPace();
  const button = $('play');
  button.textContent = app.playing ? 'Pause' : 'Play';
  button.setAttribute('aria-pressed', String(app.playing));
  wake();
}

/** Whether the page should start playing: not when the system asks for reduced motion. */
export function autoplayAllowed() {
  return !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** One frame's sampling work on the main chain; `now` (ms, the page's clock) is when the frame runs. */
export function advanceFrame(guarded, now = performance.now()) {
  if (app.slowMotion) {
    clearAnimatedNote();
    animateStep(guarded);
  } else if (animatesPieces()) {
    showAnimatedNote(FRAMES_PER_PIECE, ANIMATE_BELOW_SPEED);
    animatePiece(guarded);
  } else {
    clearAnimatedNote();
    app.pieceProgress = undefined;
    advance(guarded, now);
  }
}

/**
 * Run the steps owed: speed × 60 per second since the last frame (one frame's worth on the first
 * frame after a pause or a new chain), within the frame's time budget and FRAME_LIMITS.steps; what
 * does not fit is owed to the next frame (up to MAX_OWED_MS of steps).
 */
function advance(guarded, now) {
  const elapsed = pace.lab === app.lab && pace.lastAt !== null ? Math.min(Math.max(0, now - pace.lastAt), MAX_OWED_MS) : 1000 / NOMINAL_FPS;
  if (pace.lab !== app.lab) {
    pace.owed = 0;
    resetPace();
  }
  pace.lab = app.lab;
  pace.lastAt = now;
  const perMs = (app.speed * NOMINAL_FPS) / 1000;
  pace.owed = Math.min(pace.owed + perMs * elapsed, Math.max(app.speed, perMs * MAX_OWED_MS));
  const maxSteps = Math.min(Math.floor(pace.owed), allowed('steps'));
  const budgetMs = Math.min(LATE_FRAME_BUDGET_MS, Math.max(FRAME_WORK_BUDGET_MS, elapsed / 2));
  const ran = maxSteps > 0 ? runWithin(app.lab, { maxSteps, budgetMs, guarded, done: () => app.dead }) : 0;
  pace.owed -= ran;
  // The promise for this frame's time against what ran (a backlog worked off counts when it runs).
  notePace(perMs * elapsed, ran, elapsed);
  note('steps', ran);
  countSteps(ran);
}

/**
 * The steps per wall second the page promises in the current mode: speed × 60, or, when a step
 * is animated over several frames (slow motion; a bouncy sampler at a low speed), 60 divided by
 * the frames one step takes (the bench compares what ran with this).
 */
export function promisedStepsPerSecond() {
  if (app.slowMotion) return NOMINAL_FPS / FRAMES_PER_SLOW_STEP;
  if (animatesPieces()) return NOMINAL_FPS / FRAMES_PER_PIECE;
  return app.speed * NOMINAL_FPS;
}

/** Whether the main chain is a bouncy sampler played slowly enough to animate each path piece. */
function animatesPieces() {
  return specsOf('samplers', app.sampler).kind === 'bouncy' && app.speed <= ANIMATE_BELOW_SPEED;
}

/** Slow motion: one step per FRAMES_PER_SLOW_STEP frames, its parts drawn one after another. */
function animateStep(guarded) {
  if (app.stepProgress === undefined || app.stepProgress >= 1) {
    guarded(() => app.lab.run(1));
    countSteps(1);
    app.stepParts = guarded(() => JSON.parse(app.lab.step_parts_json()));
    app.stepProgress = 0;
  }
  app.stepProgress = Math.min(1, app.stepProgress + 1 / FRAMES_PER_SLOW_STEP);
}

/** Slow bouncy playback: one event per FRAMES_PER_PIECE frames, the particle moving along it. */
function animatePiece(guarded) {
  if (app.pieceProgress === undefined || app.pieceProgress >= 1) {
    guarded(() => app.lab.run(1));
    note('steps', 1);
    countSteps(1);
    app.pieceProgress = 0;
  }
  app.pieceProgress = Math.min(1, app.pieceProgress + 1 / FRAMES_PER_PIECE);
}
