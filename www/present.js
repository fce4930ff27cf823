// Present mode (issue 24): `?present=<lesson id>` shows a lesson as slides for a projector: one
// step per slide, the step's sentence in large type, → / PageDown / Space-free clicker keys move on,
// ← / PageUp go back, Esc leaves. An instructor toggle hides the controls, the statistics and
// every chart but the one the step talks about (its `figure`, www/lesson-table.js), which app.css
// then shows large beside the 2-D plot. `window.sgviz.lesson()` reads { lesson, step, steps } (step counts from 1).

import { $, app } from './app.js';
import { LESSONS } from './lesson-table.js';

/** The lesson being presented, or null. */
export function presentRequest() {
  return new URLSearchParams(location.search).get('present');
}

/** { lesson, step, steps } of the open lesson (step from 1), or null when none is open. */
export function lessonPosition() {
  const current = app.lessons?.current();
  if (!current || $('lesson').hidden) return null;
  const lesson = LESSONS.find((l) => l.id === current.lesson);
  return { lesson: current.lesson, step: current.index + 1, steps: lesson.steps.length };
}

function leave() {
  document.documentElement.classList.remove('present', 'present-clean');
  const params = new URLSearchParams(location.search);
  params.delete('present');
  const query = params.toString();
  history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
  $('present-bar')?.remove();
  // Canvas text goes back to its size outside present mode (www/format.js canvasTextFactor).
  window.dispatchEvent(new Event('resize'));
}

/**
 * With the toggle on, a step with another figure changes the layout (app.css): the canvases are
 * fitted and drawn again at their new size.
 */
function redrawWhenTheFigureChanges() {
  new MutationObserver(() => {
    if (document.documentElement.classList.contains('present-clean')) window.dispatchEvent(new Event('resize'));
  }).observe($('lesson'), { attributes: true, attributeFilter: ['data-figure'] });
}

/** Start presenting when the link asks for it (after the lessons are wired). */
export function startPresenting() {
  const id = presentRequest();
  if (id === null) return;
  const known = LESSONS.some((l) => l.id === id);
  document.documentElement.classList.add('present');
  // Canvas text is drawn at its present-mode size from now on (www/format.js canvasTextFactor).
  window.dispatchEvent(new Event('resize'));
  const bar = document.createElement('div');
  bar.id = 'present-bar';
  bar.className = 'present-bar';
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.id = 'present-clean';
  toggle.setAttribute('aria-pressed', 'false');
  toggle.textContent = 'Hide controls';
  toggle.addEventListener('click', () => {
    const clean = document.documentElement.classList.toggle('present-clean');
    toggle.setAttribute('aria-pressed', String(clean));
    toggle.textContent = clean ? 'Show controls' : 'Hide controls';
    window.dispatchEvent(new Event('resize'));
  });
  const hint = document.createElement('span');
  if (known) hint.className = 'present-hint';
  hint.textContent = known ? '← → or PageUp / PageDown: steps · Esc leaves' : `Unknown lesson "${id}"; allowed: ${LESSONS.map((l) => l.id).join(', ')}`;
  bar.append(toggle, hint);
  redrawWhenTheFigureChanges();
  // In the lesson's panel, in the row of its Back / Next (no row of its own: the step's chart below
  // keeps the height): a bar fixed over the page lay over the controls below it (issue 26, stop 41:
  // over the gradient-noise slider of SGHMC's first slide). An unknown lesson opens no panel: the
  // bar heads the page.
  if (known) $('lesson-next').parentElement.append(bar);
  else document.body.prepend(bar);
  if (!known) return;
  const choice = $('lesson-choice');
  choice.value = id;
  if ($('lesson').hidden) $('lesson-open').click();
  choice.dispatchEvent(new Event('change'));
  document.addEventListener('keydown', (event) => {
    if (!document.documentElement.classList.contains('present')) return;
    if (event.target.closest('input, select, textarea') || event.ctrlKey || event.metaKey || event.altKey) return;
    const forward = event.key === 'ArrowRight' || event.key === 'PageDown';
    const back = event.key === 'ArrowLeft' || event.key === 'PageUp';
    if (forward || back) {
      event.preventDefault();
      event.stopImmediatePropagation();
      const button = $(forward ? 'lesson-next' : 'lesson-back');
      if (!button.disabled) button.click();
    } else if (event.key === 'Escape') {
      leave();
    }
  }, true);
}
