// SGAIS Fig. 5's claim without a browser, a file of its own so that node --test runs it beside the
// other figures (issue 23, tenth round). The body: tests/e2e/figures-numbers.mjs.

import { test } from 'node:test';
import { checkFigures, figuresOf } from './figures-numbers.mjs';

test('SGAIS Fig. 5\'s claim holds on the run its panel starts, without a browser', () => {
  checkFigures(figuresOf('shift'));
});
