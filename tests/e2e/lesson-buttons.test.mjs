// Issue 26, item 7: osgfs 2 and cost 2 asked students to press "Discard burn-in", a button inside
// the folded "More settings" (index.html's <details id="advanced">), not on screen. Every lesson
// step that names a button in quotes which lives inside that fold must say where it is ("under
// More settings"). Reads index.html and www/lesson-table.js as written; no browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
const { LESSONS } = await import(new URL('../../www/lesson-table.js', import.meta.url));

/** The visible texts of the buttons inside <details id="advanced"> … </details>. */
function foldedButtons() {
  const start = html.indexOf('<details id="advanced"');
  assert.ok(start >= 0, 'index.html has the "More settings" fold');
  let depth = 0;
  let end = start;
  for (const m of html.slice(start).matchAll(/<details\b|<\/details>/g)) {
    depth += m[0] === '</details>' ? -1 : 1;
    if (depth === 0) { end = start + m.index; break; }
  }
  return [...html.slice(start, end).matchAll(/<button\b[^>]*>([^<]+)<\/button>/g)].map((m) => m[1].trim());
}

test('a lesson step that names a button folded under "More settings" says where it is', () => {
  const folded = foldedButtons();
  assert.ok(folded.includes('Discard burn-in'), `folded buttons: ${folded}`);
  const bad = [];
  LESSONS.forEach((lesson) => lesson.steps.forEach((step, k) => {
    for (const field of ['text', 'action']) {
      const said = step[field] || '';
      for (const name of folded) {
        if (said.includes(`"${name}"`) && !/under More settings/.test(said)) bad.push(`${lesson.id} ${k + 1} ${field}: ${said}`);
      }
    }
  }));
  assert.deepEqual(bad, []);
});

// Issue 26, item 10: sghmc 2 credits friction alone for its faster mixing ("higher than at
// κ = 0.2"), but the step left η to its derived default (0.000923 → 0.00141). The two steps'
// settings must differ in the friction only.
test('sghmc steps 1 and 2 differ in the friction only', () => {
  const [one, two] = LESSONS.find((l) => l.id === 'sghmc').steps;
  const keys = new Set([...Object.keys(one.state.values), ...Object.keys(two.state.values)]);
  const changed = [...keys].filter((k) => one.state.values[k] !== two.state.values[k]);
  assert.deepEqual(changed, ['friction']);
});
