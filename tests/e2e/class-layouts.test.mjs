// Issue 26, stop-40 review: the layouts a lecture meets beyond 1400×900.
// 1. The SBPS figure charts on a phone (390×844): no horizontal overflow, no chart text printed over
//    other text or outside its canvas, and a data area that has not collapsed (the review: the band
//    chart's plot area ≈ 20 px, ticks "50" and "0" overprinting, "0.047790086" over "0.0025").
// 2. Every lesson's first step (in `make test` the three whose layout once failed) at 1280×720 with a device scale factor of 1.5 (a laptop at 150 %), at
//    1920×1080 with Large text, and in present mode: no horizontal overflow, the step's text on
//    screen top to bottom, at least half of the step's figure (or half a screen of it) on screen,
//    and no control on screen lying under another element (present mode's bar lay over a slider).
// One page per test, several steps each; every wait is on the page's state, never on time.
// Screenshots go to test-artifacts/layouts/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, waitLoaded, chartLayout, scaledContext } from './harness.mjs';
import { sgaisLessonLayoutFailures } from './sgais-lesson-layout.mjs';
import { stepLayout, coveredControls, layoutFaults, screenOf, screenFaults, textFaults, chartTextFaults, columnBandFaults, waitForFigure } from './class-layouts-checks.mjs';

const env = useBrowser();
const PHONE = { width: 390, height: 844 };

const overflow = (page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, screen: innerWidth }));

test('phone (390×844): every SBPS figure chart fits: no overflow, no overprinting, a data area that has not collapsed', async () => {
  const { SBPS_FIGURES } = await import('../../www/figures/sbps.js');
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: PHONE, reducedMotion: true });
  // The page's chart module, for the synchronous wait below (the one instance the page uses).
  await page.evaluate(async () => { window.__charts = await import('./www/charts.js'); });
  const found = [];
  for (const figure of SBPS_FIGURES.filter((f) => f.scan || f.live)) {
    await page.selectOption('#preset', figure.id);
    await waitLoaded(page);
    // A chart with at least two points drawn at this size (a scan's first points, or the live band).
    await page.waitForFunction(() => {
      const spec = window.__charts.shownSpec('chart-figure');
      const canvas = document.getElementById('chart-figure');
      return spec && JSON.parse(spec).series.some((s) => s.points.length >= 2) && window.sgviz.drawingScales().charts['chart-figure'] && canvas.width === Math.round(canvas.clientWidth * devicePixelRatio);
    }, null, { timeout: 240_000, polling: 500 });
    const layout = await chartLayout(page, 'chart-figure');
    const wide = await overflow(page);
    if (wide.scroll > wide.screen + 1) found.push(`${figure.id}: page ${wide.scroll} px wide on a ${wide.screen} px screen`);
    found.push(...layout.pairs.map((p) => `${figure.id}: ${p}`));
    if (layout.outside.length) found.push(`${figure.id}: text outside the canvas: ${layout.outside.join(', ')}`);
    // Collapsed: the review's ≈ 20 px. A data area at least 40 % of the canvas each way, and 120 px.
    if (layout.plot.height < Math.max(120, 0.4 * layout.css.height) || layout.plot.width < Math.max(120, 0.4 * layout.css.width)) found.push(`${figure.id}: data area ${Math.round(layout.plot.width)}×${Math.round(layout.plot.height)} CSS px in a ${layout.css.width}×${layout.css.height} canvas`);
    if (layout.texts < 4) found.push(`${figure.id}: only ${layout.texts} texts drawn`);
    await page.$eval('#figure-scan', (e) => e.scrollIntoView({ block: 'start' }));
    await screenshot(page, `layouts/sbps-phone-${figure.id}`, { fullPage: false });
  }
  assert.deepEqual(found, []);
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * The lessons whose first step's layout failed once (commit 087a4b4: in present mode sghmc's and
 * cost's 32 px text ran past the slide, sgais's too, and at 1280×720 sgais's text came under its
 * controls): `make test` checks these, `make soak` (SGVIZ_CLASS_TIME_SOAK=1) every lesson (issue 23,
 * BENCHMARKS.md "CI time, thirteenth round").
 */
