// Rewind (issue 24): a seeded run is a replayable timeline. A scrubber under the run buttons
// moves through it, and ←/→ step back and forth while paused (Shift: 100 steps); the core
// rebuilds the chain from its seed and replays the run up to the chosen step (Lab.seek), so the
// picture is exactly what it was the first time.

import { $, app } from './app.js';
import { guarded } from './errors.js';
import { setPlaying } from './playback.js';
import { draw, drawCharts } from './view.js';
import { formatCount } from './format.js';

let dragging = false;

/** Go to step `n` of the run and redraw; returns the step reached (rejects with the reason). */
export async function seek(n) {
  if (!app.lab) throw new Error('the chain is still being built');
  const reached = app.lab.seek(n);
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
}

function seekFromUi(n) {
  setPlaying(false);
  seek(Math.max(0, n)).catch((error) => { $('status').textContent = error.message || String(error); });
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
  row.append(label, range, output);
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
