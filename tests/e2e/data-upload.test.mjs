// CSV upload in the page: a valid file replaces the posterior; a broken one shows a message that
// names the row and column, and the data already loaded stay in place.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();

function csvFile(name, text) {
  return { name, mimeType: 'text/csv', buffer: Buffer.from(text) };
}

const staticLayerPixels = (page) => page.$eval('#static-layer', (c) => c.toDataURL());

test('upload a CSV, see the new posterior; a broken file keeps the previous data', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  await page.selectOption('#target', 'logreg');
  await page.click('#advanced > summary');
  assert.equal(await page.isVisible('#data-controls'), true, 'data controls shown for regression targets');
  const builtIn = await page.evaluate(() => window.sgviz.state().n_data);
  const before = await staticLayerPixels(page);

  const rows = ['x,y'];
  for (let i = 0; i < 40; i++) rows.push(`${(i / 10 - 2).toFixed(2)},${i % 3 === 0 ? 1 : 0}`);
  await page.setInputFiles('#data-file', csvFile('tiny.csv', rows.join('\n')));
  await page.waitForFunction(() => window.sgviz.state().has_data === true);
  assert.equal(await page.evaluate(() => window.sgviz.state().n_data), 40);
  assert.match(await page.textContent('#data-summary'), /tiny\.csv: 40 rows × 1 features \(standardised\)/);
  assert.notEqual(await staticLayerPixels(page), before, 'the new posterior is drawn');
  await page.click('#play');
  await page.waitForFunction(() => window.sgviz.state().n_samples > 200);
  await page.click('#play');
  await screenshot(page, 'upload-loaded');

  await page.setInputFiles('#data-file', csvFile('broken.csv', 'x,y\n1,0\nabc,1\n'));
  await page.waitForFunction(() => document.querySelector('#data-error').textContent.length > 0);
  const message = await page.textContent('#data-error');
  assert.match(message, /broken\.csv was not loaded: row 3, column 1 \('x'\): 'abc' is not a number/);
  assert.equal(await page.evaluate(() => window.sgviz.state().n_data), 40, 'previous data kept');
  assert.match(await page.textContent('#data-summary'), /tiny\.csv/);

  await page.setInputFiles('#data-file', csvFile('oneclass.csv', 'x,y\n1,1\n2,1\n'));
  await page.waitForFunction(() => /oneclass/.test(document.querySelector('#data-error').textContent));
  assert.match(await page.textContent('#data-error'), /both classes/);
  assert.equal(await page.evaluate(() => window.sgviz.state().n_data), 40, 'previous data kept');
  await screenshot(page, 'upload-rejected');

  await page.click('#data-clear');
  assert.equal(await page.evaluate(() => window.sgviz.state().n_data), builtIn);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the SGAIS panel refuses a file above the size limit before reading it, and a 1-based label file on start', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  const { mkdtempSync, openSync, ftruncateSync, closeSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'sgviz-upload-'));
  // A sparse file one byte over 50 MB: nothing is transferred, only its size matters.
  const huge = join(dir, 'huge.csv');
  const fd = openSync(huge, 'w');
  ftruncateSync(fd, 50 * 1024 * 1024 + 1);
  closeSync(fd);
  await page.selectOption('#sgais-target', 'softmax');
  await page.setInputFiles('#sgais-file', huge);
  await page.waitForFunction(() => /the limit is 50 MB/.test(document.querySelector('#sgais-status').textContent));
  assert.match(await page.textContent('#sgais-status'), /huge\.csv was not loaded: it is 50\.0 MB; the limit is 50 MB/);
  rmSync(dir, { recursive: true, force: true });

  const rows = ['x,label'];
  for (let i = 0; i < 30; i++) rows.push(`${(i / 10).toFixed(1)},${(i % 3) + 1}`);
  await page.setInputFiles('#sgais-file', csvFile('one-based.csv', rows.join('\n')));
  await page.waitForFunction(() => /one-based\.csv will be used/.test(document.querySelector('#sgais-status').textContent));
  await page.click('#sgais-start');
  await page.waitForFunction(() => /Not started/.test(document.querySelector('#sgais-status').textContent));
  assert.match(await page.textContent('#sgais-status'), /class 0 has no rows.*1-based/);
  assert.deepEqual(errors, []);
  await page.close();
});
