// Issue 21: the core's warning about the current setting, beside the slider that causes it, in the
// page: the law-based promise (SGLD's step at its maximum, SGFS-f's α), the measured warnings
// (SGHMC on the banana), the exact samplers' "does not move" (HMC), SBPS's minibatch bias, and the
// integer log slider's arrow keys. One file, one browser context, one page per test (issue 23:
// these were five files, each paying node, a context and a first page load; BENCHMARKS.md "CI
// time", sixth round). Each section below keeps the file it was, its comment and its tests as they
// were. Waits are on the chain's state, never on time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, settingWarningBeside, settingWarningClearedAt, REMEDY_FIRST, parseShown, lessonStep } from './harness.mjs';

const env = useBrowser();

// ─── was slider-keys.test.mjs ─────────────────────────────────────────────
// Issue 21: arrow keys move an integer slider on a log scale by one whole number per press, also at
// its minimum (n = 1 spans ~90 of the slider's 1,000 positions, so a one-position step used to
// round back to n = 1 and the slider stayed put). And the law-based promise (src/promise.rs): SGLD's
// step-size slider at its maximum shows the core's warning beside that slider, gone at the default.
// Waits are on the chain's state, never on time.

const params = (page) => page.evaluate(() => window.sgviz.state().sampler_params);
const batchIs = (page, n) => page.waitForFunction((n) => window.sgviz.state().sampler_params.batch_size === n, n, { timeout: 30_000 });

