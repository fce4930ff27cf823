// Heavy work runs in Web Workers and the main thread's work per frame is bounded (issue 16).
// These tests pin the structure, not the clock: the main thread's wasm instance counts the heavy
// entry points it ran (`window.sgviz.entryCounts()`: sweep, truth, sgais, large_build) and must
// run none of them; per-frame work units stay within the page's explicit limits
// (`window.sgviz.frameWork()`); a click is handled while a sweep runs. Waits are on state, with
// generous limits sized for a loaded 2-core machine (documented per wait); nothing asserts time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, waitForPainted, mainThreadHeavyCalls } from './harness.mjs';
import { checkShiftRuns } from './shift-checks.mjs';

const env = useBrowser();
/** Generous limit for a background job (sweep, truth, 10⁶-row build) on a busy 2-core machine. */
const JOB_LIMIT_MS = 240_000;
/**
 * Hang guard for the test-scale shift demo: 6 runs of 20,000 points one after another on the one
 * worker a 2-core machine's pool has (one fewer than cores, www/jobs.js); 405 s measured at load ≈ 18,
 * not finished in 900 s at load ≈ 25 (2026-11-26): `make soak` only.
 */
const SHIFT_LIMIT_MS = 1_800_000;
/**
 * `make soak` (SGVIZ_WORKERS_SOAK=1, scripts/soak.sh) runs the shift demo at 20,000 points with
 * the paper's 50 particles; `make test` checks that the lecture-scale runs start in the page
 * (class-time.test.mjs's shift steps), the in-order spike natively (tests/sgais.rs) and the page's
 * K = 7 lecture pair natively (tests/sgais_shift_orders.rs); the finished lecture-scale runs are
 * class-time's under SGVIZ_CLASS_TIME_SOAK=1 (issue 23, twelfth round (browser)).
 */
const WORKERS_SOAK = process.env.SGVIZ_WORKERS_SOAK === '1';

async function assertFrameWorkBounded(page) {
  const work = await page.evaluate(() => window.sgviz.frameWork());
  assert.ok(work.frames > 10, `${work.frames} frames counted`);
  for (const [kind, limit] of Object.entries(work.limits)) assert.ok(work.max[kind] <= limit, `${kind}: ${work.max[kind]} per frame > ${limit}`);
  return work;
}

test('linear regression with N = 10⁶: the data and the exact posterior are built in a worker and adopted', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  await page.selectOption('#target', 'linreg');
  await page.evaluate(() => window.sgviz.setParam('n_points', 1_000_000));
  await page.waitForFunction(() => window.sgviz.state().n_data === 1_000_000, null, { timeout: JOB_LIMIT_MS });
  await page.waitForFunction(() => !window.sgviz.state().truth_pending, null, { timeout: JOB_LIMIT_MS });
  const steps = await page.evaluate(() => window.sgviz.state().steps);
  await page.waitForFunction((s) => window.sgviz.state().steps > s + 100, steps, { timeout: JOB_LIMIT_MS });
  assert.deepEqual(await mainThreadHeavyCalls(page), {});
  assert.ok((await page.evaluate(() => window.sgviz.jobs().started.prepare)) >= 1);
  assert.deepEqual(errors, []);
  await page.close();
});

// The mixture preset (SGLD Fig. 1: truth and its scheduled sweep in workers, clicks handled while
// the sweep runs, 10⁵ samples within the frame budget) is checked in annealed-tradeoff.test.mjs,
// on the sweep of the Fig. 2 preset, whose state is the same (one sweep instead of two; issue 23).

