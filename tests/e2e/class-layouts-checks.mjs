// The layout checks of tests/e2e/class-layouts.test.mjs and class-layouts-sizes.test.mjs: where a
// lesson step's sentence and figure are, which controls something lies over, the page's screen,
// its smallest text, and (for the walk at every size) the chart text and overprinted chart labels
// on screen. Each returns a list of faults (empty when the layout holds), prefixed by `where`.

import { chartLayout } from './harness.mjs';

/**
 * Where the lesson's text (or `textId`'s: a preset's note) and the step's figure are on screen
 * (CSS px), and the page's width.
 */
export const stepLayout = (page, figure, textId = 'lesson-text') => page.evaluate(([fig, textOf]) => {
  const rect = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height }; };
  const figureElement = fig === 'plot' ? document.querySelector('.stage > .panel') : document.getElementById(`chart-${fig}`);
  return {
    text: rect(document.getElementById(textOf)),
    figure: figureElement ? rect(figureElement) : null,
    // The plots' canvases themselves (two when comparing): the panel with its counters and slider
    // is not the figure (stop 49: on a phone the cost lesson's sentence sat beside the second plot's
    // counters only, and the walk passed it).
    canvases: fig === 'plot' ? [...document.querySelectorAll('.stage .canvas-stack')].filter((c) => c.checkVisibility()).map(rect) : [],
    screen: { width: innerWidth, height: innerHeight },
    scroll: document.documentElement.scrollWidth,
    textPx: parseFloat(getComputedStyle(document.getElementById(textOf)).fontSize),
  };
}, [figure, textId]);

/**
 * The controls on screen that something else lies over: for every shown input, menu and button whose
 * centre is on screen, the element the browser finds at that centre is not the control (nor inside
 * it). Stop 41: present mode's bar, fixed at the bottom right, lay over SGHMC's gradient-noise slider.
 */
export const coveredControls = (page) => page.evaluate(() => [...document.querySelectorAll('input, select, button, textarea')].flatMap((e) => {
  const r = e.getBoundingClientRect();
  // checkVisibility: a closed <details>'s controls have boxes but are not drawn.
  if (!r.width || !r.height || !e.checkVisibility({ visibilityProperty: true })) return [];
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return [];
  const top = document.elementFromPoint(x, y);
  if (!top || top === e || e.contains(top) || top.closest('label')?.control === e) return [];
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).split(' ')[0]}` : ''}`;
  return [`${name(e)}${e.id ? '' : ` "${e.textContent.trim().slice(0, 20)}"`} under ${name(top)}`];
}));

/** What is wrong with a step's layout: overflow, its text off screen, its figure off screen. */
export function layoutFaults(where, l) {
  const faults = [];
  if (l.scroll > l.screen.width + 1) faults.push(`${where}: page ${l.scroll} px wide on a ${l.screen.width} px screen`);
  // The whole sentence, top to bottom (present mode's 32 px text ran to y = 1,431 on a 1,080 px slide).
  if (!(l.text.top >= -1 && l.text.bottom <= l.screen.height + 1 && l.text.left >= -1 && l.text.right <= l.screen.width + 1)) faults.push(`${where}: lesson text not on screen ${JSON.stringify(l.text)}`);
  if (!l.figure) faults.push(`${where}: no figure element`);
  else {
    const visible = Math.min(l.figure.bottom, l.screen.height) - Math.max(l.figure.top, 0);
    // At least half of the figure, or half the screen's height of it, on screen.
    if (visible < Math.min(0.5 * l.figure.height, 0.5 * l.screen.height)) faults.push(`${where}: figure ${Math.round(visible)} of ${Math.round(l.figure.height)} px on screen ${JSON.stringify(l.figure)}`);
  }
  // Every plot's canvas at least half on screen (or half a screen of it) with the sentence.
  l.canvases.forEach((c, i) => {
    const visible = Math.min(c.bottom, l.screen.height) - Math.max(c.top, 0);
    if (visible < Math.min(0.5 * c.height, 0.5 * l.screen.height)) faults.push(`${where}: plot ${i + 1}'s canvas ${Math.round(Math.max(0, visible))} of ${Math.round(c.height)} px on screen ${JSON.stringify(c)}`);
  });
  return faults;
}

