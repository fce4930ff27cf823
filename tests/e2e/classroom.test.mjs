// The classroom-first page (issue 12), read from the page's own state and element geometry:
// Play and the step size above the fold on a projector and a phone; samples without a click;
// at most 8 sliders at first view; parameters only where they apply; derived defaults and ranges
// used and only explicit values linked; warnings; compare mode with the truth and E1/E2 on both
// panels; canvas text that follows "Large text"; help by tap; SGLD at its defaults on every
// target (the logistic posterior at N = 10⁴ and 10⁶ in `make soak`); no lesson step that
// diverges. Screenshots of the three layouts go to test-artifacts/.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, keptAcrossTests, screenshot, paintedPixels, frames, waitForPainted, parseShown } from './harness.mjs';

const env = useBrowser();
const PROJECTOR = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };
const state = (page) => page.evaluate(() => window.sgviz.state());
/** `make soak` also runs SGLD's defaults on the page's logistic posteriors at N = 10⁴ and 10⁶. */
const SGLD_DEFAULTS_SOAK = process.env.SGVIZ_SGLD_DEFAULTS_SOAK === '1';

/** Load the app afresh at `query` in the same tab (a hash change alone would not reload it). */
async function reopen(page, query) {
  await page.goto('about:blank');
  await page.goto(`${env.server.url}${query}`);
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
}

/** Bounding box and visibility of an element, in viewport coordinates. */
const box = (page, selector) => page.$eval(selector, (e) => {
  const r = e.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, visible: e.checkVisibility({ visibilityProperty: true }) };
});

/** Range inputs a visitor can see (not hidden, not inside a closed disclosure). */
const visibleSliders = (page) => page.$$eval('input[type=range]', (all) => all.filter((e) => e.checkVisibility({ visibilityProperty: true })).map((e) => e.id));

/**
 * One default page (reduced motion) for the tests that only read it or undo what they change (the
 * reduced-motion check first, then the derived slider range, then Large text): a page load costs
 * ≈ 1–3 CPU s (issue 23; BENCHMARKS.md "CI time", fifth round).
 */
let defaultPage = null;
const sharedDefaultPage = async () => (defaultPage ??= keptAcrossTests(await openApp(env.browser, env.server.url, '', { reducedMotion: true })));
after(async () => { await defaultPage?.page.close().catch(() => {}); });

