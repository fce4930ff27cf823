// The per-frame stepping of www/stepper.js on a fake chain and a fake clock (no browser): work per
// frame is bounded in steps, and a step that became expensive overruns the frame's slice by about
// one step, not by a chunk sized for the cheap steps before it.

import { test } from 'node:test';
import assert from 'node:assert/strict';

let clock = 0;
Object.defineProperty(globalThis, 'performance', { value: { now: () => clock }, configurable: true });
const { runWithin } = await import('../../www/stepper.js');

/** A chain whose steps cost `cost()` ms of the fake clock each; records its chunk sizes. */
function fakeChain(cost) {
  return { chunks: [], steps: 0, run(k) { this.chunks.push(k); this.steps += k; clock += k * cost(); return k; } };
}
const guarded = (f) => f();

/** One frame's stepping; returns [steps run, fake ms spent]. */
function frame(lab, maxSteps, budgetMs = 8) {
  const start = clock;
  const ran = runWithin(lab, { maxSteps, budgetMs, guarded });
  return [ran, clock - start];
}

test('cheap steps: the frame runs all the steps it is allowed, in growing chunks', () => {
  const lab = fakeChain(() => 0.0001);
  const [ran] = frame(lab, 2000);
  assert.equal(ran, 2000);
  assert.equal(lab.chunks[0], 1, 'the first chunk of a frame is one step');
  for (let i = 1; i < lab.chunks.length; i += 1) assert.ok(lab.chunks[i] <= 4 * lab.chunks[i - 1], `chunk ${lab.chunks[i]} after ${lab.chunks[i - 1]}`);
});

test('the time slice stops a frame of costly steps; the cost is remembered for the next frame', () => {
  const lab = fakeChain(() => 0.5);
  const [ran, spent] = frame(lab, 2000);
  assert.ok(ran < 2000 && spent <= 8 + 4 * 0.5, `${ran} steps in ${spent} ms`);
  const [ran2, spent2] = frame(lab, 2000);
  assert.ok(ran2 >= 1 && spent2 <= 8 + 0.5, `next frame: ${ran2} steps in ${spent2} ms`);
});

test('steps that become 10⁴× dearer overrun the slice by about one step', () => {
  let cost = 0.001;
  const lab = fakeChain(() => cost);
  for (let i = 0; i < 5; i += 1) frame(lab, 20_000);
  cost = 10; // e.g. the minibatch slider pushed to N = 10⁶
  const [ran, spent] = frame(lab, 20_000);
  assert.equal(ran, 1);
  assert.equal(spent, 10);
});

test('done() and the step limit stop the frame; a chain that refuses steps ends it', () => {
  const lab = fakeChain(() => 0.001);
  let calls = 0;
  const ran = runWithin(lab, { maxSteps: 1000, budgetMs: 8, guarded, done: () => (calls += 1) > 2 });
  assert.equal(ran, 1 + 4);
  const stuck = { run: () => 0 };
  assert.equal(runWithin(stuck, { maxSteps: 1000, budgetMs: 8, guarded }), 0);
  assert.equal(runWithin(lab, { maxSteps: 0, budgetMs: 8, guarded }), 0);
});
