// Building the main chain (and the compared one) and putting them on screen: in one call for a
// chain built here, over several tasks for a target a worker built (issue 26, "no frame over
// 50 ms": building the chain on 10⁵ data points, its setting warning included, took 40–60 ms of
// main-thread time, and the whole adoption 50–90 ms in one task). The building steps change
// nothing the user sees; one step then shows both chains, their static layers and controls
// together, so no frame shows a half-adopted page.

import { Lab } from './pkg/sgviz.js';
import { $, app, pick, specsOf } from './app.js';
import { guarded } from './errors.js';
import { syncParameterControls } from './parameters.js';
import { draw } from './view.js';
import { frameWork } from './frame-budget.js';
import { syncSlowMotion } from './direct.js';

/** What the compared chain is built from: the main chain's target settings, seed and data. */
export function compareRequest() {
  return {
    target: app.target,
    targetValues: pick(app.explicit, specsOf('targets', app.target)),
    seed: app.seed,
    data: app.upload?.current(),
    mainTitle: specsOf('samplers', app.sampler).label,
  };
}

/** Build the main chain from the current selections without showing it: `{ lab, size }`, or null. */
export function prepareMain() {
  const size = app.panel.size();
  const settings = JSON.stringify(app.explicit);
  const lab = guarded(() => Lab.deferred(app.target, app.sampler, settings, app.seed, size.width, size.height, size.ratio));
  return lab ? { lab, size } : null;
}

/** Build the compared chain (when compare mode is on) without showing it, or null. */
export function prepareCompare() {
  return app.compare?.enabled ? app.compare.prepare(compareRequest()) : null;
}

/** Show prepared chains: every part of the page that depends on them changes in this one call. */
export function install(main, compared) {
  // Compare mode as configured (a preset loaded in steps changes it only now).
  app.compare?.applyLayout();
  if (app.lab) app.lab.free();
  app.lab = main.lab;
  $('status').textContent = '';
  app.upload?.reapply();
  app.panel.fit();
  const size = app.panel.size();
  if (size.width !== main.size.width || size.height !== main.size.height || size.ratio !== main.size.ratio) {
    guarded(() => app.lab.resize(size.width, size.height, size.ratio));
  }
  guarded(() => app.panel.drawStatic(app.lab));
  if (app.compare?.enabled) {
    // Compare mode switched on, or its sampler changed, while the chains were built: build the
    // compared chain now.
    const request = compareRequest();
    const current = compared?.key === app.compare.key();
    if (!current) compared?.lab?.free();
    app.compare.install(current ? compared : app.compare.prepare(request), request.mainTitle);
    followPair();
  } else {
    compared?.lab?.free();
  }
  syncParameterControls(guarded(() => JSON.parse(app.lab.state_json())));
  syncSlowMotion();
  draw();
}

/** The compared panel shows the pair the main panel shows. */
export function followPair() {
  const [i, j] = (app.layout.pair || '0,1').split(',').map(Number);
  if (i !== 0 || j !== 1) app.compare.setPair(i, j);
}

/**
 * Run `step` in a task of its own after the next frame. A hidden tab draws no frames: there it
 * runs in the next task (and when the tab is hidden while waiting, then).
 */
function afterFrame(step) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    document.removeEventListener('visibilitychange', whenHidden);
    step();
  };
  const whenHidden = () => { if (document.hidden) setTimeout(once, 0); };
  if (document.hidden) {
    setTimeout(once, 0);
    return;
  }
  document.addEventListener('visibilitychange', whenHidden);
  requestAnimationFrame(() => setTimeout(once, 0));
}

/**
 * Adopt the chain of a target a worker built, in three tasks with a frame between each: build the
 * main chain, build the compared one, show both. `isCurrent()` false (the user asked for something
 * else meanwhile) drops what was built; `done(ok)` runs after the last step (ok: a chain is shown).
 * Each step's name and the page's frame count when it ran (www/frame-budget.js) go to
 * `app.adoptionSteps` (tests/e2e/adoption.test.mjs).
 */
export function adoptInSteps(isCurrent, done) {
  const steps = [];
  app.adoptionSteps = steps;
  // Each step's wall time too (bench: which step a long task is).
  const mark = (name) => { const at = performance.now(); steps.push({ name, frame: frameWork().frames, at }); return () => { steps.at(-1).ms = performance.now() - at; }; };
  let main = null;
  let compared = null;
  const drop = () => {
    main?.lab.free();
    compared?.lab?.free();
  };
  afterFrame(() => {
    if (!isCurrent()) return;
    const built = mark('build');
    main = prepareMain();
    built();
    if (!main) {
      done(false);
      return;
    }
    afterFrame(() => {
      if (!isCurrent()) { drop(); return; }
      const comparedDone = mark('compare');
      compared = prepareCompare();
      comparedDone();
      afterFrame(() => {
        if (!isCurrent()) { drop(); return; }
        const shown = mark('show');
        install(main, compared);
        shown();
        done(true);
      });
    });
  });
}