/** The page's own screen: device pixels per CSS px and its size in CSS px. */
export const screenOf = (page) => page.evaluate(() => ({ ratio: devicePixelRatio, width: innerWidth, height: innerHeight }));

/** A fault when the page does not have the screen the check is about (DevTools' override had lapsed at stop 45). */
export async function screenFaults(page, where, want) {
  const got = await screenOf(page);
  return got.ratio === want.ratio && got.width === want.width && got.height === want.height ? [] : [`${where}: the page has ${got.width}×${got.height} CSS px at ×${got.ratio}, not ${want.width}×${want.height} at ×${want.ratio}`];
}

/**
 * Every drawn element with text of its own whose box is on screen: its font size (CSS px) and what
 * it is (tag, id, class, the start of its text).
 */
export const textsOnScreen = (page) => page.evaluate(() => {
  const found = [];
  for (const e of document.body.querySelectorAll('*')) {
    if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) continue;
    if (!e.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const cls = String(e.className).split(' ')[0];
    found.push({ px: parseFloat(getComputedStyle(e).fontSize), what: `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${cls ? `.${cls}` : ''} "${e.textContent.trim().slice(0, 24)}"` });
  }
  return found;
});

/**
 * The smallest text on screen (CSS px) and where (`textsOnScreen`). Floors: 12 px (0.75 of 16, the
 * Save PNG buttons' until stop 51) at normal size, 18 px with Large text (stop 45's survey: 12.8 px
 * on a phone, 18 px at 1920 with Large text).
 */
export const smallestText = async (page) => (await textsOnScreen(page)).reduce((least, t) => (t.px < least.px ? t : least), { px: Infinity, what: '' });

export async function textFaults(page, where, floor) {
  const least = await smallestText(page);
  return least.px >= floor ? [] : [`${where}: text of ${least.px} px (${least.what}), below ${floor} px`];
}

/** The charts' text base (www/charts.js draws its text at 12 px × the chart's drawing scale) and the 2-D panel's (13 px). */
const CHART_BASE_PX = 12;
const PANEL_BASE_PX = 13;

/**
 * Canvas text on screen under `floor` CSS px: every chart canvas drawn (its drawing scale known)
 * whose box meets the screen, and the 2-D panel (its text and its trace and autocorrelation
 * charts) when on screen. Issue 26: chart text ≥ 16 px at 1400×900, ≥ 24 px with Large text.
 */
export async function chartTextFaults(page, where, floor) {
  const sizes = await page.evaluate(([chartBase, panelBase]) => {
    const s = window.sgviz.drawingScales();
    const onScreen = (e) => { const r = e?.getBoundingClientRect(); return Boolean(r && r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth && e.checkVisibility()); };
    const found = Object.entries(s.charts).filter(([id]) => onScreen(document.getElementById(id))).map(([id, scale]) => [id, (chartBase * scale) / s.pixelRatio]);
    if (onScreen(document.querySelector('.stage > .panel'))) found.push(['plot panel', (Math.min(chartBase, panelBase) * s.panel) / s.pixelRatio]);
    return found;
  }, [CHART_BASE_PX, PANEL_BASE_PX]);
  return sizes.filter(([, px]) => px < floor - 0.01).map(([id, px]) => `${where}: ${id} text ${px.toFixed(1)} px, below ${floor} px`);
}

/** The chart canvases drawn from a spec (www/charts.js) whose box meets the screen. */
const chartsOnScreen = (page) => page.evaluate(async () => {
  const { shownSpec } = await import('./www/charts.js');
  return [...document.querySelectorAll('canvas[id^="chart-"]')].filter((c) => {
    const r = c.getBoundingClientRect();
    return shownSpec(c.id) && c.width > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth && c.checkVisibility();
  }).map((c) => c.id);
});

