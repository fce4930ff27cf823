// Lesson mode: guided steps (www/lesson-table.js), navigable with Back and Next. The lesson's text
// sits next to the figure the step talks about — beside the 2-D plot, or beside (on phones:
// directly above) the chart — and shows the step's claims with their current values, checked
// live against the chain's state.

import { LESSONS } from './lesson-table.js';
import { findPreset } from './presets.js';
import { claimMark, describe } from './claims.js';
import { app, specsOf } from './app.js';

const $ = (id) => document.getElementById(id);

/** Where the lesson panel goes for a step's figure: before this element, or at the top of the side column. */
const FIGURE_ANCHORS = {
  trace: 'chart-trace',
  heldout: 'chart-heldout',
  noise: 'chart-noise',
  bias: 'chart-bias',
  sweep: 'chart-sweep',
  evidence: 'chart-evidence',
  annealing: 'chart-annealing',
  figure: 'chart-figure',
};

/** The figure box around a chart canvas (a <figure>, or the figure presets' scan section). */
const figureOf = (id) => $(id)?.closest('figure, .figure-scan');

/**
 * Characters from which a step's sentence counts as long (SGLD step 3: 655; step 5: 456): in present
 * mode it is set at 28 px beside its chart instead of 32 (classfix item 1: at 32 px its 12 lines left
 * the noise chart a 70 px data area at 1920×1080).
 */
const LONG_TEXT = 400;

/** The SGAIS charts' narrative goes in the column beside them, under the evidence controls. */
const SGAIS_FIGURES = new Set(['evidence', 'annealing']);

/** Move a narrative panel (the lesson's, a preset's note) next to the figure it talks about. */
export function placeNextTo(panel, figure) {
  const anchor = FIGURE_ANCHORS[figure] && figureOf(FIGURE_ANCHORS[figure]);
  panel.dataset.figure = anchor ? figure : 'plot';
  if (anchor && SGAIS_FIGURES.has(figure)) {
    const column = document.querySelector('.sgais-controls');
    if (panel.parentElement !== column) column.append(panel);
  } else if (anchor) {
    if (panel.nextElementSibling !== anchor) anchor.before(panel);
  } else {
    const side = document.querySelector('.stage > .side');
    if (panel.parentElement !== side) side.prepend(panel);
  }
}

/**
 * Bring the figure a step talks about on screen (on a phone the lesson's text sits right under the
 * plot, which stays at the top of the screen: scrolling to the text would push the plot off it).
 */
function scrollToFigure(figure, sliders) {
  const chart = FIGURE_ANCHORS[figure] && figureOf(FIGURE_ANCHORS[figure]);
  namedSliders = chart ? sliders ?? [] : [];
  namedChart = chart || null;
  (chart || $('stack'))?.scrollIntoView({ block: 'nearest' });
  if (sentenceBetweenPlots()) $('lesson-text').scrollIntoView({ block: 'center' });
  else if (chart || !keepLessonBelowPlot()) keepTextOnScreen();
  keepSliderOnScreen();
}

/** The sliders the shown step names (its `sliders`) when its figure is a chart, not the plot, and that chart. */
let namedSliders = [];
let namedChart = null;

/**
 * A chart step's named slider on screen too, where it fits with the sentence whole: at 1280×720
 * × 1.5 SGHMC step 2's friction slider was above the screen, over its trace and sentence ("Raise
 * the friction and watch the trace"; stop 54, tests/e2e/lesson-sliders.test.mjs). With its label:
 * the scroll leaves 2rem above the slider, or less where the sentence would leave the screen. Not
 * where the chart would lose half its height (or half the screen's) to it: on a phone the friction
 * slider is far below SGHMC step 2's trace, and scrolling to it left 68 of the trace's 455 px on
 * screen (class-layouts-sizes, stop 54's CI).
 */
