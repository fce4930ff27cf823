// The truth of the main chain's target (closed form, grid quadrature, Laplace, or an exact MALA
// reference run for d > 2) is computed in a Web Worker: the main chain is built deferred and
// adopts the worker's truth and contour grid when they arrive. Changing the target again cancels
// the stale job (job ids). `tick(lab, request)` runs once per frame while the truth is pending.

import { adopt_prepared } from './pkg/sgviz.js';
import { cancelJob, startJob } from './jobs.js';
import { userMessage } from './errors.js';
import { frameWork } from './frame-budget.js';

/** What identifies a truth: the target, its settings, the seed and the uploaded data. */
function signatureOf(request) {
  return JSON.stringify([request.target, request.targetValues, request.seed, request.data ? request.data.bytes.length : 0, request.data?.standardise]);
}

export class TruthRunner {
  constructor({ guarded, onText, onDone }) {
    this.guarded = guarded;
    this.onText = onText;
    this.onDone = onDone;
    this.job = 0;
    this.signature = '';
    this.arrived = null;
    /** The adoption's steps and the frame each ran in, for tests: [{ name: 'read' | 'show', frame }]. */
    this.steps = [];
  }

  /**
   * While `lab`'s truth is pending: make sure a worker computes it for `request` (the chain's
   * target, settings, seed and data) and adopt it once it has arrived.
   */
  tick(lab, request) {
    if (this.arrived) {
      // Read the worker's truth and grid in this frame, show them in the next (issue 26: reading
      // ≈ 0.6 MB of grid, adopting it and drawing the contours in one frame, besides the frame's
      // sampling and drawing, made the longest frames of the presets with a 2-D grid).
      const prepared = this.arrived;
      this.arrived = null;
      this.guarded(() => adopt_prepared(prepared));
      this.steps.push({ name: 'read', frame: frameWork().frames });
      return;
    }
    if (this.guarded(() => lab.adopt_cached_truth())) {
      this.steps.push({ name: 'show', frame: frameWork().frames });
      this.onDone();
      return;
    }
    const signature = signatureOf(request);
    if (signature === this.signature) return;
    this.signature = signature;
    if (this.job) cancelJob(this.job);
    const { target, sampler, settings, seed, data } = request;
    this.steps = [];
    this.onText('computing in a background worker…', undefined, true);
    this.job = startJob({ kind: 'prepare', target, sampler, settings, seed, data }, {
      group: 'truth',
      urgent: true,
      onMessage: (message) => {
        if (message.type === 'progress') this.onText(message.text, message.fraction);
        else if (message.type === 'done') this.arrived = message.prepared;
        else if (message.type === 'error') this.onText(`not available: ${userMessage(message.message)}`);
      },
    });
  }

  /**
   * The chain about to be built has another truth (`request`): stop computing the truth of the
   * chain shown now, which is being replaced (a preset's load waits for a worker meanwhile,
   * www/promise-job.js; with one worker the obsolete job held it). The next tick asks again.
   */
  dropUnless(request) {
    if (!this.job || signatureOf(request) === this.signature) return;
    cancelJob(this.job);
    this.job = 0;
    this.signature = '';
  }

  /** Forget the job's signature so that the next tick asks again (after a rebuild). */
  reset() {
    this.signature = '';
  }
}
