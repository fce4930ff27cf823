// Issue 26, seen on the class-time screenshots at 1920×1080: with a lesson step beside the SGAIS
// charts, the lesson made the first grid row as tall as itself, and a quarter of the screen was a
// blank band between the charts and the sentence and table under them. Read from the geometry:
// the sentence under the charts starts within two grid gaps of the charts' bottom, and the table
// follows it, while the lesson column is taller than the charts (the case that made the band).
// Screenshot: test-artifacts/class4/sgais-lesson-projector.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();

test('1920×1080, SGAIS lesson step: the sentence and table follow the charts with no blank band', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: { width: 1920, height: 1080 } });
  await page.click('#lesson-open');
  await page.selectOption('#lesson-choice', 'sgais');
  await page.waitForFunction(() => document.querySelector('.sgais-controls #lesson') && document.querySelectorAll('#sgais-table tbody tr').length > 0, null, { timeout: 240_000, polling: 250 });
  const box = (selector) => page.$eval(selector, (e) => { const r = e.getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; });
  const gap = await page.$eval('.sgais-grid', (g) => parseFloat(getComputedStyle(g).rowGap));
  const charts = await page.$$eval('.sgais-grid > figure.chart:not([hidden])', (fs) => Math.max(...fs.map((f) => f.getBoundingClientRect().bottom + scrollY)));
  const [controls, sentence, table] = [await box('.sgais-controls'), await box('#sgais-comparison'), await box('#sgais-table')];
  assert.ok(controls.bottom > charts + 100, `the lesson column (bottom ${controls.bottom}) is taller than the charts (bottom ${charts}): the case to check`);
  assert.ok(sentence.top - charts <= 2 * gap + 1, `blank band of ${sentence.top - charts} px between the charts and the sentence (grid gap ${gap} px)`);
  assert.ok(table.top - sentence.bottom <= 2 * gap + 1, `blank band of ${table.top - sentence.bottom} px between the sentence and the table`);
  await page.evaluate(() => { const stop = document.querySelector('#sgais-stop'); if (!stop.disabled) stop.click(); });
  await page.$eval('.sgais', (e) => e.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'class4/sgais-lesson-projector', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
