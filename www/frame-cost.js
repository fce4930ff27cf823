// Where a frame's main-thread time goes: wall milliseconds of each part of the frame loop
// (background-job ticks, sampler steps, the 2-D panel and numbers, the staggered secondary charts,
// the worker-computed charts), summed since the last reset, and the steps run per wall second.
// Read by bench/frame-cost.mjs through window.sgviz.frameCost(); it decides nothing.

const parts = new Map();
let frames = 0;
let steps = 0;
let since = performance.now();

/** Run `work` and add its wall time to `part`; returns what `work` returns. */
export function timed(part, work) {
  const started = performance.now();
  try {
    return work();
  } finally {
    parts.set(part, (parts.get(part) || 0) + performance.now() - started);
  }
}

/** Count the main chain's steps run by the frame loop. */
export function countSteps(n) {
  steps += n;
}

/** Count one animation frame. */
export function countFrame() {
  frames += 1;
}

/** Frames and per-part milliseconds since the last reset (and the wall time covered). */
export function frameCost() {
  return { frames, steps, wallMs: performance.now() - since, partsMs: Object.fromEntries(parts) };
}

/** Start counting afresh. */
export function resetFrameCost() {
  parts.clear();
  frames = 0;
  steps = 0;
  since = performance.now();
}