/** Chart text printed over other chart text, or outside its canvas, on every chart on screen (`chartLayout`: the same drawing as SVG, laid out by the browser). */
export async function overprintFaults(page, where) {
  const faults = [];
  for (const id of await chartsOnScreen(page)) {
    const layout = await chartLayout(page, id);
    faults.push(...layout.pairs.map((p) => `${where}: ${id} overprints ${p}`));
    if (layout.outside.length) faults.push(`${where}: ${id} text outside its canvas: ${layout.outside.join(', ')}`);
  }
  return faults;
}

/**
 * A blank band in the left column: where the statistics sit under the stage in the same column,
 * the gap between them is the grid's row gap. At 1920×1080 a tall charts column beside them, its
 * extra height shared by the stage's row, left ≈ 376 px blank between the pair selector and
 * "Running moments" (stop 48, a d = 20 logistic regression waiting for its truth).
 */
export async function columnBandFaults(page, where) {
  const g = await page.evaluate(() => {
    const box = (e) => e && e.getClientRects().length ? e.getBoundingClientRect() : null;
    const stage = box(document.querySelector('.layout > .stage'));
    const stats = box(document.querySelector('.layout > .stats'));
    const charts = box(document.querySelector('.layout > .charts'));
    return { stage, stats, charts, gap: parseFloat(getComputedStyle(document.querySelector('.layout')).rowGap) };
  });
  // Only where the statistics follow the stage in the column (not the charts between them, one column).
  if (!g.stage || !g.stats || Math.abs(g.stage.left - g.stats.left) > 1 || g.stats.top < g.stage.bottom) return [];
  if (g.charts && g.charts.top >= g.stage.bottom && g.charts.bottom <= g.stats.top + 1 && Math.abs(g.charts.left - g.stage.left) <= 1) return [];
  const band = g.stats.top - g.stage.bottom;
  return band <= g.gap + 1 ? [] : [`${where}: ${Math.round(band)} px blank between the stage and the statistics (row gap ${g.gap} px)`];
}

/** A slide's time (issue 26): the page's class-time work is its promised steps per second × this. */
const CLASS_SECONDS = 20;

/** The analysis charts (www/analysis.js): redrawn for each setting, stale until its chart arrives. */
const ANALYSIS_KINDS = ['noise', 'bias', 'sweep'];

/**
 * Wait until a step's `figure` shows this step's data: the plot, the trace and the held-out chart, two samples (and shown); an
 * analysis chart, its chart of the current setting (not stale) with a series of ≥ 2 points (stop 47:
 * present-clean-sgld-3 was shot on step 2's "gradient noise: none (full batch)"); an SGAIS chart, a
 * series of ≥ 2 points. Needs `window.__charts` (www/charts.js) in the page. A fault after 240 s.
 */
export async function waitForFigure(page, where, figure, claims = []) {
  const options = { timeout: 240_000, polling: 250 };
  // The plot, the trace and the held-out chart are drawn from the chain itself (www/view.js): shown
  // once the chain has the samples its claims are read after (what the text says is then drawn), or
  // has done its class-time work (the promised steps per second × 20 s: speed × 1,200 frames), the
  // sooner; with no claims, the class-time work. Stop 48 waited for two samples: sbps-band was shot
  // after three events, an empty plot.
  const need = claims.length ? Math.max(2, ...claims.map((c) => c.after_samples ?? 0)) : null;
  const wait = ['plot', 'trace', 'heldout'].includes(figure)
    ? page.waitForFunction(([f, n, seconds]) => {
      const s = window.sgviz.state();
      const classTime = s.steps >= window.sgviz.promisedStepsPerS() * seconds;
      return s.n_samples >= 2 && ((n !== null && s.n_samples >= n) || classTime) && (f === 'plot' || !document.getElementById(`chart-${f}`).closest('figure').hidden);
    }, [figure, need, CLASS_SECONDS], options)
    : page.waitForFunction(([kind, analysis]) => (!analysis.includes(kind) || !window.sgviz.analysis().stale.includes(kind))
      && JSON.parse(window.__charts.shownSpec(`chart-${kind}`) || 'null')?.series?.some((s) => s.points?.length >= 2), [figure, ANALYSIS_KINDS], options);
  return wait.then(() => [], () => [`${where}: its ${figure} drew no data in 240 s`]);
}
