// Every SGAIS figure's claims without a browser but Fig. 4's and Fig. 5's, which have files of
// their own so that node --test runs the three on both slots (issue 23, tenth round). The body,
// and what it runs and leaves out: tests/e2e/figures-numbers.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SGAIS_FIGURES, checkFigures, figuresOf, partsNameFigures } from './figures-numbers.mjs';

test('every SGAIS figure\'s claims hold on the runs its panel starts, without a browser (the runs no claim reads left out; Fig. 4 and Fig. 5: figures-numbers-gmm and -shift)', () => {
  assert.ok(SGAIS_FIGURES.length >= 12, `only ${SGAIS_FIGURES.length} SGAIS figures`);
  assert.deepEqual(partsNameFigures(), [], 'the figures the other files check are in the gallery');
  checkFigures(figuresOf('rest'));
});
