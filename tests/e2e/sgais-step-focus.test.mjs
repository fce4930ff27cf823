// Issue 26: the SGAIS shift lecture's lesson steps 3–4 in class time. Before, one of the six runs
// had reached chunk 1 after step 3's 20 s: the main chain played 500 steps a frame behind the
// panel and the analysis sweep took the pool's one worker (2 cores). Now an SGAIS step in view
// pauses the main chain and the sweep and lends the main thread's core to the pool
// (www/sgais-focus.js, www/jobs.js `lendMainCore`); leaving the step gives them back.
//
// On a page that says it has 2 cores (the pool of one worker, two while lent), through the
// lesson's own buttons: during step 3 the main chain stays still (frames pass, its step count does
// not move), the sweep is held and two workers run the SGAIS runs at once; once the K = 7 pair is
// in, the annealing chart on screen shows what step 3's text names (both runs to n = 12,000, the
// in-order run's annealing steps at the chunks after the change points above every chunk of the
// shuffled run after its first); step 4 keeps the runs, and once all six are in, the sentence under
// the evidence chart names the in-order leader and its log Bayes factors, recomputed here from the
// runs' own final log Ẑ; closing the lesson plays the chain again and restarts the sweep. The
// layout at 1920×1080: the blank beside the lesson column under the table at most an eighth of the
// screen (sgais-panel.test.mjs's bound for step 1). Waits are on state, never the clock.
// Screenshots: test-artifacts/sgais-focus/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, screenshot, frames } from './harness.mjs';

const env = useBrowser();
/** A hang guard for a loaded 2-core machine (the six runs are ≈ 34 CPU s of wasm), not a speed requirement. */
const LIMIT_MS = 900_000;
const PROJECTOR = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };

async function openOnTwoCores() {
  const page = await env.browser.newPage();
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.addInitScript(() => { Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 2 }); });
  await page.setViewportSize(PROJECTOR);
  await page.goto(env.server.url);
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
  return { page, errors };
}

/** The SGAIS section's layout (as sgais-panel.test.mjs reads it). */
function sgaisLayout(page) {
  return page.evaluate(() => {
    const box = (selector) => { const r = document.querySelector(selector).getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; };
    const last = Math.max(...[...document.querySelectorAll('.sgais-grid > :not(.sgais-controls)')].filter((e) => e.getClientRects().length > 0).map((e) => e.getBoundingClientRect().bottom + scrollY));
    return { controls: box('.sgais-controls'), last, screenEnd: box('.sgais').top + innerHeight };
  });
}

async function assertNoBlankBeside(page, where) {
  // Settled: the same boxes in two reads five frames apart.
  let settled = await sgaisLayout(page);
  for (let tries = 0; tries < 40; tries += 1) {
    await frames(page, 5);
    const again = await sgaisLayout(page);
    if (JSON.stringify(again) === JSON.stringify(settled)) break;
    settled = again;
  }
  const { controls, last, screenEnd } = settled;
  const blank = Math.min(controls.bottom, screenEnd) - last;
  assert.ok(blank <= 1080 / 8, `${where}: blank band of ${Math.round(blank)} px under the table beside the lesson column (last item at ${Math.round(last)}, the column at ${Math.round(controls.bottom)}, the screen at ${Math.round(screenEnd)})`);
}

async function shoot(page, name) {
  for (const [label, viewport] of [['projector', PROJECTOR], ['phone', PHONE]]) {
    await page.setViewportSize(viewport);
    await frames(page, 3);
    await page.$eval('#lesson', (e) => e.scrollIntoView({ block: 'start' }));
    await screenshot(page, `sgais-focus/${name}-${label}`, { fullPage: false });
  }
  await page.setViewportSize(PROJECTOR);
  await frames(page, 3);
}

/** The main chain's steps, whether it plays, the sweep's state, the pool, the runs. */
const probe = (page) => page.evaluate(() => {
  const { app } = window.sgviz;
  const summary = window.sgviz.sgais();
  return {
    playing: app.playing, steps: window.sgviz.state().steps, analysis: window.sgviz.analysis(), jobs: window.sgviz.jobs(),
    runs: summary.runs.map((r) => ({ label: r.label, done: r.done, chunks: r.records.length })), step: window.sgviz.lesson()?.step,
  };
});

