// Sentences the stop-40 reviewer found untrue of what their screens show (issue 26, item 13), read
// from the tables the page renders them from (no browser needed).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LESSONS } from '../../www/lesson-table.js';
import { SGAIS_FIGURES } from '../../www/figures/sgais.js';

test('sgais-particles does not let the paper\'s "more particles give higher accuracy" stand as true of its table', () => {
  // The table at class time: M = 10, 20, 50 errors −12.9, −11.8, −41.9 nats (one seeded run each,
  // weights collapsed to ESS 1): M = 50 worst. The paper's sentence may be quoted only beside an
  // "unlike the paper" that says why the table need not agree.
  const figure = SGAIS_FIGURES.find((f) => f.id === 'sgais-particles');
  assert.match(figure.paper, /more particles give higher accuracy/);
  assert.match(figure.text, /Unlike the paper, the table need not show higher accuracy with more particles/);
  assert.match(figure.text, /one seeded run/);
});

test('sgais lesson step 1 does not say the curve "approaches" the exact one it follows from the first chunk', () => {
  const step = LESSONS.find((l) => l.id === 'sgais').steps[0];
  assert.doesNotMatch(`${step.text} ${step.action}`, /approach/);
  assert.match(step.action, /from the first chunk on/);
});
