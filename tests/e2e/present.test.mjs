// Present mode (issue 24): `?present=sgld` at 1920×1080 shows the lesson one step per slide with
// its sentence in ≥ 28 px type; →/PageDown advance, ←/PageUp go back (window.sgviz.lesson()
// follows), the instructor toggle hides the controls and every chart but the step's own figure,
// which sits large beside a plot at least 45 % of the width; Esc leaves. Screenshots.

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

  // Step 1 talks about the plot: no chart is shown, and the plot is large.
  const box = (id) => page.$eval(`#${id}`, (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height }; });
  for (const id of ['chart-trace', 'chart-acf', 'chart-noise', 'chart-bias', 'chart-sweep']) assert.equal(await page.isVisible(`#${id}`), false, `${id} hidden on a plot step`);
  assert.ok((await box('stack')).width >= 0.45 * 1920, `plot ${JSON.stringify(await box('stack'))}`);
  // Step 3 talks about the noise chart: it is shown beside the plot, large; the other charts are not.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.sgviz.lesson().step === 3 && document.getElementById('lesson').dataset.figure === 'noise');
  for (const id of ['chart-trace', 'chart-acf', 'chart-bias', 'chart-sweep']) assert.equal(await page.isVisible(`#${id}`), false, `${id} hidden on the noise step`);
  assert.ok(await page.isVisible('#chart-noise'), 'the step\'s chart is shown');
  assert.ok(await page.isVisible('#lesson-text'));
  const [plot, chart] = [await box('stack'), await box('chart-noise')];
  assert.ok(plot.width >= 0.45 * 1920, `plot ${JSON.stringify(plot)}`);
  assert.ok(chart.left >= plot.right && chart.right <= 1920, `side by side: plot ${JSON.stringify(plot)}, chart ${JSON.stringify(chart)}`);
  assert.ok(chart.width >= 0.35 * 1920, `the chart is large: ${JSON.stringify(chart)}`);
  assert.ok(plot.top >= 0 && chart.bottom <= 1080, `both on one screen: plot ${JSON.stringify(plot)}, chart ${JSON.stringify(chart)}`);
  await page.waitForFunction(() => window.sgviz.chart('noise') !== null);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await screenshot(page, 'present-clean-noise-1920x1080', { fullPage: false });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.documentElement.classList.contains('present'));
  assert.ok(!page.url().includes('present='));
  assert.deepEqual(errors, []);
  await page.close();
});

test('an SGAIS step with the toggle on: the plot and the evidence chart, large, side by side; the annealing chart hidden', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '?present=sgais', { viewport: { width: 1920, height: 1080 }, reducedMotion: true });
  await page.waitForFunction(() => window.sgviz.lesson() !== null && document.getElementById('lesson').dataset.figure === 'evidence');
  await page.click('#present-clean');
  const box = (id) => page.$eval(`#${id}`, (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width }; });
  assert.ok(await page.isVisible('#chart-evidence'));
  assert.equal(await page.isVisible('#chart-annealing'), false);
  assert.equal(await page.isVisible('#sgais-start'), false, 'the evidence controls are hidden');
  const [plot, chart, text] = [await box('stack'), await box('chart-evidence'), await box('lesson-text')];
  assert.ok(plot.width >= 0.45 * 1920, `plot ${JSON.stringify(plot)}`);
  assert.ok(chart.left >= plot.right && chart.right <= 1920 && chart.width >= 0.35 * 1920, `chart ${JSON.stringify(chart)}`);
  assert.ok(text.width >= 0.35 * 1920 && text.bottom <= chart.top, `the lesson's text above the chart: ${JSON.stringify(text)}`);
  await screenshot(page, 'present-clean-sgais-1920x1080', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
