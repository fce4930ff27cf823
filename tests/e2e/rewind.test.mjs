// Rewind (issue 24): seek(1000) after 3,000 steps reproduces the state recorded at step 1,000
// exactly (moments, every retained sample, the current point's pixel), in the page; the scrubber
// follows the run and the arrow keys step back and forth while paused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, frames } from './harness.mjs';

const env = useBrowser();

/** What the page shows of the chain, read from the core (exact numbers as text). */
const record = (page) => page.evaluate(() => {
  const lab = window.sgviz.app.lab;
  const state = JSON.parse(lab.state_json());
  return JSON.stringify({ steps: lab.timeline_position()[0], state, csv: lab.samples_long_csv(), point: [...lab.position_pixel()], trail: [...lab.trail(50)] });
});

test('seek(1000) after 3,000 steps reproduces step 1,000 exactly; the scrubber and arrow keys follow', async () => {
  // Minibatch SGLD on logistic regression (N = 2,000, n = 10): the replay must draw the same minibatches.
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg&sampler=sgld&seed=4&p.n_points=2000&p.batch_size=10', { reducedMotion: true });
  await page.evaluate(() => window.sgviz.app.lab.run(1000));
  const at1000 = await record(page);
  await page.evaluate(() => window.sgviz.app.lab.run(2000));
  const at3000 = await record(page);
  assert.notEqual(at1000, at3000);
  assert.equal(await page.evaluate(() => window.sgviz.seek(1000)), 1000);
  assert.equal(await record(page), at1000, 'the state at step 1,000');
  await frames(page, 3);
  assert.equal(await page.$eval('#rewind', (r) => [r.min, r.max, r.value].join(' ')), '0 3000 1000');
  assert.match(await page.textContent('#rewind-step'), /step 1,?000 of 3,?000/);

  // Paused: ← goes one step back, → one forward, back to the same state.
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => window.sgviz.app.lab.timeline_position()[0] === 999);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.sgviz.app.lab.timeline_position()[0] === 1000);
  assert.equal(await record(page), at1000, 'back and forth by one step');

  // The scrubber's end goes to step 3,000 again, exactly.
  await page.$eval('#rewind', (r) => { r.value = r.max; r.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForFunction(() => window.sgviz.app.lab.timeline_position()[0] === 3000);
  assert.equal(await record(page), at3000, 'the end of the run');
  await page.evaluate(() => window.sgviz.seek(1000));
  await frames(page, 3);
  await screenshot(page, 'rewind-step-1000', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('in compare mode, going back takes the compared chain to the same gradient budget and says so', async () => {
  // SGLD (n = 10 per step) against exact MALA (N = 2,000 per step): equal budget, different step counts.
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg&sampler=sgld&seed=4&p.n_points=2000&p.batch_size=10&compare=mala', { reducedMotion: true });
  await page.waitForFunction(() => window.sgviz.app.compare?.lab);
  const compared = () => page.evaluate(() => {
    const lab = window.sgviz.app.compare.lab;
    return JSON.stringify({ steps: lab.timeline_position()[0], csv: lab.samples_long_csv(), point: [...lab.position_pixel()] });
  });
  // The compared chain kept at the main chain's budget as the frame loop does: MALA uses 2,000
  // gradients per step, SGLD 10, so 2,000 SGLD steps = 10 MALA steps.
  const followTo = () => page.evaluate(() => {
    const { app } = window.sgviz;
    app.compare.lab.seek(Math.floor(app.lab.grad_evals() / 2000));
  });
  await page.evaluate(() => window.sgviz.app.lab.run(2000));
  await followTo();
  const at2000 = await compared(page);
  assert.equal(JSON.parse(at2000).steps, 10, 'ten MALA steps at 20,000 gradients');
  await page.evaluate(() => window.sgviz.app.lab.run(4000));
  await followTo();
  assert.equal(JSON.parse(await compared(page)).steps, 30);
  await page.evaluate(() => window.sgviz.seek(2000));
  assert.equal(await compared(page), at2000, 'the compared chain is back where it was at the same budget, exactly');
  assert.match(await page.textContent('#rewind-note'), /Replayed from step 0 .* to step 2,000, the compared chain to the same gradient budget/);
  await screenshot(page, 'rewind-compare', { fullPage: false });
  // Run on to the end of the run: the note goes with its cause.
  await page.evaluate(() => window.sgviz.seek(6000));
  await page.waitForFunction(() => document.querySelector('#rewind-note').textContent === '');
  assert.deepEqual(errors, []);
  await page.close();
});
