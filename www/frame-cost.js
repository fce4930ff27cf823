// Where a frame's main-thread time goes: wall milliseconds of each part of the frame loop
// (background-job ticks, sampler steps, the 2-D panel and numbers, the staggered secondary charts,
// the worker-computed charts), summed since the last reset, and the steps run per wall second.
// Read by bench/frame-cost.mjs through window.sgviz.frameCost(); it decides nothing.
// Beside the sums, the last RECORDS frames one by one (each part's wall ms in that frame), so a
// bench can say which part makes the slow frames slow (bench/class-time.mjs, bench/frame-trace.mjs).

const parts = new Map();
let frames = 0;
let steps = 0;
let since = performance.now();
/** Frames kept one by one (a ring: 20 s at 60 fps). */
const RECORDS = 1200;
let records = [];
let current = null;

/** Run `work` and add its wall time to `part`; returns what `work` returns. */
export function timed(part, work) {
  const started = performance.now();
  try {
    return work();
  } finally {
    const ms = performance.now() - started;
    parts.set(part, (parts.get(part) || 0) + ms);
    if (current) current[part] = (current[part] || 0) + ms;
  }
}

/** Count the main chain's steps run by the frame loop. */
export function countSteps(n) {
  steps += n;
}

/** Count one animation frame; its parts are recorded until the next one. */
export function countFrame() {
  frames += 1;
  current = {};
  records.push(current);
  if (records.length > RECORDS) records.shift();
}

/** The last frames' parts (wall ms of each part in each frame, oldest first), since the last reset. */
export function frameRecords() {
  return records.map((r) => ({ ...r }));
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
  records = [];
  current = null;
}
