// A preset's or lesson step's chains compute their promise (src/promise.rs: the derived defaults
// moved to keep it and the setting warning, whose Monte-Carlo draws of E2 took 65–69 ms of
// main-thread time for SGFS-d at 6 parameters) in a worker before they are built here: the worker
// builds the same chains and posts its promise memo (src/promise_memo.rs), the page imports it,
// and the chains built next find their promise there. Their settings, defaults and warnings are
// the same as computed here (same function, same inputs; tests/e2e/promise-worker.test.mjs), and a
// chain is never shown before its warning is known: the build waits for the worker. The truth job
// of the chains being replaced is stopped first (it held the only worker of a 2-core machine);
// when no worker takes the job by the next frame (the pool busy with another job that is not
// restartable: an SGAIS run, a figure's scan), or the worker fails, the chains compute their
// promise here as before. The worker also posts the grid scans its builds made (src/curvature.rs:
// a 2-D non-Gaussian target's curvature, e.g. the hyperbola's for SBPS), imported the same way.

import { adopt_curvature_memo, adopt_promise_memo } from './pkg/sgviz.js';
import { cancelJob, jobRunning, startJob } from './jobs.js';
import { app } from './app.js';
import { compareRequest } from './adoption.js';

/** The chains about to be built (main and, in compare mode, compared), as the worker builds them. */
function pendingBuilds() {
  const builds = [{ target: app.target, sampler: app.sampler, settings: { ...app.explicit }, seed: app.seed }];
  if (app.compare?.enabled) {
    const request = compareRequest();
    builds.push({ target: request.target, sampler: app.compare.sampler, settings: { ...request.targetValues, ...app.compare.values }, seed: request.seed });
  }
  return builds;
}

/**
 * Have a worker compute the promises of the chains about to be built, import them, then run
 * `then()` (also when the worker cannot: then the chains compute them here). `isCurrent()` false
 * (the user asked for something else meanwhile) drops the answer. `app.promiseJob` records how it
 * went: 'worker' (imported), 'busy' (no worker free), 'failed', or 'data' (an uploaded data set:
 * the worker would need the file; computed here).
 */
export function promisesFirst(isCurrent, then) {
  if (app.upload?.current()) {
    app.promiseJob = 'data';
    then();
    return;
  }
  let settled = false;
  const settle = (how, memo, curvature) => {
    if (settled) return;
    settled = true;
    app.promiseJob = how;
    if (!isCurrent()) return;
    try {
      // The grid scans first: the promise's key does not need them, the chains' build does.
      if (curvature) adopt_curvature_memo(curvature);
      if (memo) app.promiseImported = (app.promiseImported || 0) + adopt_promise_memo(memo);
    } catch {
      app.promiseJob = 'failed'; // an unreadable memo: the chains compute their promise here
    }
    then();
  };
  // The truth job of the chain being replaced would hold the worker (www/truth.js `dropUnless`).
  app.dropStaleTruth?.();
  const id = startJob({ kind: 'promise', builds: pendingBuilds() }, {
    group: 'build',
    urgent: true,
    onMessage: (message) => {
      if (message.type === 'done') settle('worker', message.memo, message.curvature);
      else if (message.type === 'error') settle('failed');
    },
  });
  // Not running by the next frame: every worker is busy with a job that cannot be interrupted.
  const check = () => {
    if (settled || jobRunning(id)) return;
    cancelJob(id);
    settle('busy');
  };
  if (document.hidden) setTimeout(check, 0);
  else requestAnimationFrame(() => setTimeout(check, 0));
}
