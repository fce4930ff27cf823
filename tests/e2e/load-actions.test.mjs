// Issue 26: what the user does while a preset loads over several frames (chain.js
// `rebuildLabInSteps`, www/adoption.js) wins over the load. The load is held open at its first
// frame (the page's requestAnimationFrame callbacks are kept back until released), so the user's
// real mouse input lands inside the load whatever the machine's speed: a Play/Pause press during
// the load decides whether the new chain plays (it was overridden by the load's "play"), and a
// slider of the chain being replaced is disabled visibly (it acted on the old chain, and its value
// leaked into the preset's settings when the new chain was built after it). The oracle for the
// settings is the same preset loaded with nobody touching anything. Waits are on the page's
// state, never the clock.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, waitLoaded } from './harness.mjs';

const env = useBrowser();
/** Generous limit for a loaded 2-core machine (a hang guard, not a speed requirement). */
const LIMIT_MS = 120_000;
/** A preset on the page's default target and sampler (so the default chain's sliders are the ones it sets), built here. */
const PRESET = 'sgld-gaussian-bias';
/** Frames after the load that the test reads: the user's pause held and the new chain stood still. */
const FRAMES_AFTER_LOAD = 10;

/** Keep back the page's animation-frame callbacks while `window.__hold` is set (the load waits for a frame). */
function installFrameGate() {
  const raf = window.requestAnimationFrame.bind(window);
  window.__held = [];
  window.requestAnimationFrame = (callback) => {
    if (window.__hold) { window.__held.push(callback); return 0; }
    return raf(callback);
  };
  window.__release = () => {
    window.__hold = false;
    for (const callback of window.__held.splice(0)) raf(callback);
  };
}

/** Choose `preset` from the menu with the page's frames held: the load starts and waits at its first frame. */
function startHeldLoad(preset) {
  window.__hold = true;
  const select = document.getElementById('preset');
  select.value = preset;
  select.dispatchEvent(new Event('change'));
  const { app } = window.sgviz;
  return { loading: app.loadingInSteps === true, building: app.building, play: document.getElementById('play').textContent };
}

/**
 * Record, each frame from now on, whether a load is in progress, which chain is shown and its steps,
 * until ten frames after the load (what the test reads). It stopped after 400 frames of any kind
 * (6.7 s at 60 fps): a load whose truth job outlasts that on a slow machine left fewer than ten
 * frames after it, and the wait for them hung to its limit (issue 23, stop 50 audit).
 */
function recordFrames(framesAfterLoad) {
  const { app } = window.sgviz;
  const ids = new WeakMap();
  let next = 1;
  const id = (o) => { if (!ids.has(o)) ids.set(o, next++); return ids.get(o); };
  window.__frames = [];
  const record = () => {
    window.__frames.push({ loading: Boolean(app.loadingInSteps), lab: id(app.lab), steps: app.lab.steps(), playing: app.playing });
    if (window.__frames.filter((f) => !f.loading).length < framesAfterLoad) requestAnimationFrame(record);
  };
  requestAnimationFrame(record);
}

/** The chain's settings as a comparable record: explicit values, resolved sampler and target parameters. */
function settings() {
  const { app } = window.sgviz;
  const state = window.sgviz.state();
  return { explicit: { ...app.explicit }, sampler: state.sampler_params, target: state.target_params };
}

