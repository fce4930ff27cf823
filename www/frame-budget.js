// The main thread's work per animation frame, bounded in work units rather than milliseconds:
// sampler steps of the main and the compared chain, samples binned into the density image, and
// chart redraws. The limits are constants here; the counters (current frame and maxima) are
// exposed through window.sgviz.frameWork() so the browser tests can check them.

/** Hard bounds per frame. */
export const FRAME_LIMITS = Object.freeze({
  /**
   * Main-chain sampler steps: three times the speed slider's top (20,000 per frame), so that the
   * steps a late frame owes are run in it or carried over to the next frames (the frame's time
   * budget, www/playback.js, bounds its wall time): at the top speed the promise of speed × 60
   * steps per second holds down to 20 frames per second (issue 26).
   */
  steps: 60_000,
  /** Compared-chain steps while following the main chain's gradient budget. */
  compareSteps: 20_000,
  /**
   * Samples binned into the 2-D density image (main chain). Each step records at most one sample,
   * binned as it is recorded, so this bound is the steps bound (it was 20,000 with steps at 20,000;
   * a late frame that runs its owed steps bins up to as many samples).
   */
  binned: 60_000,
  /**
   * Heavy drawings (5–25 ms each): a chart redraw (trace, acf, analysis and SGAIS charts), the
   * mixing panel's ESS, or the SGAIS table's combination. One per frame, so that they never pile
   * up on top of the 2-D panel in the same frame.
   */
  chartRedraws: 1,
});

const zero = () => ({ steps: 0, compareSteps: 0, binned: 0, chartRedraws: 0 });
let current = zero();
const maxima = zero();
let frames = 0;

/** Whether `units` more of `kind` still fit in this frame. */
export function fits(kind, units = 1) {
  return current[kind] + units <= FRAME_LIMITS[kind];
}

/** Units of `kind` still allowed this frame. */
export function remaining(kind) {
  return Math.max(0, FRAME_LIMITS[kind] - current[kind]);
}

export function note(kind, units) {
  current[kind] += units;
}

/** Close the frame: fold its counts into the maxima and start counting the next one. */
export function endFrame() {
  for (const kind of Object.keys(current)) maxima[kind] = Math.max(maxima[kind], current[kind]);
  frames += 1;
  current = zero();
}

/** Counters for tests: the limits, the per-frame maxima so far and the number of frames. */
export function frameWork() {
  return { limits: { ...FRAME_LIMITS }, max: { ...maxima }, frames };
}

/** Start the maxima afresh (tests measure one scenario at a time). */
export function resetFrameWork() {
  Object.assign(maxima, zero());
  frames = 0;
}