const LAYOUT_LESSONS_CI = ['sghmc', 'cost', 'sgais'];

const LAPTOP = { width: 1280, height: 720, ratio: 1.5 };

test('the first step of the lessons whose layout once failed (every lesson\'s in make soak) at 1280×720 × 1.5, at 1920×1080 with Large text and in present mode: no overflow, its text and its figure on screen, no control covered', async () => {
  const { LESSONS: ALL_LESSONS } = await import('../../www/lesson-table.js');
  const LESSONS = process.env.SGVIZ_CLASS_TIME_SOAK ? ALL_LESSONS : ALL_LESSONS.filter((l) => LAYOUT_LESSONS_CI.includes(l.id));
  assert.equal(LESSONS.length, process.env.SGVIZ_CLASS_TIME_SOAK ? ALL_LESSONS.length : LAYOUT_LESSONS_CI.length, 'every CI lesson id names a lesson');
  // A laptop at 150 %: 1280×720 CSS px drawn on 1920×1080 device pixels, the context's own scale.
  const laptop = await scaledContext(env.browser, { width: LAPTOP.width, height: LAPTOP.height }, LAPTOP.ratio);
  const opened = await openApp(laptop, env.server.url, '', { reducedMotion: true });
  let { page } = opened;
  const errors = [opened.errors];
  const found = [];
  const log = [];
  const check = async (label, lesson, want) => {
    const figure = lesson.steps[0].figure;
    await page.waitForFunction(() => !document.getElementById('lesson').hidden && document.getElementById('lesson-text').textContent.length > 0, null, { timeout: 60_000 });
    // The page scrolls the figure into view (www/lessons.js scrollToFigure): wait until it is still.
    await page.waitForFunction(() => new Promise((ok) => { const y = scrollY; requestAnimationFrame(() => requestAnimationFrame(() => ok(scrollY === y))); }), null, { timeout: 10_000 });
    const l = await stepLayout(page, figure);
    log.push(`${label} ${lesson.id} 1: text ${Math.round(l.text.top)}–${Math.round(l.text.bottom)} (${l.textPx} px), ${figure} ${l.figure && `${Math.round(l.figure.top)}–${Math.round(l.figure.bottom)}`}, width ${l.scroll}/${l.screen.width}, ×${(await screenOf(page)).ratio}`);
    if (want) found.push(...await screenFaults(page, `${label} ${lesson.id} 1`, want));
    found.push(...layoutFaults(`${label} ${lesson.id} 1`, l));
    found.push(...(await coveredControls(page)).map((c) => `${label} ${lesson.id} 1: ${c}`));
    await screenshot(page, `layouts/${label}-${lesson.id}-1`, { fullPage: false });
  };
  await page.click('#lesson-open');
  for (const lesson of LESSONS) {
    await page.selectOption('#lesson-choice', lesson.id);
    await waitLoaded(page);
    await check('1280x720@1.5', lesson, LAPTOP);
  }
  await page.close();
  await laptop.close();
  // A projector with Large text.
  const projector = await openApp(env.browser, env.server.url, '', { viewport: { width: 1920, height: 1080 }, reducedMotion: true });
  page = projector.page;
  errors.push(projector.errors);
  await page.click('#large-font');
  await page.waitForFunction(() => document.getElementById('large-font').getAttribute('aria-pressed') === 'true');
  await page.click('#lesson-open');
  for (const lesson of LESSONS) {
    await page.selectOption('#lesson-choice', lesson.id);
    await waitLoaded(page);
    await check('1920x1080-large', lesson, { width: 1920, height: 1080, ratio: 1 });
  }
  await page.click('#large-font');
  // Present mode, one slide per lesson's first step.
  for (const lesson of LESSONS) {
    await page.goto(`${env.server.url}?present=${lesson.id}`);
    await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
    await waitLoaded(page);
    await check('present', lesson);
  }
  console.log(log.join('\n'));
  assert.deepEqual(found, []);
  assert.deepEqual(errors.flat(), []);
  await page.close();
});

