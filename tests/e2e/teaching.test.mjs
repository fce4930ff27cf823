// The teaching UI in a real browser: every panel draws and updates, sliders reach the sampler
// visibly, compare mode keeps equal gradient budgets, presets and lessons load (screenshots of
// every preset), keyboard-only use, accessibility (axe-core), phone and projector layouts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { useBrowser, openApp, screenshot, waitForPainted, waitForChange, frames, waitLoaded } from './harness.mjs';
import { charge, splitByTest } from './cpu-split.mjs';
import { lessonClaimKeys } from './lesson-checks.mjs';

const env = useBrowser();
splitByTest('teaching');

const state = (page) => page.evaluate(() => window.sgviz.state());
const canvasData = (page, selector) => page.$eval(selector, (c) => c.toDataURL());

test('every panel renders non-blank and updates while running', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  await page.click('#play');
  await page.waitForFunction(() => window.sgviz.state().n_samples > 3000, null, { timeout: 20_000 });
  await page.waitForFunction(() => document.querySelector('#analysis-progress').value >= 1, null, { timeout: 60_000 });
  const panels = ['#static-layer', '#density-layer', '#overlay-layer', '#chart-trace', '#chart-acf', '#chart-noise', '#chart-bias', '#chart-sweep'];
  const first = {};
  for (const p of panels) {
    await waitForPainted(page, p, 500); // drawn (charts arrive one per frame)
    first[p] = await canvasData(page, p);
  }
  // Each layer changes while the chain runs (waited for on the canvases, not on the clock), on
  // screen: a chart off screen is not redrawn while playing (www/on-screen.js).
  for (const p of ['#density-layer', '#overlay-layer', '#chart-trace']) {
    await page.$eval(p, (e) => e.scrollIntoView({ block: 'center' }));
    await waitForChange(() => canvasData(page, p), first[p], `${p} updates while running`);
  }
  await page.click('#play');
  await screenshot(page, 'teaching-all-panels');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the SGLD ellipse grows with ε on the Gaussian', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&p.batch_size=100&p.step_size=0.02', { reducedMotion: true });
  const ellipseArea = () => page.evaluate(() => {
    const lab = window.sgviz.app.lab;
    lab.run(20000);
    const p = lab.sampler_ellipse();
    let area = 0;
    for (let i = 0; i + 3 < p.length; i += 2) area += p[i] * p[i + 3] - p[i + 2] * p[i + 1];
    return Math.abs(area / 2);
  });
  const small = await ellipseArea();
  const det = (c) => c[0][0] * c[1][1] - c[0][1] * c[1][0];
  const smallDet = det((await state(page)).cov);
  // The slider's range is derived from the target (issue 12), so a fixed number of key presses
  // lands anywhere: press until the chain's ε passes 0.3 (each press moves ≈ 1 % in log ε).
  await page.focus('#param-step_size');
  // The slider's range is derived from the target, so the number of key presses to ε ≈ 0.3 is
  // not fixed: PageUp (a tenth of the slider's track) while one more PageUp, by the factor the last
  // one moved ε, stays below 0.3, then ArrowRight until ε passes 0.3 (at most 1,000 presses in all;
  // each press restarts the chain and its background sweep: issue 23, ≈ 270 ArrowRight presses
  // were most of this test's CPU).
  let eps = (await state(page)).sampler_params.step_size;
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('PageUp');
    const moved = (await state(page)).sampler_params.step_size;
    const factor = moved / eps;
    eps = moved;
    if (!(factor > 1) || eps * factor >= 0.3) break;
  }
  for (let i = 0; i < 1000 && (await state(page)).sampler_params.step_size < 0.3; i++) await page.keyboard.press('ArrowRight');
  const step = (await state(page)).sampler_params.step_size;
  assert.ok(step > 0.2 && step < 0.4, `ε moved to ${step}`);
  const large = await ellipseArea();
  const after = await state(page);
  const largeDet = det(after.cov);
  assert.ok(after.predicted && det(after.predicted.cov) > 3 * smallDet, `the predicted law's determinant ${after.predicted && det(after.predicted.cov)} is > 3× the small-ε one`);
  // Exact law: each eigen-direction's variance inflates by 1/(1 − εp/4); with eigenvalues
  // p = 10 and 0.53 at ε ≈ 0.31 the determinant grows about 4.6× (1.1× at ε = 0.02).
  assert.ok(largeDet > 3 * smallDet, `covariance determinant ${smallDet} → ${largeDet}`);
  assert.ok(large > 1.7 * small, `ellipse area ${small} → ${large} pixels²`);
  await page.evaluate(() => window.dispatchEvent(new Event('resize')));
  await screenshot(page, 'teaching-large-step-ellipse');
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare mode runs two samplers at the same gradient budget', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  await page.click('#compare-toggle');
  assert.equal(await page.isVisible('#view-b'), true);
  await page.selectOption('#compare-sampler', 'mala');
  await page.click('#play');
  // Wait on the compared chain's samples, not its gradients: 1,000 gradients are ten MALA steps,
  // too few dots for the density layer to paint (CI once paused there with 91 pixels painted).
  await page.waitForFunction(() => window.sgviz.app.lab.grad_evals() > 1000 && JSON.parse(window.sgviz.app.compare.lab.state_json()).n_samples > 300, null, { timeout: 120_000 });
  await page.click('#play');
  const [a, b] = await page.evaluate(() => [window.sgviz.app.lab.grad_evals(), window.sgviz.app.compare.lab.grad_evals()]);
  assert.ok(a > 1000, `main chain ran: ${a}`);
  // MALA spends N = 100 per step, so it can overshoot by at most one doubling chunk of steps.
  assert.ok(b >= a && b <= a + 4096 * 100, `compared chain matched the budget: ${a} vs ${b}`);
  await waitForPainted(page, '#stack-b .density-layer', 100);
  assert.match(page.url(), /compare=mala/);
  await screenshot(page, 'teaching-compare');
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * `make soak` (SGVIZ_PRESETS_SOAK=1, scripts/soak.sh) plays every preset 90 frames past 300 samples
 * and runs every SGAIS preset to its first chunk with the evidence chart drawn, full-page
 * screenshots. `make test` loads here only the presets no other file loads through the menu (issue
 * 23: each preset loaded once): the SBPS figures are figures-B.test.mjs's, the SGAIS figures
 * figures-C.test.mjs's, the other presets with claims no lesson step checks class-time.test.mjs's;
 * each of those files checks the note on screen, runs the preset to its claims and screenshots it
 * (figures-C also presses Stop). Here each remaining preset waits only for what shows that it loaded
 * and started: the note, 300 samples of the chain playing, the SGAIS runs started in workers (and
 * Stop terminating them); the first SGAIS preset other than sgais-shift-lecture is run to its first
 * chunk and drawn evidence chart (the code path every SGAIS preset shares; the shift lecture's first
 * chunk is drawn in class-time); screenshots of the first screen.
 */
