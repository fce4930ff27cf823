// Present mode (issue 24): `?present=sgld` at 1920×1080 shows the lesson one step per slide with
// its sentence in ≥ 28 px type; →/PageDown advance, ←/PageUp go back (window.sgviz.lesson()
// follows), the instructor toggle hides the controls, Esc leaves. Screenshots.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();

test('present mode moves through a lesson with the arrow keys, large type, Esc leaves', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '?present=sgld', { viewport: { width: 1920, height: 1080 }, reducedMotion: true });
  await page.waitForFunction(() => window.sgviz.lesson() !== null);
  const first = await page.evaluate(() => window.sgviz.lesson());
  assert.equal(first.lesson, 'sgld');
  assert.equal(first.step, 1);
  assert.ok(first.steps >= 3, JSON.stringify(first));
  const size = await page.$eval('#lesson-text', (p) => parseFloat(getComputedStyle(p).fontSize));
  assert.ok(size >= 28, `the sentence is ${size} px`);
  assert.ok(await page.isVisible('#lesson-text'));
  await page.evaluate(() => document.activeElement?.blur());
  const text1 = await page.textContent('#lesson-text');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.sgviz.lesson().step === 2);
  assert.notEqual(await page.textContent('#lesson-text'), text1);
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => window.sgviz.lesson().step === 3);
  await page.keyboard.press('PageUp');
  await page.waitForFunction(() => window.sgviz.lesson().step === 2);
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => window.sgviz.lesson().step === 1);
  assert.equal(await page.textContent('#lesson-text'), text1);
  await screenshot(page, 'present-1920x1080', { fullPage: false });
  // The instructor toggle hides the controls the lesson does not use.
  assert.ok(await page.isVisible('#primary-params'));
  await page.click('#present-clean');
  assert.equal(await page.isVisible('#primary-params'), false);
  assert.ok(await page.isVisible('#lesson-text'));
  await screenshot(page, 'present-clean-1920x1080', { fullPage: false });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.documentElement.classList.contains('present'));
  assert.ok(!page.url().includes('present='));
  assert.deepEqual(errors, []);
  await page.close();
});