/**
 * Issue 26 (stop 46): Large text at every lesson step, at 1920×1080 and 1400×900. `make test` checks
 * a sample of steps (each lesson's hardest one for its size: a chart-led step, a comparing step,
 * the longest sentence); `make soak` (SGVIZ_CLASS_TIME_SOAK=1) every step of every lesson.
 */
// sgais 2 and 4 at 1400×900 (classfix s47): a page 1,456 px wide under three ≈ 290 px charts, and a
// sentence ending 4 px below the screen.
const LARGE_TEXT_STEPS_CI = [['sgld', 3], ['sghmc', 4], ['bps', 2], ['sgais', 2], ['sgais', 4]];

test('Large text at 1920×1080 and 1400×900, lesson steps (every step in make soak): no overflow, text and figure on screen, no control covered, no page or chart text under 24 px', async () => {
  const { LESSONS } = await import('../../www/lesson-table.js');
  const steps = process.env.SGVIZ_CLASS_TIME_SOAK ? LESSONS.flatMap((l) => l.steps.map((_, i) => [l.id, i + 1])) : LARGE_TEXT_STEPS_CI;
  for (const [id, n] of steps) assert.ok(LESSONS.find((l) => l.id === id)?.steps[n - 1], `${id} ${n} is a lesson step`);
  const found = [];
  for (const size of [{ width: 1920, height: 1080 }, { width: 1400, height: 900 }]) {
    const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: size, reducedMotion: true });
    await page.evaluate(async () => { window.__charts = await import('./www/charts.js'); });
    await page.click('#large-font');
    await page.waitForFunction(() => document.getElementById('large-font').getAttribute('aria-pressed') === 'true');
    await page.click('#lesson-open');
    for (const [id, n] of steps) {
      const where = `${size.width}x${size.height}-large ${id} ${n}`;
      const step = LESSONS.find((l) => l.id === id).steps[n - 1];
      await page.selectOption('#lesson-choice', id);
      await waitLoaded(page);
      for (let k = 1; k < n; k += 1) {
        await page.click('#lesson-next');
        await page.waitForFunction((want) => window.sgviz.lesson()?.step === want, k + 1);
        await waitLoaded(page);
      }
      // Read and shot with the step's chart drawn with data, not its empty frame (classfix s47).
      if (step.figure !== 'plot') {
        await page.waitForFunction((c) => JSON.parse(window.__charts.shownSpec(c) || 'null')?.series?.some((s) => s.points?.length >= 2), `chart-${step.figure}`, { timeout: 240_000, polling: 500 })
          .catch(() => found.push(`${where}: chart-${step.figure} drew no data in 240 s`));
      }
      await page.waitForFunction(() => new Promise((ok) => { const y = scrollY; requestAnimationFrame(() => requestAnimationFrame(() => ok(scrollY === y))); }), null, { timeout: 10_000 });
      found.push(...await screenFaults(page, where, { ...size, ratio: 1 }));
      found.push(...layoutFaults(where, await stepLayout(page, step.figure)));
      found.push(...(await coveredControls(page)).map((c) => `${where}: ${c}`));
      // 24 px with Large text, page and chart text alike (issue 26; every step measured at stop 53:
      // none under 24 px at 1920×1080 or 1400×900).
      found.push(...await textFaults(page, where, 24));
      found.push(...await chartTextFaults(page, where, 24));
      // A step about the plot uses the width: the plot and the lesson beside it reach ≥ 85 % of it
      // (bps 2 at 1920 left a quarter of the screen blank right of the lesson; classfix s47).
      if (step.figure === 'plot') {
        const right = await page.$$eval('.stage > *', (kids) => Math.max(...kids.filter((k) => k.checkVisibility()).map((k) => k.getBoundingClientRect().right)));
        if (right < 0.85 * size.width) found.push(`${where}: the plot and the lesson end at x = ${Math.round(right)} of ${size.width}`);
      }
      await screenshot(page, `layouts/large-${size.width}-${id}-${n}`, { fullPage: false });
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
  assert.deepEqual(found, []);
});

/**
 * Issue 26 (stop 46): presets on a phone (390×844) and on a laptop at 150 % (1280×720 CSS px at ×1.5,
 * the context's own scale). `make test` loads a sample (a compare preset, a scan chart, a chart-led
 * preset, a truth in a worker); `make soak` every preset of the menu.
 */
