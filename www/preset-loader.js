// Loading a paper preset or a lesson step: target, sampler, the parameters it sets (the rest take
// their derived defaults), speed, seed, compare mode and the pair shown; then play.

import { $, app, currentSpecs, specsOf } from './app.js';
import { latestMixing } from './mixing.js';
import { DEMOS, findPreset } from './presets.js';
import { PAPERS } from './figures/index.js';
import { placeNextTo, wireLessons } from './lessons.js';
import { setPlaying } from './playback.js';
import { applyPendingPair, buildControls, rebuildLabInSteps } from './chain.js';
import { guarded } from './errors.js';
import { setSpeed } from './run-controls.js';
import { showChainSeed } from './seed.js';
import { scheduleUrlWrite } from './url-sync.js';
import { PRESET_SEED } from './playback-rates.js';
import { holdForSgais, releaseSgais, sgaisHeld } from './sgais-focus.js';
import { showNoteLead } from './note-lead.js';

/**
 * A wait shorter than this is not announced: the sentence below (about 30 words) would flash and be
 * gone before a student has read it (stop 45: grid truths in 0.8–2.3 CPU s flashed it for about 1 s).
 */
const ANNOUNCE_AFTER_MS = 3_000;
/** When the wait began (performance.now()), the latest progress text, and the timer that announces it. */
const truthWait = { since: 0, text: null, timer: 0 };

/**
 * While the truth is still computed (`text`: the worker's progress, "computing the exact MALA
 * reference: 51 %"; null once it is in), a shown preset note says so at its end: its sentences about
 * the solid ellipse, E1 and E2 cannot be seen until then. Stop 44's review: four SBPS presets' truth
 * was 7–51 % done at 20 s under load, beside notes comparing with it (issue 26 item 8). Only a wait
 * that has lasted ANNOUNCE_AFTER_MS is announced; `started`: a new truth job began (a new wait).
 */
export function showTruthWait(text, started = false) {
  if (!text || started) {
    clearTimeout(truthWait.timer);
    Object.assign(truthWait, { since: 0, text: null, timer: 0 });
    $('preset-note-truth')?.remove();
    if (!text) return;
  }
  if (!truthWait.since) truthWait.since = performance.now();
  truthWait.text = text;
  const waited = performance.now() - truthWait.since;
  if (waited < ANNOUNCE_AFTER_MS) {
    if (!truthWait.timer) truthWait.timer = setTimeout(() => { truthWait.timer = 0; if (truthWait.text && app.truthPending) showTruthWait(truthWait.text); }, ANNOUNCE_AFTER_MS - waited);
    return;
  }
  sayTruthWait(text);
}

/**
 * Once per frame: the chain shown has its truth, so no wait is announced. A preset whose truth is
 * in at once (computed ahead, src/truth_shipped.rs, or cached) never runs the truth job, so the job's
 * "done" never cleared a wait begun by the chain it replaced: its timer then announced that wait
 * under the new note, for good (issue 26, stop 52: sgld-vs-mala and three SBPS presets).
 */
export function clearTruthWaitOnceIn() {
  if ((truthWait.text || truthWait.timer) && app.lab && !app.building && !app.truthPending) showTruthWait(null);
}

function sayTruthWait(text) {
  const note = $('preset-note');
  let wait = $('preset-note-truth');
  // (A truth that cannot be computed is said by the truth line itself, not here.) An SGAIS note
  // compares nothing with the held 2-D chain's truth: the sentence there was untrue and made
  // sgais-gmm's note scroll inside its box at 1400×900 (604 px in 540; stop 50, preset-notes
  // under load).
  if (note.hidden || sgaisHeld() || text.startsWith('not available')) { wait?.remove(); return; }
  if (!wait) {
    wait = document.createElement('strong');
    wait.id = 'preset-note-truth';
    note.append(' ', wait);
  }
  wait.textContent = `The truth is still being computed (${text}): what this note compares with it (the solid ellipse, E1, E2) shows once it is in.`;
}

