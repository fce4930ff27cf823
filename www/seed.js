// The seed box (under "More settings"): its validation, its message under Play, and putting the
// chain's seed back in it (Reset, a preset). The message goes when its cause does (issue 26).

import { $, app } from './app.js';
import { clearStatus, showStatus } from './errors.js';
import { rebuildLab } from './chain.js';
import { scheduleUrlWrite } from './url-sync.js';
import { parseSeed } from './seed-text.js';

/** Mark the box and say under Play what to type; the typed text stays in the box. */
function flagSeed(box) {
  box.setAttribute('aria-invalid', 'true');
  const typed = box.value.trim();
  const shown = typed.length > 24 ? `${typed.slice(0, 24)}…` : typed;
  const what = typed ? `'${shown}'` : (box.validity.badInput ? 'that text' : 'an empty box');
  showStatus(`Seed (under More settings): ${what} is not a seed; type a whole number ≥ 0, e.g. 1.`, 'seed');
}

function unflagSeed(box) {
  box.removeAttribute('aria-invalid');
  clearStatus('seed');
}

/** Show the chain's seed in the box and drop the box's message (Reset, a preset, start-up). */
export function showChainSeed() {
  const box = $('seed');
  box.value = String(app.seed);
  unflagSeed(box);
}

export function wireSeed() {
  const box = $('seed');
  // While typing: the message goes as soon as the box holds a seed again.
  box.addEventListener('input', () => { if (parseSeed(box.value) !== null) unflagSeed(box); });
  box.addEventListener('change', () => {
    const value = parseSeed(box.value);
    if (value === null) { flagSeed(box); return; }
    unflagSeed(box);
    if (value === app.seed) return;
    const previous = app.seed;
    app.seed = value;
    if (!rebuildLab()) app.seed = previous;
    scheduleUrlWrite();
  });
}