// sgais-target-ess (classfix s47): its 1,316-character note ran 924 px on the phone's 844 (make soak,
// stop 46). SGVIZ_LAYOUT_PRESETS=id,id… checks those presets instead (soak failures re-run alone).
const PRESETS_CI = ['sgfs-ellipses', 'sbps-minibatch-travel', 'sgld-annealed-noise', 'osgfs-burn-in', 'sgais-target-ess'];

test('presets (every one in make soak) at 390×844 and at 1280×720 × 1.5: no overflow, the note on screen, no control covered, no text under 12 px', async () => {
  const found = [];
  for (const [label, size] of [['phone', { ...PHONE, ratio: 1 }], ['1280x720@1.5', LAPTOP]]) {
    const context = size.ratio === 1 ? env.browser : await scaledContext(env.browser, { width: size.width, height: size.height }, size.ratio);
    const { page, errors } = await openApp(context, env.server.url, '', { viewport: { width: size.width, height: size.height }, reducedMotion: true });
    const all = await page.$$eval('#preset option', (options) => options.map((o) => o.value).filter(Boolean));
    const ids = process.env.SGVIZ_LAYOUT_PRESETS?.split(',') ?? (process.env.SGVIZ_CLASS_TIME_SOAK ? all : PRESETS_CI);
    for (const id of ids) {
      assert.ok(all.includes(id), `${id} is in the menu`);
      const where = `${label} ${id}`;
      await page.selectOption('#preset', id);
      await waitLoaded(page);
      await page.$eval('#preset-note', (n) => n.scrollIntoView({ block: 'start' }));
      await page.waitForFunction(() => new Promise((ok) => { const y = scrollY; requestAnimationFrame(() => requestAnimationFrame(() => ok(scrollY === y))); }), null, { timeout: 10_000 });
      found.push(...await screenFaults(page, where, size));
      const wide = await overflow(page);
      if (wide.scroll > wide.screen + 1) found.push(`${where}: page ${wide.scroll} px wide on a ${wide.screen} px screen`);
      // Scrolled to, the whole note is on screen (read in the same task: the charts above it change
      // height while they fill, which moves it by up to 32 px between frames; noticed, stop 46).
      const note = await page.$eval('#preset-note', (n) => { n.scrollIntoView({ block: 'start' }); const r = n.getBoundingClientRect(); return { hidden: n.hidden, left: r.left, right: r.right, top: r.top, bottom: r.bottom }; });
      if (note.hidden || note.left < -1 || note.right > size.width + 1 || note.top < -1 || note.bottom > size.height + 1) found.push(`${where}: the preset's note is not on screen whole ${JSON.stringify(note)}`);
      found.push(...(await coveredControls(page)).map((c) => `${where}: ${c}`));
      found.push(...await textFaults(page, where, 12));
      await screenshot(page, `layouts/preset-${label}-${id}`, { fullPage: false });
    }
    assert.deepEqual(errors, []);
    await page.close();
    if (context !== env.browser) await context.close();
  }
  assert.deepEqual(found, []);
});

/**
 * The lessons whose present-mode slides failed at stop 44 (classfix s45): sgld 3 and 5 set their long
 * sentence at 24 px with the controls hidden (under present mode's 28 px); cost 1–2 with the
 * controls hidden ran their sentence to y = 1,502 in a 290 px column beside the two plots; sgais 4
 * with the controls shown ran to y = 1,418. `make soak` walks every lesson.
 */
const PRESENT_LESSONS_CI = ['sgld', 'cost', 'sgais'];

