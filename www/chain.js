// Operations on the main chain: (re)build it from the chosen target, sampler, explicit parameters
// and seed; change a parameter; select a target or sampler; step, reset, discard; choose the pair
// of coordinates shown. A failure keeps the previous chain and says why.

import { adopt_curvature_memo, adopt_model, adopt_prepared, adopt_promise_memo } from './pkg/sgviz.js';
import { cancelGroup, startJob } from './jobs.js';
import { requeueCharts } from './charts.js';
import { $, app, isTargetParam, pick, specsOf } from './app.js';
import { adoptInSteps, compareRequest, followPair, install, prepareCompare, prepareMain } from './adoption.js';
import { clearStatus, guarded, userMessage } from './errors.js';
import { formatNumber } from './format.js';
import { holdControls } from './load-hold.js';
import { promisesFirst } from './promise-job.js';
import { buildParameterControls, syncParameterControls } from './parameters.js';
import { scheduleUrlWrite } from './url-sync.js';
import { draw } from './view.js';

/** The main chain's state, parsed (undefined after a panic). */
export function labState() {
  return app.lab ? guarded(() => JSON.parse(app.lab.state_json())) : undefined;
}

/**
 * Synthetic data sets with more points than this are built in a worker and handed over (the
 * core's `entry_counts::LARGE_BUILD_DATA`), for the targets the core can export and import
 * (`model::import_parts`): logistic and linear regression.
 */
export const LARGE_BUILD_DATA = 20_000;
const EXPORTABLE_TARGETS = ['logreg', 'linreg'];

/** The value of a target parameter: set explicitly, or its registry default. */
function targetValue(name) {
  const spec = specsOf('targets', app.target).params.find((p) => p.name === name);
  return name in app.explicit ? app.explicit[name] : spec?.default;
}

/** Whether the current target is too large to build on the main thread. */
export function needsWorkerBuild() {
  if (!EXPORTABLE_TARGETS.includes(app.target) || app.upload?.current()) return false;
  const dataset = targetValue('dataset');
  return (dataset === 0 || dataset === '0' || dataset === 'synthetic') && Number(targetValue('n_points')) > LARGE_BUILD_DATA;
}

/**
 * (Re)build the chain from the current selections; on failure keep the previous chain. The chain
 * is built deferred: its truth comes from a worker (truth.js). A large target is built by a
 * worker first and adopted (the previous chain keeps playing meanwhile).
 */
export function rebuildLab() {
  cancelGroup('build');
  app.lastMoved = null; // a new chain: no slider move caused what it shows (www/parameters.js)
  // A build asked for while a preset loaded in steps supersedes that load (its `done` never runs).
  if (app.loadingInSteps) holdControls(false);
  app.buildCount = (app.buildCount || 0) + 1;
  if (needsWorkerBuild()) {
    buildInWorker();
    return true;
  }
  app.building = false;
  return buildNow();
}

function buildInWorker() {
  const request = { target: app.target, sampler: app.sampler, settings: { ...app.explicit }, seed: app.seed };
  const signature = JSON.stringify(request);
  const build = app.buildCount;
  $('status').textContent = `Preparing ${Number(targetValue('n_points')).toLocaleString('en')} data points in a background worker…`;
  app.building = true;
  startJob({ kind: 'prepare', ...request }, {
    group: 'build',
    urgent: true,
    onMessage: (message) => {
      if (message.type === 'error') {
        app.building = false;
        $('status').textContent = `Could not build the target: ${userMessage(message.message)}`;
        if (!app.lab) {
          // Start-up from a link: fall back to the defaults so that the page still opens.
          Object.assign(app, { target: 'gaussian', sampler: 'sgld', explicit: {} });
          buildNow();
          app.onLabBuilt?.();
        }
        return;
      }
      if (message.type !== 'done' || app.buildCount !== build) return;
      guarded(() => {
        adopt_model(request.target, request.sampler, JSON.stringify(request.settings), message.model.header, message.model.features, message.model.labels);
        adopt_prepared(message.prepared);
        // The worker's promise for this chain (its setting warning's draws): the build step below
        // finds it instead of computing it in one task (issue 26: 171.8 ms, cost lesson step 1).
        if (message.curvature) adopt_curvature_memo(message.curvature);
        if (message.memo) adopt_promise_memo(message.memo);
      });
      // The chain is built and shown in tasks of their own (www/adoption.js): taking the data
      // over (N = 10⁶: 40 MB), building the chain on it, building the compared chain, and
      // showing both each stay within a frame's budget.
      adoptInSteps(() => app.buildCount === build, (ok) => {
        app.building = false;
        if (ok) app.analysis?.schedule();
        // A preset's pair waited for the chain it belongs to (applyPendingPair).
        applyPendingPair();
        app.onLabBuilt?.();
        app.onLabBuilt = null;
      });
    },
  });
}

