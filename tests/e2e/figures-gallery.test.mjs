// The figures gallery (issue 27): every gallery entry names its paper figure as '<PAPER> Fig. <n>',
// no figure or id twice, each in its paper's file, at least 25 of the 29 in scope, each quoting the
// paper and making claims; the preset menu groups them by paper.

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

test('at least 25 of the 29 in-scope figures are in the gallery, each quoting the paper and making claims', async () => {
  const { FIGURES } = await import('../../www/figures/index.js');
  // Issue 27: 29 in-scope figures (SGLD 1–3, SGFS 1–2, SBPS 1–5 and 7–11, OSGFS 1–2, SGAIS 1–8 and A1–A4).
  assert.ok(FIGURES.length >= 25, `${FIGURES.length} figures in the gallery`);
  for (const f of FIGURES) {
    // The paper's number, or its words where the figure states its result without one.
    assert.ok(typeof f.paper === 'string' && f.paper.length >= 20, `${f.figure}: nothing quoted from the paper`);
    // A figure's claims are on its chain (`claims`) or on the chart its worker computes (`scan.claims`).
    const claims = [...(f.claims || []), ...(f.scan?.claims || [])];
    assert.ok(claims.length > 0, `${f.figure}: no claims`);
    for (const c of claims) assert.ok(c.metric && c.op && c.value !== undefined, `${f.figure}: claim ${JSON.stringify(c)} is not a predicate`);
  }
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
