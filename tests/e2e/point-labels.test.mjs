// Issue 26: on the bias chart the sweep points' labels ("α = 2.63", "ε = 0.0161") overlapped each
// other at 1920×1080 and were drawn over the curves on a phone. What the canvas draws is read from
// its own calls (as labels.test.mjs and legend-phone.test.mjs read text): each point label's glyph
// box (fillText through the context's transform, measureText's actual bounding box) and every
// line stroked in a series' colour (the curves, the dashed Monte Carlo curve, the error bars).
// At 1920×1080 and 390×844, for SGFS-f (α) and SGLD (ε): no two labels share area, no curve runs
// through a label (1 px inside its box: anti-aliasing), at least one label is drawn, and the
// legend names no two series alike. Screenshots: test-artifacts/point-labels-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();

/** Redraw the bias chart and return what its canvas drew: texts with boxes, stroked segments with colours. */
async function drawnBias(page) {
  await page.evaluate(() => {
    window.__bias = { texts: [], segments: [] };
    const proto = CanvasRenderingContext2D.prototype;
    const map = (m, x, y) => ({ x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f });
    proto.__pointFillText ??= proto.fillText;
    proto.__pointMoveTo ??= proto.moveTo;
    proto.__pointLineTo ??= proto.lineTo;
    proto.__pointBeginPath ??= proto.beginPath;
    proto.__pointStroke ??= proto.stroke;
    const mine = (ctx) => ctx.canvas.id === 'chart-bias';
    proto.fillText = function (t, x, y, ...rest) {
      if (mine(this)) {
        const m = this.getTransform();
        const k = this.measureText(t);
        const corners = [map(m, x - k.actualBoundingBoxLeft, y - k.actualBoundingBoxAscent), map(m, x + k.actualBoundingBoxRight, y + k.actualBoundingBoxDescent)];
        window.__bias.texts.push({ text: String(t), left: Math.min(corners[0].x, corners[1].x), right: Math.max(corners[0].x, corners[1].x), top: Math.min(corners[0].y, corners[1].y), bottom: Math.max(corners[0].y, corners[1].y) });
      }
      return proto.__pointFillText.call(this, t, x, y, ...rest);
    };
    proto.beginPath = function (...a) { if (mine(this)) this.__path = []; return proto.__pointBeginPath.apply(this, a); };
    proto.moveTo = function (x, y) { if (mine(this)) (this.__path ||= []).push({ move: true, ...map(this.getTransform(), x, y) }); return proto.__pointMoveTo.call(this, x, y); };
    proto.lineTo = function (x, y) { if (mine(this)) (this.__path ||= []).push({ move: false, ...map(this.getTransform(), x, y) }); return proto.__pointLineTo.call(this, x, y); };
    proto.stroke = function (...a) {
      if (mine(this) && this.__path) {
        for (let i = 1; i < this.__path.length; i++) {
          if (!this.__path[i].move) window.__bias.segments.push({ a: this.__path[i - 1], b: this.__path[i], colour: String(this.strokeStyle) });
        }
      }
      return proto.__pointStroke.apply(this, a);
    };
  });
  await page.evaluate(async () => (await import('./www/charts.js')).requeueCharts());
  await page.waitForFunction(() => window.__bias.texts.length > 0, null, { timeout: 60_000, polling: 100 });
  return page.evaluate(() => {
    // The series' colours as the canvas writes them back ('#rrggbb').
    const probe = document.createElement('canvas').getContext('2d');
    const spec = window.sgviz.chart('bias');
    const colours = spec.series.map((s) => { probe.strokeStyle = `rgb(${s.colour.join(',')})`; return probe.strokeStyle; });
    return { drawn: window.__bias, spec, colours };
  });
}

/** Does segment a–b pass through the box shrunk by `inset` (Liang–Barsky, written here)? */
function crosses({ a, b }, box, inset) {
  const [l, t, r, bo] = [box.left + inset, box.top + inset, box.right - inset, box.bottom - inset];
  if (r <= l || bo <= t) return false;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let t0 = 0;
  let t1 = 1;
  for (const [p, q] of [[-dx, a.x - l], [dx, r - a.x], [-dy, a.y - t], [dy, bo - a.y]]) {
    if (p === 0) { if (q < 0) return false; } else if (p < 0) t0 = Math.max(t0, q / p); else t1 = Math.min(t1, q / p);
  }
  return t0 <= t1;
}

for (const viewport of [{ width: 1920, height: 1080 }, { width: 390, height: 844 }]) {
  test(`${viewport.width}×${viewport.height}: the bias chart's point labels overlap neither each other nor the curves; no two series named alike`, async () => {
    const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport });
    const found = [];
    let labelsDrawn = 0;
    for (const sampler of ['sgfs_f', 'sgld']) {
      await page.goto('about:blank');
      await page.goto(`${env.server.url}#target=gaussian&sampler=${sampler}&seed=1`);
      await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
      await page.click('#play');
      await page.waitForFunction(() => window.sgviz.analysis().stale.length === 0 && window.sgviz.chart('bias')?.series.some((s) => s.point_labels?.length), null, { timeout: 240_000, polling: 250 });
      await page.click('#play');
      const { drawn, spec, colours } = await drawnBias(page);
      const names = spec.series.map((s) => s.label);
      if (new Set(names).size !== names.length) found.push(`${sampler}: two series named alike: ${names.join(' | ')}`);
      const pointLabels = new Set(spec.series.flatMap((s) => s.point_labels || []));
      const labels = drawn.texts.filter((t) => pointLabels.has(t.text));
      labelsDrawn += labels.length;
      const curves = drawn.segments.filter((s) => colours.includes(s.colour));
      assert.ok(curves.length > 10, `${sampler}: the curves' strokes are read (${curves.length})`);
      for (let i = 0; i < labels.length; i++) {
        for (let j = i + 1; j < labels.length; j++) {
          const [p, q] = [labels[i], labels[j]];
          if (p.left < q.right - 0.5 && q.left < p.right - 0.5 && p.top < q.bottom - 0.5 && q.top < p.bottom - 0.5) found.push(`${sampler}: "${p.text}" × "${q.text}"`);
        }
        const hit = curves.find((s) => crosses(s, labels[i], 1));
        if (hit) found.push(`${sampler}: "${labels[i].text}" drawn over a ${hit.colour} stroke (${Math.round(hit.a.x)},${Math.round(hit.a.y)})–(${Math.round(hit.b.x)},${Math.round(hit.b.y)})`);
      }
      console.log(`${viewport.width}×${viewport.height} ${sampler}: ${labels.length} of ${pointLabels.size} point labels drawn, ${curves.length} curve strokes`);
      await page.$eval('#chart-bias', (c) => c.scrollIntoView({ block: 'center' }));
      await screenshot(page, `point-labels-${sampler}-${viewport.width}x${viewport.height}`, { fullPage: false });
    }
    assert.ok(labelsDrawn >= 2, `point labels drawn: ${labelsDrawn}`);
    assert.deepEqual(found, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
