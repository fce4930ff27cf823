// Run controls: Play/Pause, Step, Reset, Discard burn-in, the target and sampler selects, speed,
// seed, and the keyboard shortcuts (space, s, r, d, ?).

import { $, app } from './app.js';
import { sliderPosition, sliderValue } from './controls.js';
import { formatCount } from './format.js';
import { setPlaying } from './playback.js';
import { discardSamples, rebuildLab, refit, reset, selectModel, stepOnce } from './chain.js';
import { scheduleUrlWrite } from './url-sync.js';
import { openHelp } from './toolbar.js';

const SPEED_SPEC = { name: 'speed', min: 1, max: 20000, log_scale: true, integer: true };

/** Set the steps per frame (a preset or lesson may) and show it. */
export function setSpeed(speed) {
  app.speed = speed;
  $('speed').value = String(sliderPosition(SPEED_SPEC, speed));
  $('speed-value').textContent = formatCount(speed);
}

export function wireRunControls() {
  $('discard').addEventListener('click', discardSamples);
  $('play').addEventListener('click', () => setPlaying(!app.playing));
  $('step').addEventListener('click', stepOnce);
  $('reset').addEventListener('click', reset);
  $('target').addEventListener('change', (e) => selectModel('target', e.target.value));
  $('sampler').addEventListener('change', (e) => selectModel('sampler', e.target.value));
  const speed = $('speed');
  setSpeed(app.speed);
  speed.addEventListener('input', () => setSpeed(sliderValue(SPEED_SPEC, Number(speed.value))));
  wireSeed();
  document.addEventListener('keydown', (event) => {
    const typing = event.target.closest('input[type=number], select');
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === ' ' && !event.target.closest('button, summary')) { event.preventDefault(); setPlaying(!app.playing); }
    else if (event.key === 's') stepOnce();
    else if (event.key === 'r') reset();
    else if (event.key === 'd') discardSamples();
    else if (event.key === '?') openHelp();
  });
  window.addEventListener('resize', refit);
}

function wireSeed() {
  const seed = $('seed');
  seed.addEventListener('change', () => {
    const value = Number(seed.value);
    if (!Number.isInteger(value) || value < 0 || value > Number.MAX_SAFE_INTEGER) {
      $('status').textContent = `seed: '${seed.value}' is not allowed; expected a whole number ≥ 0`;
      seed.value = String(app.seed);
      return;
    }
    const previous = app.seed;
    app.seed = value;
    if (!rebuildLab()) app.seed = previous;
    scheduleUrlWrite();
  });
}
