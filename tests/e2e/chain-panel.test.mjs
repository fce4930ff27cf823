// The chain's panel in the page: a wasm panic's banner (issue 8), the pair selectors (issue 25),
// the full batch's zero gradient noise (issue 26), "Run 4 chains" (issue 24), rewind (issue 24) and
// direct manipulation (dragging the point, slow motion). One file and one browser context; each
// test opens the pages it opened before (issue 23: these were six files, each paying node, a
// context and a first page load; BENCHMARKS.md "CI time", sixth round). Each section below keeps
// the file it was, its comment and its tests as they were.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, frames, pauseAndRestart, parseShown } from './harness.mjs';

const env = useBrowser();

// ─── was panic.test.mjs ─────────────────────────────────────────────
// A panic inside wasm surfaces as the page's error banner (issue 8): a real panic is raised through
// the exported test hook `debug_panic` (src/web_bench.rs), routed through the page's own
// `guarded()` as every wasm call of the page is; the banner shows the panic message, the chain
// stops, and the page stays responsive with no exception loop.

test('a wasm panic shows the banner with its message and the page stays responsive', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  assert.equal(await page.isVisible('#banner'), false, 'no banner before the panic');
  await page.click('#play');
  await page.waitForFunction(() => window.sgviz.state().n_samples > 100);
  const returned = await page.evaluate(async () => {
    const wasm = await import('./www/pkg/sgviz.js');
    return String(window.sgviz.guarded(() => wasm.debug_panic('raised by the e2e test')));
  });
  assert.equal(returned, 'undefined', 'guarded() swallowed the trap');
  await page.waitForSelector('#banner', { state: 'visible', timeout: 5000 });
  const text = await page.textContent('#banner');
  assert.match(text, /debug_panic: raised by the e2e test/);
  assert.match(text, /[Rr]eload/);
  assert.equal(await page.evaluate(() => window.sgviz.app.playing), false, 'playing stopped');
  await screenshot(page, 'panic-banner');

  // The panic hook logged once; nothing keeps throwing afterwards.
  const errorsAfterPanic = errors.length;
  assert.ok(errors.some((e) => e.includes('sgviz panicked')), `panic logged: ${errors}`);
  await page.click('#play');
  await page.click('#reset');
  await page.selectOption('#sampler', 'sghmc');
  await page.click('#play');
  assert.equal(await frames(page, 10), 10, 'animation frames still run');
  // 60 more frames of the page's own work (not a wall-clock wait): an exception loop would log in each.
  assert.equal(await frames(page, 60), 60);
  assert.equal(errors.length, errorsAfterPanic, `no further errors or exception loop: ${errors.slice(errorsAfterPanic)}`);
  assert.ok(await page.isVisible('#banner'), 'banner stays up');
  assert.equal(await page.evaluate(() => 1 + 1), 2, 'page still evaluates');
  await page.close();
});

// ─── was pairs.test.mjs ─────────────────────────────────────────────
// The pair selectors of the 2-D panel in a real browser (issue 25 moved their wiring: pair-controls.js
// no longer imports chain.js, main.js hands it the chain's setPair). Choosing a coordinate, and the
// "most correlated" preset, change the displayed pair in the core's state and in the selects; the
// same coordinate twice is refused with a message naming the controls, and the pair stays; the
// message goes when its cause does (two different coordinates chosen, or the selectors reset).

const state = (page) => page.evaluate(() => window.sgviz.state());