/** The annealing chart as drawn: each series' label and points. */
const shownAnnealing = (page) => page.evaluate(async () => {
  const { shownSpec } = await import('./www/charts.js');
  const spec = JSON.parse(shownSpec('chart-annealing'));
  return { series: spec.series.map((s) => ({ label: s.label, points: s.points })), markers: spec.markers?.length ?? 0 };
});

/**
 * In the page, for steps that must happen in one task: `__openSgais()` opens the lesson (its own
 * button) and chooses the SGAIS lesson through the menu's change event; `__close()` presses Close.
 */
function defineLessonButtons(page) {
  return page.evaluate(() => {
    window.__openSgais = () => {
      if (document.getElementById('lesson').hidden) document.getElementById('lesson-open').click();
      const choice = document.getElementById('lesson-choice');
      choice.value = 'sgais';
      choice.dispatchEvent(new Event('change'));
    };
    window.__close = () => document.getElementById('lesson-close').click();
  });
}

/** After Close: the chain plays, the sweep is not held and is running or owed (its restart armed). */
async function sweepComesBack(page, where) {
  const now = await probe(page);
  assert.equal(now.analysis.held, false, `${where}: the sweep is no longer held`);
  assert.ok(now.analysis.active || now.analysis.owed, `${where}: the sweep restarts or is owed a restart: ${JSON.stringify(now.analysis)}`);
  await page.waitForFunction(() => window.sgviz.app.playing && window.sgviz.analysis().active && (window.sgviz.jobs().active.sweep ?? 0) >= 1, null, { timeout: 60_000 });
}

// The CI-sized part of issue 26's open item (the full lecture below waits for six runs, in soak):
// every way out of an SGAIS lesson step gives the sweep back. Before the fix, a hold that came
// within the sweep's 600 ms settle delay (a setting changed, the truth arrived, the page had just
// loaded: www/main.js schedules it then) cancelled the armed restart without owing it, so after
// Close the sweep never started again (the soak run's last wait, which timed out once in CI).
test('closing an SGAIS lesson step gives the sweep back: right after a setting change, before its runs, during them, and by a step of another lesson', async () => {
  const { page, errors } = await openOnTwoCores();
  await page.waitForFunction(() => window.sgviz.app.playing && !window.sgviz.app.building && (window.sgviz.analysis().active || window.sgviz.analysis().done), null, { timeout: 120_000 });
  // A setting changes (the slider's own path) and the SGAIS step opens and closes within the settle delay.
  assert.equal(await page.evaluate(() => window.sgviz.app.sampler), 'sgld', 'the page opens on SGLD');
  await defineLessonButtons(page);
  await page.evaluate(() => {
    if (window.sgviz.setParam('step_size', 0.02) !== null) throw new Error('ε = 0.02 refused');
    window.__openSgais();
    window.__close();
  });
  await sweepComesBack(page, 'a setting changed just before');
  // Before the runs start: the step opens (its runs are planned) and closes in the same task.
  await page.evaluate(() => { window.__openSgais(); window.__close(); });
  await sweepComesBack(page, 'closed before its runs started');
  // During the runs: Close once the first chunk is in and the sweep is held.
  await page.evaluate(() => window.__openSgais());
  await page.waitForFunction(() => window.sgviz.analysis().held && !window.sgviz.app.playing && window.sgviz.sgais().runs.some((r) => r.records.length > 0), null, { timeout: 120_000 });
  // Meanwhile the runs have both cores (class-time.test.mjs budgets the SGAIS steps on this pool).
  const during = (await probe(page)).jobs;
  assert.deepEqual([during.pool, during.poolNow], [1, 2], `a 2-core page's pool: one worker, both cores while the step holds the chain: ${JSON.stringify(during)}`);
  await page.evaluate(() => window.__close());
  await sweepComesBack(page, 'closed during its runs');
  // Another lesson's step replaces the SGAIS step (no Close): its chain plays and the sweep runs for it.
  await page.evaluate(() => window.__openSgais());
  await page.waitForFunction(() => window.sgviz.analysis().held, null, { timeout: 30_000 });
  await page.selectOption('#lesson-choice', 'sgld');
  await page.waitForFunction(() => !window.sgviz.app.building && window.sgviz.lesson()?.lesson === 'sgld', null, { timeout: 60_000 });
  await sweepComesBack(page, 'a step of another lesson');
  assert.equal((await probe(page)).jobs.poolNow, 1, 'the main thread has its core back');
  assert.deepEqual(errors, []);
  await page.close();
});