test('during a preset load Pause wins and the old chain\'s sliders are disabled visibly; the settings are the preset\'s', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: { width: 1400, height: 900 } });
  // The oracle: the preset loaded with nobody touching anything, then back to the default chain.
  await page.selectOption('#preset', PRESET);
  await waitLoaded(page, LIMIT_MS);
  const reference = await page.evaluate(settings);
  await page.selectOption('#sampler', 'sghmc');
  await page.selectOption('#sampler', 'sgld');
  await page.waitForFunction(() => !window.sgviz.app.building && document.getElementById('param-batch_size'), null, { timeout: LIMIT_MS });
  const before = await page.evaluate(() => ({ batch: window.sgviz.state().sampler_params.batch_size, playing: window.sgviz.app.playing }));
  assert.equal(before.playing, true, 'the page plays before the load');

  await page.evaluate(installFrameGate);
  const started = await page.evaluate(startHeldLoad, PRESET);
  assert.ok(started.loading && started.building, `the load is in progress and held: ${JSON.stringify(started)}`);

  // While the load is held: the sliders of the chain on screen are inert and marked; Step and Reset disabled.
  const held = await page.evaluate(() => ({
    inert: ['primary-params', 'sampler-params', 'target-params'].map((id) => document.getElementById(id).inert),
    marked: document.getElementById('primary-params').classList.contains('held'),
    opacity: Number(getComputedStyle(document.getElementById('primary-params')).opacity),
    buttons: ['step', 'reset', 'discard', 'slow-motion', 'rewind'].map((id) => document.getElementById(id).disabled),
    stepOpacity: Number(getComputedStyle(document.getElementById('step')).opacity),
    play: document.getElementById('play').disabled,
  }));
  assert.deepEqual(held.inert, [true, true, true], 'the parameter groups are inert during the load');
  assert.ok(held.marked && held.opacity < 0.6, `the held controls look disabled (opacity ${held.opacity})`);
  assert.deepEqual(held.buttons, [true, true, true, true, true], 'Step, Reset, Discard, Slow motion and the rewind scrubber are disabled during the load');
  assert.ok(held.stepOpacity < 0.6, `the disabled Step button looks disabled (opacity ${held.stepOpacity})`);
  assert.equal(held.play, false, 'Play/Pause stays live');
  await screenshot(page, 'load-actions-held', { fullPage: false, framesHeld: true });

  // A real drag attempt on the batch-size slider (far right of its track) and a real Pause press.
  const box = await page.locator('#param-batch_size').boundingBox();
  await page.mouse.click(box.x + box.width * 0.9, box.y + box.height / 2);
  for (let presses = 0; presses < 2; presses++) {
    if ((await page.textContent('#play')) === 'Play') break;
    await page.click('#play');
  }
  assert.equal(await page.textContent('#play'), 'Play', 'the page shows itself paused after the press');
  const during = await page.evaluate(() => ({ batch: window.sgviz.state().sampler_params.batch_size, explicit: { ...window.sgviz.app.explicit }, loading: window.sgviz.app.loadingInSteps }));
  assert.equal(during.loading, true, 'the actions happened inside the load');
  assert.equal(during.batch, before.batch, 'the slider did not act on the chain being replaced');

  await page.evaluate(recordFrames, FRAMES_AFTER_LOAD);
  await page.evaluate(() => window.__release());
  await waitLoaded(page, LIMIT_MS);
  // Ten frames after the load: the user's pause held, and the new chain did not run.
  await page.waitForFunction((n) => window.__frames.filter((f) => !f.loading).length >= n, FRAMES_AFTER_LOAD, { timeout: LIMIT_MS, polling: 'raf' });
  const frames = await page.evaluate(() => window.__frames);
  const loadingFrames = frames.filter((f) => f.loading);
  assert.ok(loadingFrames.every((f) => f.lab === loadingFrames[0].lab && f.steps === loadingFrames[0].steps), `the chain shown during the load stood still: ${JSON.stringify(loadingFrames)}`);
  const after = frames.filter((f) => !f.loading);
  assert.ok(after.every((f) => !f.playing && f.steps === 0), `the new chain stays paused, as the user chose: ${JSON.stringify(after.slice(0, 12))}`);
  assert.equal(await page.textContent('#play'), 'Play');
  assert.deepEqual(await page.evaluate(settings), reference, 'the new chain has the preset\'s settings, as when loaded untouched');
  const released = await page.evaluate(() => ({ inert: document.getElementById('primary-params').inert, step: document.getElementById('step').disabled, marked: document.getElementById('primary-params').classList.contains('held') }));
  assert.deepEqual(released, { inert: false, step: false, marked: false }, 'the controls are live again after the load');
  await screenshot(page, 'load-actions-after', { fullPage: false });

  // Without a press the load plays, as before.
  await page.selectOption('#preset', PRESET);
  await waitLoaded(page, LIMIT_MS);
  await page.waitForFunction(() => window.sgviz.app.playing && window.sgviz.state().steps > 0, null, { timeout: LIMIT_MS });
  assert.deepEqual(errors, []);
  await page.close();
});