/**
 * Rebuild for a preset or lesson step, built here over three tasks with a frame between each
 * (www/adoption.js: main chain, compared chain, show both; issue 26, a preset's load was one task
 * of up to 180 ms), their promises computed by a worker first (www/promise-job.js), then `done()`. Meanwhile `app.building` is set: the previous chains stay on
 * screen, paused, and neither the preset's pair nor its truth nor the lesson's claims are applied
 * to them. A large target is built by a worker as in `rebuildLab`, and `done` runs at once (as before).
 */
export function rebuildLabInSteps(done) {
  if (needsWorkerBuild()) {
    // As before: compare mode's layout at once, the previous chain plays while the worker builds.
    app.compare?.applyLayout();
    rebuildLab();
    done();
    return;
  }
  cancelGroup('build');
  app.lastMoved = null;
  app.buildCount = (app.buildCount || 0) + 1;
  const build = app.buildCount;
  app.building = true;
  holdControls(true);
  const isCurrent = () => app.buildCount === build;
  // The chains' promises from a worker first (www/promise-job.js), then the three steps.
  promisesFirst(isCurrent, () => adoptInSteps(isCurrent, () => {
    app.building = false;
    holdControls(false);
    done();
  }));
}

/** Build the chain and show it, in this call. */
function buildNow() {
  const main = prepareMain();
  if (!main) return false;
  install(main, prepareCompare());
  return true;
}

/** Rebuild the compared chain (if compare mode is on) for the current target, seed and data. */
export function rebuildCompare() {
  if (!app.compare?.enabled) return;
  app.compare.rebuild(compareRequest());
  followPair();
}

/** Build the controls for the current target and sampler and show the chain's values. */
export function buildControls() {
  buildParameterControls(setParam);
  syncParameterControls(labState());
}

/** A parameter moved: apply it to the live chain. Returns an error message or null. */
export function setParam(name, value) {
  // A refusal beside another slider is over once any slider moves (its value was never applied).
  for (const control of [...app.params.controls, ...(app.mirror?.controls ?? [])]) if (control.error && control.spec.name !== name) control.error.textContent = '';
  if (isTargetParam(name)) {
    // A large target (before or after the change) is rebuilt by a worker, not here.
    const had = name in app.explicit;
    const previous = app.explicit[name];
    const before = needsWorkerBuild();
    app.explicit[name] = value;
    if (before || needsWorkerBuild()) {
      rebuildLab();
      app.lastMoved = name;
      scheduleUrlWrite();
      return null;
    }
    if (had) app.explicit[name] = previous;
    else delete app.explicit[name];
  }
  let message = null;
  guarded(() => {
    try {
      const diverged = Boolean(app.lab.diverged());
      app.lab.set_param(name, value);
      app.explicit[name] = value;
      // A diverged chain restarts at the new setting, as a target slider's rebuild does (review
      // s52, F1: a sampler slider left it diverged until Reset was pressed).
      if (diverged && !isTargetParam(name)) app.lab.reset();
    } catch (error) {
      message = userMessage(error.message || error);
    }
  });
  if (message) {
    // A refused move changes nothing: the slider goes back to the chain's value, and the message
    // beside it says which value was refused and why (review s52: N = 10 shown on the slider over
    // the N = 1,000 chain).
    const state = labState();
    syncParameterControls(state);
    const symbol = app.params.control(name)?.spec.symbol || name;
    const kept = { ...state?.target_params, ...state?.sampler_params }[name];
    return `${symbol} = ${formatNumber(value)} not applied${Number.isFinite(kept) ? ` (kept ${formatNumber(kept)})` : ''}: ${message}`;
  }
  app.lastMoved = name;
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
  if (app.loadingInSteps) return; // the chain shown is about to be replaced (www/load-hold.js)
  guarded(() => app.lab.run(1));
  if (app.slowMotion) {
    app.stepParts = guarded(() => JSON.parse(app.lab.step_parts_json()));
    app.stepProgress = 1;
  }
  if (app.compare?.enabled) app.compare.follow(app.lab.grad_evals());
  draw();
}

export function reset() {
  if (app.loadingInSteps) return; // the chain shown is about to be replaced (www/load-hold.js)
  guarded(() => app.lab.reset());
  clearStatus('error'); // a failed call's message: Reset is what it names
  app.compare?.reset();
  draw();
}

export function discardSamples() {
  if (app.loadingInSteps) return; // the chain shown is about to be replaced (www/load-hold.js)
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
  // Read from the chain shown now (app.truthPending may still be the previous chain's).
  if (!app.pendingPair || app.building || labState()?.truth_pending !== false) return;
  const kind = app.pendingPair;
  app.pendingPair = null;
  const pair = guarded(() => { try { return app.lab.preset_pair(kind); } catch { return null; } });
  if (pair) setPair(pair[0], pair[1]);
}

/** Canvas size or text size changed: refit the panel and redraw its static layer. */
export function refit() {
  requeueCharts();
  if (app.panel.fit()) {
    const size = app.panel.size();
    guarded(() => { app.lab.resize(size.width, size.height, size.ratio); app.panel.drawStatic(app.lab); });
    draw();
  }
  app.compare?.resize();
}