// In `make soak` only (SGVIZ_CLASS_TIME_SOAK=1): it waits for all six shift runs (80 s of the CI's
// browser phase; class-time waits for them in the soak only). In one of two clean-clone CI runs
// its last wait (the sweep restarting within 60 s of Close) timed out. The cause found by reading
// and driving the paths (not seen in that CI's log): this test opens the lesson as soon as the
// chain plays, within the sweep's 600 ms settle delay of the page's load or of the truth's
// arrival, and the hold cancelled that armed restart without owing it (www/analysis.js `hold`,
// fixed); the CI-sized test above drives that path and the others.
const SOAK = process.env.SGVIZ_CLASS_TIME_SOAK === '1';

test('SGAIS shift lecture, steps 3–4: the chain and the sweep wait, the runs get both cores, what the text names is on screen; leaving gives them back', { skip: !SOAK && 'make soak only (SGVIZ_CLASS_TIME_SOAK=1)' }, async () => {
  const { page, errors } = await openOnTwoCores();
  await page.waitForFunction(() => window.sgviz.app.playing && window.sgviz.state().steps > 0 && !window.sgviz.app.building, null, { timeout: 120_000 });
  await page.click('#lesson-open');
  await page.selectOption('#lesson-choice', 'sgais');
  for (const step of [2, 3]) {
    await page.click('#lesson-next');
    await page.waitForFunction((s) => window.sgviz.lesson()?.step === s, step, { timeout: 30_000 });
  }
  await page.waitForFunction(() => window.sgviz.sgais().runs.length === 6 && window.sgviz.sgais().runs[0].label === 'K = 7, in order', null, { timeout: 30_000 });
  const atStart = await probe(page);
  assert.equal(atStart.playing, false, 'the main chain is paused during the SGAIS step');
  assert.equal(atStart.analysis.held, true, 'the sweep is held');
  assert.equal(atStart.jobs.pool, 1, 'a 2-core page keeps one worker when nothing is lent');
  assert.equal(atStart.jobs.poolNow, 2, 'the SGAIS runs have both cores');
  assert.equal(atStart.jobs.active.sweep ?? 0, 0, `no sweep queued or running: ${JSON.stringify(atStart.jobs.active)}`);
  await frames(page, 20);
  assert.equal((await probe(page)).steps, atStart.steps, 'the main chain did not move over 20 frames');
  await shoot(page, 'step3-at-load');

  // The K = 7 pair: both in, run side by side (two workers alive at once).
  await page.waitForFunction(() => window.sgviz.sgais().runs.slice(0, 2).every((r) => r.done), null, { timeout: LIMIT_MS, polling: 250 });
  await page.waitForFunction(() => !window.sgviz.app.sgais.dirty, null, { timeout: 60_000 });
  const pair = await probe(page);
  assert.ok(pair.jobs.workers.peak >= 2, `two workers ran at once: ${JSON.stringify(pair.jobs)}`);
  const annealing = await shownAnnealing(page);
  const curve = (label) => annealing.series.find((s) => s.label === label)?.points ?? [];
  const [inOrder, shuffled] = [curve('K = 7, in order'), curve('K = 7, shuffled')];
  assert.equal(Math.max(...inOrder.map(([n]) => n)), 12_000, `the in-order K = 7 run is drawn to n = 12,000: ${JSON.stringify(annealing.series.map((s) => s.label))}`);
  assert.equal(Math.max(...shuffled.map(([n]) => n)), 12_000, 'the shuffled K = 7 run is drawn to n = 12,000');
  assert.ok(annealing.markers >= 2, `the change points are marked (${annealing.markers})`);
  // The step's sentence: the steps jump at the change points in order; the shuffled run's are scatter.
  const scatter = Math.max(...shuffled.filter(([n]) => n > 1_000).map(([, k]) => k));
  for (const at of [2_000, 11_000]) {
    const k = inOrder.find(([n]) => n === at)?.[1];
    assert.ok(k > scatter, `in order, the chunk ending at n = ${at} needs ${k} annealing steps, above every chunk of the shuffled run after its first (at most ${scatter})`);
  }
  assert.equal(pair.playing, false, 'still paused');
  await assertNoBlankBeside(page, 'step 3, the K = 7 pair in');
  await shoot(page, 'step3-pair-in');

  // Step 4 continues the same runs.
  const chunksBefore = pair.runs.map((r) => r.chunks);
  await page.click('#lesson-next');
  await page.waitForFunction(() => window.sgviz.lesson()?.step === 4, null, { timeout: 30_000 });
  const step4 = await probe(page);
  assert.ok(step4.runs.every((r, k) => r.chunks >= chunksBefore[k]) && step4.runs.length === 6, `the runs are kept: ${JSON.stringify(step4.runs)} vs ${chunksBefore}`);
  assert.equal(step4.playing, false, 'still paused at step 4');
  await page.waitForFunction(() => window.sgviz.sgais().wallSeconds !== null, null, { timeout: LIMIT_MS, polling: 500 });
  const shown = await page.evaluate(() => {
    const { runs } = window.sgviz.sgais();
    const final = Object.fromEntries(runs.filter((r) => r.label.endsWith('in order')).map((r) => [Number(r.label.match(/K = (\d+)/)[1]), r.records.at(-1).log_z]));
    const sentence = document.getElementById('sgais-comparison');
    const box = sentence.getBoundingClientRect();
    return { final, text: sentence.textContent, height: box.height, visible: sentence.checkVisibility() };
  });
  assert.ok(shown.visible && shown.height > 0, 'the sentence under the chart is shown');
  const ks = Object.keys(shown.final).map(Number);
  assert.deepEqual(ks.sort(), [3, 5, 7], `three in-order runs: ${JSON.stringify(shown.final)}`);
  const winner = ks.reduce((a, b) => (shown.final[a] >= shown.final[b] ? a : b));
  assert.match(shown.text, new RegExp(`K = ${winner} has the highest log Ẑ`), `the leader by the runs' own log Ẑ (${JSON.stringify(shown.final)}) is named`);
  // Its log Bayes factors at n = 12,000, as the differences of the runs' final log Ẑ (to the 2 decimals shown).
  const phrase = 'at n = 12,000 its estimated log Bayes factor is';
  assert.ok(shown.text.includes(phrase), `the sentence states the Bayes factors at n = 12,000: ${shown.text}`);
  const factors = shown.text.slice(shown.text.indexOf(phrase));
  for (const k of ks.filter((k) => k !== winner)) {
    const stated = Number(factors.match(new RegExp(`([\\d,]+\\.\\d+) nats over K = ${k}\\b`))?.[1].replace(/,/g, ''));
    assert.ok(Math.abs(stated - (shown.final[winner] - shown.final[k])) <= 0.006, `log Bayes factor over K = ${k}: stated ${stated}, the runs give ${(shown.final[winner] - shown.final[k]).toFixed(3)} (${shown.text})`);
  }
  await assertNoBlankBeside(page, 'step 4, all six runs in');
  await shoot(page, 'step4-all-in');

  // Leaving the step (closing the lesson): the chain plays again, the sweep starts over.
  await page.click('#lesson-close');
  await page.waitForFunction((s) => window.sgviz.app.playing && window.sgviz.state().steps > s, step4.steps, { timeout: 60_000 });
  await page.waitForFunction(() => !window.sgviz.analysis().held && (window.sgviz.analysis().active || window.sgviz.analysis().done), null, { timeout: 60_000 });
  const after = await probe(page);
  assert.equal(after.jobs.poolNow, 1, 'the main thread has its core back');
  assert.deepEqual(errors, []);
  await page.close();
});