/** Load a preset (or a lesson step's inline state) and play. */
export function applyPreset(preset) {
  const { state, compare, pair, title, text, source, sgais, paper, chart } = preset;
  app.figureScan?.apply(preset);
  // A new note: a wait begun under the last one is not announced under this one; its own wait
  // counts from now (stop 52: the page-load chain's timer announced it 2.1–2.8 s into sbps-band).
  showTruthWait(null);
  const note = $('preset-note');
  note.hidden = !title;
  if (title) {
    // A gallery figure quotes the paper's own number(s) beside the live ones.
    // Its first two sentences shown, the rest behind "more" (www/note-lead.js).
    showNoteLead(note, `${title} — ${source}. `, `${text}${paper ? ` The paper: ${paper}.` : ''}`);
    placeNextTo(note, sgais ? 'evidence' : chart || (onPhone() && (preset.scan || preset.live) ? 'figure' : 'plot'));
  }
  app.sgaisFigures?.show(preset);
  if (sgais) {
    // The runs have the machine while the step is in view: the main chain and the sweep wait.
    holdForSgais();
    // A lesson's next step about the same runs keeps them (restarting would lose what was shown).
    // A data figure (SGAIS Fig. 1) shows the data: it loads the runs' settings, starts none.
    if (preset.sgaisChart === 'data') app.sgais.loadSettings(sgais);
    else if (!app.sgais.showsPreset(sgais)) app.sgais.applyPreset(sgais);
    // On a phone the note ends the controls and the evidence chart follows it (www/app.css).
    (onPhone() && title ? note : $('sgais-title')).scrollIntoView({ block: 'start' });
    return;
  }
  // A preset plays once loaded; Play/Pause pressed during a load in steps changes that, and the
  // user's choice wins (the chains shown meanwhile stay still: www/load-hold.js).
  releaseSgais({ resume: false });
  setPlaying(true);
  app.target = state.target;
  app.sampler = state.sampler;
  const names = new Set(currentSpecs().map((p) => p.name));
  app.explicit = Object.fromEntries(Object.entries(state.values || {}).filter(([name]) => names.has(name)));
  app.seed = state.seed ?? PRESET_SEED;
  showChainSeed();
  if (state.speed) setSpeed(state.speed);
  app.upload.forget();
  delete app.layout.pair;
  app.pendingPair = pair || null;
  // Compare mode changes on screen when the chains are shown (www/adoption.js `install`).
  app.compare.configure(Boolean(compare), compare?.sampler, compare?.values);
  rebuildLabInSteps(() => {
    buildControls();
    applyPendingPair();
    window.dispatchEvent(new Event('resize'));
    scheduleUrlWrite();
    // A figure whose picture is a chart below the plot brings that chart, with its note, on screen.
    // Kept at the top (on a phone, or above the charts, the boxes above it change height as the
    // chains are shown: sbps-continuous-estimator's note began 18 px above the screen, sgld-heldout's 38).
    if (chart || note.dataset.figure === 'figure') keepUntilScrolled(note, () => note.scrollIntoView({ block: 'start' }));
    else if (title && onPhone()) showNoteWithPlot(note);
    // Elsewhere the note is beside the plot: both on screen, wherever the last preset left the page
    // (stop 49: at 1920×1080 sgld-mixture, loaded after a chart-led preset, was 1,300 px above the screen),
    // the note's top too, also once the truth's wait is said at its end (stop 50: at 1920×1080 with Large
    // text sgfs-bias-mixing's note, 581 px beside a two-plot stage, began 35 px above the screen).
    else if (title) {
      $('stack').scrollIntoView({ block: 'nearest' });
      keepUntilScrolled(note, () => showNoteTop(note));
    }
  });
}

/**
 * Scroll with `keep` (`note` to the top or centre of the screen, …), and again whenever the note or
 * the page changes height (the truth's wait is said at the note's end after 3 s and taken away once
 * the truth is in), until the reader scrolls or loads another preset (stop 49: sgld-vs-mala's second
 * plot fell to 155 of 338 px on screen).
 */