test('present mode at 1920×1080, every step of the lessons whose slides once failed (every lesson in make soak), controls shown and hidden: the sentence in ≥ 28 px type, on the slide top to bottom, the figure on screen, no overflow', async () => {
  const { LESSONS: ALL_LESSONS } = await import('../../www/lesson-table.js');
  const LESSONS = process.env.SGVIZ_CLASS_TIME_SOAK ? ALL_LESSONS : ALL_LESSONS.filter((l) => PRESENT_LESSONS_CI.includes(l.id));
  assert.equal(LESSONS.length, process.env.SGVIZ_CLASS_TIME_SOAK ? ALL_LESSONS.length : PRESENT_LESSONS_CI.length, 'every CI lesson id names a lesson');
  const found = [];
  const log = [];
  const check = async (page, label, figure) => {
    // The toggle re-lays the slide out (a resize event): wait for a still frame.
    await page.waitForFunction(() => new Promise((ok) => { const y = scrollY; requestAnimationFrame(() => requestAnimationFrame(() => ok(scrollY === y))); }), null, { timeout: 10_000 });
    const l = await stepLayout(page, figure);
    log.push(`${label}: text ${Math.round(l.text.top)}–${Math.round(l.text.bottom)} (${l.textPx} px), ${figure} ${l.figure && `${Math.round(l.figure.top)}–${Math.round(l.figure.bottom)}`}`);
    found.push(...layoutFaults(label, l));
    // 28 px: present mode's floor for the back of a room (page-basics' present test, app.css).
    if (l.textPx < 28) found.push(`${label}: the sentence is ${l.textPx} px`);
    // Every step's claims (the lesson's, and an SGAIS figure's list in the lesson box) at ≥ 24 px:
    // they were 16 px under a 28 px sentence (classfix s47; SGAIS's raised then, the rest at stop 48).
    const claimPx = await page.$$eval('#lesson .lesson-claims li', (items) => items.filter((e) => e.checkVisibility()).map((e) => parseFloat(getComputedStyle(e).fontSize)));
    if (claimPx.some((px) => px < 24)) found.push(`${label}: claims in ${Math.min(...claimPx)} px type`);
    // The plot's legend and the step's action (beside the plot, its sentence not long) too: 16 px on
    // every slide until stop 53.
    const otherPx = await page.$$eval('.stage .legend, #lesson[data-figure="plot"]:not([data-long="true"]) .lesson-action', (items) => items.filter((e) => e.checkVisibility()).map((e) => parseFloat(getComputedStyle(e).fontSize)));
    if (otherPx.some((px) => px < 24)) found.push(`${label}: legend or action in ${Math.min(...otherPx)} px type`);
    // What else the room reads on a slide, at ≥ 24 px: the lesson's buttons, menu, counter ("step 3
    // of 7") and action on every step, present mode's own bar, and an SGAIS lesson's controls beside
    // it. They were 16 px (the bar 14.4 px) at stop 53.
    const controlPx = await page.$$eval('#lesson :is(button, select, label, #lesson-counter, .lesson-action), #present-bar, #present-bar *, .sgais-controls:has(> #lesson) > :not(#lesson) :is(label, button, select, .summary)', (items) => items
      .filter((e) => e.checkVisibility() && e.getBoundingClientRect().bottom > 0 && e.getBoundingClientRect().top < innerHeight)
      .map((e) => [e.id || e.textContent.trim().slice(0, 20), parseFloat(getComputedStyle(e).fontSize)]));
    const small = controlPx.filter(([, px]) => px < 24);
    if (small.length) found.push(`${label}: ${small.map(([what, px]) => `"${what}" ${px} px`).join(', ')}`);
    // The lesson's panel from its top (the lesson menu and "step k of n"): SGLD step 3's 28 px
    // sentence once pushed the slide 70 px down, its header above the screen.
    const panelTop = await page.$eval('#lesson', (e) => e.getBoundingClientRect().top);
    if (panelTop < -1) found.push(`${label}: the lesson panel starts at y = ${Math.round(panelTop)}`);
  };
  for (const lesson of LESSONS) {
    const { page, errors } = await openApp(env.browser, env.server.url, `?present=${lesson.id}`, { viewport: { width: 1920, height: 1080 }, reducedMotion: true });
    await page.evaluate(async () => { window.__charts = await import('./www/charts.js'); });
    await page.waitForFunction(() => window.sgviz.lesson() !== null);
    for (let step = 1; step <= lesson.steps.length; step += 1) {
      await page.waitForFunction((k) => window.sgviz.lesson()?.step === k && document.getElementById('lesson-text').textContent.length > 0, step);
      await waitLoaded(page);
      const figure = lesson.steps[step - 1].figure;
      // A chart step is read and shot once its chart shows this step's data (stop 47: sgld 3's
      // slide showed step 2's noise chart, "gradient noise: none (full batch)"). Not playing
      // (reduced motion), a plot or trace step has no samples to wait for.
      if (!['plot', 'trace'].includes(figure)) found.push(...await waitForFigure(page, `present ${lesson.id} ${step}`, figure));
      await check(page, `present ${lesson.id} ${step}`, figure);
      await page.click('#present-clean');
      await check(page, `present, controls hidden, ${lesson.id} ${step}`, figure);
      // An SGAIS slide is its evidence panel alone: the 2-D plot beside it is not what it is
      // about (stop 45: half the slide was an unrelated Gaussian beside a waiting chart).
      if (lesson.id === 'sgais') {
        const g = await page.evaluate(() => ({ plotShown: document.querySelector('.stage').getClientRects().length > 0, width: document.querySelector('.sgais-grid').getBoundingClientRect().width }));
        if (g.plotShown) found.push(`present, controls hidden, sgais ${step}: the 2-D plot is on the slide`);
        if (g.width < 0.9 * 1920) found.push(`present, controls hidden, sgais ${step}: the evidence panel is ${Math.round(g.width)} px wide`);
      }
      await screenshot(page, `layouts/present-clean-${lesson.id}-${step}`, { fullPage: false });
      await page.click('#present-clean');
      await page.evaluate(() => document.activeElement?.blur());
      if (step < lesson.steps.length) await page.keyboard.press('ArrowRight');
    }
    assert.deepEqual(errors, [], lesson.id);
    await page.close();
  }
  console.log(log.join('\n'));
  assert.deepEqual(found, []);
});

