// Bounded browser memory (issue 8): the page plays for a while, switching samplers every
// SWITCH_SECONDS, and the JS heap (performance.memory.usedJSHeapSize, precise with
// --enable-precise-memory-info, measured right after a forced GC) and the wasm linear memory must
// not grow beyond stated bounds over the run.
//
// Duration: SGVIZ_SOAK_SECONDS (default 6 in the regular suite, to keep `make test` under 10 minutes; `make soak` runs 600).
// Either way the run makes at least two full sampler cycles (12 switches, one every 30 frames or
// more), so the bounds below see 6 switches after the reference: what a per-switch leak is caught
// by does not depend on the length. A per-frame leak is caught in proportion to the frames after
// the reference: in `make test` 6 × 30 = 180 frames, from ≈ 23 KB per frame (4 MiB / 180) on (360
// frames and ≈ 11.6 KB before issue 23's eighth round cut the run from 12 s to 6 s, 900 frames and
// ≈ 4.7 KB before the fifth cut it from 30 s); in `make soak` 24 × 1,200 = 28,800 frames, from
// ≈ 146 bytes per frame.
// Bounds, relative to the values after the first full sampler cycle (all samplers' buffers have
// been allocated once by then):
// - JS heap: + 4 MiB. The page's JS state is bounded (600 frame times, one Lab handle, DOM of a
//   fixed size); 4 MiB covers V8's own caches and fragmentation, while a leak of one retained
//   object per frame (≥ 3600 frames per minute at 60 fps) of even ~100 bytes per frame over 10
//   minutes, or one leaked Lab/JSON string per switch, exceeds it.
// - wasm memory: + 8 MiB. Linear memory never shrinks, so it records the high-water mark; each
//   Lab holds a 10⁵-point ring (1.6 MB in 2-D) plus a density image, so leaking the Lab of every
//   switch (≥ 10 switches per run) exceeds 8 MiB.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openApp, frames } from './harness.mjs';

const SECONDS = Number(process.env.SGVIZ_SOAK_SECONDS || 6);
const SWITCH_SECONDS = Math.max(0.5, Math.min(20, SECONDS / 12));
const SAMPLERS = ['sgld', 'sghmc', 'mala', 'hmc', 'bps', 'sbps'];
const JS_HEAP_SLACK = 4 * 2 ** 20;
const WASM_SLACK = 8 * 2 ** 20;

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser(['--enable-precise-memory-info', '--js-flags=--expose-gc']);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function measure(page) {
  return page.evaluate(() => {
    window.gc();
    return { js: performance.memory.usedJSHeapSize, wasm: window.sgviz.app.panel.memory.buffer.byteLength };
  });
}

// The test's timeout is a hang guard sized for a loaded machine, not a speed requirement: at load
// ≈ 30 on 2 cores the page drew fewer than 9 frames a second (the 30 s version timed out after
// 210 s on 2026-11-26 with 3 × SECONDS + 120).
test(`JS heap and wasm memory stay flat over ${SECONDS} s of play with sampler switches`, { timeout: (10 * SECONDS + 240) * 1000 }, async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.evaluate(() => { window.sgviz.app.speed = 2000; });
  await page.click('#play');
  // The run is counted in the page's own animation frames (60 a second at full speed), never
  // in wall-clock time: a loaded machine makes it longer, not shorter.
  const switches = Math.max(2 * SAMPLERS.length, Math.round(SECONDS / SWITCH_SECONDS));
  const framesPerSwitch = Math.round(SWITCH_SECONDS * 60);
  let reference = null;
  const trace = [];
  for (let k = 0; k < switches; k++) {
    await page.selectOption('#sampler', SAMPLERS[k % SAMPLERS.length]);
    if (!(await page.evaluate(() => window.sgviz.app.playing))) await page.click('#play');
    await frames(page, framesPerSwitch);
    const m = await measure(page);
    trace.push({ t: Math.round(((k + 1) * framesPerSwitch) / 60), ...m, samples: await page.evaluate(() => window.sgviz.state().n_samples) });
    if (k + 1 === SAMPLERS.length) reference = m;
  }
  const last = trace[trace.length - 1];
  reference ??= trace[0];
  const summary = trace.map((r) => `${r.t}s of frames js=${(r.js / 2 ** 20).toFixed(2)}MiB wasm=${(r.wasm / 2 ** 20).toFixed(1)}MiB samples=${r.samples}`).join('\n');
  console.log(summary);
  assert.ok(trace.some((r) => r.samples > 1000), 'the page actually sampled');
  assert.ok(last.js <= reference.js + JS_HEAP_SLACK, `JS heap grew from ${reference.js} to ${last.js}\n${summary}`);
  assert.ok(last.wasm <= reference.wasm + WASM_SLACK, `wasm memory grew from ${reference.wasm} to ${last.wasm}\n${summary}`);
  assert.deepEqual(errors, []);
  await page.close();
});
