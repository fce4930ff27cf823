// Error surfaces: the page banner, and the guard every call into wasm goes through (a panic kills
// the instance: the page shows the message and offers a reload instead of dying silently).

import { last_panic } from './pkg/sgviz.js';
import { $, app } from './app.js';
import { setPlaying } from './playback.js';

export function showBanner(message, kind = 'error') {
  const banner = $('banner');
  banner.textContent = message;
  banner.className = kind === 'error' ? 'banner' : 'banner notice';
  banner.hidden = false;
}

/** Run a call into wasm; a panic kills the instance and shows a banner instead of a dead page. */
export function guarded(action) {
  if (app.dead) return undefined;
  try {
    return action();
  } catch (error) {
    const panic = last_panic();
    if (panic) {
      app.dead = true;
      setPlaying(false);
      showBanner(`Internal error: ${panic}. Reload the page to start again.`);
    } else {
      $('status').textContent = String(error.message || error);
    }
    return undefined;
  }
}
