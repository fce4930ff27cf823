// Issue 26, stop 51: what a lesson step's sentence announces is on the first screen with it. BPS
// step 5 (SBPS, k = 0) says "the page reports a runaway (the box under this lesson)": under the
// sliders that box was at 1,232–1,659 px at 1920×1080 and 1,061–1,393 px at 1400×900 (stop 50's
// probe), below the screen while the sentence announced it. With a lesson open beside the plot the
// advice box now follows the lesson (www/app.css). Checked once the page shows the runaway
// (waiting on the box itself, never on time), at both sizes: the sentence whole on screen, the
// runaway paragraph (with its "Discard since then" button) whole on screen and right under the
// lesson, and at least half of the plot on screen.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, waitLoaded, stillScroll } from './harness.mjs';

const env = useBrowser();

/** Boxes (CSS px) of the lesson, its sentence, the runaway paragraph and the plot. */
const boxes = (page) => page.evaluate(() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, height: r.height }; };
  return {
    lesson: box(document.getElementById('lesson')),
    text: box(document.getElementById('lesson-text')),
    runaway: box(document.querySelector('#advice p[data-advice="runaway"]')),
    plot: box(document.getElementById('stack')),
    screen: innerHeight,
  };
});

for (const size of [{ width: 1920, height: 1080 }, { width: 1400, height: 900 }]) {
  test(`BPS step 5 at ${size.width}×${size.height}: the sentence, the runaway box it announces and the plot on the first screen`, async () => {
    const { LESSONS } = await import('../../www/lesson-table.js');
    const step = LESSONS.find((l) => l.id === 'bps').steps[4];
    assert.match(step.text, /the page reports a runaway \(the box under this lesson\)/);
    const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: size });
    await page.click('#lesson-open');
    await page.selectOption('#lesson-choice', 'bps');
    for (let k = 1; k < 5; k += 1) {
      await page.$eval('#lesson-next', (b) => b.click());
      await page.waitForFunction((want) => window.sgviz.lesson()?.step === want, k + 1);
    }
    await waitLoaded(page);
    await page.waitForSelector('#advice p[data-advice="runaway"]', { timeout: 60_000 });
    await stillScroll(page);
    const b = await boxes(page);
    const where = JSON.stringify(b);
    assert.ok(b.text.top >= 0 && b.text.bottom <= b.screen, `sentence on screen: ${where}`);
    assert.ok(b.runaway.top >= 0 && b.runaway.bottom <= b.screen, `runaway box on screen: ${where}`);
    // "Under this lesson": it starts below the lesson, within a line of it.
    assert.ok(b.runaway.top >= b.lesson.bottom && b.runaway.top - b.lesson.bottom < 24, `runaway box under the lesson: ${where}`);
    const plotShown = Math.min(b.plot.bottom, b.screen) - Math.max(b.plot.top, 0);
    assert.ok(plotShown >= 0.5 * b.plot.height, `plot on screen: ${where}`);
    await screenshot(page, `lesson-screen-bps-5-${size.width}`, { fullPage: false });
    assert.deepEqual(errors, []);
    await page.close();
  });
}
