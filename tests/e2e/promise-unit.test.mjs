// Issue 21 (item 5): the 5,000-sample promise counts events for the bouncy family (README "What the
// warnings promise"; src/chain/promise_count.rs), while their recorded "samples" are the path drawn
// at equal times. The quick counter beside E1/E2, where the promise is read, says "events" and
// shows the chain's event count since the last slider move for BPS, and "samples" for SGLD. Reads
// the DOM against the state; waits on state, never on time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();

/** The quick counter's label and number as drawn. */
const quick = (page) => page.evaluate(() => ({ label: document.getElementById('quick-samples-label').textContent, value: Number(document.getElementById('quick-samples').textContent.replace(/[^0-9]/g, '')) }));

test('BPS: the quick counter beside E1/E2 counts events, not path points', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=bps');
  await page.waitForFunction(() => window.sgviz.state().steps >= 200, null, { timeout: 120_000 });
  await page.evaluate(() => { if (window.sgviz.app.playing) document.querySelector('#play').click(); });
  await page.waitForFunction(() => document.getElementById('quick-samples-label').textContent === 'events', null, { timeout: 30_000 });
  const state = await page.evaluate(() => window.sgviz.state());
  // On the Gaussian toy a BPS event draws many path points: the two counts differ.
  assert.ok(state.n_samples > state.promise_count, `points ${state.n_samples}, events ${state.promise_count}`);
  await page.waitForFunction(() => { const s = window.sgviz.state(); return Number(document.getElementById('quick-samples').textContent.replace(/[^0-9]/g, '')) === s.promise_count; }, null, { timeout: 30_000 });
  const shown = await quick(page);
  assert.equal(shown.label, 'events');
  await screenshot(page, 'promise-unit-bps-events', { fullPage: false });
  // Issue 26, next round: lipSBPS showed "events 8,011" beside the scrubber's "step 8,226" with
  // nothing to say why (its count starts after the burn-in). After "Discard burn-in" (d) the events
  // count from there, and the label says from which step: the scrubber's step less the events.
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('d'); // "Discard burn-in" (its button sits in the folded advanced controls)
  await page.click('#step');
  await page.waitForFunction(() => /^events since step /.test(document.getElementById('quick-samples-label').textContent), null, { timeout: 30_000 });
  const after = await page.evaluate(() => ({ label: document.getElementById('quick-samples-label').textContent, scrubber: document.getElementById('rewind-step').textContent }));
  const number = (text) => Number(text.replace(/[^0-9]/g, ''));
  const since = number(after.label);
  const scrubbed = number(after.scrubber.split(' of ')[0]);
  const events = (await quick(page)).value;
  assert.ok(events > 0 && since > 0 && since + events === scrubbed, `label '${after.label}', ${events} events, scrubber '${after.scrubber}'`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('SGLD: the quick counter says samples and shows the samples count', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld');
  await page.waitForFunction(() => window.sgviz.state().n_samples >= 200, null, { timeout: 120_000 });
  await page.evaluate(() => { if (window.sgviz.app.playing) document.querySelector('#play').click(); });
  await page.waitForFunction(() => { const s = window.sgviz.state(); return document.getElementById('quick-samples-label').textContent === 'samples' && Number(document.getElementById('quick-samples').textContent.replace(/[^0-9]/g, '')) === s.n_samples; }, null, { timeout: 30_000 });
  assert.deepEqual(errors, []);
  await page.close();
});
