// Class time (issue 26), shared by the files that check claims the way a lecture shows them
// (class-time.test.mjs for the lesson steps and the presets with claims, figures-B.test.mjs for the
// SBPS figures' chains in the same page load that waits for their scans; issue 23: each preset is
// loaded once): the work the page does in 20 s at 60 fps — its speed (steps per frame) × 1,200
// frames, the compared chain following at the same gradient budget, as the frame loop does —
// driven deterministically through the chain's own `run`, and the screenshots of what it shows at
// 1920×1080 (projector) and 390×844 (phone), test-artifacts/class-time/.
//
// The frame loop's work per frame (www/playback.js): `speed` steps, except that a bouncy sampler at
// speed ≤ 3 animates one path piece over 12 frames. Those two numbers are the page's behaviour,
// restated here so that a change of them shows up as a change of what class time covers.

import { screenshot, pauseAndRestart } from './harness.mjs';
import { checkClaimAt } from './lesson-checks.mjs';
import { charge } from './cpu-split.mjs';

/** 20 s at 60 fps. */
export const CLASS_FRAMES = 1_200;
/** www/playback.js: at or below this speed a bouncy sampler animates one piece per 12 frames. */
const ANIMATE_BELOW_SPEED = 3;
const FRAMES_PER_PIECE = 12;
/** Steps per page call while driving a chain (keeps each evaluate short). */
const CHUNK_STEPS = 50_000;

export const PROJECTOR = { width: 1920, height: 1080 };
export const PHONE = { width: 390, height: 844 };

/** Sampler steps the frame loop takes in CLASS_FRAMES frames at `speed`. */
function classSteps(speed, bouncy) {
  return bouncy && speed <= ANIMATE_BELOW_SPEED ? Math.floor(CLASS_FRAMES / FRAMES_PER_PIECE) : speed * CLASS_FRAMES;
}

/** The loaded chain's speed (steps per frame) and whether it is a bouncy sampler. */
async function chainSpeed(page) {
  return page.evaluate(() => {
    const { app } = window.sgviz;
    return { speed: app.speed, bouncy: app.registry.samplers.find((s) => s.name === app.sampler).kind === 'bouncy' };
  });
}

/**
 * Run the loaded chain on to `steps` steps since its restart (the compared one following);
 * returns its counters.
 */
async function runClassTime(page, steps, speed) {
  const { steps: taken } = await page.evaluate(() => window.sgviz.state());
  for (let done = taken; done < steps; done += CHUNK_STEPS) {
    await page.evaluate((n) => {
      const { app } = window.sgviz;
      app.lab.run(n);
      if (app.compare?.enabled && app.compare.lab) {
        const target = app.lab.grad_evals();
        let cs = JSON.parse(app.compare.lab.state_json());
        while (!cs.diverged && cs.grad_evals < target) {
          const perStep = cs.steps > 0 ? cs.grad_evals / cs.steps : 0;
          const behind = perStep > 0 ? Math.ceil((target - cs.grad_evals) / perStep) : 1;
          app.compare.lab.run(Math.max(1, Math.min(behind, 50_000)));
          cs = JSON.parse(app.compare.lab.state_json());
        }
      }
    }, Math.min(CHUNK_STEPS, steps - done));
  }
  await mixingOfCurrentSamples(page);
  const state = await page.evaluate(() => window.sgviz.state());
  return { speed, steps, samples: state.n_samples, diverged: state.diverged };
}

/**
 * The ESS worker's answers (www/mixing.js) for the chains' samples now, which the lesson's claims
 * about the ESS read (issue 26, stop 48: computed off the main thread, they arrive a message later).
 */
async function mixingOfCurrentSamples(page) {
  await page.evaluate(async () => {
    const { requestMixing } = await import('./www/mixing.js');
    for (const lab of window.sgviz.mixingChains()) requestMixing(lab, () => {});
  });
  await page.waitForFunction(() => window.sgviz.mixingChains().every((lab) => window.sgviz.mixingOf(lab)?.recorded === lab.n_recorded()), null, { timeout: 60_000, polling: 100 });
}