function keepSliderOnScreen() {
  const text = $('lesson-text')?.getBoundingClientRect();
  if (!text) return;
  for (const name of namedSliders) {
    const boxes = [`param-${name}`, `analysis-${name}`].map((id) => $(id)).filter((e) => e?.checkVisibility()).map((e) => e.getBoundingClientRect());
    if (!boxes.length || boxes.some((b) => b.top >= 0 && b.bottom <= innerHeight)) continue;
    const b = boxes[0];
    const margin = 2 * parseFloat(getComputedStyle(document.documentElement).fontSize);
    const by = b.top < 0 ? Math.min(b.top, Math.max(b.top - margin, text.bottom - innerHeight)) : Math.max(b.bottom - innerHeight, Math.min(b.bottom + margin - innerHeight, text.top));
    const fits = text.top - by >= 0 && text.bottom - by <= innerHeight && chartStaysShown(by);
    if (fits) window.scrollBy({ top: by, behavior: 'instant' });
  }
}

/** Whether the step's chart keeps half its height (or half the screen's) on screen after scrolling by `by` px. */
function chartStaysShown(by) {
  const c = namedChart?.getBoundingClientRect();
  if (!c) return true;
  const visible = Math.min(c.bottom - by, innerHeight) - Math.max(c.top - by, 0);
  return visible >= Math.min(0.5 * c.height, 0.5 * innerHeight);
}

/**
 * Whether the sentence sits between the two plots (two plots and a lesson on a phone, www/app.css):
 * then it is centred on the screen, with the bottom of the first plot above it and the top of the
 * second below (scrolled to the first plot, cost step 1's second canvas was 148 of 338 px on an
 * 844 px screen; stop 49).
 */
function sentenceBetweenPlots() {
  const second = $('stack-b');
  if (!second?.checkVisibility()) return false;
  const text = $('lesson-text').getBoundingClientRect();
  return $('stack').getBoundingClientRect().bottom <= text.top && text.bottom <= second.getBoundingClientRect().top;
}

/**
 * The sentence on screen with its figure: where the two do not fit on one screen, the sentence
 * whole (or from its top) and the figure cut instead. On a phone SGHMC step 2's trace scrolled into
 * view put the sentence's first line 28 px above the screen, and the cost lesson's sentence under
 * its two plots stayed 420 px below the screen (stop 48, tests/e2e/class-layouts-sizes.test.mjs).
 */
function keepTextOnScreen() {
  const text = $('lesson-text')?.getBoundingClientRect();
  if (!text) return;
  const by = text.top < 0 ? text.top : Math.max(0, Math.min(text.bottom - innerHeight, text.top));
  if (by) window.scrollBy({ top: by, behavior: 'instant' });
}

/**
 * On a phone the plot is sticky at the top (www/app.css) and the lesson sits under it: put the
 * lesson's top just below the plot (issue 26: after Next its text was scrolled under the plot, and
 * choosing the BPS lesson left it above the screen). Whether the plot is sticky here.
 */
function keepLessonBelowPlot() {
  const plot = document.querySelector('.stage > .panel');
  const lesson = $('lesson');
  if (!plot || !lesson || getComputedStyle(plot).position !== 'sticky') return false;
  const gap = lesson.getBoundingClientRect().top - plot.getBoundingClientRect().bottom;
  if (Math.abs(gap) > 1) window.scrollBy({ top: gap, behavior: 'instant' });
  return true;
}

/**
 * The sticky plot grows after a step is shown (its chain is built over frames: the pair selector
 * and legend rows appear) and covered the lesson's menu and Close (SGFS steps 1 and 3 on a phone,
 * stop 48), or, not sticky, the compared chain's plot appears above the sentence (the cost lesson):
 * until the reader scrolls, the lesson is kept under the plot, or its sentence on screen.
 */
function followPlotHeight() {
  let following = false;
  const stop = () => { following = false; };
  for (const type of ['wheel', 'touchmove', 'keydown', 'pointerdown']) window.addEventListener(type, stop, { passive: true });
  const plot = document.querySelector('.stage > .panel');
  const keep = () => {
    if (!following || $('lesson').hidden) return;
    if (sentenceBetweenPlots()) $('lesson-text').scrollIntoView({ block: 'center' });
    else if (!keepLessonBelowPlot()) keepTextOnScreen();
    keepSliderOnScreen();
  };
  if (plot && typeof ResizeObserver === 'function') new ResizeObserver(keep).observe(plot);
  return () => { following = true; };
}

/**
 * The settings of `step` (its own state's, or its preset's) that a slider has since moved on the
 * main chain, `[{symbol, stated, now}]` (a relative change above 10⁻⁶: a slider's round trip
 * through its position can leave 10⁻¹² residues).
 */
