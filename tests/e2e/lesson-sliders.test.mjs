// Issue 26 (stop 52's review): a lesson step that asks the student to move a slider, or points at
// the note beside it, shows that slider and its note on screen with its sentence and its figure.
// BPS step 5's k slider and warning were below the screen at 1400×900, the cost lesson's step 2
// note at y = 1,258 on a 900 px screen, SGLD step 3's warning beside n above it. Every step with
// `sliders` (www/lesson-table.js) at 1920×1080, 1400×900 and 1280×720 × 1.5, playing for 2 s of its
// class-time work (the warnings measured from the chain come by then; waited on the chain's step
// count, never on time): the sentence whole on screen, each named slider (beside the plot, or the
// analysis panel's copy beside a chart) whole on screen, its note (where one shows) whole on screen,
// at least half of the figure on screen; and beside the plot no blank strip right of the controls
// (≈ 160 px at 1280×720 × 1.5, where the controls' column stopped at 30rem).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, waitLoaded, stillScroll, scaledContext } from './harness.mjs';
import { stepLayout, layoutFaults, screenFaults } from './class-layouts-checks.mjs';

const env = useBrowser();

/** Seconds of the step's class-time work (its steps per second × this) before it is read. */
const PLAYED_SECONDS = 2;
/** The widest blank strip right of the controls beside the plot (CSS px): the stage's own gap. */
const STRIP_PX = 24;

/** Where each of `names`' sliders and notes are (every copy shown), the sentence's box and the stage's blank right strip. */
const sliderBoxes = (page, names) => page.evaluate((list) => {
  const box = (e) => { if (!e || e.hidden || !e.checkVisibility()) return null; const r = e.getBoundingClientRect(); return { top: Math.round(r.top), bottom: Math.round(r.bottom) }; };
  const sliders = Object.fromEntries(list.map((name) => [name, {
    sliders: [`param-${name}`, `analysis-${name}`].map((id) => box(document.getElementById(id))).filter(Boolean),
    notes: [`param-${name}-warning`, `analysis-${name}-warning`].map((id) => box(document.getElementById(id))).filter(Boolean),
  }]));
  const stage = document.querySelector('.layout > .stage').getBoundingClientRect();
  const right = Math.max(...[...document.querySelectorAll('.stage > *')].filter((k) => k.checkVisibility()).map((k) => k.getBoundingClientRect().right));
  return { sliders, strip: Math.round(stage.right - right), screen: innerHeight };
}, names);

const whole = (b, screen) => b.top >= -1 && b.bottom <= screen + 1;

/**
 * Faults known and not yet fixed, printed when met. (Stop 53's one, BPS step 5's k note below
 * 1920×1080 under the runaway box, was fixed at stop 54: the column is 30rem wide beside a lesson
 * with an advice box, www/app.css.) Any other fault fails the test.
 */
const KNOWN = new Set([]);

/** Steps whose sentence promises a runaway box: read once the core has reported it (deterministic layout). */
const RUNAWAY_STEPS = new Set(['bps 5']);

for (const size of [{ width: 1920, height: 1080, ratio: 1 }, { width: 1400, height: 900, ratio: 1 }, { width: 1280, height: 720, ratio: 1.5 }]) {
  const label = `${size.width}x${size.height}${size.ratio === 1 ? '' : `@${size.ratio}`}`;
  test(`${label}: every lesson step's sliders to move and their notes on screen with its sentence and figure; no blank strip beside the controls`, async () => {
    const { LESSONS } = await import('../../www/lesson-table.js');
    const steps = LESSONS.flatMap((l) => l.steps.map((s, i) => ({ id: l.id, n: i + 1, step: s }))).filter((s) => s.step.sliders);
    // The declaration covers what the steps ask: every slider a step's action tries is named.
    for (const s of steps.concat(LESSONS.flatMap((l) => l.steps.map((step, i) => ({ id: l.id, n: i + 1, step }))).filter((s) => s.step.tryValues && !s.step.sliders))) {
      for (const name of Object.keys(s.step.tryValues ?? {})) if (name !== 'beta_hat') assert.ok(s.step.sliders?.includes(name), `${s.id} ${s.n} tries ${name} but does not name its slider`);
    }
    const context = size.ratio === 1 ? env.browser : await scaledContext(env.browser, { width: size.width, height: size.height }, size.ratio);
    const { page, errors } = await openApp(context, env.server.url, '', { viewport: { width: size.width, height: size.height } });
    await page.click('#lesson-open');
    const found = [];
    for (const { id, n, step } of steps) {
      const where = `${label} ${id} ${n}`;
      await page.selectOption('#lesson-choice', id);
      await waitLoaded(page);
      for (let k = 1; k < n; k += 1) {
        await page.$eval('#lesson-next', (b) => b.click());
        await page.waitForFunction((want) => window.sgviz.lesson()?.step === want, k + 1);
        await waitLoaded(page);
      }
      await page.waitForFunction((seconds) => window.sgviz.state().steps >= window.sgviz.promisedStepsPerS() * seconds || window.sgviz.state().diverged, PLAYED_SECONDS, { timeout: 120_000, polling: 100 });
      if (RUNAWAY_STEPS.has(`${id} ${n}`)) await page.waitForFunction(() => document.querySelector('#advice [data-advice=runaway]')?.checkVisibility(), null, { timeout: 120_000, polling: 100 });
      // The page follows the plot's growth and the warnings' arrival until the reader scrolls: still.
      await stillScroll(page);
      found.push(...await screenFaults(page, where, size));
      found.push(...layoutFaults(where, await stepLayout(page, step.figure)));
      const b = await sliderBoxes(page, step.sliders);
      // At every size, 1280×720 × 1.5 too (stop 54: there SGHMC step 2's friction slider was above
      // the screen with its trace, and SGLD step 2's ε note 38 px below it).
      for (const [name, { sliders, notes }] of Object.entries(b.sliders)) {
        if (!sliders.some((s) => whole(s, b.screen))) found.push(`${where}: no ${name} slider whole on screen ${JSON.stringify(sliders)}`);
        const noteFault = `${where}: ${name}'s note not on screen`;
        if (notes.length && !notes.some((s) => whole(s, b.screen))) {
          if (KNOWN.has(noteFault)) console.log(`known, not fixed: ${noteFault} ${JSON.stringify(notes)}`);
          else found.push(`${noteFault} ${JSON.stringify(notes)}`);
        }
      }
      if (step.figure === 'plot' && b.strip > STRIP_PX) found.push(`${where}: a blank strip of ${b.strip} px right of the controls`);
      await screenshot(page, `lesson-sliders/${label}-${id}-${n}`, { fullPage: false });
    }
    console.log(found.join('\n'));
    assert.deepEqual(found, []);
    assert.deepEqual(errors, []);
    await page.close();
    if (context !== env.browser) await context.close();
  });
}