test('the pair selectors and the "most correlated" preset change the displayed pair', async () => {
  // The SGFS digits target: 21 coordinates, so the pair controls are shown.
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg_sgfs&sampler=sgld', { reducedMotion: true });
  // The preset reads the truth once it is known: wait for it so the preset cannot change under us.
  await page.waitForFunction(() => !window.sgviz.app.truthPending, null, { timeout: 60_000 });
  await page.evaluate(() => window.sgviz.app.lab.run(500));
  await frames(page, 2);
  const first = await state(page);
  assert.ok(first.dim > 2, `a target with more than two coordinates (dim ${first.dim})`);
  assert.deepEqual(first.pair, [0, 1], 'the page starts on the first two coordinates');
  assert.equal(await page.isVisible('#pair-controls'), true, 'the pair controls are shown for dim > 2');

  await page.selectOption('#pair-x', '3');
  await page.waitForFunction(() => window.sgviz.state().pair.join() === '3,1');
  await frames(page, 2);
  assert.equal(await page.inputValue('#pair-x'), '3', 'the select keeps the chosen coordinate');

  // The same coordinate on both axes is refused; the pair stays and the status says what to do.
  await page.selectOption('#pair-y', '3');
  assert.deepEqual((await state(page)).pair, [3, 1], 'a refused choice changes nothing');
  assert.match(await page.textContent('#status'), /same coordinate.*x and y selectors/);
  // The message goes with its cause: a different coordinate on y is taken and the status is empty.
  await page.selectOption('#pair-y', '2');
  await page.waitForFunction(() => window.sgviz.state().pair.join() === '3,2');
  assert.equal(await page.textContent('#status'), '', 'the refusal is gone once the coordinates differ');
  // Refused again, then the focus leaves the selectors: they show the chain's pair, the message goes.
  await page.focus('#pair-x');
  await page.selectOption('#pair-x', '2');
  assert.match(await page.textContent('#status'), /same coordinate/);
  await page.$eval('#pair-x', (select) => select.blur());
  await page.waitForFunction(() => document.querySelector('#status').textContent === '' && document.querySelector('#pair-x').value === '3', null, { timeout: 30_000 });

  await page.click('#pair-correlated');
  await page.waitForFunction(() => window.sgviz.state().pair.join() !== '3,2');
  const [i, j] = (await state(page)).pair;
  assert.ok(i !== j && i < first.dim && j < first.dim, `the preset picked two different coordinates (${i}, ${j})`);
  const expected = await page.evaluate(() => window.sgviz.app.lab.preset_pair('most_correlated'));
  assert.deepEqual([i, j], Array.from(expected), 'the panel shows the pair the core calls most correlated');
  await frames(page, 2);
  assert.deepEqual([await page.inputValue('#pair-x'), await page.inputValue('#pair-y')], [String(i), String(j)], 'the selects follow the preset');
  await screenshot(page, 'pairs-most-correlated', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── was full-batch.test.mjs ─────────────────────────────────────────────
// Issue 26: "with minibatches drawn without replacement, n = N has no gradient noise" — the full-
// batch SGLD step showed a gradient-noise variance of 0.00625, a finite sampling threshold and a
// gradient-noise line on the noise chart. Here SGLD runs on the Gaussian with n = N (the page's own
// N, read from its state) and with n = N − 7: at n = N the diagnostics the page shows read exactly
// zero gradient noise and a zero threshold, and the noise chart draws no gradient-noise line; at
// n = N − 7 the gradient noise is there (positive), so the zero is the factor (N − n)/(N − 1), not
// a missing reading.

/** The diagnostics the page's panel shows, by name, after `steps` steps. */
async function diagnosticsAfter(page, steps) {
  await pauseAndRestart(page);
  await page.evaluate((n) => window.sgviz.app.lab.run(n), steps);
  const state = await page.evaluate(() => window.sgviz.state());
  return Object.fromEntries(state.diagnostics.map((d) => [d.name, d.value]));
}

test('n = N: the page shows zero gradient noise, a zero threshold and no gradient-noise line; n = N − 7 shows some', async () => {
  const open = (batch) => openApp(env.browser, env.server.url, `#target=gaussian&sampler=sgld&seed=1&p.step_size=0.05${batch ? `&p.batch_size=${batch}` : ''}`, { reducedMotion: true, viewport: { width: 1400, height: 900 } });
  const first = await open(null);
  const n = await first.page.evaluate(() => window.sgviz.state().n_data);
  await first.page.close();
  assert.ok(n > 7, `the Gaussian has N = ${n} pseudo-data`);

  const { page, errors } = await open(n);
  const full = await diagnosticsAfter(page, 5_000);
  assert.equal(full.gradient_noise_variance, 0, `n = N = ${n}: gradient noise ${full.gradient_noise_variance}`);
  assert.equal(full.sampling_threshold, 0, `n = N: threshold ${full.sampling_threshold}`);
  // The noise chart of the full batch (from the analysis worker): no gradient-noise points.
  await page.waitForFunction(() => window.sgviz.analysis().stale.length === 0 && window.sgviz.chart('noise'), null, { timeout: 240_000, polling: 250 });
  const chart = await page.evaluate(() => window.sgviz.chart('noise'));
  const gradient = chart.series.find((s) => /gradient noise/.test(s.label));
  assert.ok(gradient, `a gradient-noise series: ${chart.series.map((s) => s.label)}`);
  assert.equal(gradient.points.length, 0, `n = N: the gradient-noise line has ${gradient.points.length} points (${gradient.label})`);
  assert.deepEqual(errors, []);
  await page.close();

  const other = await open(n - 7);
  const almost = await diagnosticsAfter(other.page, 5_000);
  assert.ok(almost.gradient_noise_variance > 0 && almost.sampling_threshold > 0, `n = N − 7: ${JSON.stringify(almost)}`);
  assert.deepEqual(other.errors, []);
  await other.page.close();
});

// ─── was multichain.test.mjs ─────────────────────────────────────────────
// "Run 4 chains" (issue 24): four chains from over-dispersed starts, as long as the run on screen,
// run in a worker; the page shows R̂, bulk/tail ESS and mean ± MCSE per coordinate. Early on the
// Welling–Teh mixture (2,000 steps: under 2 s at the default speed) the chains sit in different
// modes and R̂ > 1.1 is shown; on the Gaussian after 20 s of class time (20 steps a frame × 1,200
// frames) R̂ < 1.01. A setting change clears the result and says it is stale. Waits on state only.

/** Run the main chain to `steps`, press the button and wait for the worker's result. */
async function runChains(page, steps) {
  await page.evaluate((n) => window.sgviz.app.lab.run(n - window.sgviz.app.lab.timeline_position()[0]), steps);
  await page.click('#multichain-run');
  await page.waitForFunction(() => ['done', 'error'].includes(window.sgviz.multichain()?.status), null, { timeout: 240_000 });
  return page.evaluate(() => window.sgviz.multichain());
}

/** The R̂ column as the page shows it (the numbers a student reads). */
const shownRhats = async (page) => (await page.$$eval('#multichain-table tbody tr', (rows) => rows.map((r) => r.cells[1].textContent))).map(parseShown);

test('the mixture early on: the chains disagree and R̂ > 1.1 is shown, in red', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=mixture&sampler=sgld&seed=1', { reducedMotion: true });
  assert.equal(await page.evaluate(() => window.sgviz.multichain()), null, 'no result before the button');
  const result = await runChains(page, 2_000);
  assert.equal(result.status, 'done', JSON.stringify(result));
  assert.equal(result.chains, 4);
  assert.equal(result.steps, 2_000);
  const shown = await shownRhats(page);
  assert.equal(shown.length, 2);
  assert.ok(Math.max(...shown) > 1.1, `R̂ shown: ${shown}`);
  assert.ok(await page.isVisible('#multichain-table td.disagree'), 'the disagreeing R̂ is marked');
  assert.match(await page.textContent('#multichain-status'), /4 chains of 2,000 steps/);
  // The help opens on tap, like the other diagnostics.
  await page.click('.multichain-help details.diagnostic-help summary');
  assert.ok(await page.isVisible('.multichain-help details[open] p'));
  assert.match(await page.getAttribute('#multichain-table thead th:nth-child(2)', 'title'), /R̂/, 'the header explains itself on hover');
  await page.$eval('#multichain', (el) => el.scrollIntoView());
  await screenshot(page, 'multichain-mixture', { fullPage: false });
  // Every number is on one line inside the panel (no column pushed out of the side bar).
  const fit = await page.$eval('#multichain-table', (t) => [t.getBoundingClientRect().right, t.closest('.stats').getBoundingClientRect().right]);
  assert.ok(fit[0] <= fit[1] + 0.5, `table right ${fit[0]} vs panel ${fit[1]}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Gaussian after 20 s of class time: R̂ < 1.01, and a setting change clears the result', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&seed=1', { reducedMotion: true });
  const result = await runChains(page, 20 * 1_200);
  assert.equal(result.status, 'done', JSON.stringify(result));
  const shown = await shownRhats(page);
  assert.equal(shown.length, 2);
  for (const r of shown) assert.ok(r < 1.01, `R̂ shown: ${shown}`);
  assert.equal(await page.$$eval('#multichain-table td.disagree', (cells) => cells.length), 0);
  // The truth is N(0, Σ): each mean within 4 of its MCSEs of 0.
  for (const c of result.coordinates) assert.ok(Math.abs(c.mean) < 4 * c.mcse_mean, JSON.stringify(c));
  await page.$eval('#multichain', (el) => el.scrollIntoView());
  await screenshot(page, 'multichain-gaussian', { fullPage: false });

  assert.equal(await page.evaluate(() => window.sgviz.setParam('step_size', 0.2)), null);
  await page.waitForFunction(() => window.sgviz.multichain()?.status === 'stale');
  assert.equal(await page.isVisible('#multichain-table'), false, 'the earlier setting\'s numbers are gone');
  assert.match(await page.textContent('#multichain-status'), /setting changed/);
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── was rewind.test.mjs ─────────────────────────────────────────────
// Rewind (issue 24): seek(1000) after 3,000 steps reproduces the state recorded at step 1,000
// exactly (moments, every retained sample, the current point's pixel), in the page; the scrubber
// follows the run and the arrow keys step back and forth while paused.

/** What the page shows of the chain, read from the core (exact numbers as text). */
const record = (page) => page.evaluate(() => {
  const lab = window.sgviz.app.lab;
  const state = JSON.parse(lab.state_json());
  return JSON.stringify({ steps: lab.timeline_position()[0], state, csv: lab.samples_long_csv(), point: [...lab.position_pixel()], trail: [...lab.trail(50)] });
});

test('seek(1000) after 3,000 steps reproduces step 1,000 exactly; the scrubber and arrow keys follow', async () => {
  // Minibatch SGLD on logistic regression (N = 2,000, n = 10): the replay must draw the same minibatches.
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg&sampler=sgld&seed=4&p.n_points=2000&p.batch_size=10', { reducedMotion: true });
  // The truth comes from a worker: wait for it, or it may land between the two records (CI did).
  await page.waitForFunction(() => !JSON.parse(window.sgviz.app.lab.state_json()).truth_pending, null, { timeout: 120_000 });
  await page.evaluate(() => window.sgviz.app.lab.run(1000));
  const at1000 = await record(page);
  await page.evaluate(() => window.sgviz.app.lab.run(2000));
  const at3000 = await record(page);
  assert.notEqual(at1000, at3000);
  assert.equal(await page.evaluate(() => window.sgviz.seek(1000)), 1000);
  assert.equal(await record(page), at1000, 'the state at step 1,000');
  await frames(page, 3);
  assert.equal(await page.$eval('#rewind', (r) => [r.min, r.max, r.value].join(' ')), '0 3000 1000');
  assert.match(await page.textContent('#rewind-step'), /step 1,?000 of 3,?000/);

  // Paused: ← goes one step back, → one forward, back to the same state.
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => window.sgviz.app.lab.timeline_position()[0] === 999);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.sgviz.app.lab.timeline_position()[0] === 1000);
  assert.equal(await record(page), at1000, 'back and forth by one step');

  // The scrubber's end goes to step 3,000 again, exactly.
  await page.$eval('#rewind', (r) => { r.value = r.max; r.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForFunction(() => window.sgviz.app.lab.timeline_position()[0] === 3000);
  assert.equal(await record(page), at3000, 'the end of the run');
  await page.evaluate(() => window.sgviz.seek(1000));
  await frames(page, 3);
  await screenshot(page, 'rewind-step-1000', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('in compare mode, going back takes the compared chain to the same gradient budget and says so', async () => {
  // SGLD (n = 10 per step) against exact MALA (N = 2,000 per step): equal budget, different step counts.
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg&sampler=sgld&seed=4&p.n_points=2000&p.batch_size=10&compare=mala', { reducedMotion: true });
  await page.waitForFunction(() => window.sgviz.app.compare?.lab);
  const compared = () => page.evaluate(() => {
    const lab = window.sgviz.app.compare.lab;
    return JSON.stringify({ steps: lab.timeline_position()[0], csv: lab.samples_long_csv(), point: [...lab.position_pixel()] });
  });
  // The compared chain kept at the main chain's budget as the frame loop does: MALA uses 2,000
  // gradients per step, SGLD 10, so 2,000 SGLD steps = 10 MALA steps.
  const followTo = () => page.evaluate(() => {
    const { app } = window.sgviz;
    app.compare.lab.seek(Math.floor(app.lab.grad_evals() / 2000));
  });
  await page.evaluate(() => window.sgviz.app.lab.run(2000));
  await followTo();
  const at2000 = await compared(page);
  assert.equal(JSON.parse(at2000).steps, 10, 'ten MALA steps at 20,000 gradients');
  await page.evaluate(() => window.sgviz.app.lab.run(4000));
  await followTo();
  assert.equal(JSON.parse(await compared(page)).steps, 30);
  await page.evaluate(() => window.sgviz.seek(2000));
  assert.equal(await compared(page), at2000, 'the compared chain is back where it was at the same budget, exactly');
  assert.match(await page.textContent('#rewind-note'), /Replayed from step 0 .* to step 2,000, the compared chain to the same gradient budget/);
  await screenshot(page, 'rewind-compare', { fullPage: false });
  // Run on to the end of the run: the note goes with its cause.
  await page.evaluate(() => window.sgviz.seek(6000));
  await page.waitForFunction(() => document.querySelector('#rewind-note').textContent === '');
  assert.deepEqual(errors, []);
  await page.close();
});

// ─── was direct.test.mjs ─────────────────────────────────────────────
// Direct manipulation in a real browser: dragging the current point (mouse, and touch through
// pointer events) restarts the chain at the drop point in data coordinates, shown as a jump in the
// trace; slow motion draws one SGLD / SGHMC / SGFS step as its parts, and the arrows the page draws
// are the sampler's own parts, which sum to the step the state reports.

/** CSS page coordinates of a canvas backing pixel of the main overlay. */
async function cssPoint(page, [px, py]) {
  return page.$eval('#overlay-layer', (c, [x, y]) => {
    const r = c.getBoundingClientRect();
    return [r.left + x * r.width / c.width, r.top + y * r.height / c.height];
  }, [px, py]);
}

test('dragging the current point restarts the chain at the drop point (mouse and touch)', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld', { reducedMotion: true });
  await page.evaluate(() => window.sgviz.app.lab.run(2000));
  await page.evaluate(async () => (await import('./www/view.js')).draw());
  const before = await state(page);
  const from = await cssPoint(page, await page.evaluate(() => window.sgviz.app.lab.position_pixel()));
  const frame = await page.evaluate(() => window.sgviz.app.lab.plot_frame());
  // Drop a quarter of the frame in from its top-left corner.
  const dropPixel = [frame[0] + frame[2] / 4, frame[1] + frame[3] / 4];
  const to = await cssPoint(page, dropPixel);
  await page.mouse.move(from[0], from[1]);
  await page.mouse.down();
  await page.mouse.move((from[0] + to[0]) / 2, (from[1] + to[1]) / 2, { steps: 4 });
  await page.mouse.move(to[0], to[1], { steps: 4 });
  await page.mouse.up();
  const after = await state(page);
  assert.deepEqual(after.restarts, [before.n_recorded], 'the restart is recorded at the current sample');
  assert.deepEqual(after.position, after.start, 'the chain sits at its new start');
  // The new start, mapped back to pixels, is the drop point (to the pixel the mouse could hit).
  const back = await page.evaluate(() => window.sgviz.app.lab.position_pixel());
  const scale = await page.$eval('#overlay-layer', (c) => c.width / c.getBoundingClientRect().width);
  assert.ok(Math.hypot(back[0] - dropPixel[0], back[1] - dropPixel[1]) <= 1.5 * scale, `dropped at ${dropPixel}, chain at pixel ${back}`);
  // In data coordinates: the drop is up-left of the centre, so x is below and y above the view's middle.
  assert.ok(after.position[0] < 0 && after.position[1] > 0, `data point ${after.position} is up-left of the centred Gaussian`);
  // The trace shows the jump: the first sample after the restart is near the drop point.
  await page.evaluate(() => window.sgviz.app.lab.run(1));
  const next = await state(page);
  assert.equal(next.n_recorded, before.n_recorded + 1);
  // Touch: a drag by pointer events with pointerType "touch" from the point to the centre of the frame.
  const centre = [frame[0] + frame[2] / 2, frame[1] + frame[3] / 2];
  const touched = await page.evaluate(([target]) => {
    const canvas = document.querySelector('#overlay-layer');
    const r = canvas.getBoundingClientRect();
    const css = ([x, y]) => [r.left + x * r.width / canvas.width, r.top + y * r.height / canvas.height];
    const [sx, sy] = css(window.sgviz.app.lab.position_pixel());
    const [tx, ty] = css(target);
    const fire = (type, x, y) => canvas.dispatchEvent(new PointerEvent(type, { pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y, bubbles: true, cancelable: true }));
    fire('pointerdown', sx, sy);
    fire('pointermove', (sx + tx) / 2, (sy + ty) / 2);
    fire('pointerup', tx, ty);
    return window.sgviz.app.lab.position_pixel();
  }, [centre]);
  assert.ok(Math.hypot(touched[0] - centre[0], touched[1] - centre[1]) <= 1, `touch drop at ${centre}, chain at ${touched}`);
  assert.equal((await state(page)).restarts.length, 2);
  // A press away from the point does not restart anything.
  await page.mouse.click(to[0] + 5, to[1] + 40);
  assert.equal((await state(page)).restarts.length, 2);
  await page.evaluate(() => window.sgviz.app.lab.run(500));
  await page.evaluate(async () => { const v = await import('./www/view.js'); v.draw(); v.drawCharts(); });
  await screenshot(page, 'direct-drag');
  assert.deepEqual(errors, []);
  await page.close();
});

// Issue 23: one page for the three samplers (each chosen from the menu, its minibatch set to 10 as
// the link #target=gaussian&sampler=…&p.batch_size=10 set it), not a page load each.
test('slow motion draws the sampler\'s own step parts, which sum to the step', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld', { reducedMotion: true });
  for (const [sampler, names] of [['sgld', ['drift', 'minibatch_noise', 'injected_noise']], ['sghmc', ['momentum', 'drift', 'minibatch_noise', 'injected_noise']], ['sgfs_f', ['drift', 'minibatch_noise', 'injected_noise']]]) {
    await page.selectOption('#sampler', sampler);
    assert.equal(await page.evaluate(() => window.sgviz.setParam('batch_size', 10)), null);
    assert.deepEqual(await page.evaluate(() => [window.sgviz.app.sampler, window.sgviz.app.target, window.sgviz.app.explicit]), [sampler, 'gaussian', { batch_size: 10 }], `${sampler}: the link's settings`);
    assert.equal(await page.isVisible('#slow-motion'), true, `${sampler}: slow motion offered`);
    await page.click('#slow-motion');
    assert.equal(await page.getAttribute('#slow-motion', 'aria-pressed'), 'true');
    for (let k = 0; k < 5; k++) {
      const before = (await state(page)).position;
      await page.click('#step');
      const after = (await state(page)).position;
      const parts = await page.evaluate(() => window.sgviz.app.stepParts);
      assert.deepEqual(parts.parts.map((p) => p.name), names, `${sampler}: the parts drawn`);
      assert.deepEqual(parts.start, before, `${sampler}: the arrows start at the previous point`);
      const sum = parts.start.map((s, j) => s + parts.parts.reduce((acc, p) => acc + p.vector[j], 0));
      const scale = Math.hypot(after[0] - before[0], after[1] - before[1]);
      for (let j = 0; j < sum.length; j++) assert.ok(Math.abs(sum[j] - after[j]) <= 1e-9 * scale + 1e-14, `${sampler}: the arrows sum to the step (${sum} vs ${after})`);
      // Head to tail in pixels: each arrow starts where the previous ended; the last ends at the point.
      for (let i = 1; i < parts.parts.length; i++) assert.deepEqual(parts.parts[i].from, parts.parts[i - 1].to);
      const tip = parts.parts.at(-1).to;
      const point = await page.evaluate(() => window.sgviz.app.lab.position_pixel());
      assert.ok(Math.hypot(tip[0] - point[0], tip[1] - point[1]) < 1e-6, `${sampler}: the last arrow ends at the point`);
    }
    // Playing in slow motion advances one step per animation, the arrows growing in between.
    if (sampler === 'sgld') {
      // Playing in slow motion: one step per animation, its arrows growing (checked once).
      await page.click('#play');
      await page.waitForFunction(() => window.sgviz.state().steps >= 6 && window.sgviz.app.stepProgress > 0.5, null, { timeout: 60_000 });
      await page.click('#play');
    }
    await screenshot(page, `direct-slow-motion-${sampler}`, { fullPage: false });
    // Switching to a sampler without parts hides the toggle and stops recording.
    await page.selectOption('#sampler', 'mala');
    assert.equal(await page.isVisible('#slow-motion'), false);
    assert.equal(await page.evaluate(() => window.sgviz.app.slowMotion), false);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
