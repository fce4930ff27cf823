// Lesson mode: a short guided sequence per sampler — text, a preset to load, and "now drag this
// slider and watch that" — navigable with Back and Next.

import { LESSONS, findPreset } from './presets.js';

const $ = (id) => document.getElementById(id);

/** Wire the lesson panel; `apply(step)` loads a step's preset or state into the app. */
export function wireLessons(apply) {
  const panel = $('lesson');
  const choice = $('lesson-choice');
  choice.replaceChildren(...LESSONS.map((l) => new Option(l.title, l.id)));
  let lesson = LESSONS[0];
  let index = 0;

  function show() {
    const step = lesson.steps[index];
    const preset = step.preset ? findPreset(step.preset) : null;
    $('lesson-text').textContent = step.text;
    $('lesson-action').textContent = step.action;
    $('lesson-counter').textContent = `step ${index + 1} of ${lesson.steps.length}${preset ? ` · ${preset.source}` : ''}`;
    $('lesson-back').disabled = index === 0;
    $('lesson-next').disabled = index === lesson.steps.length - 1;
  }

  function go(next) {
    index = Math.max(0, Math.min(lesson.steps.length - 1, next));
    show();
    apply(lesson.steps[index]);
  }

  function open(state) {
    panel.hidden = !state;
    $('lesson-open').setAttribute('aria-expanded', String(state));
    if (state) { go(index); choice.focus(); }
  }

  $('lesson-open').addEventListener('click', () => open(panel.hidden));
  $('lesson-close').addEventListener('click', () => { open(false); $('lesson-open').focus(); });
  $('lesson-back').addEventListener('click', () => go(index - 1));
  $('lesson-next').addEventListener('click', () => go(index + 1));
  $('lesson-load').addEventListener('click', () => apply(lesson.steps[index]));
  choice.addEventListener('change', () => {
    lesson = LESSONS.find((l) => l.id === choice.value);
    index = 0;
    go(0);
  });
  show();
}
