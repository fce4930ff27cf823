// While an SGAIS step is in view (a lesson step or preset that loads SGAIS runs), the runs have
// the machine (issue 26: on a 2-core laptop the shift lecture's six runs showed nothing within a
// slide while the main chain played 500 steps a frame beside them and the analysis sweep took
// the pool's one worker): the main chain is paused, the sweep waits, and the pool uses every core
// (www/jobs.js `lendMainCore`; the main thread draws nothing that moves meanwhile). Leaving the
// step (another step or preset, or closing the lesson) gives them back: the chain plays again if
// it was playing, the sweep starts over. Play pressed during the step is the user's choice: the
// chain plays and no further worker beyond POOL_SIZE is started.

import { app } from './app.js';
import { lendMainCore } from './jobs.js';
import { setPlaying } from './playback.js';

/** `{ playing }` as it was when the SGAIS step came into view; null when none is. */
let held = null;

/** An SGAIS step came into view: pause the main chain and the sweep, lend the main core. */
export function holdForSgais() {
  if (held) return;
  held = { playing: app.playing };
  setPlaying(false);
  app.analysis?.hold(true);
  lendMainCore(() => held !== null && !app.playing);
}

/**
 * The SGAIS step is left: the sweep resumes and, with `resume`, the chain plays again if it was
 * playing (a preset that loads a chain sets playing itself).
 */
export function releaseSgais({ resume = true } = {}) {
  if (!held) return;
  const { playing } = held;
  held = null;
  lendMainCore(() => false);
  app.analysis?.hold(false);
  if (resume) setPlaying(playing);
}

/** Whether an SGAIS step holds the main chain and the sweep now (for the tests). */
export function sgaisHeld() {
  return held !== null;
}