const PRESETS_SOAK = process.env.SGVIZ_PRESETS_SOAK === '1';
/** The SGAIS preset whose first chunk class-time.test.mjs's shift steps wait for and draw in `make test`. */
const SHIFT_LECTURE = 'sgais-shift-lecture';

test('presets reproduce the figures of the papers (screenshots of each)', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  const all = await page.$$eval('#preset option', (os) => os.map((o) => o.value).filter(Boolean));
  charge('(start)');
  assert.ok(all.length >= 8, `${all.length} presets`);
  // The presets the other files load through the menu (the same selections they make).
  const { PRESETS } = await import('../../www/presets.js');
  const { LESSONS } = await import('../../www/lesson-table.js');
  const { SBPS_FIGURES } = await import('../../www/figures/sbps.js');
  const { SGAIS_FIGURES } = await import('../../www/figures/sgais.js');
  const keys = lessonClaimKeys(LESSONS);
  const classTime = PRESETS.filter((p) => p.claims && !p.sgais && p.claims.some((c) => !keys.has(`${p.id} ${JSON.stringify(c)}`)));
  const elsewhere = new Set([...SBPS_FIGURES, ...SGAIS_FIGURES, ...classTime].map((p) => p.id));
  const presets = PRESETS_SOAK ? all : all.filter((id) => !elsewhere.has(id));
  assert.ok(presets.some((id) => id.startsWith('sgais')) && presets.some((id) => !id.startsWith('sgais')), `both kinds of preset are loaded here: ${presets}`);
  let sgaisDrawn = 0;
  for (const id of presets) {
    const startedBefore = await page.evaluate(() => window.sgviz.jobs().started.sgais || 0);
    await page.selectOption('#preset', id);
    await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
    assert.equal(await page.isVisible('#preset-note'), true);
    await waitLoaded(page);
    if (id.startsWith('sgais')) {
      // Not sgais-shift-lecture in `make test`: class-time's shift steps start its six runs and
      // check its evidence chart drawn at the first chunk (issue 23, ninth round: its first chunk
      // here was the same runs a second time, 11.9 of this test's 44 CPU s).
      if (PRESETS_SOAK || (sgaisDrawn === 0 && id !== SHIFT_LECTURE)) {
        // The runs started in workers and the first chunk is in: the evidence curve has its first
        // point (workers.test.mjs checks the finished runs). Generous limit for a loaded 2-core machine.
        await page.waitForFunction(() => window.sgviz.sgais().runs.some((r) => r.records.length > 0) && window.sgviz.sgais().combined, null, { timeout: 240_000, polling: 500 });
        await page.waitForFunction(() => document.getElementById('chart-evidence').width > 0, null, { timeout: 60_000 });
        await waitForPainted(page, '#chart-evidence', 500);
        sgaisDrawn += 1;
      } else {
        // This preset's runs have been started in a worker (a job started since it was selected).
        await page.waitForFunction((before) => window.sgviz.sgais().runs.length > 0 && (window.sgviz.jobs().started.sgais || 0) > before, startedBefore, { timeout: 240_000, polling: 250 });
      }
      await page.click('#sgais-stop');
      assert.equal(await page.evaluate(() => window.sgviz.jobs().active.sgais || 0), 0, 'Stop terminated every SGAIS worker');
    } else {
      // A hang guard, not a speed requirement: at speed 1 a bouncy preset (sbps-band) draws one path
      // piece per 12 frames, so on a loaded machine 300 samples can take more than a minute.
      await page.waitForFunction(() => window.sgviz.state().n_samples > 300, null, { timeout: 240_000 });
      if (PRESETS_SOAK) await frames(page, 90); // the page's own frames, not the clock
    }
    // The first screen shows the preset's note and the figure it sits beside (not where the last
    // preset left the page); an SGAIS preset scrolls the page to its panel itself.
    if (!PRESETS_SOAK && !id.startsWith('sgais')) await page.$eval('#preset-note', (e) => e.scrollIntoView({ block: 'start' }));
    charge(`preset ${id}: load + wait`);
    await screenshot(page, `preset-${id}`, { fullPage: PRESETS_SOAK });
    charge('preset screenshots');
  }
  assert.ok(sgaisDrawn >= 1 || (!PRESETS_SOAK && presets.includes(SHIFT_LECTURE)), 'an SGAIS preset drew its evidence chart (here or, the shift lecture, in class-time)');
  // The SGFS Fig. 1 preset compares the full and diagonal samplers on the most correlated pair.
  await page.selectOption('#preset', 'sgfs-ellipses');
  await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
  await page.waitForFunction(() => !window.sgviz.app.truthPending && window.sgviz.state().pair.join() !== '0,1', null, { timeout: 60_000 });
  assert.equal(await page.evaluate(() => window.sgviz.app.compare.sampler), 'sgfs_d');
  assert.deepEqual(errors, []);
  await page.close();
});

