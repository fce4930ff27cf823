// Playing: the Play/Pause state, and how much sampling one animation frame does (a bounded number
// of steps within a time budget, or one bouncy event animated over several frames).

import { $, app, specsOf } from './app.js';
import { note, remaining as allowed } from './frame-budget.js';
import { runWithin } from './stepper.js';

/** Wall-clock budget for sampling work in one frame, in milliseconds. */
const FRAME_WORK_BUDGET_MS = 8;
/** At or below this speed, bouncy samplers animate the particle along each path piece. */
const ANIMATE_BELOW_SPEED = 3;
/** Frames spent travelling one path piece when animating. */
const FRAMES_PER_PIECE = 12;
/** Frames spent drawing one slow-motion step (its arrows one after another, then a pause). */
const FRAMES_PER_SLOW_STEP = 90;

export function setPlaying(playing) {
  app.playing = playing && !app.dead;
  const button = $('play');
  button.textContent = app.playing ? 'Pause' : 'Play';
  button.setAttribute('aria-pressed', String(app.playing));
}

/** Whether the page should start playing: not when the system asks for reduced motion. */
export function autoplayAllowed() {
  return !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** One frame's sampling work on the main chain. */
export function advanceFrame(guarded) {
  const bouncy = specsOf('samplers', app.sampler).kind === 'bouncy';
  if (app.slowMotion) {
    animateStep(guarded);
  } else if (bouncy && app.speed <= ANIMATE_BELOW_SPEED) {
    animatePiece(guarded);
  } else {
    app.pieceProgress = undefined;
    advance(guarded);
  }
}

/** Advance at most `app.speed` steps within the frame's time budget. */
function advance(guarded) {
  const maxSteps = Math.min(app.speed, allowed('steps'));
  const ran = runWithin(app.lab, { maxSteps, budgetMs: FRAME_WORK_BUDGET_MS, guarded, done: () => app.dead });
  note('steps', ran);
}

/** Slow motion: one step per FRAMES_PER_SLOW_STEP frames, its parts drawn one after another. */
function animateStep(guarded) {
  if (app.stepProgress === undefined || app.stepProgress >= 1) {
    guarded(() => app.lab.run(1));
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
    app.pieceProgress = 0;
  }
  app.pieceProgress = Math.min(1, app.pieceProgress + 1 / FRAMES_PER_PIECE);
}
