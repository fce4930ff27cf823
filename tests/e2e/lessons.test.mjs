// Every claim a lesson step or a preset makes, checked at exactly the settings it loads: the step
// is loaded through the page's own lesson (or preset) controls, paused, and its seeded chain (and
// the compared chain, at the same gradient budget) is run in chunks until it has the number of
// samples the claim names; then the claim's predicate (www/claims.js, the same code the lesson
// panel uses live) is evaluated on the state. Waits are on sample counts, never on wall-clock
// progress. A screenshot of every lesson step goes to test-artifacts/lessons/.
//
// SGAIS steps run in the evidence panel; their claims are checked natively by the Rust tests each
// step names (`verifiedBy`), and here only that they load.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, pauseAndRestart } from './harness.mjs';

const env = useBrowser();

/** Steps run per page call while driving a chain to a sample count. */
const CHUNK_STEPS = 50_000;
/** Generous limit on page calls per claim (a chain that stops producing samples fails, not hangs). */
const MAX_CALLS = 2_000;


/** Run both chains (the compared one to the same gradient budget) until `samples`; return states. */
async function runTo(page, samples) {
  for (let call = 0; call < MAX_CALLS; call++) {
    const done = await page.evaluate(([target, chunk]) => {
      const { app } = window.sgviz;
      const state = JSON.parse(app.lab.state_json());
      if (state.diverged) return { state };
      if (state.n_samples < target) app.lab.run(Math.min(chunk, Math.max(64, target - state.n_samples)));
      const main = JSON.parse(app.lab.state_json());
      let compareState;
      if (app.compare?.enabled && app.compare.lab) {
        let cs = JSON.parse(app.compare.lab.state_json());
        // Equal budget: whole steps until it has spent at least as much (at most one step over).
        while (!cs.diverged && cs.grad_evals < main.grad_evals) {
          const perStep = cs.steps > 0 ? cs.grad_evals / cs.steps : 0;
          const steps = perStep > 0 ? Math.floor((main.grad_evals - cs.grad_evals) / perStep) : 1;
          app.compare.lab.run(Math.max(1, Math.min(steps, chunk)));
          cs = JSON.parse(app.compare.lab.state_json());
        }
        compareState = { ...cs, mixing: JSON.parse(app.compare.lab.mixing_json()) };
      }
      main.mixing = JSON.parse(app.lab.mixing_json());
      return main.n_samples >= target || main.diverged ? { state: main, compareState } : null;
    }, [samples, CHUNK_STEPS]);
    if (done) return done;
  }
  throw new Error(`no ${samples} samples after ${MAX_CALLS} calls`);
}

/**
 * Check each claim (in order of sample count) on the running chains; returns lines for the log;
 * the lines of failed claims also go to `failures` (all are reported together at the end).
 */
async function checkClaims(page, claims, where, failures) {
  await pauseAndRestart(page);
  const lines = [];
  for (const claim of [...claims].sort((a, b) => (a.after_samples || 0) - (b.after_samples || 0))) {
    const { state, compareState } = await runTo(page, claim.after_samples || 0);
    assert.equal(state.diverged, null, `${where}: diverged`);
    const result = await page.evaluate(async ([c, s, cs]) => {
      const { check } = await import('./www/claims.js');
      return check(c, s, cs);
    }, [claim, state, compareState ?? null]);
    const line = `${where}: ${claim.metric} = ${result.value} (claim ${claim.op} ${JSON.stringify(claim.value)} after ${claim.after_samples}; n = ${state.n_samples})`;
    lines.push(line);
    if (!(result.ready && result.ok)) failures.push(line);
  }
  return lines;
}

async function redraw(page) {
  await page.evaluate(async () => {
    const { draw, drawCharts } = await import('./www/view.js');
    draw();
    drawCharts();
  });
}