test('logistic regression with N = 10⁶ and SGFS-f: data, truth and sweep are built in workers', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  await page.selectOption('#target', 'logreg');
  await page.selectOption('#sampler', 'sgfs_f');
  await page.evaluate(() => window.sgviz.setParam('n_points', 1_000_000));
  await page.waitForFunction(() => window.sgviz.state().n_data === 1_000_000, null, { timeout: JOB_LIMIT_MS });
  await page.evaluate(() => window.sgviz.resetFrameWork());
  await page.waitForFunction(() => !window.sgviz.state().truth_pending, null, { timeout: JOB_LIMIT_MS });
  await page.waitForFunction(() => window.sgviz.analysis().active || window.sgviz.analysis().done, null, { timeout: JOB_LIMIT_MS });
  const steps = await page.evaluate(() => window.sgviz.state().steps);
  await page.waitForFunction((s) => window.sgviz.state().steps > s + 100, steps, { timeout: JOB_LIMIT_MS });
  assert.deepEqual(await mainThreadHeavyCalls(page), {});
  await assertFrameWorkBounded(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('distribution-shift demo at 20,000 points: runs in workers, spikes at the change points, the comparison names the winner (make soak)', { skip: !WORKERS_SOAK && 'make soak (SGVIZ_WORKERS_SOAK=1); make test: the lecture-scale runs start in class-time.test.mjs, the spike natively' }, async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  // The paper's design at a fifth of its size (change points at 1,000 and 10,000 as in the paper);
  // `make bench` runs the full 100,000 points and reports its wall time.
  await page.evaluate(() => window.sgviz.app.sgais.applyPreset('shift', { n_points: 20_000 }));
  await page.waitForFunction(() => window.sgviz.sgais().wallSeconds !== null, null, { timeout: SHIFT_LIMIT_MS, polling: 1000 });
  // Fig. 5b: every in-order model needs more annealing steps for the chunk that takes in a change
  // point than its neighbours. Seeded run: spikes 22–36 vs medians 3–4 at n = 1,000, 6–19 vs 3–4 at
  // n = 10,000 measured; the factors below leave margin below what was measured.
  const { failures, spikes } = await checkShiftRuns(page, { runs: 6, factors: { 1000: 3, 10000: 1.5 } });
  console.log(spikes.join('\n'));
  assert.deepEqual(failures, []);
  await page.$eval('#sgais-title', (e) => e.scrollIntoView());
  await waitForPainted(page, '#chart-evidence', 500);
  await screenshot(page, 'workers-sgais-shift');
  assert.deepEqual(errors, []);
  await page.close();
});

test('SGAIS linear regression: replicas give log Ẑ ± SE with the ESS explained; Stop terminates at once', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  await page.evaluate(() => window.sgviz.app.sgais.applyPreset('linreg', { n_points: 4000 }));
  await page.waitForFunction(() => window.sgviz.sgais().wallSeconds !== null, null, { timeout: JOB_LIMIT_MS, polling: 1000 });
  const summary = await page.evaluate(() => window.sgviz.sgais());
  const group = summary.combined.groups[0].summary;
  assert.equal(group.replicas, 4);
  assert.equal(group.finished, 4);
  assert.ok(group.log_z.se > 0, 'a standard error from independent replicas');
  assert.match(await page.textContent('#sgais-table'), /±/);
  assert.match(await page.textContent('#sgais-ess-note'), /ESS/);
  // The replica agreement check (src/sgais/agreement.rs) is in the ESS note and the table; four
  // linear-regression replicas agree (their sd is below what the weights predict, measured).
  assert.equal(group.agreement.replicas, 4);
  assert.ok(await page.textContent('#sgais-ess-note').then((t) => t.includes(group.agreement.text)));
  assert.match(await page.textContent('#sgais-table'), /sd [0-9.]+, range [0-9.]+\)/);
  assert.equal(group.agreement.disagree, false);
  assert.equal(await page.textContent('#sgais-agreement'), '');
  assert.equal(summary.combined.ais.length, 3, 'three full-data AIS baselines');
  // The surprise rule (registry surprise_rule: auto = off on stationary data): no chunk boosted,
  // no sentence about it.
  assert.ok(summary.runs.every((r) => r.records.every((c) => c.boosted === false)), 'auto: no chunk boosted on stationary data');
  assert.doesNotMatch(await page.textContent('#sgais-ess-note'), /Surprise rule/);
  assert.deepEqual(await mainThreadHeavyCalls(page), {});
  await page.$eval('#sgais-title', (e) => e.scrollIntoView());
  await waitForPainted(page, '#chart-evidence', 500);
  await screenshot(page, 'workers-sgais-linreg');
  // With the rule on the note says which chunks got the extra work (src/sgais/surprise_note.rs):
  // on these stationary data only the first chunk, which the rule always boosts.
  await page.evaluate(() => window.sgviz.app.sgais.applyPreset('linreg', { n_points: 3000, surprise_rule: 2 }));
  await page.waitForFunction(() => window.sgviz.sgais().wallSeconds !== null, null, { timeout: JOB_LIMIT_MS, polling: 1000 });
  const ruled = await page.evaluate(() => window.sgviz.sgais());
  const sgaisRuns = ruled.runs.filter((r) => !r.ais && !r.ns);
  assert.ok(sgaisRuns.every((r) => r.records[0].boosted === true), 'the rule on: every replica\'s first chunk boosted');
  assert.equal(await page.textContent('#sgais-ess-note').then((t) => t.includes(ruled.combined.surprise_note)), true);
  assert.match(ruled.combined.surprise_note, /^Surprise rule: extra annealing work for the first chunk of each run/);
  await page.$eval('#sgais-ess-note', (e) => e.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'workers-sgais-surprise-note', { fullPage: false });
  // The paper's settings start as a preset; Stop cancels every job at once.
  await page.click('#sgais-preset-paper');
  await page.waitForFunction(() => (window.sgviz.jobs().active.sgais || 0) > 0, null, { timeout: JOB_LIMIT_MS });
  await page.click('#sgais-stop');
  assert.deepEqual(await page.evaluate(() => window.sgviz.jobs().active.sgais || 0), 0);
  assert.equal(await page.textContent('#sgais-status'), 'Stopped.');
  // Issue 26: the paper's settings (no resampling) end at ESS ≈ 1 of M = 10; the note under the
  // table says why, not only that (the same preset at 2,000 points: four chunks of 500).
  await page.evaluate(() => window.sgviz.app.sgais.applyPreset('paper', { n_points: 2000 }));
  await page.waitForFunction(() => window.sgviz.sgais().wallSeconds !== null, null, { timeout: JOB_LIMIT_MS, polling: 1000 });
  const paperNote = await page.textContent('#sgais-ess-note');
  assert.match(paperNote, /weights collapsed \(ESS 1\.\d of M = 10\)/, paperNote);
  assert.match(paperNote, /never resample \(Resampling: off/, paperNote);
  await page.$eval('#sgais-ess-note', (e) => e.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'workers-sgais-paper-note', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
