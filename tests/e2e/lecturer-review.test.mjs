// Issue 26, what last round's lecturer-reviewer still found open (the screens a student sees at
// class time): each check reads what the page shows and fails on the code before its fix. One
// page load for the chain screens (presets and lesson steps chosen through the page's own menus),
// chains driven through their own `run` (seeded), the panel redrawn until what is checked is there
// (waits on state, never on time). Screenshots at 1920×1080 and 390×844 in test-artifacts/review/.
//
// Checked natively instead (tests/unit): SGHMC step 4's warning names a setting of SGHMC, not
// "switch to SGFS-f" (chain `sghmc_is_not_told_to_switch_sampler_…`); the constant-step SGLD
// warning is not given for a decreasing schedule (chain `sgld_constant_step_warning_…`); a bouncy
// trace's axis names path samples, not events (lab `a_bouncy_trace_axis_names_path_samples_…`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, waitLoaded, screenshot, lessonStep as openStep } from './harness.mjs';

const env = useBrowser();

/** Pause the loaded preset (its chains built) so that only the test moves it. */
async function loadedAndPaused(page) {
  await waitLoaded(page);
  await page.evaluate(() => { if (window.sgviz.app.playing) document.querySelector('#play').click(); });
}

/** Redraw the panel (numbers, advice, charts) each animation frame until `predicate(arg)` holds in the page. */
async function redrawUntil(page, predicate, arg, what) {
  await page.evaluate(async () => {
    window.__view ??= await import('./www/view.js');
    window.__pump = true;
    const pump = () => { if (!window.__pump) return; window.__view.draw(); window.__view.drawCharts(); requestAnimationFrame(pump); };
    requestAnimationFrame(pump);
  });
  try {
    await page.waitForFunction(predicate, arg, { timeout: 60_000 });
  } catch (e) {
    // Say what the page showed instead (a timeout alone does not tell a setting that never arrived
    // from a claim that never changed).
    const seen = await page.evaluate(() => JSON.stringify({
      params: window.sgviz.state().sampler_params, building: window.sgviz.app.building, lesson: window.sgviz.lesson(),
      claims: [...document.querySelectorAll('#lesson-claims li')].map((li) => li.textContent),
    })).catch((err) => `unreadable: ${err.message}`);
    throw new Error(`${what}: ${e.message}; the page showed ${seen}`);
  } finally {
    await page.evaluate(() => { window.__pump = false; });
  }
}

/** The advice paragraphs on screen, by key. */
const advice = (page) => page.$$eval('#advice p', (ps) => Object.fromEntries(ps.map((p) => [p.dataset.advice, p.textContent])));

async function shootBoth(page, name, focus) {
  for (const [label, viewport] of [['projector', { width: 1920, height: 1080 }], ['phone', { width: 390, height: 844 }]]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.__view?.draw());
    await page.$eval(focus, (e) => e.scrollIntoView({ block: 'center' }));
    await screenshot(page, `review/${name}-${label}`, { fullPage: false });
  }
  await page.setViewportSize({ width: 1920, height: 1080 });
}

