// The page state in the link: only what was set explicitly (target, sampler, seed, the
// parameters the user, a preset or a lesson set, compare mode, layout), written coalesced so
// dragging a slider does not flood the history, and restored field by field on load.

import { app, specsOf } from './app.js';
import { decodeState, encodeState } from './url-state.js';

/** Layout settings that may come from the URL, with their allowed values. */
const LAYOUT_SPEC = { font: ['normal', 'large'], pair: (v) => /^\d{1,3},\d{1,3}$/.test(v) };
const WRITE_DELAY_MS = 150;
let timer = 0;

/** Write the state to the URL hash soon (and let the analysis restart for the new setting). */
export function scheduleUrlWrite() {
  app.analysis?.schedule();
  app.multichain?.settingChanged();
  clearTimeout(timer);
  timer = setTimeout(() => {
    const compare = app.compare?.enabled ? { sampler: app.compare.sampler, values: app.compare.values } : undefined;
    const unread = (specsOf('samplers', app.sampler)?.unread || []).map((u) => u.param);
    const hash = encodeState({ target: app.target, sampler: app.sampler, seed: app.seed, values: app.explicit, layout: app.layout, compare, unread });
    history.replaceState(null, '', `#${hash}`);
  }, WRITE_DELAY_MS);
}

/** Restore target, sampler, seed, explicit parameters and layout from the URL; notices for the rest. */
export function restoreFromUrl() {
  const { state, notices } = decodeState(location.hash, app.registry, LAYOUT_SPEC, { target: app.target, sampler: app.sampler });
  if (state.target) app.target = state.target;
  if (state.sampler) app.sampler = state.sampler;
  if (state.seed !== undefined) app.seed = state.seed;
  app.explicit = { ...state.values };
  Object.assign(app.layout, state.layout);
  app.urlCompare = state.compare;
  return notices;
}