test('every lesson step\'s claims hold at the settings it loads (screenshots of each step)', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  const lessons = await page.evaluate(async () => (await import('./www/lesson-table.js')).LESSONS);
  const presets = await page.evaluate(async () => Object.fromEntries((await import('./www/presets.js')).PRESETS.map((p) => [p.id, p])));
  assert.ok(lessons.length >= 6, `${lessons.length} lessons`);
  const steps = lessons.reduce((n, l) => n + l.steps.length, 0);
  assert.ok(steps >= 24, `${steps} lesson steps`);
  await page.click('#lesson-open');
  const log = [];
  const failures = [];
  for (const lesson of lessons) {
    await page.selectOption('#lesson-choice', lesson.id);
    for (let k = 0; k < lesson.steps.length; k++) {
      const step = lesson.steps[k];
      const where = `${lesson.id} step ${k + 1}`;
      // A click through the page (the SGAIS panel may still be settling after its run was stopped).
      if (k > 0) {
        const hadCharts = await page.evaluate(() => Boolean(window.sgviz.chart('noise')));
        await page.$eval('#lesson-next', (b) => b.click());
        // The earlier step's analysis charts are dimmed and said to be stale, not shown as current.
        const stale = await page.evaluate(() => ({ kinds: window.sgviz.analysis().stale, dimmed: document.querySelector('#chart-noise').classList.contains('stale') }));
        if (hadCharts && !(step.preset && presets[step.preset].sgais)) assert.ok(stale.kinds.includes('noise') && stale.dimmed, `${where}: the previous step's charts are marked stale (${JSON.stringify(stale)})`);
      }
      assert.equal(await page.textContent('#lesson-text'), step.text, `${where}: text shown`);
      const figure = await page.evaluate(() => document.querySelector('#lesson').dataset.figure);
      assert.equal(figure, step.figure, `${where}: placed next to its figure`);
      const sgais = step.preset && presets[step.preset].sgais;
      if (sgais) {
        assert.ok(step.verifiedBy, `${where}: an SGAIS step names the Rust test that checks its claim`);
        // The runs are in workers: wait on state (first records in and combined; a hang guard, not a
        // speed requirement), as the presets test does.
        await page.waitForFunction(() => window.sgviz.sgais().runs.some((r) => r.records.length > 0) && window.sgviz.sgais().combined, null, { timeout: 240_000, polling: 500 });
        await page.click('#sgais-stop');
      } else {
        assert.ok(step.claims?.length, `${where}: makes a checkable claim`);
        const started = Date.now();
        log.push(...await checkClaims(page, step.claims, where, failures));
        log.push(`  (${where}: ${(Date.now() - started) / 1000} s)`);
        await redraw(page);
      }
      if (['noise', 'bias', 'sweep'].includes(step.figure)) {
        // The figure the text talks about shows this step's setting: the worker's new charts have
        // arrived (a hang guard, not a speed requirement), and the noise chart marks this ε.
        await page.waitForFunction(() => window.sgviz.analysis().stale.length === 0 && window.sgviz.chart('noise'), null, { timeout: 240_000, polling: 250 });
        const eps = step.state?.values?.step_size;
        if (step.figure === 'noise' && eps !== undefined) {
          const marker = await page.evaluate(() => window.sgviz.chart('noise').markers.find((m) => m.label.startsWith('current ε')));
          assert.ok(marker && Math.abs(marker.x - eps) <= 1e-9 * eps, `${where}: the noise chart marks this step's ε = ${eps} (marker ${JSON.stringify(marker)})`);
        }
        await redraw(page);
      }
      await page.$eval('#lesson', (e) => e.scrollIntoView({ block: 'start' }));
      await screenshot(page, `lessons/${lesson.id}-${k + 1}`, { fullPage: false });
    }
  }
  console.log(log.join('\n'));
  assert.deepEqual(failures, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('every preset\'s claims hold at the settings it loads', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  const { presets, lessonClaims } = await page.evaluate(async () => {
    const { LESSONS } = await import('./www/lesson-table.js');
    // Claims a lesson step already checks after loading the same preset need no second run.
    const lessonClaims = LESSONS.flatMap((l) => l.steps.filter((s) => s.preset).flatMap((s) => (s.claims || []).map((c) => `${s.preset} ${JSON.stringify(c)}`)));
    return { presets: (await import('./www/presets.js')).PRESETS.filter((p) => p.claims && !p.sgais), lessonClaims };
  });
  const log = [];
  const failures = [];
  for (const preset of presets) {
    const claims = preset.claims.filter((c) => !lessonClaims.includes(`${preset.id} ${JSON.stringify(c)}`));
    if (!claims.length) { log.push(`preset ${preset.id}: all claims checked by its lesson steps`); continue; }
    const started = Date.now();
    await page.selectOption('#preset', preset.id);
    log.push(...await checkClaims(page, claims, `preset ${preset.id}`, failures));
    log.push(`  (preset ${preset.id}: ${(Date.now() - started) / 1000} s)`);
  }
  console.log(log.join('\n'));
  assert.deepEqual(failures, []);
  assert.deepEqual(errors, []);
  await page.close();
});
