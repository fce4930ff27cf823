// Foundation slice in a real browser: loads cleanly, play advances the chain, the step-size
// slider reaches the sampler, the layers are drawn, and a screenshot is kept as an artifact.
// Tests that drive the chain themselves open the page with reduced motion (it then does not
// start playing on load).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, paintedPixels, waitForPainted, parseShown } from './harness.mjs';

const env = useBrowser();

test('page loads with no console errors and draws the static layer', async () => {
  const { page, errors, outsideRequests } = await openApp(env.browser, env.server.url);
  await waitForPainted(page, '#static-layer', 1000); // axes and contours drawn
  const options = await page.$$eval('#sampler option', (os) => os.map((o) => o.value));
  assert.ok(options.includes('sgld'), `sampler dropdown from the registry: ${options}`);
  assert.deepEqual(errors, []);
  assert.deepEqual(outsideRequests, []);
  await page.close();
});

test('play increases the sample count and draws samples', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  const before = await page.evaluate(() => window.sgviz.state().n_samples);
  assert.equal(before, 0);
  assert.equal(await paintedPixels(page, '#density-layer'), 0, 'no samples before play');
  await page.click('#play');
  // A state, not a speed: 500 samples take well under a second; the limit only catches a hang
  // (generous for a loaded 2-core CI machine, issue 15).
  await page.waitForFunction(() => window.sgviz.state().n_samples > 500, null, { timeout: 120_000 });
  await page.click('#play');
  const shown = parseShown(await page.textContent('#count-samples'));
  assert.ok(shown > 500, `counter on the page: ${shown}`);
  await waitForPainted(page, '#density-layer', 200); // density image drawn
  await waitForPainted(page, '#overlay-layer', 20); // current point and trail drawn
  await screenshot(page, 'foundation-running');
  assert.deepEqual(errors, []);
  await page.close();
});

test('step button advances exactly one step', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  await page.click('#step');
  await page.click('#step');
  assert.equal(await page.evaluate(() => window.sgviz.state().steps), 2);
  await page.keyboard.press('r');
  assert.equal(await page.evaluate(() => window.sgviz.state().steps), 0, 'r resets');
  assert.deepEqual(errors, []);
  await page.close();
});

test('moving the step-size slider changes the sampler step size', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  const initial = await page.evaluate(() => window.sgviz.state().sampler_params.step_size);
  await page.focus('#param-step_size');
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
  const after = await page.evaluate(() => window.sgviz.state().sampler_params.step_size);
  assert.ok(after > initial * 1.5, `step size moved from ${initial} to ${after}`);
  const shown = parseShown(await page.textContent('#param-step_size-value'));
  assert.ok(Math.abs(shown - after) / after < 0.01, `displayed value ${shown} matches ${after}`);
  // A step size far too large diverges: the chain stops with a message and the page stays alive.
  await page.focus('#param-step_size');
  await page.keyboard.press('End');
  await page.click('#play');
  await page.waitForFunction(() => window.sgviz.state().diverged !== null, null, { timeout: 120_000 }); // a hang guard, as above
  // The status line is redrawn on the page's next refresh (numbers at 5 Hz while playing): wait for
  // it, on state, then read it.
  await page.waitForFunction(() => document.querySelector('#status').textContent !== '', null, { timeout: 30_000 });
  const status = await page.textContent('#status');
  assert.match(status, /reduce ε/);
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  await page.click('#reset');
  await page.focus('#param-step_size');
  await page.keyboard.press('Home');
  await page.click('#step');
  assert.equal(await page.evaluate(() => window.sgviz.state().diverged), null, 'reset and a small step recover');
  await screenshot(page, 'foundation-diverged-then-reset');
  assert.deepEqual(errors, []);
  await page.close();
});