/**
 * A step's or preset's claims at the settings it loads and after 20 s of class time, on one
 * seeded trajectory (issue 23: these were two runs from the same restart, one to the claims'
 * sample counts and one to class time): the chains restarted; each claim of `claims` checked when
 * the chain reaches its `after_samples` (lesson-checks.mjs `checkClaimAt`); at speed × 1,200 frames
 * `atClassTime(run)` reads what the page shows; then the claims that need more samples than class
 * time draws. A chain's state after n steps does not depend on how the steps were split into
 * calls, so a reading at the same step is the one a separate run from the restart gives (the
 * logged values of both ways agree to the last digit where they were read at the same step;
 * BENCHMARKS.md, "Fifth round"). A claim is read at the end of the page call that reaches its
 * `after_samples`, and calls stop at the class-time step count, so a bouncy chain (about 16
 * samples per step) is read nearer its `after_samples` than before. Returns the log lines.
 */
export async function claimsAndClassTime(page, claims, where, failures, atClassTime) {
  await pauseAndRestart(page);
  const { speed, bouncy } = await chainSpeed(page);
  const steps = classSteps(speed, bouncy);
  const lines = [];
  const pending = [...claims].sort((a, b) => (a.after_samples || 0) - (b.after_samples || 0));
  while (pending.length) {
    const line = await checkClaimAt(page, pending[0], where, failures, steps);
    if (line === null) break;
    lines.push(line);
    pending.shift();
  }
  charge('claims at settings');
  const run = await runClassTime(page, steps, speed);
  charge('class-time run');
  await atClassTime(run);
  for (const claim of pending) lines.push(await checkClaimAt(page, claim, where, failures));
  charge('claims at settings');
  return lines;
}

/** Redraw the panel and charts as a frame would (the page is paused). */
async function redraw(page) {
  await page.evaluate(async () => {
    const { draw, drawCharts } = await import('./www/view.js');
    draw();
    drawCharts();
  });
}

/** Screenshots of the current view on the projector and on the phone, `focus` scrolled into view. */
export async function shoot(page, name, focus) {
  for (const [label, viewport] of [['projector', PROJECTOR], ['phone', PHONE]]) {
    charge('(before screenshots)');
    await page.setViewportSize(viewport);
    await redraw(page);
    await page.$eval(focus, (e) => e.scrollIntoView({ block: 'start' }));
    charge(`screenshot ${label}: resize + redraw`);
    await screenshot(page, `class-time/${name}-${label}`, { fullPage: false });
    charge(`screenshot ${label}: capture`);
  }
  await page.setViewportSize(PROJECTOR);
  charge('screenshot: back to projector');
}

/**
 * A preset's claims (those no lesson step checks: `claims`) at the settings it loads and after 20 s
 * of class time, read by the page's own predicates (www/claims.js), with its screenshots (`#stack`
 * in view). The preset must be loaded. Pushes lines to `log`, failed ones also to `failures`.
 */
export async function checkPresetAtClassTime(page, preset, claims, log, failures) {
  const atClassTime = async (classRun) => {
    const results = await page.evaluate(async (cs) => {
      const { check, describe } = await import('./www/claims.js');
      const { app } = window.sgviz;
      const withMixing = (lab) => ({ ...JSON.parse(lab.state_json()), mixing: JSON.parse(lab.mixing_json()) });
      const state = withMixing(app.lab);
      const compareState = app.compare?.enabled && app.compare.lab ? withMixing(app.compare.lab) : undefined;
      return cs.map((c) => ({ text: describe(c), ...check(c, state, compareState) }));
    }, preset.claims);
    for (const r of results) {
      const line = `preset ${preset.id} (speed ${classRun.speed}, ${classRun.steps} steps, ${classRun.samples} samples): ${r.text} (now ${r.value})${r.ready ? '' : ' NOT READY'}`;
      log.push(line);
      if (!(r.ready && r.ok)) failures.push(line);
    }
  };
  log.push(...await claimsAndClassTime(page, claims, `preset ${preset.id}`, failures, atClassTime));
  await shoot(page, `preset-${preset.id}`, '#stack');
}
