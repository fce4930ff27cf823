// Issue 21 (part B.1): SGFS-f on logreg_heldout (11 parameters) gets the bias part of the law-based
// promise (src/promise.rs; SGFS's law with the empirical Fisher it builds, docs/sgfs-osgfs.md §6).
// Silent at the derived defaults; at α = 1.24 (the defaults derived on the Laplace precision, where
// the chain's Var θ₃ is 0.45 against 0.71: tests/sgfs_fisher_law.rs) the bias warning sits beside
// the α slider, opening with the value that keeps the promise, in at most two lines at 1400×900;
// back at the default it is gone.
// Waits are on the chain's state, never on time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, settingWarningBeside, settingWarningClearedAt, REMEDY_FIRST } from './harness.mjs';

const env = useBrowser();

test('SGFS-f on logreg_heldout: the bias warning beside the α slider at α = 1.24, silent at the defaults', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg_heldout&sampler=sgfs_f');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  const before = await page.evaluate(() => window.sgviz.state().sampler_params);
  assert.equal(await page.evaluate(() => window.sgviz.state().setting_warning), null, 'silent at the defaults');
  await page.evaluate(() => window.sgviz.setParam('sgfs_alpha', 1.24));
  const [warning, shown, geometry] = await settingWarningBeside(page, 'sgfs_alpha');
  assert.equal(shown, warning.text, 'the page shows the core\'s text');
  assert.match(warning.text, /: biased, E2 = \S+ however long it runs/, 'a bias warning, its one reason after the remedy');
  assert.match(warning.detail, /more samples will not help/);
  assert.match(warning.text, /^Set noise level α to [0-9.]+ \(now 1\.24\): /, 'it opens with what to change');
  assert.match(warning.text, REMEDY_FIRST);
  assert.doesNotMatch(warning.text, /linearised/, 'the jargon of how it is predicted is in the hover text, not the note');
  assert.match(warning.detail, /linearised on the target's Gaussian summary/);
  assert.ok(geometry.lines >= 1 && geometry.lines <= 2, `at most two lines at 1400×900: ${JSON.stringify(geometry)} ${warning.text}`);
  assert.ok(geometry.field === 'sgfs_alpha' && geometry.height > 0 && geometry.gap >= -1 && geometry.gap < 40, JSON.stringify(geometry));
  await screenshot(page, 'promise-warning-sgfs-f-heldout-alpha', { fullPage: false });
  await settingWarningClearedAt(page, 'sgfs_alpha', before.sgfs_alpha);
  assert.deepEqual(errors, []);
  await page.close();
});