/**
 * The chart-led presets (their picture is a chart, not the 2-D plot) and that chart's canvas. At
 * stop 44 the first two scrolled to a ≈ 520 px chart in the right-hand column beside an empty left
 * two thirds of 1920×1080 (sgld-heldout's note and chart above the screen after its chart appeared),
 * and SGAIS Fig. 1's data chart filled one of four columns.
 */
const CHART_LED = [['sgld-annealed-noise', 'chart-noise'], ['sgld-heldout', 'chart-heldout'], ['sgais-shift-data', 'chart-sgais-figure']];

test('chart-led presets at 1920×1080: their note on screen and their chart across ≥ 65 % of the width and ≥ 55 % of the height', async () => {
  // Playing (no reduced motion): the held-out chart is shown once the chain has run a sweep.
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: { width: 1920, height: 1080 } });
  const found = [];
  for (const [id, canvas] of CHART_LED) {
    await page.selectOption('#preset', id);
    await waitLoaded(page);
    // Shown and laid out at its size (its figure appears a few frames after the note).
    await page.waitForFunction((c) => { const e = document.getElementById(c); return !e.closest('figure').hidden && e.width > 0 && e.width === Math.round(e.clientWidth * devicePixelRatio); }, canvas, { timeout: 60_000 });
    await page.waitForFunction(() => new Promise((ok) => { const y = scrollY; requestAnimationFrame(() => requestAnimationFrame(() => ok(scrollY === y))); }), null, { timeout: 10_000 });
    const seen = await page.evaluate((c) => {
      const visible = (e) => { const r = e.getBoundingClientRect(); return { width: Math.min(r.right, innerWidth) - Math.max(r.left, 0), height: Math.min(r.bottom, innerHeight) - Math.max(r.top, 0), top: r.top, bottom: r.bottom }; };
      const notes = [...document.querySelectorAll('#preset-note, #sgais-preset-note')].filter((e) => !e.hidden && e.textContent);
      return { chart: visible(document.getElementById(c)), note: notes.map(visible)[0] ?? null };
    }, canvas);
    console.log(`${id}: ${canvas} ${Math.round(seen.chart.width)}×${Math.round(seen.chart.height)} CSS px on screen, note ${seen.note && `${Math.round(seen.note.top)}–${Math.round(seen.note.bottom)}`}`);
    if (seen.chart.width < 0.65 * 1920 || seen.chart.height < 0.55 * 1080) found.push(`${id}: ${canvas} ${Math.round(seen.chart.width)}×${Math.round(seen.chart.height)} CSS px on screen`);
    if (!seen.note || seen.note.top < -1 || seen.note.bottom > 1081) found.push(`${id}: its note is not on screen ${JSON.stringify(seen.note)}`);
    await screenshot(page, `layouts/chart-led-${id}-1920`, { fullPage: false });
  }
  assert.deepEqual(found, []);
  assert.deepEqual(errors, []);
  await page.close();
});