test('class-time screens the reviewer found contradictory now say one true thing', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: { width: 1920, height: 1080 }, recordCanvasText: true });

  // Item 2: cost step 2 (the SGLD-vs-MALA preset). Far from the truth the yellow box said
  // "otherwise lower the step size" beside the red "No single slider keeps the promise".
  await page.selectOption('#preset', 'sgld-vs-mala');
  await loadedAndPaused(page);
  await page.waitForFunction(() => !window.sgviz.app.truthPending, null, { timeout: 120_000 });
  await page.evaluate(() => window.sgviz.app.lab.run(3_000));
  await redrawUntil(page, () => document.querySelector('#advice p[data-advice="far"]') && !document.getElementById('param-step_size-warning').hidden, null, 'cost 2: the far box and the step warning');
  const red = await page.textContent('#param-step_size-warning');
  const far = (await advice(page)).far;
  assert.match(red, /^No single slider keeps the promise/, `the red note beside ε: ${red}`);
  assert.doesNotMatch(far, /lower the step size|raise α/, `one remedy on the screen: ${far}`);
  assert.match(far, /red note beside the step size ε slider/, far);
  await shootBoth(page, 'cost-2-far', '#advice');

  // Item 3: N below n (SGFS step 5's Data points slider lowered to 10 under n = 100): the oracle
  // clamps n to N (src/sampler/gradient.rs). The page says so beside n, and stops saying it when
  // N is raised again.
  await page.goto('about:blank');
  await page.goto(`${env.server.url}#target=logreg&sampler=sgfs_f&seed=1`);
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
  assert.equal(await page.evaluate(() => window.sgviz.app.sampler), 'sgfs_f');
  // n = 100 set (as the step sets it), then N lowered to 10 with the Data points slider.
  await page.evaluate(() => window.sgviz.setParam('batch_size', 100));
  await page.evaluate(() => window.sgviz.setParam('n_points', 10));
  await page.waitForFunction(() => window.sgviz.state().n_data === 10, null, { timeout: 60_000 });
  await redrawUntil(page, () => !document.getElementById('param-batch_size-clamp')?.hidden, null, 'N = 10 < n: the note beside n');
  const shownN = await page.textContent('#param-batch_size-value');
  const clamp = await page.textContent('#param-batch_size-clamp');
  assert.ok(clamp.startsWith(`n = ${shownN} is more than the N = 10 data points`), `beside n (shown ${shownN}): ${clamp}`);
  await shootBoth(page, 'sgfs-clamp', '#param-batch_size');
  await page.evaluate(() => window.sgviz.setParam('n_points', 1000));
  await page.waitForFunction(() => window.sgviz.state().n_data === 1000, null, { timeout: 60_000 });
  await redrawUntil(page, () => document.getElementById('param-batch_size-clamp').hidden, null, 'N = 1,000: the note gone');

  // Item 4: SGFS step 3 compares with step 1 ("ten times smaller", "far below its value at
  // α = 0"): the same two coordinates.
  await page.click('#lesson-open');
  await page.selectOption('#lesson-choice', 'sgfs');
  await waitLoaded(page);
  const pairOf = () => page.waitForFunction(() => !window.sgviz.app.building && !window.sgviz.app.pendingPair && window.sgviz.state().pair, null, { timeout: 120_000 }).then((h) => h.jsonValue());
  const first = await pairOf();
  await page.$eval('#lesson-next', (b) => b.click());
  await waitLoaded(page);
  await page.$eval('#lesson-next', (b) => b.click());
  await waitLoaded(page);
  assert.deepEqual(await page.evaluate(() => window.sgviz.lesson()), { lesson: 'sgfs', step: 3, steps: 5 });
  assert.deepEqual(await pairOf(), first, 'sgfs step 3 shows step 1\'s pair');
  await shootBoth(page, 'sgfs-3', '#stack');

  // Item 1: SGHMC step 4 (n = 10, β̂ = 0.02) said "nor any setting of SGHMC: switch to SGFS-f"
  // while step 1 samples the same target with SGHMC; the warning names a setting of SGHMC.
  await page.selectOption('#lesson-choice', 'sghmc');
  await waitLoaded(page);
  for (let k = 1; k < 4; k++) {
    await page.$eval('#lesson-next', (b) => b.click());
    await waitLoaded(page);
  }
  assert.deepEqual(await page.evaluate(() => window.sgviz.lesson()), { lesson: 'sghmc', step: 4, steps: 4 });
  await redrawUntil(page, () => [...document.querySelectorAll('.setting-warning')].some((e) => !e.hidden), null, 'sghmc 4: a setting warning');
  // One warning (the analysis panel's copy of the same slider repeats it beside that copy).
  const sghmc = await page.$$eval('.setting-warning', (all) => all.filter((e) => !e.hidden && !e.closest('#analysis-params')).map((e) => e.textContent));
  assert.equal(sghmc.length, 1, `${sghmc}`);
  assert.doesNotMatch(sghmc[0], /nor any setting|switch to/, sghmc[0]);
  assert.match(sghmc[0], /set together .*n = /, sghmc[0]);
  await shootBoth(page, 'sghmc-4', '.setting-warning:not([hidden])');
  await page.click('#lesson-close');
  // Item 5 and 8: Welling & Teh's mixture at n = 1 on a decreasing schedule. A yellow box spoke of
  // constant-step SGLD ("At the largest step … (ε = 0.0128, minibatch 100)"); that law does not
  // apply to the schedule and is not said. The noise chart's only threshold is the crossing's
  // ("threshold = 1 at t ≈ …"), and the diagnostics show no threshold reading at n = 1, as the
  // text says.
  await page.selectOption('#preset', 'sgld-mixture');
  await loadedAndPaused(page);
  await page.evaluate(() => window.sgviz.app.lab.run(200_000));
  await redrawUntil(page, () => Number(document.getElementById('count-steps').textContent.replace(/,/g, '')) >= 200_000 && window.__canvasText['chart-noise']?.some((t) => t.startsWith('threshold = 1')), null, 'mixture: the numbers and the noise chart');
  const mixture = Object.values(await advice(page)).join(' ');
  assert.doesNotMatch(mixture, /minibatch|step size|At the largest step/, `no constant-step law beside a decreasing schedule: ${mixture}`);
  const noiseText = await page.evaluate(() => window.__canvasText['chart-noise']);
  assert.deepEqual(noiseText.filter((t) => /threshold/.test(t) && !/^threshold = 1 at t ≈/.test(t)), [], `noise chart: ${noiseText}`);
  const readings = await page.$$eval('#diagnostics dd[data-diagnostic^="sampling_threshold"]', (dds) => dds.map((d) => d.textContent));
  assert.ok(readings.length > 0 && readings.every((t) => t === '—'), `n = 1: no threshold reading (${readings})`);
  assert.doesNotMatch(await page.textContent('#preset-note'), /yellow note/, 'the preset text does not describe a box that is gone');
  await shootBoth(page, 'mixture-n1', '#stack');

  // Item 6: the pSBPS figure said "about 22 times wider along w₁" beside a round ellipse (each
  // axis scaled to the posterior). Its ratios, read from the truth the page shows: w₁'s sd over
  // w₂'s (the pair drawn) and over every other weight's, against the numbers the text states.
  await page.selectOption('#preset', 'sbps-psbps-convergence');
  await loadedAndPaused(page);
  await page.waitForFunction(() => !window.sgviz.app.truthPending && window.sgviz.state().truth, null, { timeout: 120_000 });
  const sds = await page.evaluate(() => window.sgviz.state().truth.cov.map((row, i) => Math.sqrt(row[i])));
  const ratios = sds.slice(1).map((sd) => sds[0] / sd);
  const psbps = await page.textContent('#preset-note');
  const [low, high] = psbps.match(/is (\d+) to (\d+) times that along the other weights/).slice(1).map(Number);
  assert.equal(low, Math.floor(Math.min(...ratios)), `${ratios}`);
  assert.equal(high, Math.round(Math.max(...ratios)), `${ratios}`);
  // w₁/w₂ is 12.44–12.55 in three MALA references (tests/fixtures, data/truth_logreg_dd.json): to the nearest half.
  const pair = Number(psbps.match(/and (\d+(?:\.5)?) times w₂'s/)[1]);
  assert.equal(pair, Math.round(2 * ratios[0]) / 2, `w₁/w₂ = ${ratios[0]}`);
  assert.match(psbps, /scales each axis to the posterior's spread, so that ellipse is drawn nearly round/);
  await shootBoth(page, 'psbps', '#stack');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Go to step `step` of lesson `id` (harness `lessonStep`) and check that it is shown. */
async function lessonStep(page, id, step) {
  assert.equal(await openStep(page, id, step), step);
}

/** The lesson's claim lines on screen, once `predicate(lines)` (a source string) holds. */
async function claimLines(page, predicate, what, arg = null) {
  await redrawUntil(page, predicate, arg, what);
  return page.$$eval('#lesson-claims li', (lis) => lis.map((li) => ({ text: li.textContent, ok: li.dataset.ok })));
}

test('stop-40 review: claim marks after a slider move and texts that point at hidden sliders say what is true', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: { width: 1920, height: 1080 } });

  // Item 8: SGLD step 4 at n = 100: its closed form "predicted area / truth > 1.8" gives about 1.07
  // whatever the samples; it read "— not yet" as if waiting would help.
  await lessonStep(page, 'sgld', 4);
  await page.evaluate(() => window.sgviz.setParam('batch_size', 100));
  const sgld4 = await claimLines(page, () => [...document.querySelectorAll('#lesson-claims li')].some((li) => /^predicted area/.test(li.textContent) && !/after 1 samples/.test(li.textContent) && !/✓/.test(li.textContent) && window.sgviz.state().sampler_params.batch_size === 100), 'sgld 4 at n = 100');
  const predicted = sgld4.find((c) => /^predicted area/.test(c.text)).text;
  assert.match(predicted, /does not hold at these settings: the law gives 1\.\d+/, predicted);
  assert.doesNotMatch(predicted, /not yet/, predicted);
  await shootBoth(page, 'claim-closed-form', '#lesson-claims');

  // Stop 44's review: a claim with no number read "— not yet" (or "after N samples") however long
  // it waited. SGFS step 3 (4-feature logistic regression: its truth an exact MALA reference run in
  // a worker, docs/truth.md §4): while that runs, the ellipse claim says it waits for the truth; once
  // the truth is in, it is judged on its number or its samples.
  await lessonStep(page, 'sgfs', 3);
  const waiting = await claimLines(page, () => window.sgviz.state().truth_pending && [...document.querySelectorAll('#lesson-claims li')].some((li) => /^ellipse area/.test(li.textContent)), 'sgfs 3 while the truth is computed');
  const area = waiting.find((c) => /^ellipse area/.test(c.text)).text;
  assert.match(area, / — waiting for the truth \(computed in a background worker\)$/, area);
  await shootBoth(page, 'claim-waiting-for-the-truth', '#lesson-claims');
  const judged = await claimLines(page, () => !window.sgviz.state().truth_pending && [...document.querySelectorAll('#lesson-claims li')].some((li) => /^ellipse area/.test(li.textContent) && !/waiting for the truth/.test(li.textContent)), 'sgfs 3 with its truth', null);
  assert.match(judged.find((c) => /^ellipse area/.test(c.text)).text, /after 100,000 samples|✓|not yet$/);

  // Item 8: cost step 2 with SGLD's ε at its maximum (past "Unstable above"): the E2 ratio of a
  // runaway chain read "> 10 … ✓". No claim read from it shows ✓.
  await lessonStep(page, 'cost', 2);
  const max = await page.evaluate(() => window.sgviz.state().derived.step_size.max);
  await page.evaluate((v) => window.sgviz.setParam('step_size', v), max);
  // Which of www/claims.js `unsound`'s reasons the marks give depends on how many steps ran before
  // the first redraw: "unstable at this setting" at first, then "ran away" once the core confirms
  // the runaway, or "diverged" (they come first). On a loaded machine the chain can get that far
  // before the first redraw, so the "unstable" wording alone is never seen (stop 50's CI timeout;
  // reproduced by running 20,000 steps right after the slider move).
  const cost = await claimLines(page, (v) => window.sgviz.state().sampler_params.step_size === v && [...document.querySelectorAll('#lesson-claims li')].some((li) => /the chain (is unstable at this setting|diverged|ran away)/.test(li.textContent)), 'cost 2 at ε max', max);
  assert.ok(cost.length === 3, JSON.stringify(cost));
  for (const c of cost) {
    assert.equal(c.ok, 'false', c.text);
    assert.doesNotMatch(c.text, /✓|not yet|after [\d,]+ samples/, c.text);
    assert.match(c.text, /its readings do not count$/, c.text);
  }
  await shootBoth(page, 'claim-unstable', '#lesson-claims');

  // Item 4: SGHMC steps 3 and 4 point at n and β̂, both under More settings: the text says so; β̂
  // dragged above κ (injected noise 2(κ − β̂)η < 0, clamped to none) is named beside β̂, and the
  // note goes when β̂ is back below κ.
  await lessonStep(page, 'sghmc', 3);
  assert.match(await page.textContent('#lesson-text'), /n is under More settings/);
  await lessonStep(page, 'sghmc', 4);
  assert.match(await page.textContent('#lesson-action'), /^Open More settings and move β̂ up to 0\.05, above the friction κ/);
  await page.evaluate(() => window.sgviz.setParam('beta_hat', 1));
  await redrawUntil(page, () => !document.getElementById('param-beta_hat-clamp')?.hidden, null, 'sghmc 4 at β̂ = 1: the note beside β̂');
  const beta = await page.textContent('#param-beta_hat-clamp');
  assert.match(beta, /^β̂ = 1 is above the friction κ = 0\.0\d+: the injected noise 2\(κ − β̂\)η would be negative/, beta);
  await page.$eval('#param-beta_hat', (e) => e.closest('details')?.setAttribute('open', ''));
  await shootBoth(page, 'sghmc-beta-above-kappa', '#param-beta_hat');
  await page.evaluate(() => window.sgviz.setParam('beta_hat', 0.02));
  await redrawUntil(page, () => document.getElementById('param-beta_hat-clamp').hidden, null, 'β̂ = 0.02 < κ: the note gone');
  assert.deepEqual(errors, []);
  await page.close();
});