function movedFrom(step, state) {
  const stated = (step.state || findPreset(step.preset)?.state)?.values;
  if (!stated || !state) return [];
  const now = { ...state.target_params, ...state.sampler_params };
  const specs = [...(specsOf('samplers', app.sampler)?.params || []), ...(specsOf('targets', app.target)?.params || [])];
  return Object.entries(stated).flatMap(([name, value]) => {
    const spec = specs.find((p) => p.name === name);
    const current = now[name];
    const same = !Number.isFinite(current) || Math.abs(current - value) <= 1e-6 * Math.max(Math.abs(value), Math.abs(current));
    return spec && !same ? [{ symbol: spec.symbol, stated: value, now: current }] : [];
  });
}

/**
 * Wire the lesson panel; `apply(step)` loads a step's preset or state into the app; `states()`
 * returns `{state, compareState}` of the running chains for the live claim check.
 */
export function wireLessons(apply, states) {
  const panel = $('lesson');
  const choice = $('lesson-choice');
  choice.replaceChildren(...LESSONS.map((l) => new Option(l.title, l.id)));
  let lesson = LESSONS[0];
  let index = 0;
  const follow = followPlotHeight();

  function show() {
    const step = lesson.steps[index];
    const preset = step.preset ? findPreset(step.preset) : null;
    $('lesson-text').textContent = step.text;
    // A long sentence beside a chart is set smaller in present mode (www/app.css), so the chart keeps its height.
    $('lesson').dataset.long = String(step.text.length > LONG_TEXT);
    $('lesson-action').textContent = step.action || '';
    $('lesson-counter').textContent = `step ${index + 1} of ${lesson.steps.length}${preset ? ` · ${preset.source}` : ''}`;
    $('lesson-back').disabled = index === 0;
    $('lesson-next').disabled = index === lesson.steps.length - 1;
    placeNextTo(panel, step.figure);
    showClaims();
  }

  /** The step's claims with their current values (a tick once they hold after enough samples). */
  function showClaims(mainState) {
    const step = lesson.steps[index];
    const list = $('lesson-claims');
    const claims = step.claims || [];
    list.hidden = claims.length === 0;
    if (!claims.length) return false;
    // The ESS (by FFT, a few ms per chain) only for the claims about it.
    const { state, compareState } = states({ mixing: claims.some((c) => /(^|\.)ess_/.test(c.metric)), mainState }) || {};
    list.replaceChildren(...claims.map((claim) => {
      const li = document.createElement('li');
      const mark = claimMark(claim, state, compareState, movedFrom(step, state));
      li.textContent = `${describe(claim)}${mark.text}`;
      li.dataset.ok = String(mark.ok);
      return li;
    }));
    return true;
  }

  function go(next) {
    index = Math.max(0, Math.min(lesson.steps.length - 1, next));
    show();
    apply(lesson.steps[index]);
    // The claims again, now against the step's chains (or pending while they are built): the
    // list `show` drew was checked against the previous step's chains.
    showClaims();
    scrollToFigure(lesson.steps[index].figure, lesson.steps[index].sliders);
    follow();
  }

  function open(state) {
    panel.hidden = !state;
    $('lesson-open').setAttribute('aria-expanded', String(state));
    if (state) { go(index); choice.focus({ preventScroll: true }); }
  }

  $('lesson-open').addEventListener('click', () => open(panel.hidden));
  $('lesson-close').addEventListener('click', () => { open(false); $('lesson-open').focus(); });
  $('lesson-back').addEventListener('click', () => go(index - 1));
  $('lesson-next').addEventListener('click', () => go(index + 1));
  $('lesson-load').addEventListener('click', () => { apply(lesson.steps[index]); showClaims(); });
  choice.addEventListener('change', () => {
    lesson = LESSONS.find((l) => l.id === choice.value);
    index = 0;
    go(0);
  });
  show();
  return {
    /**
     * Refresh the live claim values (with the numbers, 5 Hz while playing) from the main chain's
     * state the caller has just read, if given; whether it did.
     */
    refresh: (mainState) => !panel.hidden && showClaims(mainState),
    current: () => ({ lesson: lesson.id, index, step: lesson.steps[index] }),
  };
}
