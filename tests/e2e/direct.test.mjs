// Direct manipulation in a real browser: dragging the current point (mouse, and touch through
// pointer events) restarts the chain at the drop point in data coordinates, shown as a jump in the
// trace; slow motion draws one SGLD / SGHMC / SGFS step as its parts, and the arrows the page draws
// are the sampler's own parts, which sum to the step the state reports.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();

const state = (page) => page.evaluate(() => window.sgviz.state());

/** CSS page coordinates of a canvas backing pixel of the main overlay. */
async function cssPoint(page, [px, py]) {
  return page.$eval('#overlay-layer', (c, [x, y]) => {
    const r = c.getBoundingClientRect();
    return [r.left + x * r.width / c.width, r.top + y * r.height / c.height];
  }, [px, py]);
}

test('dragging the current point restarts the chain at the drop point (mouse and touch)', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld', { reducedMotion: true });
  await page.evaluate(() => window.sgviz.app.lab.run(2000));
  await page.evaluate(async () => (await import('./www/view.js')).draw());
  const before = await state(page);
  const from = await cssPoint(page, await page.evaluate(() => window.sgviz.app.lab.position_pixel()));
  const frame = await page.evaluate(() => window.sgviz.app.lab.plot_frame());
  // Drop a quarter of the frame in from its top-left corner.
  const dropPixel = [frame[0] + frame[2] / 4, frame[1] + frame[3] / 4];
  const to = await cssPoint(page, dropPixel);
  await page.mouse.move(from[0], from[1]);
  await page.mouse.down();
  await page.mouse.move((from[0] + to[0]) / 2, (from[1] + to[1]) / 2, { steps: 4 });
  await page.mouse.move(to[0], to[1], { steps: 4 });
  await page.mouse.up();
  const after = await state(page);
  assert.deepEqual(after.restarts, [before.n_recorded], 'the restart is recorded at the current sample');
  assert.deepEqual(after.position, after.start, 'the chain sits at its new start');
  // The new start, mapped back to pixels, is the drop point (to the pixel the mouse could hit).
  const back = await page.evaluate(() => window.sgviz.app.lab.position_pixel());
  const scale = await page.$eval('#overlay-layer', (c) => c.width / c.getBoundingClientRect().width);
  assert.ok(Math.hypot(back[0] - dropPixel[0], back[1] - dropPixel[1]) <= 1.5 * scale, `dropped at ${dropPixel}, chain at pixel ${back}`);
  // In data coordinates: the drop is up-left of the centre, so x is below and y above the view's middle.
  assert.ok(after.position[0] < 0 && after.position[1] > 0, `data point ${after.position} is up-left of the centred Gaussian`);
  // The trace shows the jump: the first sample after the restart is near the drop point.
  await page.evaluate(() => window.sgviz.app.lab.run(1));
  const next = await state(page);
  assert.equal(next.n_recorded, before.n_recorded + 1);
  // Touch: a drag by pointer events with pointerType "touch" from the point to the centre of the frame.
  const centre = [frame[0] + frame[2] / 2, frame[1] + frame[3] / 2];
  const touched = await page.evaluate(([target]) => {
    const canvas = document.querySelector('#overlay-layer');
    const r = canvas.getBoundingClientRect();
    const css = ([x, y]) => [r.left + x * r.width / canvas.width, r.top + y * r.height / canvas.height];
    const [sx, sy] = css(window.sgviz.app.lab.position_pixel());
    const [tx, ty] = css(target);
    const fire = (type, x, y) => canvas.dispatchEvent(new PointerEvent(type, { pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y, bubbles: true, cancelable: true }));
    fire('pointerdown', sx, sy);
    fire('pointermove', (sx + tx) / 2, (sy + ty) / 2);
    fire('pointerup', tx, ty);
    return window.sgviz.app.lab.position_pixel();
  }, [centre]);
  assert.ok(Math.hypot(touched[0] - centre[0], touched[1] - centre[1]) <= 1, `touch drop at ${centre}, chain at ${touched}`);
  assert.equal((await state(page)).restarts.length, 2);
  // A press away from the point does not restart anything.
  await page.mouse.click(to[0] + 5, to[1] + 40);
  assert.equal((await state(page)).restarts.length, 2);
  await page.evaluate(() => window.sgviz.app.lab.run(500));
  await page.evaluate(async () => { const v = await import('./www/view.js'); v.draw(); v.drawCharts(); });
  await screenshot(page, 'direct-drag');
  assert.deepEqual(errors, []);
  await page.close();
});

test('slow motion draws the sampler\'s own step parts, which sum to the step', async () => {
  for (const [sampler, names] of [['sgld', ['drift', 'minibatch_noise', 'injected_noise']], ['sghmc', ['momentum', 'drift', 'minibatch_noise', 'injected_noise']], ['sgfs_f', ['drift', 'minibatch_noise', 'injected_noise']]]) {
    const { page, errors } = await openApp(env.browser, env.server.url, `#target=gaussian&sampler=${sampler}&p.batch_size=10`, { reducedMotion: true });
    assert.equal(await page.isVisible('#slow-motion'), true, `${sampler}: slow motion offered`);
    await page.click('#slow-motion');
    assert.equal(await page.getAttribute('#slow-motion', 'aria-pressed'), 'true');
    for (let k = 0; k < 5; k++) {
      const before = (await state(page)).position;
      await page.click('#step');
      const after = (await state(page)).position;
      const parts = await page.evaluate(() => window.sgviz.app.stepParts);
      assert.deepEqual(parts.parts.map((p) => p.name), names, `${sampler}: the parts drawn`);
      assert.deepEqual(parts.start, before, `${sampler}: the arrows start at the previous point`);
      const sum = parts.start.map((s, j) => s + parts.parts.reduce((acc, p) => acc + p.vector[j], 0));
      const scale = Math.hypot(after[0] - before[0], after[1] - before[1]);
      for (let j = 0; j < sum.length; j++) assert.ok(Math.abs(sum[j] - after[j]) <= 1e-9 * scale + 1e-14, `${sampler}: the arrows sum to the step (${sum} vs ${after})`);
      // Head to tail in pixels: each arrow starts where the previous ended; the last ends at the point.
      for (let i = 1; i < parts.parts.length; i++) assert.deepEqual(parts.parts[i].from, parts.parts[i - 1].to);
      const tip = parts.parts.at(-1).to;
      const point = await page.evaluate(() => window.sgviz.app.lab.position_pixel());
      assert.ok(Math.hypot(tip[0] - point[0], tip[1] - point[1]) < 1e-6, `${sampler}: the last arrow ends at the point`);
    }
    // Playing in slow motion advances one step per animation, the arrows growing in between.
    if (sampler === 'sgld') {
      // Playing in slow motion: one step per animation, its arrows growing (checked once).
      await page.click('#play');
      await page.waitForFunction(() => window.sgviz.state().steps >= 6 && window.sgviz.app.stepProgress > 0.5, null, { timeout: 60_000 });
      await page.click('#play');
    }
    await screenshot(page, `direct-slow-motion-${sampler}`, { fullPage: false });
    // Switching to a sampler without parts hides the toggle and stops recording.
    await page.selectOption('#sampler', 'mala');
    assert.equal(await page.isVisible('#slow-motion'), false);
    assert.equal(await page.evaluate(() => window.sgviz.app.slowMotion), false);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
