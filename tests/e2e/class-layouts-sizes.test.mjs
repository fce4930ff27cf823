// Issue 26 (stop 48): every lesson step and every preset at every size the issue tried: 1400×900,
// 1920×1080, 1920×1080 with Large text, 1280×720 at 150 % (the context's own device scale) and a
// phone (390×844). Each step and preset is checked once its figure has drawn data (the 2-D plot:
// the samples its claims are read after, or its class-time work; a chart: a series of ≥ 2 points),
// waiting on the page's state, never on time:
// - no horizontal overflow, and the page has the screen the check is about;
// - a lesson step's sentence whole on screen together with at least half its figure (or half a
//   screen of it); a preset's note whole on screen once scrolled to;
// - no control on screen under another element;
// - page text ≥ 12 px (18 px with Large text), canvas text on screen ≥ 16 px at ≥ 1400 px wide and
//   ≥ 24 px with Large text (the issue's floors), ≥ 12 px (the charts' base) on the laptop and phone;
// - no chart text on screen printed over other text or outside its canvas;
// - no blank band between the stage and the statistics under it (class-layouts-checks.mjs).
// `make test` walks CI_SAMPLE (a few seconds of browser time); `make soak` (SGVIZ_CLASS_TIME_SOAK=1)
// every step and preset at every size. SGVIZ_LAYOUT_SIZES=label,…, SGVIZ_LAYOUT_WALK=steps|presets and
// SGVIZ_LAYOUT_ITEMS=id,… (lessons, presets) narrow a soak run (sizes can run as separate processes). Screenshots: test-artifacts/layouts/walk-*.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, waitLoaded, scaledContext, stillScroll } from './harness.mjs';
import { stepLayout, coveredControls, layoutFaults, screenFaults, textFaults, chartTextFaults, overprintFaults, columnBandFaults, waitForFigure } from './class-layouts-checks.mjs';

const env = useBrowser();
const SOAK = Boolean(process.env.SGVIZ_CLASS_TIME_SOAK);

/** The issue's sizes; `pageFloor` and `chartFloor`: the smallest page and canvas text allowed (CSS px). */
const SIZES = [
  { label: '1400x900', width: 1400, height: 900, ratio: 1, large: false, pageFloor: 12, chartFloor: 16 },
  { label: '1920x1080', width: 1920, height: 1080, ratio: 1, large: false, pageFloor: 12, chartFloor: 16 },
  { label: '1920x1080-large', width: 1920, height: 1080, ratio: 1, large: true, pageFloor: 18, chartFloor: 24 },
  { label: '1280x720@1.5', width: 1280, height: 720, ratio: 1.5, large: false, pageFloor: 12, chartFloor: 12 },
  { label: 'phone', width: 390, height: 844, ratio: 1, large: false, pageFloor: 12, chartFloor: 12 },
];

/** What `make test` walks: a chart step on the phone and a preset on the laptop at 150 %. */
const CI_SAMPLE = { steps: [['phone', 'sghmc', 2]], presets: [['1280x720@1.5', 'sgfs-ellipses']] };

const wanted = (label) => !process.env.SGVIZ_LAYOUT_SIZES || process.env.SGVIZ_LAYOUT_SIZES.split(',').includes(label);
const walks = (what) => !process.env.SGVIZ_LAYOUT_WALK || process.env.SGVIZ_LAYOUT_WALK === what;
/** SGVIZ_LAYOUT_ITEMS=id,…: only these lessons and presets (a soak's failures re-run alone). */
const picked = (id) => !process.env.SGVIZ_LAYOUT_ITEMS || process.env.SGVIZ_LAYOUT_ITEMS.split(',').includes(id);

/** A page at `size` (its own scaled context when the device scale is not 1), Large text on if asked. */
async function openAt(size) {
  const context = size.ratio === 1 ? env.browser : await scaledContext(env.browser, { width: size.width, height: size.height }, size.ratio);
  const { page, errors } = await openApp(context, env.server.url, '', { viewport: { width: size.width, height: size.height } });
  await page.evaluate(async () => { window.__charts = await import('./www/charts.js'); });
  if (size.large) {
    await page.click('#large-font');
    await page.waitForFunction(() => document.getElementById('large-font').getAttribute('aria-pressed') === 'true');
  }
  const close = async () => { await page.close(); if (context !== env.browser) await context.close(); };
  return { page, errors, close };
}

/** Print the faults found so far for `where` as they come (a soak runs for minutes; its assertion comes at the end). */
const logFaults = (where, found) => console.log(`${where}: ${found.filter((f) => f.startsWith(`${where}:`)).join(' | ') || 'ok'}`);

/** The checks every step and preset share: screen, controls, page text, canvas text, overprinting. */
async function sharedFaults(page, where, size) {
  return [
    ...await screenFaults(page, where, { width: size.width, height: size.height, ratio: size.ratio }),
    ...(await coveredControls(page)).map((c) => `${where}: ${c}`),
    ...await textFaults(page, where, size.pageFloor),
    ...await chartTextFaults(page, where, size.chartFloor),
    ...await overprintFaults(page, where),
    ...await columnBandFaults(page, where),
  ];
}

