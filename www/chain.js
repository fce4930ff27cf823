// Operations on the main chain: (re)build it from the chosen target, sampler, explicit parameters
// and seed; change a parameter; select a target or sampler; step, reset, discard; choose the pair
// of coordinates shown. A failure keeps the previous chain and says why.

import { Lab } from './pkg/sgviz.js';
import { $, app, isTargetParam, pick, specsOf } from './app.js';
import { guarded } from './errors.js';
import { buildParameterControls, syncParameterControls } from './parameters.js';
import { scheduleUrlWrite } from './url-sync.js';
import { draw } from './view.js';
import { syncSlowMotion } from './direct.js';

/** The main chain's state, parsed (undefined after a panic). */
export function labState() {
  return app.lab ? guarded(() => JSON.parse(app.lab.state_json())) : undefined;
}

/** (Re)build the chain from the current selections; on failure keep the previous chain. */
export function rebuildLab() {
  const size = app.panel.size();
  const settings = JSON.stringify(app.explicit);
  const next = guarded(() => new Lab(app.target, app.sampler, settings, app.seed, size.width, size.height, size.ratio));
  if (!next) return false;
  if (app.lab) app.lab.free();
  app.lab = next;
  $('status').textContent = '';
  app.upload?.reapply();
  app.panel.fit();
  guarded(() => app.panel.drawStatic(app.lab));
  rebuildCompare();
  syncParameterControls(labState());
  syncSlowMotion();
  draw();
  return true;
}

/** Rebuild the compared chain (if compare mode is on) for the current target, seed and data. */
export function rebuildCompare() {
  if (!app.compare?.enabled) return;
  app.compare.rebuild({
    target: app.target,
    targetValues: pick(app.explicit, specsOf('targets', app.target)),
    seed: app.seed,
    data: app.upload?.current(),
    mainTitle: specsOf('samplers', app.sampler).label,
  });
  const [i, j] = (app.layout.pair || '0,1').split(',').map(Number);
  if (i !== 0 || j !== 1) app.compare.setPair(i, j);
}

/** Build the controls for the current target and sampler and show the chain's values. */
export function buildControls() {
  buildParameterControls(setParam);
  syncParameterControls(labState());
}

/** A parameter moved: apply it to the live chain. Returns an error message or null. */
export function setParam(name, value) {
  let message = null;
  guarded(() => {
    try {
      app.lab.set_param(name, value);
      app.explicit[name] = value;
    } catch (error) {
      message = String(error.message || error);
    }
  });
  if (message) return message;
  scheduleUrlWrite();
  if (isTargetParam(name)) {
    guarded(() => app.panel.drawStatic(app.lab));
    rebuildCompare();
  }
  syncParameterControls(labState());
  draw();
  return null;
}

/** Choose a target (parameters back to their defaults) or a sampler (the target's settings stay). */
export function selectModel(kind, name) {
  const previous = { target: app.target, sampler: app.sampler, explicit: app.explicit };
  app[kind] = name;
  if (kind === 'target') {
    app.upload.forget();
    delete app.layout.pair;
    app.explicit = {};
  } else {
    app.explicit = pick(app.explicit, specsOf('targets', app.target));
  }
  if (!rebuildLab()) Object.assign(app, previous);
  buildControls();
  scheduleUrlWrite();
}

export function stepOnce() {
  guarded(() => app.lab.run(1));
  if (app.slowMotion) {
    app.stepParts = guarded(() => JSON.parse(app.lab.step_parts_json()));
    app.stepProgress = 1;
  }
  if (app.compare?.enabled) app.compare.follow(app.lab.grad_evals());
  draw();
}

export function reset() {
  guarded(() => app.lab.reset());
  app.compare?.reset();
  draw();
}

export function discardSamples() {
  guarded(() => app.lab.discard_samples());
  if (app.compare?.lab) guarded(() => app.compare.lab.discard_samples());
  draw();
}

/** Forget the samples drawn since the runaway the core reported began (when the core offers it). */
export function discardSinceRunaway() {
  guarded(() => {
    if (typeof app.lab.discard_since_runaway === 'function') app.lab.discard_since_runaway();
  });
  draw();
}

/** Show coordinates (i, j) on the 2-D panel(s). */
export function setPair(i, j) {
  const ok = guarded(() => { app.lab.set_pair(i, j); return true; });
  if (!ok) return;
  app.layout.pair = `${i},${j}`;
  app.compare?.setPair(i, j);
  guarded(() => app.panel.drawStatic(app.lab));
  draw();
  scheduleUrlWrite();
}

/** Apply a pair preset once the truth it needs is known. */
export function applyPendingPair() {
  if (!app.pendingPair || app.truthPending) return;
  const kind = app.pendingPair;
  app.pendingPair = null;
  const pair = guarded(() => { try { return app.lab.preset_pair(kind); } catch { return null; } });
  if (pair) setPair(pair[0], pair[1]);
}

/** Canvas size or text size changed: refit the panel and redraw its static layer. */
export function refit() {
  if (app.panel.fit()) {
    const size = app.panel.size();
    guarded(() => { app.lab.resize(size.width, size.height, size.ratio); app.panel.drawStatic(app.lab); });
    draw();
  }
  app.compare?.resize();
}