test('arrow keys move the integer log slider n one whole number per press, from its minimum', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  await page.focus('#param-batch_size');
  await page.keyboard.press('Home');
  await batchIs(page, 1);
  await page.keyboard.press('ArrowRight');
  await batchIs(page, 2);
  await page.keyboard.press('ArrowUp');
  await batchIs(page, 3);
  await page.keyboard.press('ArrowLeft');
  await batchIs(page, 2);
  const shown = await page.evaluate(() => document.getElementById('param-batch_size-value').textContent);
  assert.equal(shown, '2', 'the label shows the chain\'s n');
  // At the top of the range one press still moves it down by at least one.
  await page.keyboard.press('End');
  const top = await page.waitForFunction(() => window.sgviz.state().sampler_params.batch_size > 50 && window.sgviz.state().sampler_params.batch_size, null, { timeout: 30_000 });
  const max = await top.jsonValue();
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction((m) => window.sgviz.state().sampler_params.batch_size < m, max, { timeout: 30_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('SGLD step size at its maximum: the law-based warning beside the step slider, gone at the default', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  const before = await params(page);
  assert.equal((await page.evaluate(() => window.sgviz.state().setting_warning)), null, 'silent at the defaults');
  await page.focus('#param-step_size');
  await page.keyboard.press('End');
  await page.waitForFunction((e) => window.sgviz.state().sampler_params.step_size > 2 * e, before.step_size, { timeout: 30_000 });
  const [warning, shown, geometry] = await settingWarningBeside(page, 'step_size');
  assert.equal(shown, warning.text, 'the page shows the core\'s text');
  assert.match(warning.text, /^Set step size ε to/, 'it opens with what to change');
  assert.match(warning.text, REMEDY_FIRST);
  assert.ok(geometry.lines >= 1 && geometry.lines <= 3, `at most three lines at 1400×900 (16 px text): ${JSON.stringify(geometry)} ${warning.text}`);
  assert.ok(geometry.field === 'step_size' && geometry.height > 0 && geometry.gap >= -1 && geometry.gap < 40, JSON.stringify(geometry));
  await screenshot(page, 'promise-warning-sgld-step-max', { fullPage: false });
  // One warning on a screen: the analysis panel's copy of ε stays silent while this slider is in view.
  assert.equal(await page.evaluate(() => document.getElementById('analysis-step_size-warning').hidden), true, 'not repeated beside the analysis copy');
  // Back to the default through the page's own slider path.
  await settingWarningClearedAt(page, 'step_size', before.step_size);
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── was sgfs-fisher-warning.test.mjs ─────────────────────────────────────────────
// Issue 21 (part B.1): SGFS-f on logreg_heldout (11 parameters) gets the bias part of the law-based
// promise (src/promise.rs; SGFS's law with the empirical Fisher it builds, docs/sgfs-osgfs.md §6).
// Silent at the derived defaults; at α = 1.24 (the defaults derived on the Laplace precision, where
// the chain's Var θ₃ is 0.45 against 0.71: tests/sgfs_fisher_law.rs) the bias warning sits beside
// the α slider, opening with the value that keeps the promise, in at most three lines at 1400×900 (16 px text);
// back at the default it is gone.
// Waits are on the chain's state, never on time.

test('SGFS-f on logreg_heldout: the bias warning beside the α slider at α = 1.24, silent at the defaults', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg_heldout&sampler=sgfs_f');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  const before = await page.evaluate(() => window.sgviz.state().sampler_params);
  assert.equal(await page.evaluate(() => window.sgviz.state().setting_warning), null, 'silent at the defaults');
  await page.evaluate(() => window.sgviz.setParam('sgfs_alpha', 1.24));
  const [warning, shown, geometry] = await settingWarningBeside(page, 'sgfs_alpha');
  assert.equal(shown, warning.text, 'the page shows the core\'s text');
  // A law outside its validity region (V3, docs/diagnostics.md §7: the chain leaves the Gaussian
  // summary of this non-Gaussian posterior) keeps the bias warning but states no size.
  assert.match(warning.text, /: biased: however long it runs, E2 stays ((at \S+, above|just above) the 0\.1 allowed|above the 0\.1 allowed \(by how much, no law here says: see E2 measured on screen\))\.$/, 'a bias warning, its one reason after the remedy');
  assert.match(warning.detail, /more samples will not help|the law's own figure \(\S+\) is not a prediction/);
  assert.match(warning.text, /^Set noise level α to [0-9.]+ \(now 1\.24\): /, 'it opens with what to change');
  assert.match(warning.text, REMEDY_FIRST);
  assert.doesNotMatch(warning.text, /linearised/, 'the jargon of how it is predicted is in the hover text, not the note');
  assert.match(warning.detail, /linearised on the target's Gaussian summary/);
  assert.ok(geometry.lines >= 1 && geometry.lines <= 3, `at most three lines at 1400×900 (16 px text): ${JSON.stringify(geometry)} ${warning.text}`);
  assert.ok(geometry.field === 'sgfs_alpha' && geometry.height > 0 && geometry.gap >= -1 && geometry.gap < 40, JSON.stringify(geometry));
  await screenshot(page, 'promise-warning-sgfs-f-heldout-alpha', { fullPage: false });
  await settingWarningClearedAt(page, 'sgfs_alpha', before.sgfs_alpha);
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── was exact-sampler-warning.test.mjs ─────────────────────────────────────────────
// Issue 21 (docs/diagnostics.md §8): MALA, HMC and the bouncy family have no bias law, so their
// promise is Monte-Carlo error only and the chain measures it on every target, including those with
// a Gaussian summary. HMC on the Gaussian toy with its leapfrog step dragged to the slider's end
// (End key) rejects every proposal: the chain never moves (40 of 40 runs with E2 = 1,
// tests/toy_sweep_more.rs). Once 500 samples at that step are retained, the page shows, beside the
// step slider, the warning that opens with its remedy (the step's derived default) and says the
// chain does not move; setting that value makes the warning go. Waits are on the chain's state.

/** A sentence with each number as the page prints it ("1,530", "6.32", "18,200") replaced by '#'. */
const maskNumbers = (text) => text.replace(/\d[\d,]*(\.\d+)?/g, '#');

test('HMC at its largest step on the Gaussian: "does not move" beside the step slider, gone at the step it names', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=hmc');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  const before = await page.evaluate(() => window.sgviz.state().sampler_params.hmc_step);
  await page.focus('#param-hmc_step');
  await page.keyboard.press('End');
  await page.waitForFunction((b) => window.sgviz.state().sampler_params.hmc_step > 2 * b, before, { timeout: 30_000 });
  const [warning, shown, geometry] = await settingWarningBeside(page, 'hmc_step', 120_000);
  assert.equal(warning.failure, 'mixing');
  // The sample count grows as the chain runs and the box is redrawn at the page's refresh rate,
  // so the state and the box may be some samples apart: the sentences are compared with their
  // numbers masked.
  assert.equal(maskNumbers(shown), maskNumbers(warning.text), 'the page shows the core\'s text');
  assert.match(warning.text, REMEDY_FIRST);
  const named = warning.text.match(/^Set leapfrog step ε back to (\S+) \(now (\S+)\): the chain does not move \(its last (\S+) samples are one point, E2 = 1\)\.$/);
  assert.ok(named, warning.text);
  const [value, now, last] = named.slice(1).map(parseShown);
  assert.ok(Math.abs(value - before) <= 0.01 * before, `it names the derived default ${before}: ${warning.text}`);
  assert.ok(now > 2 * before && last >= 500, warning.text);
  assert.match(warning.detail, /^Measured on this chain: its last \S+ samples are all the same point/);
  assert.ok(geometry.lines >= 1 && geometry.lines <= 3, `at most three lines at 1400×900 (16 px text): ${JSON.stringify(geometry)} ${warning.text}`);
  assert.ok(geometry.field === 'hmc_step' && geometry.height > 0 && geometry.gap >= -1 && geometry.gap < 40, JSON.stringify(geometry));
  await screenshot(page, 'exact-sampler-warning-hmc-largest-step', { fullPage: false });
  await settingWarningClearedAt(page, 'hmc_step', value);
  // At the derived default the chain moves: after 5,000 samples the measured signal is silent.
  await page.waitForFunction(() => window.sgviz.state().n_samples >= 6000, null, { timeout: 120_000 });
  assert.equal(await page.evaluate(() => window.sgviz.state().setting_warning), null, 'silent at the derived default');
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── was measured-warning.test.mjs ─────────────────────────────────────────────
// Issue 21 (docs/diagnostics.md §8): where no law predicts the error (the banana, whose curvature
// varies too much for a Gaussian view), the chain measures it. SGHMC on the banana at its derived
// defaults fails the 5,000-sample promise in 38 of 40 runs (tests/toy_sweep.rs); once the chain has
// retained 5,000 samples the page shows the measured warning beside the learning-rate slider, with
// the core's text. Waits are on the chain's state, never on time.

test('SGHMC on the banana: the measured warning beside the learning-rate slider after 5,000 samples', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=banana&sampler=sghmc');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  const [warning, shown, geometry] = await settingWarningBeside(page, 'sghmc_lr', 120_000);
  assert.equal(warning.failure, 'mixing');
  // The measured numbers are re-measured as the chain runs and the box is redrawn at the page's
  // refresh rate, so the state and the box may be a re-measurement apart: the sentences are
  // compared with their numbers masked, and the box must state numbers where the core does.
  assert.equal(maskNumbers(shown), maskNumbers(warning.text), 'the page shows the core\'s text');
  // No law vouches for a sample count or a default on the banana, and SGHMC fails there at every
  // minibatch size: the remedy is the exact sampler that keeps the promise (tests/warning_shares.rs).
  assert.match(warning.text, /^Choose HMC \(exact\) in the Sampler menu: measured here/, 'the remedy first, then that it is measured, not predicted');
  assert.match(warning.text, REMEDY_FIRST);
  assert.match(warning.text, /above 0\.3 in at least \d+ %/, 'it states the measured share as the lower bound it is');
  assert.match(warning.detail, /^Measured on this chain/);
  assert.ok(geometry.lines >= 1 && geometry.lines <= 3, `at most three lines at 1400×900 (16 px text): ${JSON.stringify(geometry)} ${warning.text}`);
  assert.ok(geometry.field === 'sghmc_lr' && geometry.height > 0 && geometry.gap >= -1 && geometry.gap < 40, JSON.stringify(geometry));
  await screenshot(page, 'measured-warning-banana-sghmc', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

// SGHMC's noise law (docs/sghmc.md §4, docs/diagnostics.md §11): on the banana at minibatch n = 10
// with β̂ = 0 the gradient noise is not removed and the samples are biased (pooled E2 ≈ 0.4 over 40
// seeds, tests/noise_law.rs; the chains stay out of the arms, Var θ₂ ≈ 4.1 against 9). After 1,000 samples the page shows a bias warning beside the
// minibatch slider that names a larger minibatch; setting it clears the bias warning.
test('SGHMC on the banana at n = 10: the bias warning beside the minibatch slider, gone at the minibatch it names', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=banana&sampler=sghmc');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  await page.evaluate(() => window.sgviz.setParam('batch_size', 10));
  const [warning, shown, geometry] = await settingWarningBeside(page, 'batch_size', 120_000);
  assert.equal(warning.failure, 'bias');
  // The stated E2 is re-measured as the chain runs (see above): numbers masked.
  assert.equal(maskNumbers(shown), maskNumbers(warning.text), 'the page shows the core\'s text');
  assert.match(shown, /\(the noise law's E2 ≈ \d/, 'the box states the law\'s E2');
  assert.match(warning.detail, /adds gradient noise that β̂ = 0 does not remove/, 'it names the cause: unremoved gradient noise');
  assert.match(warning.text, /more samples will not help/, 'a bias, not slow mixing');
  const named = Number(warning.text.match(/^Set minibatch size n to ([0-9]+) \(now 10\)/)?.[1]);
  assert.ok(named > 10 && named <= 100, warning.text);
  assert.ok(geometry.field === 'batch_size' && geometry.height > 0 && geometry.gap >= -1 && geometry.gap < 40, JSON.stringify(geometry));
  // The minibatch slider is under "More settings": the warning opens that section (issue 21, s45),
  // so the box under the slider is on screen; closed again by hand, the page repeats the warning
  // in its advice list beside the numbers.
  // (The stated E2 is re-measured as the chain runs, so only the sentence before it is compared.)
  const cause = warning.text.split(' (the noise law')[0];
  await page.waitForFunction(() => document.getElementById('param-batch_size-warning').closest('details').open, null, { timeout: 30_000 });
  await page.evaluate(() => { document.getElementById('param-batch_size-warning').closest('details').open = false; });
  const repeated = await (await page.waitForFunction(() => document.querySelector('#advice [data-advice="setting"]')?.textContent, null, { timeout: 30_000 })).jsonValue();
  assert.ok(repeated.startsWith(cause), 'the advice list repeats it while the slider is folded away');
  assert.match(repeated, /Its slider is under "More settings"\.\)$/, 'and says where the slider it names is');
  assert.equal(await page.evaluate(() => document.getElementById('param-batch_size-warning').closest('details').open), false, 'closed by hand, it stays closed while the warning stays');
  await page.evaluate(() => { document.getElementById('param-batch_size-warning').closest('details').open = true; });
  await page.evaluate(() => document.getElementById('param-batch_size').scrollIntoView({ block: 'center' }));
  assert.ok(await page.evaluate(() => document.getElementById('param-batch_size-warning').checkVisibility()), 'the box under the minibatch slider is visible once More settings is open');
  await screenshot(page, 'noise-law-warning-banana-sghmc-n10', { fullPage: false });
  await page.evaluate((n) => window.sgviz.setParam('batch_size', n), named);
  // The chain's statistics restart with the slider; once 1,000 samples at the new minibatch are
  // retained the law has measured again, and it is silent about bias.
  await page.waitForFunction((n) => { const s = window.sgviz.state(); return s.sampler_params.batch_size === n && s.n_samples >= 2000; }, named, { timeout: 120_000 });
  assert.notEqual(await page.evaluate(() => window.sgviz.state().setting_warning?.failure), 'bias');
  await page.waitForFunction(() => document.getElementById('param-batch_size-warning').hidden, null, { timeout: 30_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── was setting-warning.test.mjs ─────────────────────────────────────────────
// Issue 21: the core's warning about the current setting appears beside the slider that caused it.
// SBPS on synthetic logistic regression: dragging the minibatch slider to its minimum (n = 1, where
// the band misses most of the bounce intensity and the samples are tens of sd off) shows the bias
// warning under that slider, with the text the core reports (read from state, not recomputed), and
// it goes once the minibatch is large again. Waits are on the chain's state, never on time.

const state = (page) => page.evaluate(() => window.sgviz.state());

/** The warning paragraph beside the batch slider: visibility, text and geometry. */
function note(page) {
  return page.evaluate(() => {
    const p = document.getElementById('param-batch_size-warning');
    const slider = document.getElementById('param-batch_size').getBoundingClientRect();
    const box = p.getBoundingClientRect();
    const field = p.closest('.field');
    const range = document.createRange();
    range.selectNodeContents(p);
    return {
      lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
      visible: !p.hidden && box.height > 0,
      text: p.textContent,
      inSameField: field?.dataset.param === 'batch_size',
      gapBelowSlider: box.top - slider.bottom,
      overlapsHorizontally: box.left < slider.right && box.right > slider.left,
      // The analysis panel's copy of the n slider (the bouncy sweep's knob) carries the same text.
      others: [...document.querySelectorAll('.setting-warning')].filter((e) => e !== p && e.id !== 'analysis-batch_size-warning' && !e.hidden).length,
      copy: (({ hidden, textContent }) => (hidden ? null : textContent))(document.getElementById('analysis-batch_size-warning') ?? { hidden: true }),
    };
  });
}

// Issue 21, s45: the law's V3 warning (docs/diagnostics.md §7: the law's spread leaves the
// mixture's Gaussian summary) for SGHMC at minibatch n = 10 names the minibatch slider, which is
// under "More settings", closed by default. The page opens that section as the warning appears,
// so the box sits under the slider that caused it, on screen without opening anything; the
// advice list does not repeat it while it is beside its slider.
test('SGHMC on the mixture at n = 10: the V3 bias warning opens "More settings" and sits on screen beside the minibatch slider', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=mixture&sampler=sghmc');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  assert.equal(await page.evaluate(() => document.getElementById('param-batch_size').closest('details').open), false, 'More settings starts closed');
  await page.evaluate(() => window.sgviz.setParam('batch_size', 10));
  const [warning, shown, geometry] = await settingWarningBeside(page, 'batch_size');
  assert.equal(shown, warning.text, 'the page shows the core\'s text');
  assert.match(warning.detail, /V3/, 'the V3 warning (the law leaves the summary)');
  await page.waitForFunction(() => document.getElementById('param-batch_size').closest('details').open, null, { timeout: 30_000 });
  const seen = await page.evaluate(() => {
    const box = document.getElementById('param-batch_size-warning').getBoundingClientRect();
    const panel = document.getElementById('param-batch_size').closest('details').getBoundingClientRect();
    return { visible: document.getElementById('param-batch_size-warning').checkVisibility(), box: { top: box.top, bottom: box.bottom, left: box.left, right: box.right }, panel: { top: panel.top }, viewport: { w: innerWidth, h: innerHeight } };
  });
  assert.ok(seen.visible && seen.box.bottom > seen.box.top && seen.box.top >= 0 && seen.box.bottom <= seen.viewport.h, `on screen at 1400×900 as opened, no scrolling: ${JSON.stringify(seen)}`);
  assert.ok(geometry.field === 'batch_size' && geometry.gap >= -1 && geometry.gap < 40, `under its own slider: ${JSON.stringify(geometry)}`);
  assert.equal(await page.evaluate(() => document.querySelector('#advice [data-advice="setting"]')), null, 'not repeated in the advice list while beside its slider');
  console.log(`V3 box as opened, before any scrolling: ${JSON.stringify(seen)}`);
  await screenshot(page, 'v3-warning-mixture-sghmc-n10-as-opened', { fullPage: false });
  await page.evaluate(() => document.getElementById('param-batch_size').scrollIntoView({ block: 'center' }));
  await screenshot(page, 'v3-warning-mixture-sghmc-n10', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('SBPS: the batch slider at its minimum shows the bias warning beside it, and it goes when n is raised', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg&sampler=sbps');
  await page.waitForFunction(() => window.sgviz.state().steps > 2000, null, { timeout: 60_000 });
  assert.equal((await state(page)).setting_warning, null, 'no warning at the defaults');
  assert.equal((await note(page)).visible, false);

  await page.focus('#param-batch_size');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => window.sgviz.state().sampler_params.batch_size === 1, null, { timeout: 30_000 });
  await page.waitForFunction(() => window.sgviz.state().setting_warning?.param === 'batch_size', null, { timeout: 120_000 });
  await page.waitForFunction(() => !document.getElementById('param-batch_size-warning').hidden, null, { timeout: 30_000 });
  // The core's text carries live percentages and the page rewrites its paragraph from the state
  // it draws, so one read can catch the paragraph a frame behind (seen at load 25: "n to 54 … 92 %"
  // shown, "55 … 93 %" in the state). Wait, frame by frame, for a moment when the paragraph shows
  // the core's text of that moment; a page that never shows it fails here.
  const [warned, shownText] = await (await page.waitForFunction(() => {
    const s = window.sgviz.state();
    const text = document.getElementById('param-batch_size-warning').textContent;
    return s.setting_warning && text === s.setting_warning.text && [s, text];
  }, null, { timeout: 60_000, polling: 'raf' })).jsonValue();
  const shown = await note(page);
  assert.equal(warned.setting_warning.failure, 'bias');
  assert.equal(shownText, warned.setting_warning.text, 'the page shows the core\'s text');
  const named = shown.text.match(/^Raise the minibatch size n to (\S+) \(now 1\) or k: biased, the band misses \d+ % of the bounce intensity\.$/);
  assert.ok(named && parseShown(named[1]) > 1, `opens with a larger n to set: ${shown.text}`);
  assert.match(shown.text, REMEDY_FIRST);
  assert.ok(shown.lines >= 1 && shown.lines <= 3, `at most three lines at 1400×900 (16 px text): ${JSON.stringify(shown)}`);
  assert.ok(shown.visible && shown.inSameField, 'beside the batch slider, in its field');
  assert.ok(shown.gapBelowSlider >= -1 && shown.gapBelowSlider < 40 && shown.overlapsHorizontally, `just below the slider: ${JSON.stringify(shown)}`);
  assert.equal(shown.others, 0, 'no other slider carries it');
  assert.ok(shown.copy === null || shown.copy === shown.text, `the analysis copy of n says the same: ${shown.copy}`);
  assert.equal(await page.locator('#advice [data-advice="setting"]').count(), 0, 'not repeated in the advice list (the slider is a main one)');
  await screenshot(page, 'setting-warning-sbps-batch-1', { fullPage: false });

  // Raise n until the chain's minibatch is at least 100 (the derived default), then wait for the
  // band check to have seen the new setting.
  for (let i = 0; i < 20 && (await state(page)).sampler_params.batch_size < 100; i++) await page.keyboard.press('PageUp');
  const raised = await state(page);
  assert.ok(raised.sampler_params.batch_size >= 100, `n raised to ${raised.sampler_params.batch_size}`);
  const from = raised.steps;
  await page.waitForFunction((s) => window.sgviz.state().steps > s + 5000 && window.sgviz.state().setting_warning === null, from, { timeout: 120_000 });
  await page.waitForFunction(() => document.getElementById('param-batch_size-warning').hidden, null, { timeout: 30_000 });
  await screenshot(page, 'setting-warning-sbps-batch-raised', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── the exact samplers' step law (src/step_law.rs, docs/diagnostics.md §14) ─────────────────
// MALA on Neal's funnel at its defaults fails silently without it (28/40 runs over E2 = 0.3 at
// 5,000 samples, measured with the CLI). The page shows the law's warning beside the step slider.
// On this non-Gaussian target the law's sample count is only a lower bound (28/40 runs still fail
// at the 6,100 it once named), so the remedy is the exact sampler that keeps the promise at its
// defaults (HMC, 0/40 failing; tests/step_law.rs), and the count is stated as "more than". Moved
// off its default, the step is not sent back to it (the default fails too); a shorter step mixes
// more slowly, so the share of failing runs it states must grow (monotone for any random walk, not
// read from the law). "√ε = 0.21" is held together by non-breaking spaces (it broke after "=").
test('MALA on the funnel at its defaults: the step law\'s warning beside the step slider names HMC; a shorter step states more failing runs and is not sent back to the failing default', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=funnel&sampler=mala');
  const [warning, shown, geometry] = await settingWarningBeside(page, 'mala_step', 60_000);
  assert.equal(shown, warning.text, 'the page shows the core\'s text');
  assert.match(warning.text, REMEDY_FIRST);
  assert.match(warning.text, /^Choose HMC \(exact\) in the Sampler menu: /);
  // The law's share is a lower bound here (16 % printed, 30/40 runs fail; tests/warning_shares.rs).
  assert.match(warning.text, /predicted E2 above 0\.3 in at least \d+ % of runs/, 'the share said as the bound it is');
  assert.match(warning.text, /√ε\u00a0=\u00a0\S+ a step/, 'the move held together by non-breaking spaces');
  const lowerBound = parseShown(warning.text.match(/running longer needs more than (\S+) samples\.$/)?.[1] ?? '');
  assert.ok(lowerBound > 5000, `the count is stated as a lower bound above 5,000: ${warning.text}`);
  const menu = await page.$$eval('#sampler option', (os) => os.map((o) => o.textContent.trim()));
  assert.ok(menu.includes('HMC (exact)'), `the sampler it names is in the menu: ${menu}`);
  assert.ok(geometry.field === 'mala_step' && geometry.height > 0 && geometry.gap >= -1 && geometry.gap < 40, JSON.stringify(geometry));
  await screenshot(page, 'setting-warning-mala-funnel', { fullPage: false });
  const step = (await params(page)).mala_step;
  await page.focus('#param-mala_step');
  await page.keyboard.press('PageDown');
  const after = await (await page.waitForFunction((e) => {
    const s = window.sgviz.state();
    return s.sampler_params.mala_step < e && s.setting_warning?.param === 'mala_step' && s.setting_warning.text;
  }, step, { timeout: 30_000 })).jsonValue();
  const share = (text) => parseShown(text.match(/in at least (\S+) % of runs of 5,000 samples/)?.[1] ?? '');
  assert.ok(!after.includes('back to'), `not sent back to the failing default: ${after}`);
  assert.match(after, /^Choose HMC \(exact\) in the Sampler menu: /);
  assert.ok(share(after) > share(warning.text), `a shorter step states more failing runs: ${warning.text} then ${after}`);
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── lipSBPS's bound law (docs/diagnostics.md §16) ─────────────────────────────────────────────
// On the synthetic logistic regression lipSBPS at its defaults fails the promise in 40/40 runs
// because its global bound N·L leaves 5,000 events 1.5 units of path time; no slider moves the bound,
// so the warning is the pairing's, shown in the advice beside the controls, and after 5,000 events
// no slider warning with a shorter remedy ("Let it run to about …") sits beside the minibatch slider.
test('lipSBPS on the logistic regression: the bound law\'s warning in the advice, no shorter remedy beside a slider', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg&sampler=lipsbps');
  await page.waitForFunction(() => window.sgviz.state().steps >= 6_000, null, { timeout: 120_000 });
  const state = await page.evaluate(() => window.sgviz.state());
  assert.match(state.warning, /^lipSBPS tests every proposal against one global bound, N·L = \S+ per unit of path time/);
  assert.match(state.warning, /run to more than [0-9,]+ events, or pick BPS or SBPS\.$/);
  assert.equal(state.setting_warning, null, 'no slider warning beside it');
  const shown = await page.textContent('#advice [data-advice=pairing]');
  assert.equal(shown, state.warning, 'the page shows the core\'s text');
  const box = await page.locator('#advice [data-advice=pairing]').boundingBox();
  assert.ok(box && box.height > 0 && box.width > 0, `visible: ${JSON.stringify(box)}`);
  assert.equal(await page.locator('#param-batch_size-warning:visible').count(), 0, 'nothing beside the minibatch slider');
  await screenshot(page, 'lipsbps-bound-law-warning', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── the compared panel's own setting warning (issue 21 item 5) ─────────────────────────────
// A student comparing two samplers must see each chain's warning beside that chain's slider. SGLD
// on the Gaussian toy at its defaults is silent; SGFS-d compared beside it is warned that no
// setting of SGFS-d keeps the promise there (tests/sgfs_d_reach.rs measures the claim, 40 seeds).
// The compared chain's warning must be on screen beside the compared panel's own slider of the
// parameter it names (not only in its state, not beside the main chain's sliders), with the
// "nor any setting of SGFS-d … switch to SGFS-f" sentence, and gone once the compared sampler is
// switched to SGFS-f (silent at its defaults there). Looked at in 1400×900 and 390×844.

/** The compared chain's setting warning once it is on screen beside the compared slider. */
async function comparedWarningBeside(page) {
  const warning = await (await page.waitForFunction(() => window.sgviz.app.compare.state()?.setting_warning, null, { timeout: 60_000 })).jsonValue();
  await page.waitForFunction((p) => { const b = document.getElementById(`compare-${p}-warning`); return b && !b.hidden; }, warning.param, { timeout: 30_000 });
  const seen = await page.evaluate((p) => {
    const box = document.getElementById(`compare-${p}-warning`);
    const slider = document.getElementById(`compare-${p}`).getBoundingClientRect();
    const rect = box.getBoundingClientRect();
    const mainNotes = [...document.querySelectorAll('[id^="param-"][id$="-warning"]')].filter((b) => !b.hidden).map((b) => b.id);
    return { text: box.textContent, gap: rect.top - slider.bottom, height: rect.height, width: rect.width, right: rect.right, mainNotes, inView: box.closest('#view-b') !== null };
  }, warning.param);
  return [warning, seen];
}

test('compared panel: SGFS-d beside SGLD shows its own "nor any setting of SGFS-d: switch to SGFS-f" warning beside its own slider, gone on SGFS-f', async () => {
  for (const viewport of [{ width: 1400, height: 900 }, { width: 390, height: 844 }]) {
    const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&compare=sgfs_d', { viewport });
    const [warning, seen] = await comparedWarningBeside(page);
    const size = `${viewport.width}x${viewport.height}`;
    assert.equal(seen.text, warning.text, 'the page shows the compared chain\'s own text');
    assert.match(warning.text, /nor any setting of SGFS-d/, warning.text);
    assert.match(warning.text, /switch to SGFS-f/, warning.text);
    assert.match(warning.text, REMEDY_FIRST);
    assert.ok(seen.inView && seen.height > 0 && seen.gap >= -1 && seen.gap < 40, `beside the compared slider: ${JSON.stringify(seen)}`);
    assert.ok(seen.right <= viewport.width + 1, `within the screen: ${JSON.stringify(seen)}`);
    assert.equal(await page.evaluate(() => window.sgviz.state().setting_warning), null, 'the main chain (SGLD at its defaults) is silent');
    assert.deepEqual(seen.mainNotes, [], 'no warning beside the main chain\'s sliders');
    await page.evaluate((p) => document.getElementById(`compare-${p}-warning`).scrollIntoView({ block: 'center' }), warning.param);
    await screenshot(page, `setting-warning-compared-sgfs-d-${size}`, { fullPage: false });
    // Its cause gone (SGFS-f keeps the promise at its defaults): the note goes.
    await page.selectOption('#compare-sampler', 'sgfs_f');
    await page.waitForFunction(() => window.sgviz.app.compare.sampler === 'sgfs_f' && window.sgviz.app.compare.state()?.setting_warning === null, null, { timeout: 60_000 });
    await page.waitForFunction(() => [...document.querySelectorAll('[id^="compare-"][id$="-warning"]')].every((b) => b.hidden), null, { timeout: 30_000 });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

// ─── review s42 items 1 and 2 ─────────────────────────────────────────────
// SGFS-f on the Gaussian: α dragged to 0 and back to the position of its derived default landed on
// 1.632, where the law's bias is 0.1001: "Set noise level α to 1.63 (now 1.63)" (a remedy naming
// the current value) while the untouched page is silent. The round trip must give the default back
// and stay silent. MALA never reads the gradient noise s (full gradients): no s slider, a line
// saying why.
test('SGFS-f: α dragged to 0 and back is its derived default again and silent; MALA shows no s slider', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgfs_f');
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  const start = await page.evaluate(() => window.sgviz.state().sampler_params.sgfs_alpha);
  const drag = (position) => page.evaluate((p) => {
    const input = document.getElementById('param-sgfs_alpha');
    input.value = String(p);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, position);
  const home = await page.evaluate(() => document.getElementById('param-sgfs_alpha').value);
  await drag(0);
  await page.waitForFunction(() => window.sgviz.state().sampler_params.sgfs_alpha === 0, null, { timeout: 30_000 });
  await drag(home);
  await page.waitForFunction((a) => window.sgviz.state().sampler_params.sgfs_alpha === a, start, { timeout: 30_000 });
  await page.waitForFunction(() => window.sgviz.state().steps > 2000, null, { timeout: 60_000 });
  assert.equal(await page.evaluate(() => window.sgviz.state().setting_warning), null, 'silent after the round trip, as at load');
  assert.equal(await page.evaluate(() => document.getElementById('param-sgfs_alpha-warning').hidden), true);
  await screenshot(page, 'slider-roundtrip-sgfs-f-alpha', { fullPage: false });
  await page.selectOption('#sampler', 'mala');
  await page.waitForFunction(() => window.sgviz.state()?.sampler_params?.mala_step > 0 && document.getElementById('ignored-params'), null, { timeout: 60_000 });
  assert.equal(await page.evaluate(() => document.getElementById('param-grad_noise')), null, 'no s slider for MALA');
  assert.match(await page.evaluate(() => document.getElementById('ignored-params').textContent), /^Gradient noise \(s\): not shown, MALA \(exact\) never reads it: it uses full-data gradients/);
  await screenshot(page, 'mala-no-gradient-noise', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── OSGFS before eq. 17: one message (issue 26, stop 44's review) ───────────────────────────────
// At c = 0.001 with samples kept only after eq. 17 (El hanchi eq. 17 compares the mean of the last
// ⌈1/k⌉ ≥ 1,000 gradients with their spread), the Gaussian's chain has kept none after thousands of
// steps. The red warning beside c said so and a yellow box under it said it again: now one message,
// beside the slider it names, and none once c is back at its default and the chain is reset.

test('OSGFS at c = 0.001 before eq. 17 fires: one "no sample kept" message, beside c; gone at c = 0.1', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=osgfs', { viewport: { width: 1920, height: 1080 } });
  await page.waitForFunction(() => window.sgviz.state().steps > 0, null, { timeout: 60_000 });
  await page.evaluate(() => { window.sgviz.setParam('osgfs_collect', 0); window.sgviz.setParam('osgfs_c', 0.001); });
  await page.click('#reset');
  // Steps taken and none kept (seed 1 fires eq. 17 not within 20,000 steps at c = 0.001, docs/sgfs-osgfs.md).
  await page.waitForFunction(() => { const s = window.sgviz.state(); return s.steps >= 500 && s.n_recorded === 0 && s.setting_warning?.param === 'osgfs_c'; }, null, { timeout: 60_000 });
  const [warning, said] = await settingWarningBeside(page, 'osgfs_c');
  assert.match(said, /no sample kept yet/i, said);
  assert.ok(warning.text.startsWith('Raise the cap c (now 0.001)'), warning.text);
  // Every shown text on the page that says no sample is kept: the box beside c, and nothing else
  // (not the analysis panel's copy of c while this one is in view; the charts' canvases say what
  // they will draw, not this).
  const saying = await page.evaluate(() => [...document.querySelectorAll('#advice > *, .field [id$="-warning"]')]
    .filter((e) => e.checkVisibility() && /no sample kept yet/i.test(e.textContent)).map((e) => e.id || e.dataset.advice));
  assert.deepEqual(saying, ['param-osgfs_c-warning']);
  await screenshot(page, 'osgfs-no-sample-one-message', { fullPage: false });
  await page.evaluate(() => window.sgviz.setParam('osgfs_c', 0.1));
  await page.click('#reset');
  await page.waitForFunction(() => window.sgviz.state().n_recorded > 0, null, { timeout: 60_000 });
  await page.waitForFunction(() => document.getElementById('param-osgfs_c-warning').hidden && ![...document.querySelectorAll('#advice > *')].some((e) => /no sample kept/i.test(e.textContent)), null, { timeout: 30_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

// Review s52 (F4): on a lesson step whose figure is a chart (SGLD step 3, the noise chart), the page
// scrolls to the chart and the only ε slider on screen is the analysis panel's copy; the warning
// went only beside the slider beside the plot, 747 px above the screen. It is now beside the copy
// while the other is off screen, and goes with its cause.
test('SGLD lesson step 3: ε dragged to its maximum on the analysis copy warns beside that copy, on screen', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: { width: 1400, height: 900 } });
  assert.equal(await lessonStep(page, 'sgld', 3), 3);
  const box = (id) => page.evaluate((i) => { const e = document.getElementById(i); const r = e.getBoundingClientRect(); return { hidden: e.hidden, text: e.textContent, top: r.top, bottom: r.bottom }; }, id);
  const loaded = await page.evaluate(() => window.sgviz.state().sampler_params.step_size);
  await page.focus('#analysis-step_size');
  await page.keyboard.press('End');
  await page.waitForFunction(() => window.sgviz.state().setting_warning?.param === 'step_size', null, { timeout: 60_000 });
  await page.waitForFunction(() => !document.getElementById('analysis-step_size-warning').hidden, null, { timeout: 30_000 });
  const [copy, main, warning] = [await box('analysis-step_size-warning'), await box('param-step_size'), await page.evaluate(() => window.sgviz.state().setting_warning)];
  assert.ok(main.bottom <= 0 || main.top >= 900, `the slider beside the plot is off screen here: ${JSON.stringify(main)}`);
  assert.equal(copy.text, warning.text, 'the core\'s text beside the copy');
  assert.ok(copy.top >= 0 && copy.bottom <= 900, `on screen: ${JSON.stringify(copy)}`);
  await screenshot(page, 'sgld-3-analysis-copy-warning', { fullPage: false });
  await page.evaluate((v) => window.sgviz.setParam('step_size', v), loaded);
  // Back at the step's ε the warning about ε goes (the step's own n = 5 warning, beside n, stays).
  await page.waitForFunction(() => window.sgviz.state().setting_warning?.param !== 'step_size' && document.getElementById('analysis-step_size-warning').hidden, null, { timeout: 30_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

// Review s52, F7: the warning is written beside the remedy's slider (remedy first); the slider the
// student moved points to it, and the pointer goes with the warning.
test('a warning beside another slider than the one moved: the moved slider points to it, and the pointer goes with it', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld', { reducedMotion: true, viewport: { width: 1400, height: 900 } });
  assert.equal(await page.evaluate(() => window.sgviz.setParam('grad_noise', 100)), null);
  await page.evaluate(() => window.sgviz.app.lab.run(5000));
  const [warning] = await settingWarningBeside(page, 'step_size', 120_000);
  assert.equal(warning.param, 'step_size');
  await page.waitForFunction(() => document.getElementById('param-grad_noise-pointer').checkVisibility(), null, { timeout: 30_000 });
  const pointer = await page.textContent('#param-grad_noise-pointer');
  assert.equal(pointer, 'Warned at this value: see the note under Step size (ε).');
  assert.equal(await page.isHidden('#param-grad_noise-warning'), true, 'the warning itself is written once, beside ε');
  await page.$eval('#param-grad_noise', (e) => e.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'pointer-to-remedy', { fullPage: false });
  // Back to no gradient noise: no warning, no pointer.
  assert.equal(await page.evaluate(() => window.sgviz.setParam('grad_noise', 0)), null);
  await page.evaluate(() => window.sgviz.app.lab.run(5000));
  await page.waitForFunction(() => !window.sgviz.state().setting_warning, null, { timeout: 120_000 });
  await page.waitForFunction(() => document.getElementById('param-grad_noise-pointer').hidden, null, { timeout: 30_000 });
  assert.deepEqual(errors, []);
  await page.close();
});