function keepUntilScrolled(note, keep) {
  keep();
  const watch = new ResizeObserver(keep);
  watch.observe(note);
  watch.observe(document.body);
  const stop = () => { watch.disconnect(); for (const type of ['wheel', 'touchmove', 'keydown', 'pointerdown', 'change']) window.removeEventListener(type, stop, true); };
  for (const type of ['wheel', 'touchmove', 'keydown', 'pointerdown', 'change']) window.addEventListener(type, stop, { capture: true, passive: true });
}

/** A note cut at the top of the screen shown from its top (one wholly off screen is left there: the page was scrolled elsewhere). */
function showNoteTop(note) {
  const box = note.getBoundingClientRect();
  if (box.top < 0 && box.bottom > 0) window.scrollBy({ top: box.top, behavior: 'instant' });
}

/** A phone's width (www/app.css's narrow layout): one figure per screen, each followed by its text. */
const onPhone = () => matchMedia('(max-width: 760px)').matches;

/**
 * On a phone, the note under the plot it speaks of, both on screen (stop 49: the note was on screen
 * and the plot a screen or more above it, or the page stayed where the last preset had left it):
 * the plot at the top of the screen and, if the note ends below the screen, scrolled up by that
 * much; two plots (compare) have the note between them (www/app.css), which is centred.
 */
function showNoteWithPlot(note) {
  if (note.parentElement?.closest('.stage.comparing')) { keepUntilScrolled(note, () => note.scrollIntoView({ block: 'center' })); return; }
  $('stack').scrollIntoView({ block: 'start' });
  const below = note.getBoundingClientRect().bottom - innerHeight;
  if (below > 0) window.scrollBy({ top: below, behavior: 'instant' });
}

/**
 * The main (and compared) chain's state with its mixing numbers (the ESS worker's newest, the ones
 * the mixing panel shows: www/mixing.js; null before its first answer), for checking claims live;
 * `mainState`, the main chain's state already read by the caller, is not read again.
 */
function chainStates({ mixing = true, mainState } = {}) {
  // While a step's chains are built (chain.js `rebuildLabInSteps`) the chains shown are the
  // previous step's: its claims are not checked against them.
  if (app.building) return {};
  // With the sampler's kind (claims.js `unsound`: an exact sampler past its shaded limit rejects, it does not diverge).
  const withMixing = (lab, read, sampler) => ({ ...(read ?? JSON.parse(lab.state_json())), ...(mixing ? { mixing: latestMixing(lab) } : {}), sampler_kind: specsOf('samplers', sampler)?.kind });
  return guarded(() => ({
    state: app.lab ? withMixing(app.lab, mainState, app.sampler) : undefined,
    compareState: app.compare?.enabled && app.compare.lab ? withMixing(app.compare.lab, undefined, app.compare.sampler) : undefined,
  }));
}

/** The lesson step's state: its preset's, or its own inline state. */
export function lessonStepPreset(step) {
  const preset = step.preset ? findPreset(step.preset) : { state: step.state, pair: step.pair };
  return { ...preset, title: undefined };
}

/** One <optgroup> of the preset menu. */
function presetGroup(label, presets, name) {
  const group = document.createElement('optgroup');
  group.label = label;
  group.append(...presets.map((p) => new Option(name(p), p.id)));
  return group;
}

export function wirePresets() {
  const select = $('preset');
  select.append(presetGroup('Demonstrations', DEMOS, (p) => p.title));
  for (const paper of PAPERS) {
    if (paper.figures.length) select.append(presetGroup(`Figures: ${paper.key} (${paper.cite})`, paper.figures, (p) => `${p.figure}: ${p.title}`));
  }
  select.addEventListener('change', () => {
    const preset = findPreset(select.value);
    if (preset) applyPreset(preset);
    select.value = '';
  });
  app.lessons = wireLessons((step) => {
    $('preset-note').hidden = true;
    applyPreset(lessonStepPreset(step));
  }, chainStates);
  // Closing the lesson on an SGAIS step gives the main chain and the sweep back.
  for (const id of ['lesson-close', 'lesson-open']) $(id).addEventListener('click', () => { if ($('lesson').hidden) releaseSgais(); });
}
