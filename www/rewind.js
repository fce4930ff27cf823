// Rewind (issue 24): a seeded run is a replayable timeline. A scrubber under the run buttons
// moves through it, and ←/→ step back and forth while paused (Shift: 100 steps); the core
// rebuilds the chain from its seed and replays the run up to the chosen step (Lab.seek), so the
// picture is exactly what it was the first time.

import { $, app } from './app.js';
import { guarded, showStatus } from './errors.js';
import { setPlaying } from './playback.js';
import { draw, drawCharts } from './view.js';
import { formatCount } from './format.js';

let dragging = false;

/**
 * Take the compared chain (compare mode) to the main chain's gradient budget: its own timeline
 * replayed to the step where it had used as many gradient evaluations, as the frame loop keeps it
 * (compare.js `follow`). Returns a sentence when it cannot go there, else ''.
 */
function seekCompared() {
  const lab = app.compare?.enabled ? app.compare.lab : null;
  if (!lab) return '';
  const state = JSON.parse(lab.state_json());
  const perStep = state.steps > 0 ? state.grad_evals / state.steps : 0;
  if (perStep <= 0) return '';
  try {
    lab.seek(Math.floor(app.lab.grad_evals() / perStep));
    return '';
  } catch (error) {
    return `The compared chain was not rewound (${error.message || error}): press Reset to restart both.`;
  }
}

/** Go to step `n` of the run and redraw; returns the step reached (rejects with the reason). */
export async function seek(n) {
  if (!app.lab) throw new Error('the chain is still being built');
  const back = n < app.lab.timeline_position()[0];
  const reached = app.lab.seek(n);
  const compared = seekCompared();
  // Going back rebuilds the chain from its seed and replays the run from step 0 (exact, but its
  // cost grows with the step): the note under the scrubber says so, and what the compared chain did.
  $('rewind-note').textContent = [back ? `Replayed from step 0 with the same seed to step ${formatCount(reached)}${app.compare?.enabled && !compared ? ', the compared chain to the same gradient budget' : ''}.` : '', compared].filter(Boolean).join(' ');
  draw();
  drawCharts();
  showPosition();
  return reached;
}

/** Keep the scrubber at the chain's step, its end at the furthest step of the run. */
export function showPosition() {
  const input = $('rewind');
  if (!input || !app.lab) return;
  const [steps, furthest] = app.lab.timeline_position();
  if (String(furthest) !== input.max) input.max = String(furthest);
  if (!dragging && String(steps) !== input.value) input.value = String(steps);
  const text = `step ${formatCount(steps)} of ${formatCount(furthest)}`;
  const output = $('rewind-step');
  if (output.textContent !== text) output.textContent = text;
  // The note on the last rewind stays while the chain stands there, and goes when it has run on.
  if (steps === furthest && $('rewind-note').textContent) $('rewind-note').textContent = '';
}

function seekFromUi(n) {
  setPlaying(false);
  seek(Math.max(0, n)).catch((error) => showStatus(error.message || String(error)));
}

/** The scrubber (after the Play/Step/Reset buttons) and the arrow keys while paused. */
export function wireRewind() {
  const row = document.createElement('div');
  row.className = 'rewind';
  const label = document.createElement('label');
  label.htmlFor = 'rewind';
  label.textContent = 'Rewind';
  const range = Object.assign(document.createElement('input'), { type: 'range', id: 'rewind', min: '0', max: '0', step: '1', value: '0' });
  const output = Object.assign(document.createElement('output'), { id: 'rewind-step' });
  output.htmlFor.add('rewind');
  const note = Object.assign(document.createElement('p'), { id: 'rewind-note', className: 'summary' });
  note.setAttribute('role', 'status');
  row.append(label, range, output, note);
  document.querySelector('.buttons.run').after(row);
  const input = $('rewind');
  input.addEventListener('pointerdown', () => { dragging = true; });
  input.addEventListener('pointerup', () => { dragging = false; });
  input.addEventListener('input', () => guarded(() => seekFromUi(Number(input.value))));
  document.addEventListener('keydown', (event) => {
    if (app.playing || !app.lab || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
    if (event.target.closest('input, select, textarea, [contenteditable]') || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    const [steps] = app.lab.timeline_position();
    const by = (event.shiftKey ? 100 : 1) * (event.key === 'ArrowLeft' ? -1 : 1);
    guarded(() => seekFromUi(steps + by));
  });
}
