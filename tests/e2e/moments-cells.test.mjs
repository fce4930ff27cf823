// Issue 26 (stop 52's review): a diverged chain's moments table wrapped its numbers inside the
// digits ("19,000,00 / 0") in the 98 px cells of 1400×900. SGLD lesson step 1 with ε dragged to the
// slider's maximum diverges (the state runs away beyond the core's bound); then every cell of the
// table is one line whose text fits its cell, and the sampler's column says "diverged" instead of a
// ten-digit number. Waits on the chain's own divergence, never on time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, waitLoaded, screenshot } from './harness.mjs';

const env = useBrowser();

/** Each moment cell: its text, the lines it is drawn on and whether its text overflows the cell. */
const cells = (page) => page.$$eval('#moments td', (tds) => tds.map((td) => {
  const range = document.createRange();
  range.selectNodeContents(td);
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  return { text: td.textContent, lines, clipped: td.scrollWidth > td.clientWidth + 1 };
}));

test('a diverged chain (SGLD lesson 1, ε at its maximum) at 1400×900: every moment on one line, whole, the sampler column saying "diverged"', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: { width: 1400, height: 900 } });
  await page.click('#lesson-open');
  await page.selectOption('#lesson-choice', 'sgld');
  await waitLoaded(page);
  await page.$eval('#param-step_size', (e) => { e.value = e.max; e.dispatchEvent(new Event('input', { bubbles: true })); e.dispatchEvent(new Event('change', { bubbles: true })); });
  await page.waitForFunction(() => Boolean(window.sgviz.state().diverged), null, { timeout: 60_000 });
  // The table is redrawn with the numbers (5 Hz): wait for the sampler's column to follow the state.
  await page.waitForFunction(() => [...document.querySelectorAll('#moments tbody tr')].every((tr) => /^(diverged|—)$/.test(tr.cells[1].textContent)), null, { timeout: 10_000 })
    .catch(() => {});
  const shown = await cells(page);
  const where = JSON.stringify(shown);
  assert.equal(shown.length, 10, where);
  for (const c of shown) {
    assert.equal(c.lines, 1, `"${c.text}" drawn on ${c.lines} lines: ${where}`);
    assert.ok(!c.clipped, `"${c.text}" wider than its cell: ${where}`);
  }
  // The sampler's column (every other cell, from the first) says so; the truth's keeps its numbers.
  const sampled = shown.filter((_, k) => k % 2 === 0).map((c) => c.text);
  assert.ok(sampled.every((t) => t === 'diverged' || t === '—') && sampled.includes('diverged'), `sampler column ${JSON.stringify(sampled)}`);
  await page.$eval('#moments', (e) => e.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'moments-diverged-1400', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