/** Each chart figure of `ids` that is shown, and whether its canvas has a drawing (a spec shown). */
const shownCharts = (page, ids) => page.evaluate((list) => list.map((id) => ({
  id, shown: !document.getElementById(id).closest('figure, section').hidden, drawn: Boolean(window.__charts.shownSpec(id)),
})), ids);

test('no empty chart card: SGAIS Fig. 1 starts no runs and hides their charts; sgais step 1 says what fills each card before the first chunk and, its runs finished, leaves no blank band under its charts at 1920×1080; step 2 redraws the cost chart of the runs it keeps; BPS hides the analysis charts with no data and says why', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: { width: 1920, height: 1080 }, reducedMotion: true });
  await page.evaluate(async () => { window.__charts = await import('./www/charts.js'); });
  const found = [];
  // SGAIS Fig. 1 is the data: it started the six runs of Fig. 5, whose charts stayed empty axes.
  const before = await page.evaluate(() => window.sgviz.jobs().started.sgais || 0);
  await page.selectOption('#preset', 'sgais-shift-data');
  await waitLoaded(page);
  await page.waitForFunction(() => Boolean(window.__charts.shownSpec('chart-sgais-figure')), null, { timeout: 60_000 });
  const data = await shownCharts(page, ['chart-evidence', 'chart-annealing', 'chart-sgais-figure']);
  const started = await page.evaluate(() => window.sgviz.jobs().started.sgais || 0);
  if (started !== before) found.push(`sgais-shift-data started ${started - before} SGAIS runs`);
  for (const c of data) if (c.shown && !c.drawn) found.push(`sgais-shift-data: ${c.id} shown empty`);
  if (!data.find((c) => c.id === 'chart-sgais-figure').shown) found.push('sgais-shift-data: its data chart is not shown');
  const status = await page.textContent('#sgais-status');
  if (!/Not started: this figure is the data/.test(status)) found.push(`sgais-shift-data: the status does not say why nothing runs: "${status}"`);
  await page.$eval('#sgais-title', (e) => e.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'layouts/sgais-shift-data', { fullPage: false });
  // The SGAIS lesson: step 1 runs the linear-regression figure; step 2 keeps its runs and cleared
  // the third (cost) chart, which stayed an empty card after the runs had finished.
  await page.click('#lesson-open');
  await page.selectOption('#lesson-choice', 'sgais');
  await waitLoaded(page);
  // From the step's first frame, before the runs' first chunk (seconds of worker time away), each
  // card shown has a drawing: the runs' two charts and the figure's cost chart say what comes
  // (stop 41: the cost card was an empty white box beside the two that said so).
  const early = await shownCharts(page, ['chart-evidence', 'chart-annealing', 'chart-sgais-figure']);
  for (const c of early) if (c.shown && !c.drawn) found.push(`sgais step 1: ${c.id} shown empty`);
  if (!early.find((c) => c.id === 'chart-sgais-figure').shown) found.push('sgais step 1: the cost chart is not shown');
  // Finished, as the review saw it ("Finished in 38.4 s"): while runs still report, their next
  // drawing would fill the chart anyway.
  await page.waitForFunction(() => { const runs = window.sgviz.sgais().runs || []; return runs.length > 0 && runs.every((r) => r.done); }, null, { timeout: 300_000, polling: 500 });
  // The step's layout with its runs finished: no blank band under its charts (was sgais-panel's test).
  found.push(...await sgaisLessonLayoutFailures(page));
  await page.click('#lesson-next');
  await page.waitForFunction(() => window.sgviz.lesson()?.step === 2);
  await page.waitForFunction(() => JSON.parse(window.__charts.shownSpec('chart-sgais-figure') || 'null')?.series?.length > 0, null, { timeout: 60_000, polling: 250 }).catch(() => found.push('sgais step 2: the cost chart has no curve'));
  await screenshot(page, 'layouts/sgais-2', { fullPage: false });
  // While the truth is computed (logistic regression in d dimensions: an exact MALA reference run
  // in a worker, docs/truth.md §4) the three analysis cards were blank frames (classfix item 3):
  // each now says on the chart what it waits for, and how far the truth is once its worker reports.
  await page.click('#lesson-close');
  await page.selectOption('#target', 'logreg_dd');
  // Its defaults' truth is shipped with the page (src/truth_shipped.rs): another data set is computed.
  await waitLoaded(page);
  assert.equal(await page.evaluate(() => window.sgviz.setParam('data_seed', 2)), null);
  // Dark pixels on each analysis canvas (its sentence drawn), and what it says.
  await page.evaluate(() => {
    window.__waitingCards = () => ['chart-noise', 'chart-bias', 'chart-sweep'].map((id) => {
      const canvas = document.getElementById(id);
      const pixels = canvas.width ? canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data : [];
      let inked = 0;
      for (let i = 0; i < pixels.length; i += 4) if (pixels[i + 3] > 0 && pixels[i] + pixels[i + 1] + pixels[i + 2] < 600) inked += 1;
      return { id, shown: !canvas.closest('figure').hidden, inked, pending: window.sgviz.state().truth_pending, title: JSON.parse(window.__charts.shownSpec(id) ?? '{}').title ?? '' };
    });
  });
  await page.waitForFunction(() => {
    const cards = window.__waitingCards();
    return cards[0].pending && cards.every((c) => /waiting for the truth/.test(c.title) && c.inked >= 50);
  }, null, { timeout: 60_000, polling: 100 }).catch(() => found.push('logreg_dd: the analysis charts do not say they wait for the truth while it is computed'));
  const waiting = await page.evaluate(() => window.__waitingCards());
  for (const c of waiting) if (c.pending && (!c.shown || c.inked < 50)) found.push(`logreg_dd waiting for the truth: ${c.id} ${c.shown ? `has ${c.inked} inked pixels` : 'is hidden'} ("${c.title}")`);
  // Its charts column is the taller: no blank band opens in the left column (stop 48: 375 px).
  found.push(...await columnBandFaults(page, 'logreg_dd waiting for the truth'));
  await page.$eval('#analysis-status', (e) => e.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'layouts/analysis-waiting-for-truth', { fullPage: false });
  await page.click('#lesson-open');
  // BPS: its sweep draws no noise chart (exact thinning, docs/bouncy.md §15): once done, that card is hidden.
  await page.selectOption('#lesson-choice', 'bps');
  await waitLoaded(page);
  await page.click('#play');
  await page.waitForFunction(() => window.sgviz.analysis().done, null, { timeout: 240_000, polling: 250 });
  // A note chart ("No noise chart: …", no series) is a sentence in the middle of a tall card: from
  // the status line under which it sat, an empty white card (the review's BPS screenshots).
  const cards = await page.evaluate(() => ['noise', 'bias', 'sweep'].map((kind) => {
    const spec = window.sgviz.chart(kind);
    return { kind, shown: !document.getElementById(`chart-${kind}`).closest('figure').hidden, data: Boolean(spec && (spec.series?.length || spec.markers?.length)) };
  }));
  for (const c of cards) if (c.shown && !c.data) found.push(`bps 1: the ${c.kind} card is shown with no data after the sweep`);
  const said = await page.textContent('#analysis-status');
  for (const c of cards) if (!c.data && !new RegExp(`No [a-z, ]*\\b${c.kind}\\b[a-z, ]* chart: `).test(said)) found.push(`bps 1: the status line does not say why there is no ${c.kind} chart: "${said}"`);
  await page.$eval('#analysis-status', (e) => e.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'layouts/bps-1-analysis', { fullPage: false });
  assert.deepEqual(found, []);
  assert.deepEqual(errors, []);
  await page.close();
});