// The distribution-shift demo is tested to completion on the lecture-scale runs of the SGAIS lesson
// (class-time.test.mjs, tests/e2e/shift-checks.mjs: spikes, comparison) and at 20,000 points in
// `make soak` (workers.test.mjs).

test('lesson mode steps forward and back, loading each step', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  await page.click('#lesson-open');
  assert.equal(await page.isVisible('#lesson'), true);
  const first = await page.textContent('#lesson-text');
  await page.click('#lesson-next');
  const second = await page.textContent('#lesson-text');
  assert.notEqual(first, second);
  await page.click('#lesson-next');
  const third = await page.textContent('#lesson-text');
  await waitLoaded(page);
  assert.equal(await page.evaluate(() => window.sgviz.state().sampler_params.batch_size), 5, 'third SGLD step loads minibatches of 5');
  for (let k = 0; k < 3; k++) await page.click('#lesson-next');
  assert.equal(await page.evaluate(() => window.sgviz.app.target), 'mixture', 'sixth SGLD step loads the mixture');
  for (let k = 0; k < 3; k++) await page.click('#lesson-back');
  assert.equal(await page.textContent('#lesson-text'), third);
  await page.click('#lesson-back');
  assert.equal(await page.textContent('#lesson-text'), second);
  await page.selectOption('#lesson-choice', 'bps');
  assert.equal(await page.evaluate(() => window.sgviz.app.sampler), 'bps');
  await screenshot(page, 'teaching-lesson');
  assert.deepEqual(errors, []);
  await page.close();
});