/** Walk `steps` ([lesson id, step from 1], in lesson order) at `size`: the faults found. */
async function walkSteps(size, steps) {
  const { LESSONS } = await import('../../www/lesson-table.js');
  const { page, errors, close } = await openAt(size);
  const found = [];
  await page.click('#lesson-open');
  for (const [id, n] of steps) {
    const where = `${size.label} ${id} ${n}`;
    const step = LESSONS.find((l) => l.id === id).steps[n - 1];
    const { figure } = step;
    if ((await page.evaluate(() => window.sgviz.lesson()?.lesson)) !== id) {
      await page.selectOption('#lesson-choice', id);
      await page.waitForFunction((want) => window.sgviz.lesson()?.lesson === want && window.sgviz.lesson().step === 1, id);
    }
    for (let k = await page.evaluate(() => window.sgviz.lesson().step); k < n; k += 1) {
      await page.click('#lesson-next');
      await page.waitForFunction((want) => window.sgviz.lesson()?.step === want, k + 1);
    }
    await waitLoaded(page);
    found.push(...await waitForFigure(page, where, figure, step.claims));
    await stillScroll(page);
    found.push(...layoutFaults(where, await stepLayout(page, figure)));
    found.push(...await sharedFaults(page, where, size));
    await screenshot(page, `layouts/walk-${size.label}-${id}-${n}`, { fullPage: false });
    logFaults(where, found);
  }
  found.push(...errors.map((e) => `${size.label}: console error ${e}`));
  await close();
  return found;
}

/** The figure a preset is about: its chart (a chart-led preset), the SGAIS evidence or cost chart, or the plot. */
const presetFigure = (preset) => preset.chart ?? (preset.sgais ? null : 'plot');

/** The figure a preset's note speaks of, for the layout check: a scan's chart ("the chart below"), an SGAIS preset's evidence chart or its data chart (SGAIS Fig. 1), else its figure. */
const notedFigure = (preset) => {
  if (preset.scan || preset.live) return 'figure';
  return presetFigure(preset) ?? (preset.sgaisChart === 'data' ? 'sgais-figure' : 'evidence');
};

/** Walk `ids` (presets of the menu) at `size`: the faults found. */
async function walkPresets(size, ids) {
  const { PRESETS } = await import('../../www/presets.js');
  const { page, errors, close } = await openAt(size);
  const found = [];
  const menu = await page.$$eval('#preset option', (options) => options.map((o) => o.value).filter(Boolean));
  for (const id of ids) {
    const where = `${size.label} preset ${id}`;
    if (!menu.includes(id)) { found.push(`${where}: not in the menu`); continue; }
    await page.selectOption('#preset', id);
    await waitLoaded(page);
    const preset = PRESETS.find((p) => p.id === id);
    const figure = presetFigure(preset);
    // A scan's chart too ("the chart below"), once it has data.
    if (figure && (preset.scan || preset.live)) found.push(...await waitForFigure(page, where, 'figure'));
    if (figure) found.push(...await waitForFigure(page, where, figure, preset.claims));
    else await page.waitForFunction(() => ['chart-evidence', 'chart-sgais-figure'].some((c) => JSON.parse(window.__charts.shownSpec(c) || 'null')?.series?.some((s) => s.points?.length >= 2)), null, { timeout: 240_000, polling: 250 })
      .catch(() => found.push(`${where}: neither the evidence nor the figure chart drew data in 240 s`));
    // Where the page put the note and the figure it speaks of, as the reader finds them (stop 49: the
    // walk scrolled the note into view itself, and on a phone the figure was a screen or more away).
    await stillScroll(page);
    if (await page.$eval('#preset-note', (n) => n.hidden || !n.textContent.trim())) found.push(`${where}: no note shown`);
    else found.push(...layoutFaults(where, await stepLayout(page, notedFigure(preset), 'preset-note')).map((f) => f.replace('lesson text', 'note')));
    found.push(...await sharedFaults(page, where, size));
    await screenshot(page, `layouts/walk-${size.label}-preset-${id}`, { fullPage: false });
    logFaults(where, found);
  }
  found.push(...errors.map((e) => `${size.label}: console error ${e}`));
  await close();
  return found;
}

/** The (size, items) pairs to walk: everything at every wanted size in a soak, else the CI sample. */
function plan(kind, everything) {
  if (SOAK) return SIZES.filter((s) => wanted(s.label) && walks(kind)).map((size) => [size, everything]);
  return SIZES.map((size) => [size, CI_SAMPLE[kind].filter(([label]) => label === size.label).map(([, ...item]) => (item.length === 1 ? item[0] : item))]).filter(([, items]) => items.length);
}

test('every lesson step at 1400×900, 1920×1080, 1920×1080 Large text, 1280×720 × 1.5 and 390×844 (a sample in make test): no overflow, sentence and figure on screen together, no control covered, text and chart text at the issue\'s sizes, no overprinted chart labels', async () => {
  const { LESSONS } = await import('../../www/lesson-table.js');
  const all = LESSONS.filter((l) => picked(l.id)).flatMap((l) => l.steps.map((_, i) => [l.id, i + 1]));
  const found = [];
  for (const [size, steps] of plan('steps', all)) found.push(...await walkSteps(size, steps));
  assert.deepEqual(found, []);
});

test('every preset at 1400×900, 1920×1080, 1920×1080 Large text, 1280×720 × 1.5 and 390×844 (a sample in make test): no overflow, the note on screen, no control covered, text and chart text at the issue\'s sizes, no overprinted chart labels', async () => {
  const { PRESETS } = await import('../../www/presets.js');
  const found = [];
  for (const [size, ids] of plan('presets', PRESETS.map((p) => p.id).filter(picked))) found.push(...await walkPresets(size, ids));
  assert.deepEqual(found, []);
});
