// A stochastic-gradient chain that settles far outside the posterior's mass is shown as a runaway
// (issue 21, s49; src/chain/divergence.rs `watch_for_runaway`, docs/diagnostics.md §7 "s49"). SGHMC
// at the learning rate's maximum on the SGFS digits target (21 coordinates) stays ≈ 10³ truth sd
// away, finite: before s49 the page's only sign was the "far" E2 advice. Once the page's MALA
// reference is done, the advice list opens with the runaway, naming η and its slider, with the
// "Discard since then" button; the chain has not diverged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, frames } from './harness.mjs';

const env = useBrowser();

test('SGHMC at η = 0.82 on logreg_sgfs: the runaway is shown and names the learning rate', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg_sgfs&sampler=sghmc&p.sghmc_lr=0.8206', { reducedMotion: true });
  await page.waitForFunction(() => !window.sgviz.app.truthPending, null, { timeout: 120_000 });
  await page.click('#play');
  await page.waitForFunction(() => window.sgviz.state().runaway, null, { timeout: 60_000 });
  await page.click('#play');
  await frames(page, 3);
  const state = await page.evaluate(() => window.sgviz.state());
  assert.equal(state.diverged, null, 'the chain has not diverged');
  assert.ok(state.runaway && /reduce η \(the “Learning rate” slider\)/.test(state.runaway.message), `runaway: ${JSON.stringify(state.runaway)}`);
  await page.waitForSelector('#discard-since-runaway', { state: 'visible', timeout: 30_000 });
  const advice = await page.textContent('#advice');
  assert.match(advice, /Runaway: .*reduce η/, advice);
  const label = (await page.textContent('#discard-since-runaway')).trim();
  assert.ok(state.runaway.message.includes(`"${label}"`), `the message names the button as it reads, "${label}": ${state.runaway.message}`);
  const box = await page.locator('#discard-since-runaway').boundingBox();
  const viewport = page.viewportSize();
  assert.ok(box && box.width > 0 && box.y + box.height <= viewport.height * 3, `the button is laid out: ${JSON.stringify(box)}`);
  await screenshot(page, 'runaway-sghmc-logreg-sgfs', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