test('Play and ε are above the fold and samples appear without a click (1400×900 and 390×844)', async () => {
  for (const [name, viewport] of [['projector', PROJECTOR], ['phone', PHONE]]) {
    const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport });
    for (const selector of ['#play', '#param-step_size', '#step', '#reset']) {
      const b = await box(page, selector);
      assert.ok(b.visible, `${name}: ${selector} visible`);
      assert.ok(b.top >= 0 && b.bottom <= viewport.height, `${name}: ${selector} above the fold (${b.top}–${b.bottom} of ${viewport.height})`);
      assert.ok(b.right <= viewport.width, `${name}: ${selector} inside the width`);
    }
    assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true', `${name}: playing on load`);
    await page.waitForFunction(() => window.sgviz.state().n_samples > 300, null, { timeout: 20_000 });
    await waitForPainted(page, '#density-layer', 100); // samples drawn without a click
    const plot = await box(page, '#stack');
    assert.ok(plot.top < viewport.height / 2 && plot.bottom <= viewport.height, `${name}: the whole 2-D plot is on the first screen (${plot.top}–${plot.bottom})`);
    if (name === 'phone') {
      // One figure per screen, and the step size next to the charts that plot against it.
      for (const id of ['#chart-trace', '#chart-acf', '#chart-noise', '#chart-bias', '#chart-sweep']) {
        const b = await box(page, id);
        assert.ok(b.right - b.left >= 0.85 * viewport.width && b.bottom - b.top <= viewport.height, `${id} fills the width and fits a screen: ${JSON.stringify(b)}`);
      }
      const [slider, noise] = [await box(page, '#analysis-step_size'), await box(page, '#chart-noise')];
      assert.ok(slider.visible && noise.bottom - slider.top <= viewport.height, `ε and the noise chart on one screen (${slider.top}–${noise.bottom})`);
    }
    await page.click('#play');
    assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false', 'clicking Play on a playing page pauses it');
    await screenshot(page, `classroom-${name}-${viewport.width}x${viewport.height}`, { fullPage: false });
    await screenshot(page, `classroom-${name}-${viewport.width}x${viewport.height}-full`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('a reduced-motion preference keeps the page paused', async () => {
  const { page, errors } = await sharedDefaultPage();
  await frames(page, 30);
  assert.equal((await state(page)).steps, 0);
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  assert.deepEqual(errors, []);
});

test('at most 8 sliders at first view, for every sampler on its usual targets and in compare mode', async () => {
  const cases = ['', '#target=logreg&sampler=sgld', '#target=logreg&sampler=sgld&p.dataset=1', '#target=gaussian&sampler=hmc',
    '#target=gaussian&sampler=sbps', '#target=linreg&sampler=sghmc', '#target=gaussian&sampler=sgld&compare=sgfs_f'];
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  for (const query of cases) {
    if (query !== '') await reopen(page, query); // '' is the page as opened
    const sliders = await visibleSliders(page);
    assert.ok(sliders.length <= 8, `${query || 'default'}: ${sliders.length} sliders at first view: ${sliders}`);
    assert.ok(sliders.length >= 1, `${query || 'default'}: the main parameter is shown`);
    // Next to the analysis charts: the knob they mark as current, and the minibatch n that moves the
    // noise chart's gradient-noise line (stop 53; not for an exact sampler, nor comparing); for SBPS the two its
    // sweep varies and marks, n and k (src/registry.rs bouncy_swept_params, since the classfix merge of stop 44).
    const mirrored = sliders.filter((id) => id.startsWith('analysis-'));
    if (query.includes('sbps')) assert.deepEqual(mirrored.sort(), ['analysis-band_k', 'analysis-batch_size'], `${query}: ${mirrored}`);
    else {
      assert.equal(mirrored.filter((id) => id !== 'analysis-batch_size').length, 1, `${query || 'default'}: ${mirrored}`);
      assert.equal(mirrored.includes('analysis-batch_size'), (!query.includes('hmc') || query.includes('sghmc')) && !query.includes('compare='), `${query || 'default'}: ${mirrored}`);
    }
  }
  // The rest is one disclosure away.
  await page.click('#advanced > summary');
  assert.ok((await visibleSliders(page)).length > 8, 'the advanced parameters open under "More settings"');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Whether the control of parameter `name` is shown (its field not hidden) in the main controls. */
const shown = (page, name) => page.$eval(`#param-${name}`, (e) => !e.closest('.field').hidden && !e.closest('[hidden]'));

test('parameters are shown only where they apply (visible_if)', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  const registry = await page.evaluate(() => window.sgviz.app.registry);
  for (const name of ['sgld_a', 'sgld_b', 'sgld_gamma', 'rms_decay', 'rms_floor']) assert.equal(await shown(page, name), false, `${name} with a constant schedule, no preconditioner`);
  assert.equal(await shown(page, 'step_size'), true);
  await page.click('#advanced > summary');
  await page.selectOption('#param-sgld_schedule', '1');
  for (const name of ['sgld_a', 'sgld_b', 'sgld_gamma']) assert.equal(await shown(page, name), true, `${name} with the polynomial schedule`);
  assert.equal(await shown(page, 'step_size'), false, 'the constant ε does not apply to the polynomial schedule');
  assert.equal(await page.isVisible('#analysis-step_size'), false, 'nor next to the analysis charts');
  assert.equal((await state(page)).sampler_params.sgld_schedule, 1, 'the choice reached the chain');
  await page.selectOption('#param-sgld_precond', '1');
  for (const name of ['rms_decay', 'rms_floor']) assert.equal(await shown(page, name), true, `${name} with RMSprop`);

  await page.selectOption('#target', 'logreg');
  const logreg = registry.targets.find((t) => t.name === 'logreg').params;
  const tagged = (tag) => logreg.filter((p) => p.label.includes(tag)).map((p) => p.name);
  assert.ok(tagged('(synthetic)').length >= 3 && tagged('(digits)').length >= 1 && tagged('(breast cancer)').length >= 1);
  for (const [dataset, visible] of [['0', '(synthetic)'], ['1', '(breast cancer)'], ['2', '(digits)']]) {
    await page.selectOption('#param-dataset', dataset);
    await page.waitForFunction((d) => window.sgviz.state().target_params.dataset === Number(d), dataset);
    for (const tag of ['(synthetic)', '(breast cancer)', '(digits)']) {
      for (const name of tagged(tag)) assert.equal(await shown(page, name), tag === visible, `${name} with dataset ${dataset}`);
    }
  }
  await page.selectOption('#target', 'linreg');
  await page.selectOption('#param-dataset', '1');
  for (const p of registry.targets.find((t) => t.name === 'linreg').params.filter((q) => q.label.includes('(synthetic)'))) {
    assert.equal(await shown(page, p.name), false, `${p.name} with the diabetes data`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('only explicitly set parameters reach the chain and the link; sliders show the resolved values', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&p.rho=0.5', { reducedMotion: true });
  await page.waitForFunction(() => location.hash.includes('seed='), null, { timeout: 10_000 }); // the page's own write
  assert.deepEqual(await page.evaluate(() => window.sgviz.app.explicit), { rho: 0.5 });
  assert.ok(!/p\.step_size/.test(page.url()) && /p\.rho=0.5/.test(page.url()), page.url());
  const s = await state(page);
  const shownValue = parseShown(await page.textContent('#param-step_size-value'));
  assert.ok(Math.abs(shownValue - s.sampler_params.step_size) <= 0.01 * s.sampler_params.step_size, `slider shows the chain's ε ${s.sampler_params.step_size}: ${shownValue}`);
  if (s.derived.step_size) assert.equal(s.sampler_params.step_size, s.derived.step_size.default, 'an unset ε takes the derived default');
  await page.focus('#param-step_size');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => /p\.step_size=/.test(location.hash));
  assert.deepEqual(Object.keys(await page.evaluate(() => window.sgviz.app.explicit)).sort(), ['rho', 'step_size']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('sliders use the derived range and shade the unstable region (controls fed a derived range)', async () => {
  const { page, errors } = await sharedDefaultPage();
  const result = await page.evaluate(async () => {
    const { ParamSet } = await import('./www/controls.js');
    const spec = window.sgviz.app.registry.samplers.find((s) => s.name === 'sgld').params.find((p) => p.name === 'step_size');
    const box = document.createElement('div');
    box.style.width = '300px';
    document.body.append(box);
    const set = new ParamSet([spec], { place: () => box, idPrefix: 'probe', onChange: () => null });
    set.sync({ step_size: 0.1, sgld_schedule: 0 }, { step_size: { default: 0.1, min: 0.001, max: 1, unstable_above: 0.4 } });
    const slider = box.querySelector('input[type=range]');
    const zone = box.querySelector('.unstable-zone');
    const sr = slider.getBoundingClientRect();
    const zr = zone.getBoundingClientRect();
    const out = {
      position: Number(slider.value), zoneFrom: (zr.left - sr.left) / sr.width, zoneTo: (zr.right - sr.left) / sr.width,
      zoneVisible: zone.checkVisibility(), note: box.querySelector('.unstable-note').textContent,
      noteColourSafe: getComputedStyle(box.querySelector('.unstable-note')).color,
    };
    set.sync({ step_size: 0.6, sgld_schedule: 0 }, { step_size: { default: 0.1, min: 0.001, max: 1, unstable_above: 0.4 } });
    out.markedUnstable = box.querySelector('output').classList.contains('unstable');
    out.noteColourPast = getComputedStyle(box.querySelector('.unstable-note')).color;
    set.sync({ step_size: 0.1, sgld_schedule: 0 }, {});
    out.staticPosition = Number(slider.value);
    out.zoneAfter = zone.checkVisibility();
    box.remove();
    return out;
  });
  // Log scale over [0.001, 1]: 0.1 sits at 2/3, 0.4 at log(400)/log(1000) ≈ 0.867.
  assert.equal(result.position, 667, 'value placed on the derived range');
  assert.ok(result.zoneVisible && Math.abs(result.zoneFrom - 0.867) < 0.02 && result.zoneTo > 0.99, JSON.stringify(result));
  assert.match(result.note, /Unstable above 0\.4/);
  assert.ok(result.markedUnstable, 'a value in the unstable region is marked');
  // The limit's line is grey (--muted #5a5a5a) at a safe ε and red (--rejected #c62828) past it (review
  // s44: always red, it read as an alarm at ε = 0.05).
  assert.equal(result.noteColourSafe, 'rgb(90, 90, 90)', JSON.stringify(result));
  assert.equal(result.noteColourPast, 'rgb(198, 40, 40)', JSON.stringify(result));
  assert.notEqual(result.staticPosition, 667, 'without a derived range the static range is used');
  assert.equal(result.zoneAfter, false);
  // And the live chain: when the core derives an unstable bound for ε, the slider shades it.
  const s = await state(page);
  const bound = s.derived.step_size?.unstable_above;
  if (Number.isFinite(bound)) assert.equal(Number(await page.getAttribute('#param-step_size ~ .unstable-zone, .field[data-param=step_size] .unstable-zone', 'data-from')), bound);
  assert.deepEqual(errors, []);
});

test('warnings: sampling threshold ≫ 1 and a chain far from the truth; runaway advice when the core reports one', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&p.grad_noise=40&p.batch_size=2&p.step_size=0.1', { reducedMotion: true });
  await page.evaluate(() => window.sgviz.app.lab.run(3000));
  await page.click('#step');
  const threshold = (await state(page)).diagnostics.find((d) => d.name === 'sampling_threshold').value;
  console.log(`sampling threshold ${threshold}`);
  assert.ok(threshold > 10, `this setting is in the optimisation phase: threshold ${threshold}`);
  assert.match(await page.textContent('#advice [data-advice=threshold]'), /Sampling threshold .* ≫ 1/);
  // ρ = 0.9 at ε = 0.39: the narrow direction's variance is inflated 1/(1 − 0.39·10/4) = 40-fold.
  await reopen(page, '#target=gaussian&sampler=sgld&p.step_size=0.39&p.batch_size=100');
  await page.evaluate(() => window.sgviz.app.lab.run(5000));
  await page.click('#step');
  const s = await state(page);
  assert.ok(s.e2 > 1 && s.diverged === null, `E2 ${s.e2}`);
  assert.match(await page.textContent('#advice [data-advice=far]'), /E2 = .* far from the truth/);
  // The runaway advice is built from the state's `runaway` field (absent until the core reports
  // one): fed such a state, it shows the message and a "Discard since then" action.
  const advice = await page.evaluate(async () => {
    const { adviceFor } = await import('./www/stats.js');
    const base = window.sgviz.state();
    const spec = window.sgviz.app.registry.samplers[0];
    return {
      absent: adviceFor({ ...base, runaway: undefined, e2: 0 }, spec).map((a) => a.key),
      none: adviceFor({ ...base, runaway: null, e2: 0 }, spec).map((a) => a.key),
      present: adviceFor({ ...base, runaway: { since_step: 1200, distance_sd: 8.5, message: 'ran away since step 1,200' } }, spec)[0],
      // E2 far off after OSGFS's detector fired: the remedy is to discard burn-in, not a step size
      // OSGFS does not have; SGFS's steps shrink as α grows.
      osgfs: adviceFor({ ...base, runaway: null, setting_warning: null, e2: 28, diagnostics: [{ name: 'burn_in_over_step', value: 1500 }] }, { name: 'osgfs', kind: 'gradient', params: [] }).find((a) => a.key === 'far')?.text,
      sgfs: adviceFor({ ...base, runaway: null, setting_warning: null, e2: 28, diagnostics: [] }, { name: 'sgfs_f', kind: 'gradient', params: [] }).find((a) => a.key === 'far')?.text,
    };
  });
  assert.deepEqual(advice.absent, []);
  assert.deepEqual(advice.none, []);
  assert.equal(advice.present.key, 'runaway');
  assert.equal(advice.present.action, 'discard-since-runaway');
  assert.match(advice.present.text, /ran away since step 1,200/);
  assert.match(advice.osgfs, /Burn-in ended at step 1,500 .*press "Discard burn-in"/);
  assert.doesNotMatch(advice.osgfs, /step size/);
  assert.match(advice.sgfs, /raise α/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a runaway the core reports shows in the panel and "Discard since then" drops those samples', async () => {
  // SBPS with a thin band (k = 1) and a long horizon: a negative fitted slope sends the particle
  // far away with no observation (the bouncy branch's own runaway test uses the same settings).
  const reckless = '#target=gaussian&sampler=sbps&seed=3&p.grad_noise=1&p.band_k=1&p.horizon=1000&p.aux_points=0';
  const { page, errors } = await openApp(env.browser, env.server.url, reckless, { reducedMotion: true });
  const supported = await page.evaluate(() => 'runaway' in window.sgviz.state() && typeof window.sgviz.app.lab.discard_since_runaway === 'function');
  assert.ok(supported, 'the core reports runaways (state.runaway, lab.discard_since_runaway)');
  let runaway = null;
  for (let k = 0; k < 200 && !runaway; k++) runaway = await page.evaluate(() => { window.sgviz.app.lab.run(1000); return window.sgviz.state().runaway; });
  assert.ok(runaway, 'the reckless SBPS setting runs away within 200,000 steps');
  await page.click('#step');
  assert.ok((await page.textContent('#advice [data-advice=runaway]')).includes(runaway.message), 'the core\'s message in the panel');
  const before = (await state(page)).n_samples;
  await page.click('#discard-since-runaway');
  const after = await state(page);
  assert.ok(after.n_samples < before && after.runaway === null, `samples since the runaway were dropped (${before} → ${after.n_samples})`);
  assert.equal(await page.$('#advice [data-advice=runaway]'), null, 'the warning goes with it');
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare mode draws the same truth and reports E1/E2 on both panels', async () => {
  for (const query of ['#target=gaussian&sampler=sgld&compare=sghmc', '#target=logreg&sampler=sgld&p.dataset=1&p.n_features=2&compare=sgfs_f']) {
    const { page, errors } = await openApp(env.browser, env.server.url, query, { reducedMotion: true });
    await page.waitForFunction(() => !window.sgviz.app.truthPending, null, { timeout: 60_000 });
    await page.click('#play');
    await page.waitForFunction(() => window.sgviz.state().n_samples > 500 && JSON.parse(window.sgviz.app.compare.lab.state_json()).n_samples > 100, null, { timeout: 30_000 });
    await page.click('#play');
    const [main, compared] = await page.evaluate(() => [window.sgviz.state(), JSON.parse(window.sgviz.app.compare.lab.state_json())]);
    // While playing the compared chain's numbers are redrawn at 5 Hz (www/view.js), the last time
    // possibly before its first samples; the first paused frame draws the paused chains' numbers
    // (drawStale). Wait for those (its count is the paused chain's), then read E1/E2 beside them.
    await page.waitForFunction((n) => document.getElementById('compare-samples').textContent.replace(/,/g, '') === String(n), compared.promise_count, { timeout: 30_000 });
    assert.ok(main.truth && compared.truth, `${query}: both panels have the truth`);
    assert.deepEqual(compared.truth, main.truth, `${query}: the same truth`);
    assert.equal(compared.truth_source, main.truth_source);
    assert.ok(Number.isFinite(compared.e1) && Number.isFinite(compared.e2), `${query}: E1/E2 of the compared chain`);
    assert.match(await page.textContent('#compare-errors'), /^[-\d.e]+, [-\d.e]+$/, 'E1, E2 shown, not —');
    const [a, b] = [await paintedPixels(page, '#stack .static-layer'), await paintedPixels(page, '#stack-b .static-layer')];
    assert.ok(b > 0.7 * a, `${query}: the compared panel draws contours and truth too (${b} vs ${a} painted pixels)`);
    await screenshot(page, `classroom-compare-${main.dim > 2 ? 'logreg' : 'gaussian'}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('canvas text follows "Large text", and help is reachable by tap', async () => {
  const { page, errors } = await sharedDefaultPage();
  const marginCss = () => page.evaluate(() => window.sgviz.app.lab.plot_frame()[0] / Math.min(window.devicePixelRatio || 1, 3));
  const normal = await marginCss();
  await page.click('#large-font');
  await page.waitForFunction((n) => window.sgviz.app.lab.plot_frame()[0] / Math.min(window.devicePixelRatio || 1, 3) > n * 1.3, normal);
  const large = await marginCss();
  assert.ok(Math.abs(large / normal - 1.5) < 0.1, `plot margins (tick-label room) scale with the text: ${normal} → ${large} CSS px`);
  await page.click('#large-font');
  const help = await page.$eval('.field[data-param=step_size] .help', (e) => e.id);
  assert.equal(await page.isVisible(`#${help}`), false);
  await page.click('.field[data-param=step_size] .help-toggle');
  assert.equal(await page.isVisible(`#${help}`), true, 'the help text opens on a tap');
  assert.match(await page.textContent(`#${help}`), /Langevin/);
  assert.deepEqual(errors, []);
});

test('screenshots: projector with Large text at 1920×1080', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#layout.font=large', { viewport: { width: 1920, height: 1080 } });
  for (const selector of ['#play', '#param-step_size']) {
    const b = await box(page, selector);
    assert.ok(b.visible && b.bottom <= 1080, `${selector} above the fold with Large text (${b.bottom})`);
  }
  await page.waitForFunction(() => window.sgviz.state().n_samples > 2000, null, { timeout: 20_000 });
  await page.click('#play');
  await screenshot(page, 'classroom-projector-large-1920x1080', { fullPage: false });
  await screenshot(page, 'classroom-projector-large-1920x1080-full');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Run `steps` steps of the page's chain after its truth is ready; the resulting state. */
async function runFromDefaults(page, steps, { needTruth = true } = {}) {
  if (needTruth) await page.waitForFunction(() => !window.sgviz.app.truthPending, null, { timeout: 120_000 });
  return page.evaluate((n) => {
    const { app } = window.sgviz;
    app.lab.reset();
    app.lab.run(n);
    return window.sgviz.state();
  }, steps);
}

test('SGLD at its defaults on every target: E2 ≤ 0.3 after 5,000 samples or the warning that says why not, on screen; no divergence', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  const registry = await page.evaluate(() => window.sgviz.app.registry);
  const results = [];
  for (const target of registry.targets) {
    const started = Date.now();
    await page.selectOption('#target', target.name);
    await page.selectOption('#sampler', 'sgld');
    // A warned pairing makes no E2 claim: it only must not diverge, so it need not wait for the
    // truth (the 20-dimensional logistic targets' MALA reference runs take a while).
    // The page's warning is the pairing's (in the advice) or, where the promise's law names a step
    // one slider away, the setting warning beside that slider, which then stands alone (src/chain
    // `warning`, review s42: the pairing's "at any step size" is not said beside it).
    const warned = await page.evaluate(() => Boolean(window.sgviz.state().warning || window.sgviz.state().setting_warning));
    const s = await runFromDefaults(page, 5000, { needTruth: !warned });
    await page.click('#step'); // one step renders the panel with this state's advice
    const warning = s.warning ?? s.setting_warning?.text ?? null;
    const shown = s.warning
      ? await page.$eval('#advice', (el) => el.textContent)
      : await page.evaluate((w) => { const note = w && document.getElementById(`param-${w.param}-warning`); return note && !note.hidden ? note.textContent : ''; }, s.setting_warning);
    results.push({ target: target.name, e2: s.e2, diverged: s.diverged, derived: Object.keys(s.derived).length > 0, step: s.sampler_params.step_size, warning, shown, ms: Date.now() - started });
  }
  console.log(results.map((r) => `${r.target}: ε = ${r.step}, E2 = ${r.e2}, diverged: ${r.diverged} (${r.ms} ms)`).join('\n'));
  checkSgldDefaults(results, ['gaussian', 'logreg', 'linreg']);
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * The page's logistic posteriors at N = 10⁴ and 10⁶ (`make soak`: SGVIZ_SGLD_DEFAULTS_SOAK=1,
 * scripts/soak.sh). `make test` checks the same claims natively on the same core (tests/sgld_defaults.rs
 * `large_logistic_posteriors_…`: N = 10⁴ E2 ≤ 0.3 for 3 seeds without a warning; N = 10⁶ the derived
 * ε within half the stability limit, 100 steps without divergence); a derived ε ten times too large
 * at N = 10⁶ fails both (BENCHMARKS.md, fifth round). Here ≈ 20 s of a page building and stepping
 * 10⁶ data (issue 23: CI time).
 */
test('SGLD at its defaults on large logistic posteriors in the page: N = 10⁴ E2 ≤ 0.3 after 5,000 samples, N = 10⁶ within half the stability limit and 100 steps without divergence (make soak)', { skip: !SGLD_DEFAULTS_SOAK && 'make soak (SGVIZ_SGLD_DEFAULTS_SOAK=1); make test checks the same natively in tests/sgld_defaults.rs' }, async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg&sampler=sgld&p.n_points=10000', { reducedMotion: true });
  const results = [];
  const mid = await runFromDefaults(page, 5000);
  results.push({ target: 'logreg N=10⁴', e2: mid.e2, diverged: mid.diverged, derived: Object.keys(mid.derived).length > 0, step: mid.sampler_params.step_size, warning: mid.warning });
  // N = 10⁶: the derived batch is ≈ 0.43 N (SGLD's minibatch-noise ratio ≈ N/4n does not shrink with
  // N at a step that mixes), so 5,000 steps cost 2·10⁹ per-datum gradients: the E2 claim at 10⁵
  // and 10⁶ is checked natively in `make soak` (tests/sgld_defaults.rs). Here: the page derives
  // the defaults, they sit inside the stability margin, and 100 steps do not diverge.
  await reopen(page, '#target=logreg&sampler=sgld&p.n_points=1000000');
  const big = await runFromDefaults(page, 100, { needTruth: false });
  const limit = big.derived.step_size?.unstable_above;
  assert.ok(big.sampler_params.step_size <= 0.5 * limit, `N = 10⁶: ε = ${big.sampler_params.step_size} within half the stability limit ${limit}`);
  results.push({ target: 'logreg N=10⁶', e2: 0, diverged: big.diverged, derived: Object.keys(big.derived).length > 0, step: big.sampler_params.step_size, warning: big.warning });
  console.log(results.map((r) => `${r.target}: ε = ${r.step}, E2 = ${r.e2}, diverged: ${r.diverged}`).join('\n'));
  checkSgldDefaults(results, ['logreg N=10⁴', 'logreg N=10⁶']);
  assert.deepEqual(errors, []);
  await page.close();
});

/** SGLD's claim at its derived defaults for each result: derived defaults, no divergence, E2 ≤ 0.3 or
 * the pairing's warning on screen; the `unwarned` targets make the claim without a warning. */
function checkSgldDefaults(results, unwarned) {
  assert.ok(results.every((r) => r.derived), 'SGLD has target-derived defaults on every target');
  for (const r of results) {
    assert.equal(r.diverged, null, `${r.target}: diverged`);
    if (r.warning) {
      // The core says why the claim cannot hold here (separated modes, curvature varying over the
      // typical set, 400 covariance entries): the panel must say so too.
      assert.ok((r.shown ?? '').includes(r.warning), `${r.target}: the pairing warning is shown`);
    } else {
      assert.ok(r.e2 <= 0.3, `${r.target}: E2 = ${r.e2} at ε = ${r.step}`);
    }
  }
  const holding = results.filter((r) => !r.warning).map((r) => r.target);
  for (const target of unwarned) assert.ok(holding.includes(target), `${target}: SGLD's claim holds without a warning`);
}

// "No lesson step diverges, before or after doing what it asks" is checked in the same page load
// as each step's class time (tests/e2e/class-time.test.mjs, `tryWhatItAsks`; issue 23: one load of
// every lesson step instead of two).
