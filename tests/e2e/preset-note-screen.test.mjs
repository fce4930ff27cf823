// Issue 26, stop 50: a preset's note and the figure it speaks of on the first screen at 1920×1080.
// - Every SGAIS preset: its note's shown part (title, source, first two sentences; the rest is
//   hidden behind "more") whole on screen, and its evidence chart (SGAIS Fig. 1: the data chart) at
//   least half on screen. Stop 49's walk: under the model menu, six preset buttons, Start and the
//   status line the note began at y ≈ 600–830 and ended below the screen (sgais-gmm 753–1,261 px,
//   sgais-shift-lecture 832–1,055); it now heads the controls column (www/app.css).
// - sbps-noise-bounces: its note says where its scan chart is ("under the two plots"), and it is
//   there: below both plots, across their width (stop 49: "the chart below", its top at 1,127 px).
// Read once the page has stopped scrolling (two frames at the same scrollY), never after a sleep.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, waitLoaded, showPreset, stillScroll } from './harness.mjs';

const env = useBrowser();
const SCREEN = { width: 1920, height: 1080 };

/** Boxes (CSS px, on screen) of the note and of the elements `ids`. */
const boxes = (page, ids) => page.evaluate((list) => Object.fromEntries(['preset-note', ...list].map((id) => {
  const r = document.getElementById(id).getBoundingClientRect();
  return [id, { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height }];
})), ids);

/** Pixels of `box` on a screen `height` tall. */
const onScreen = (box, height) => Math.max(0, Math.min(box.bottom, height) - Math.max(box.top, 0));

/** Check `presets` (SGAIS ones) in one page at 1920×1080: the faults found. */
async function sgaisNoteFaults(presets) {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: SCREEN });
  const faults = [];
  for (const preset of presets) {
    await showPreset(page, preset);
    const chart = preset.sgaisChart === 'data' ? 'chart-sgais-figure' : 'chart-evidence';
    const b = await boxes(page, [chart]);
    const note = b['preset-note'];
    if (note.top < -1 || note.bottom > SCREEN.height + 1) faults.push(`${preset.id}: note at ${Math.round(note.top)}–${Math.round(note.bottom)} px`);
    if (onScreen(b[chart], SCREEN.height) < 0.5 * b[chart].height) faults.push(`${preset.id}: ${chart} at ${Math.round(b[chart].top)}–${Math.round(b[chart].bottom)} px`);
    if (preset.id === 'sgais-gmm') await screenshot(page, 'preset-note-screen-1920-sgais-gmm', { fullPage: false });
    // Its runs stopped, so that they do not load the machine for the next preset: clicked in the
    // page, a no-op once the button is disabled (preset-notes.test.mjs: checking isEnabled, then
    // clicking, raced the runs' end and hung the walk 30 s).
    await page.$eval('#sgais-stop', (b) => b.click());
  }
  await page.close();
  return [...faults, ...errors];
}

/** The SGAIS presets, in menu order, in two halves (one page each: a test stays within 20 s). */
const sgaisPresets = async () => (await import('../../www/presets.js')).PRESETS.filter((p) => p.sgais);

test('SGAIS presets, first half, at 1920×1080: the note\'s shown part whole on screen, with at least half of its chart', async () => {
  const all = await sgaisPresets();
  assert.deepEqual(await sgaisNoteFaults(all.slice(0, Math.ceil(all.length / 2))), []);
});

test('SGAIS presets, second half, at 1920×1080: the note\'s shown part whole on screen, with at least half of its chart', async () => {
  const all = await sgaisPresets();
  assert.deepEqual(await sgaisNoteFaults(all.slice(Math.ceil(all.length / 2))), []);
});

test('sbps-noise-bounces at 1920×1080: its note says where its scan chart is, and the chart is there', async () => {
  const { findPreset } = await import('../../www/presets.js');
  const preset = findPreset('sbps-noise-bounces');
  // The note names the chart by its title and places it under the two plots.
  assert.match(preset.text, /The chart under the two plots \(scroll down to it\), "bounces per unit time against gradient noise s"/);
  assert.equal(preset.scan.title, 'bounces per unit time against gradient noise s');
  assert.doesNotMatch(preset.text, /chart below/);
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: SCREEN });
  await showPreset(page, preset);
  await waitLoaded(page);
  const b = await boxes(page, ['stack', 'stack-b', 'chart-figure']);
  const chart = b['chart-figure'];
  // Under both plots (the whole chart's top below their bottoms) and across their width.
  assert.ok(chart.top >= Math.max(b.stack.bottom, b['stack-b'].bottom), `chart top ${chart.top}, plots end at ${b.stack.bottom}, ${b['stack-b'].bottom}`);
  assert.ok(chart.left <= b.stack.left + 1 && chart.right >= b['stack-b'].right - 1, `chart ${chart.left}–${chart.right}, plots ${b.stack.left}–${b['stack-b'].right}`);
  // And the note itself, beside the plots, on screen.
  assert.ok(b['preset-note'].top >= 0 && b['preset-note'].bottom <= SCREEN.height, JSON.stringify(b['preset-note']));
  await screenshot(page, 'preset-note-screen-1920-sbps-noise-bounces', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('sgfs-bias-mixing at 1920×1080 with Large text: the note beside the two plots on screen from its top, also once the truth\'s wait is said', async () => {
  // Stop 50's soak: loaded after an SGAIS preset, its note (581 px with Large text and the wait
  // sentence) began 35 px above the screen.
  const { findPreset } = await import('../../www/presets.js');
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: SCREEN });
  await page.click('#large-font');
  await page.waitForFunction(() => document.getElementById('large-font').getAttribute('aria-pressed') === 'true');
  // Where an SGAIS preset leaves the page (the soak walked it after sgais-shift-lecture): at its bottom.
  await waitLoaded(page);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await showPreset(page, findPreset('sgfs-bias-mixing'));
  await waitLoaded(page);
  // The wait sentence is added to the note 3 s into the truth's computation, or the truth is in.
  await page.waitForFunction(() => document.getElementById('preset-note-truth') || window.sgviz.state().truth_pending === false, null, { timeout: 60_000, polling: 100 });
  await stillScroll(page);
  const b = await boxes(page, ['stack']);
  const note = b['preset-note'];
  assert.ok(note.top >= -1 && note.top < SCREEN.height / 2, `note at ${Math.round(note.top)}–${Math.round(note.bottom)} px`);
  assert.ok(onScreen(b.stack, SCREEN.height) >= 0.5 * b.stack.height, `plot at ${Math.round(b.stack.top)}–${Math.round(b.stack.bottom)} px`);
  await screenshot(page, 'preset-note-screen-1920-large-sgfs-bias-mixing', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
