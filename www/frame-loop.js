// The animation loop's idle mode (issue 23, thirteenth round; BENCHMARKS.md "CI time, thirteenth
// round"): a paused page with no background job and nothing waiting to be drawn requests no
// animation frames. It had asked for one every 1/60 s regardless, each polling the jobs and the
// charts to find nothing to do (≈ 0.09 CPU s of Chromium per wall second of an idle page).
//
// The loop sleeps after a frame in which `busy()` is false, and wakes (a frame at once, then every
// frame until it is idle again) on any change: a user's input (the capture listeners below), a
// worker's message or a new job (www/jobs.js), a chart queued (www/charts.js), Play
// (www/playback.js). A change made another way (a test's `page.evaluate`, a timer this file does
// not know of) is seen at the next heartbeat: while asleep the loop still runs one frame every
// IDLE_HEARTBEAT_MS, so no change waits longer than that for its frame.
// Leaf module (imports nothing), so that jobs.js, charts.js and playback.js can wake the loop.

/** A sleeping loop's frame interval: 4 frames a second instead of 60. */
export const IDLE_HEARTBEAT_MS = 250;

const loop = { frame: null, busy: () => true, sleeping: false, timer: 0 };
/** Frames the loop ran, heartbeats while asleep, wakes by a change, and sleeps (the idle test reads them). */
const counts = { frames: 0, heartbeats: 0, wakes: 0, sleeps: 0 };

/** Start the loop: `frame()` once per animation frame while `busy()`, else at the idle heartbeat. */
export function startLoop(frame, busy) {
  loop.frame = frame;
  loop.busy = busy;
  for (const type of ['input', 'change', 'click', 'keydown', 'pointerdown', 'pointermove', 'wheel', 'focusin']) {
    document.addEventListener(type, wake, { capture: true, passive: true });
  }
  for (const type of ['resize', 'popstate', 'hashchange']) window.addEventListener(type, wake);
  document.addEventListener('visibilitychange', wake);
  requestAnimationFrame(run);
}

function run(now) {
  counts.frames += 1;
  loop.frame(now);
  if (loop.busy()) {
    requestAnimationFrame(run);
  } else {
    loop.sleeping = true;
    counts.sleeps += 1;
    loop.timer = setTimeout(heartbeat, IDLE_HEARTBEAT_MS);
  }
}

function heartbeat() {
  loop.timer = 0;
  loop.sleeping = false;
  counts.heartbeats += 1;
  requestAnimationFrame(run);
}

/** Something changed: a sleeping loop runs a frame at once and every frame until it is idle again. */
export function wake() {
  if (!loop.sleeping) return;
  clearTimeout(loop.timer);
  loop.timer = 0;
  loop.sleeping = false;
  counts.wakes += 1;
  requestAnimationFrame(run);
}

/** The loop's state for the tests: `{ sleeping, frames, heartbeats, wakes, sleeps }`. */
export function loopState() {
  return { sleeping: loop.sleeping, ...counts };
}
