// Whether the speed slider's promise is kept: the main chain's steps run against the steps the
// speed asks for (speed × 60 per second of page time), over windows of PACE_WINDOW_MS while
// playing, and the note above "More settings" (where the speed slider is) that says so when fewer than KEPT_SHARE of them ran (a
// costly target at a high speed: the frame's time budget, or the per-frame step limit at under
// 20 frames per second, keeps the steps from running). The note names the control that fixes it
// and disappears once a window keeps the promise again (issue 26). A bouncy sampler animated piece
// by piece at a low speed gets its own note, why it counts so few steps, hidden when it stops.

import { $ } from './app.js';
import { formatCount, formatNumber } from './format.js';

/** Length of one window of the pace check (ms of page time while playing). */
const PACE_WINDOW_MS = 1000;
/** Share of the promised steps below which the note is shown. */
const KEPT_SHARE = 0.9;

const windowed = { promised: 0, ran: 0, ms: 0 };
/** Whether the note shown says that path pieces are animated (showAnimatedNote). */
let animatedNoteShown = false;

/** The note's text for `promisedPerS` asked and `ranPerS` run (empty when the promise is kept). */
export function paceNoteText(promisedPerS, ranPerS) {
  if (!(promisedPerS > 0) || ranPerS >= KEPT_SHARE * promisedPerS) return '';
  return `This chain runs about ${formatNumber(ranPerS)} steps per second here, not the ${formatCount(Math.round(promisedPerS))} this speed asks for: lower "Steps per frame" under More settings (or expect the numbers later than the lesson says).`;
}

/** Count one frame's share: `promised` steps owed for `elapsedMs` of page time, `ran` run. */
export function notePace(promised, ran, elapsedMs) {
  windowed.promised += promised;
  windowed.ran += ran;
  windowed.ms += elapsedMs;
  if (windowed.ms < PACE_WINDOW_MS) return;
  const perS = (n) => (1000 * n) / windowed.ms;
  showPaceNote(paceNoteText(perS(windowed.promised), perS(windowed.ran)));
  Object.assign(windowed, { promised: 0, ran: 0, ms: 0 });
}

/**
 * Start a fresh window (a pause, a new chain or a new speed is not judged by the old one), and
 * take down the old window's note with it (issue 26: it was carried into the next lesson step).
 */
export function resetPace() {
  Object.assign(windowed, { promised: 0, ran: 0, ms: 0 });
  if (!animatedNoteShown) showPaceNote('');
}

/**
 * A bouncy sampler at a low speed moves its particle along each path piece over `framesPerPiece`
 * frames (www/playback.js): the note says why the chain counts so few steps, and which control
 * runs it faster (the SBPS band figure plays this way on purpose, issue 26).
 */
export function showAnimatedNote(framesPerPiece, animateBelow) {
  animatedNoteShown = true;
  showPaceNote(`The particle travels along each path piece over ${framesPerPiece} frames (about ${formatNumber(60 / framesPerPiece)} pieces a second), so that its bounces can be followed: raise "Steps per frame" under More settings above ${animateBelow} to run the chain at full speed.`);
}

/** Hide the animated-pieces note (the chain no longer plays that way). */
export function clearAnimatedNote() {
  if (!animatedNoteShown) return;
  animatedNoteShown = false;
  showPaceNote('');
}

function showPaceNote(text) {
  const note = $('speed-note');
  if (!note || note.textContent === text) return;
  note.textContent = text;
  note.hidden = !text;
}
