// Run controls: Play/Pause, Step, Reset, Discard burn-in, the target and sampler selects, speed,
// seed, and the keyboard shortcuts (space, s, r, d, ?).

import { $, app, specsOf } from './app.js';
import { sliderPosition, sliderValue } from './controls.js';
import { formatCount } from './format.js';
import { setPlaying } from './playback.js';
import { resetPace } from './pace-note.js';
import { discardSamples, refit, reset, selectModel, stepOnce } from './chain.js';
import { showChainSeed, wireSeed } from './seed.js';
import { openHelp } from './toolbar.js';

const SPEED_SPEC = { name: 'speed', min: 1, max: 20000, log_scale: true, integer: true };

/** Set the steps per frame (a preset or lesson may) and show it. */
export function setSpeed(speed) {
  if (speed !== app.speed) resetPace();
  app.speed = speed;
  $('speed').value = String(sliderPosition(SPEED_SPEC, speed));
  $('speed-value').textContent = formatCount(speed);
}

export function wireRunControls() {
  $('discard').addEventListener('click', discardSamples);
  $('play').addEventListener('click', () => setPlaying(!app.playing));
  $('step').addEventListener('click', stepOnce);
  $('reset').addEventListener('click', resetRun);
  $('target').addEventListener('change', (e) => selectModel('target', e.target.value));
  $('sampler').addEventListener('change', (e) => selectModel('sampler', e.target.value));
  const speed = $('speed');
  setSpeed(app.speed);
  speed.addEventListener('input', () => {
    setSpeed(sliderValue(SPEED_SPEC, Number(speed.value)));
    // A bouncy sweep's points are speed × 1,200 events (docs/bouncy.md §15): a new speed, new points.
    if (specsOf('samplers', app.sampler)?.kind === 'bouncy') app.analysis?.schedule();
  });
  wireSeed();
  document.addEventListener('keydown', (event) => {
    const typing = event.target.closest('input[type=number], select');
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === ' ' && !event.target.closest('button, summary')) { event.preventDefault(); setPlaying(!app.playing); }
    else if (event.key === 's') stepOnce();
    else if (event.key === 'r') resetRun();
    else if (event.key === 'd') discardSamples();
    else if (event.key === '?') openHelp();
  });
  window.addEventListener('resize', refit);
}

/** Reset: the chain restarts at its seed, which the seed box shows again (its message goes). */
function resetRun() {
  showChainSeed();
  reset();
}
