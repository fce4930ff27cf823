// The pair selectors of the 2-D panel in a real browser (issue 25 moved their wiring: pair-controls.js
// no longer imports chain.js, main.js hands it the chain's setPair). Choosing a coordinate, and the
// "most correlated" preset, change the displayed pair in the core's state and in the selects; the
// same coordinate twice is refused with a message naming the controls, and the pair stays; the
// message goes when its cause does (two different coordinates chosen, or the selectors reset).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, frames } from './harness.mjs';

const env = useBrowser();

const state = (page) => page.evaluate(() => window.sgviz.state());

test('the pair selectors and the "most correlated" preset change the displayed pair', async () => {
  // The SGFS digits target: 21 coordinates, so the pair controls are shown.
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg_sgfs&sampler=sgld', { reducedMotion: true });
  // The preset reads the truth once it is known: wait for it so the preset cannot change under us.
  await page.waitForFunction(() => !window.sgviz.app.truthPending, null, { timeout: 60_000 });
  await page.evaluate(() => window.sgviz.app.lab.run(500));
  await frames(page, 2);
  const first = await state(page);
  assert.ok(first.dim > 2, `a target with more than two coordinates (dim ${first.dim})`);
  assert.deepEqual(first.pair, [0, 1], 'the page starts on the first two coordinates');
  assert.equal(await page.isVisible('#pair-controls'), true, 'the pair controls are shown for dim > 2');

  await page.selectOption('#pair-x', '3');
  await page.waitForFunction(() => window.sgviz.state().pair.join() === '3,1');
  await frames(page, 2);
  assert.equal(await page.inputValue('#pair-x'), '3', 'the select keeps the chosen coordinate');

  // The same coordinate on both axes is refused; the pair stays and the status says what to do.
  await page.selectOption('#pair-y', '3');
  assert.deepEqual((await state(page)).pair, [3, 1], 'a refused choice changes nothing');
  assert.match(await page.textContent('#status'), /same coordinate.*x and y selectors/);
  // The message goes with its cause: a different coordinate on y is taken and the status is empty.
  await page.selectOption('#pair-y', '2');
  await page.waitForFunction(() => window.sgviz.state().pair.join() === '3,2');
  assert.equal(await page.textContent('#status'), '', 'the refusal is gone once the coordinates differ');
  // Refused again, then the focus leaves the selectors: they show the chain's pair, the message goes.
  await page.focus('#pair-x');
  await page.selectOption('#pair-x', '2');
  assert.match(await page.textContent('#status'), /same coordinate/);
  await page.$eval('#pair-x', (select) => select.blur());
  await page.waitForFunction(() => document.querySelector('#status').textContent === '' && document.querySelector('#pair-x').value === '3', null, { timeout: 30_000 });

  await page.click('#pair-correlated');
  await page.waitForFunction(() => window.sgviz.state().pair.join() !== '3,2');
  const [i, j] = (await state(page)).pair;
  assert.ok(i !== j && i < first.dim && j < first.dim, `the preset picked two different coordinates (${i}, ${j})`);
  const expected = await page.evaluate(() => window.sgviz.app.lab.preset_pair('most_correlated'));
  assert.deepEqual([i, j], Array.from(expected), 'the panel shows the pair the core calls most correlated');
  await frames(page, 2);
  assert.deepEqual([await page.inputValue('#pair-x'), await page.inputValue('#pair-y')], [String(i), String(j)], 'the selects follow the preset');
  await screenshot(page, 'pairs-most-correlated', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
