// Issue 26: chart text must not overprint on a phone (390×844) or a projector (1920×1080): the
// trade-off chart's α labels, the bias chart's ε/α point labels, and trace ticks like "2.4e6".
// Each chart is drawn by its own code at its canvas's size as SVG (window.sgviz.svg, the same
// plotters drawing as the canvas), put into the page, and the browser's own layout gives every
// text element's box: no two boxes may overlap. Screenshots of the canvases go to test-artifacts/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();

/** Boxes of every <text> of chart `name`'s SVG as the browser lays them out, and the overlapping pairs. */
const overlaps = (page, name) => page.evaluate((n) => {
  const holder = document.createElement('div');
  holder.style.cssText = 'position:absolute;left:0;top:0;';
  holder.innerHTML = window.sgviz.svg(n);
  document.body.append(holder);
  const boxes = [...holder.querySelectorAll('text')].filter((t) => t.textContent.trim())
    .map((t) => ({ text: t.textContent.trim(), r: t.getBoundingClientRect() }));
  holder.remove();
  const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const pairs = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) if (hit(boxes[i].r, boxes[j].r)) pairs.push(`"${boxes[i].text}" × "${boxes[j].text}"`);
  }
  return { texts: boxes.length, pairs };
}, name);

for (const [label, viewport] of [['phone', { width: 390, height: 844 }], ['projector', { width: 1920, height: 1080 }]]) {
  test(`${label}: the trade-off, bias and trace charts print no text over other text`, async () => {
    const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport });
    const found = [];
    // SGFS over α (trade-off curves labelled by α), then SGLD over ε (bias points labelled by ε).
    for (const preset of ['sgfs-bias-mixing', 'sgld-gaussian-bias']) {
      await page.selectOption('#preset', preset);
      await page.click('#play');
      await page.waitForFunction(() => window.sgviz.analysis().stale.length === 0 && window.sgviz.analysis().done && window.sgviz.chart('sweep') && window.sgviz.chart('bias'), null, { timeout: 240_000, polling: 250 });
      await page.click('#play');
      for (const name of ['tradeoff', 'bias']) {
        const spec = await page.evaluate((k) => window.sgviz.chart(k), name === 'tradeoff' ? 'sweep' : 'bias');
        const labelled = spec.series.reduce((n, s) => n + (s.point_labels || []).filter(Boolean).length, 0);
        const r = await overlaps(page, name);
        found.push(...r.pairs.map((p) => `${preset} ${name}: ${p}`));
        assert.ok(r.texts > 5, `${preset} ${name}: texts drawn (${r.texts}, ${labelled} point labels in the spec)`);
      }
      await page.$eval('#chart-sweep', (c) => c.scrollIntoView({ block: 'start' }));
      await screenshot(page, `labels-${preset}-${label}`, { fullPage: false });
    }
    // A trace that has run to millions of steps: ticks like 2.4e6 on a narrow chart.
    await page.evaluate(() => window.sgviz.app.lab.run(2_500_000));
    const trace = await overlaps(page, 'trace');
    found.push(...trace.pairs.map((p) => `trace: ${p}`));
    assert.deepEqual(found, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
