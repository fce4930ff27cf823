// "Run 4 chains" (issue 24): four chains from over-dispersed starts, as long as the run on screen,
// run in a worker; the page shows R̂, bulk/tail ESS and mean ± MCSE per coordinate. Early on the
// Welling–Teh mixture (2,000 steps: under 2 s at the default speed) the chains sit in different
// modes and R̂ > 1.1 is shown; on the Gaussian after 20 s of class time (20 steps a frame × 1,200
// frames) R̂ < 1.01. A setting change clears the result and says it is stale. Waits on state only.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, parseShown } from './harness.mjs';

const env = useBrowser();

/** Run the main chain to `steps`, press the button and wait for the worker's result. */
async function runChains(page, steps) {
  await page.evaluate((n) => window.sgviz.app.lab.run(n - window.sgviz.app.lab.timeline_position()[0]), steps);
  await page.click('#multichain-run');
  await page.waitForFunction(() => ['done', 'error'].includes(window.sgviz.multichain()?.status), null, { timeout: 240_000 });
  return page.evaluate(() => window.sgviz.multichain());
}

/** The R̂ column as the page shows it (the numbers a student reads). */
const shownRhats = async (page) => (await page.$$eval('#multichain-table tbody tr', (rows) => rows.map((r) => r.cells[1].textContent))).map(parseShown);

test('the mixture early on: the chains disagree and R̂ > 1.1 is shown, in red', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=mixture&sampler=sgld&seed=1', { reducedMotion: true });
  assert.equal(await page.evaluate(() => window.sgviz.multichain()), null, 'no result before the button');
  const result = await runChains(page, 2_000);
  assert.equal(result.status, 'done', JSON.stringify(result));
  assert.equal(result.chains, 4);
  assert.equal(result.steps, 2_000);
  const shown = await shownRhats(page);
  assert.equal(shown.length, 2);
  assert.ok(Math.max(...shown) > 1.1, `R̂ shown: ${shown}`);
  assert.ok(await page.isVisible('#multichain-table td.disagree'), 'the disagreeing R̂ is marked');
  assert.match(await page.textContent('#multichain-status'), /4 chains of 2,000 steps/);
  // The help opens on tap, like the other diagnostics.
  await page.click('.multichain-help details.diagnostic-help summary');
  assert.ok(await page.isVisible('.multichain-help details[open] p'));
  assert.match(await page.getAttribute('#multichain-table thead th:nth-child(2)', 'title'), /R̂/, 'the header explains itself on hover');
  await page.$eval('#multichain', (el) => el.scrollIntoView());
  await screenshot(page, 'multichain-mixture', { fullPage: false });
  // Every number is on one line inside the panel (no column pushed out of the side bar).
  const fit = await page.$eval('#multichain-table', (t) => [t.getBoundingClientRect().right, t.closest('.stats').getBoundingClientRect().right]);
  assert.ok(fit[0] <= fit[1] + 0.5, `table right ${fit[0]} vs panel ${fit[1]}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Gaussian after 20 s of class time: R̂ < 1.01, and a setting change clears the result', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&seed=1', { reducedMotion: true });
  const result = await runChains(page, 20 * 1_200);
  assert.equal(result.status, 'done', JSON.stringify(result));
  const shown = await shownRhats(page);
  assert.equal(shown.length, 2);
  for (const r of shown) assert.ok(r < 1.01, `R̂ shown: ${shown}`);
  assert.equal(await page.$$eval('#multichain-table td.disagree', (cells) => cells.length), 0);
  // The truth is N(0, Σ): each mean within 4 of its MCSEs of 0.
  for (const c of result.coordinates) assert.ok(Math.abs(c.mean) < 4 * c.mcse_mean, JSON.stringify(c));
  await page.$eval('#multichain', (el) => el.scrollIntoView());
  await screenshot(page, 'multichain-gaussian', { fullPage: false });

  assert.equal(await page.evaluate(() => window.sgviz.setParam('step_size', 0.2)), null);
  await page.waitForFunction(() => window.sgviz.multichain()?.status === 'stale');
  assert.equal(await page.isVisible('#multichain-table'), false, 'the earlier setting\'s numbers are gone');
  assert.match(await page.textContent('#multichain-status'), /setting changed/);
  assert.deepEqual(errors, []);
  await page.close();
});
