// The figures gallery (issue 27): every gallery entry names its paper figure as '<PAPER> Fig. <n>',
// no figure or id twice, each in its paper's file; the preset menu groups them by paper.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp } from './harness.mjs';

const env = useBrowser();
const FIGURE_NAME = /^(SGLD|SGFS|SBPS|OSGFS|SGAIS) Fig\. (A?\d+[a-z]?)$/;

test('gallery figures are named <PAPER> Fig. <n>, once each, in their paper\'s group', async () => {
  const { PAPERS, FIGURES } = await import('../../www/figures/index.js');
  const { PRESETS } = await import('../../www/presets.js');
  for (const paper of PAPERS) {
    for (const f of paper.figures) {
      const m = FIGURE_NAME.exec(f.figure || '');
      assert.ok(m, `${f.id}: figure "${f.figure}" is not '<PAPER> Fig. <n>'`);
      assert.equal(m[1], paper.key, `${f.id} is filed under ${paper.key} but names ${f.figure}`);
    }
  }
  const figures = FIGURES.map((f) => f.figure);
  assert.equal(new Set(figures).size, figures.length, `a figure appears twice: ${figures}`);
  const ids = PRESETS.map((p) => p.id);
  assert.equal(new Set(ids).size, ids.length, `a preset id appears twice: ${ids}`);
  assert.ok(PRESETS.filter((p) => p.figure).length === FIGURES.length, 'every figure is a preset and no demonstration claims a figure');
});

test('the preset menu lists the demonstrations, then one group per paper with its figures', async () => {
  const { PAPERS } = await import('../../www/figures/index.js');
  const { page, errors } = await openApp(env.browser, env.server.url);
  const groups = await page.$$eval('#preset optgroup', (gs) => gs.map((g) => ({ label: g.label, options: [...g.children].map((o) => o.textContent) })));
  const expected = PAPERS.filter((p) => p.figures.length);
  assert.equal(groups.length, 1 + expected.length, `groups: ${groups.map((g) => g.label)}`);
  expected.forEach((paper, i) => {
    const group = groups[i + 1];
    assert.match(group.label, new RegExp(`^Figures: ${paper.key} `));
    assert.deepEqual(group.options.map((o) => o.split(':')[0]), paper.figures.map((f) => f.figure));
  });
  assert.deepEqual(errors, []);
  await page.close();
});