test('keyboard-only walk reaches every control with visible focus', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  const reachable = new Set();
  let outlines = 0;
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press('Tab');
    // Open "More settings" from the keyboard when the walk reaches it.
    if (await page.evaluate(() => document.activeElement.matches('#advanced > summary') && !document.activeElement.parentElement.open)) await page.keyboard.press('Enter');
    const info = await page.evaluate(() => {
      const e = document.activeElement;
      const style = getComputedStyle(e);
      return { id: e.id, visible: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 };
    });
    if (info.id) reachable.add(info.id);
    if (info.visible) outlines++;
  }
  for (const id of ['target', 'sampler', 'param-step_size', 'param-rho', 'play', 'step', 'reset', 'speed', 'seed', 'preset', 'help-open', 'compare-toggle', 'param-sd1', 'analysis-step_size']) {
    assert.ok(reachable.has(id), `#${id} reachable by Tab`);
  }
  assert.ok(outlines > 20, `focus is visible (${outlines} focused elements had an outline)`);
  // Operate by keyboard: focus play, press Enter, the chain runs; space toggles back.
  await page.focus('#play');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.sgviz.state().steps > 50);
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  assert.deepEqual(errors, []);
  await page.close();
});

test('axe-core finds no serious accessibility violations', async () => {
  const require = createRequire(import.meta.url);
  const axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  const { page, errors } = await openApp(env.browser, env.server.url);
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('phone and projector layouts fit without horizontal scrolling or layout shift', async () => {
  for (const [name, viewport, query] of [['phone', { width: 390, height: 844 }, ''], ['projector', { width: 1920, height: 1080 }, '#layout.font=large']]) {
    const { page, errors } = await openApp(env.browser, env.server.url, query, { reducedMotion: true });
    await page.setViewportSize(viewport);
    await frames(page, 10); // layout settles in the page's own frames
    // The pace note (www/pace-note.js) appears when the machine cannot keep 500 steps a frame (a
    // loaded CI machine; stop 54's CI: 103 px above "More settings", shift 0.012): content the page
    // owes a student, not instability. Shifts in the frames right after it is shown or hidden are
    // counted apart (and printed); every other shift counts.
    await page.evaluate(() => {
      window.__shift = 0;
      window.__paceShift = 0;
      let noteChanged = -Infinity;
      new MutationObserver(() => { noteChanged = performance.now(); }).observe(document.getElementById('speed-note'), { attributes: true, attributeFilter: ['hidden'] });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (e.hadRecentInput) continue;
          if (e.startTime - noteChanged < 250) window.__paceShift += e.value;
          else window.__shift += e.value;
        }
      }).observe({ type: 'layout-shift', buffered: false });
    });
    await page.evaluate(() => { window.sgviz.app.speed = 500; });
    await page.click('#play');
    await frames(page, 150); // 2.5 s of frames at 60 fps, counted by the page
    await page.click('#play');
    const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `${name}: no horizontal overflow (${overflow}px)`);
    const [shift, paceShift] = await page.evaluate(() => [window.__shift, window.__paceShift]);
    if (paceShift > 0) console.log(`${name}: layout shift ${paceShift} as the pace note came or went (not counted)`);
    assert.ok(shift < 0.01, `${name}: layout shift while running ${shift}`);
    await screenshot(page, `layout-${name}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
