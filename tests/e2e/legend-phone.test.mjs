// Issue 26: on a phone (390×844) the noise and bias charts' long legend entries were cut at the
// canvas's right edge ("… exact gradie"). Every text those charts draw is read from the canvas's
// own fillText calls (its measured width through the context's transform, as labels.test.mjs reads
// the bias y label): each lies inside the canvas, and each legend entry of the chart's spec is
// drawn whole (in one piece, or wrapped at spaces into consecutive lines).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();
const CANVASES = { noise: 'chart-noise', bias: 'chart-bias' };

/** Draw the charts again and return, per canvas, every text drawn with its box in canvas pixels. */
async function drawnTexts(page) {
  await page.evaluate((ids) => {
    window.__texts = {};
    const proto = CanvasRenderingContext2D.prototype;
    proto.__legendFillText ??= proto.fillText;
    proto.fillText = function (t, x, y, ...rest) {
      if (ids.includes(this.canvas.id)) {
        const m = this.getTransform();
        const w = this.measureText(t).width;
        const start = { center: x - w / 2, right: x - w, end: x - w }[this.textAlign] ?? x;
        const ends = [start, start + w].map((u) => ({ x: m.a * u + m.c * y + m.e, y: m.b * u + m.d * y + m.f }));
        (window.__texts[this.canvas.id] ||= []).push({ text: String(t), ends, width: this.canvas.width, height: this.canvas.height });
      }
      return proto.__legendFillText.call(this, t, x, y, ...rest);
    };
  }, Object.values(CANVASES));
  await page.evaluate(async () => (await import('./www/charts.js')).requeueCharts());
  // draw_chart_json draws a whole chart synchronously: once a canvas has texts, it has all of them.
  await page.waitForFunction((ids) => ids.every((id) => window.__texts[id]?.length > 0), Object.values(CANVASES), { timeout: 60_000, polling: 100 });
  return page.evaluate(() => window.__texts);
}

/** Is `label` drawn whole: one text equal to it, or consecutive texts that join (at spaces) to it? */
function drawnWhole(label, texts) {
  const words = texts.map((t) => t.text);
  for (let i = 0; i < words.length; i++) {
    let joined = words[i];
    for (let j = i; j < words.length && joined.length <= label.length; j++) {
      if (j > i) joined = `${joined} ${words[j]}`;
      if (joined === label) return true;
    }
  }
  return false;
}

test('phone 390×844: every text of the noise and bias charts lies inside its canvas and every legend entry is whole', async () => {
  const viewport = { width: 390, height: 844 };
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport });
  const found = [];
  let checked = 0;
  for (const sampler of ['sgld', 'sgfs_f', 'sghmc']) {
    await page.goto('about:blank');
    await page.goto(`${env.server.url}#target=gaussian&sampler=${sampler}&seed=1`);
    await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
    await page.click('#play');
    await page.waitForFunction(() => window.sgviz.analysis().stale.length === 0 && window.sgviz.chart('noise') && window.sgviz.chart('bias'), null, { timeout: 240_000, polling: 250 });
    await page.click('#play');
    const drawn = await drawnTexts(page);
    for (const [kind, id] of Object.entries(CANVASES)) {
      const spec = await page.evaluate((k) => window.sgviz.chart(k), kind);
      const texts = drawn[id];
      for (const t of texts) {
        const xs = t.ends.map((p) => p.x);
        const ys = t.ends.map((p) => p.y);
        // Half a pixel of rounding either way.
        if (Math.min(...xs) < -0.5 || Math.max(...xs) > t.width + 0.5 || Math.min(...ys) < -0.5 || Math.max(...ys) > t.height + 0.5) {
          found.push(`${sampler} ${kind}: "${t.text}" drawn over x ${xs.map(Math.round).join('–')}, y ${ys.map(Math.round).join('–')} on a ${t.width}×${t.height} canvas`);
        }
      }
      const labels = [...spec.series.map((s) => s.label), ...(spec.markers || []).map((m) => m.label)].filter(Boolean);
      assert.ok(labels.length >= 2, `${sampler} ${kind}: a legend (${labels})`);
      for (const label of labels) {
        checked += 1;
        if (!drawnWhole(label, texts)) found.push(`${sampler} ${kind}: legend entry "${label}" not drawn whole (drawn: ${texts.map((t) => t.text).join(' | ')})`);
      }
    }
    await page.$eval('#chart-noise', (c) => c.scrollIntoView({ block: 'start' }));
    await screenshot(page, `legend-phone-${sampler}`, { fullPage: false });
  }
  console.log(`${checked} legend entries checked`);
  assert.deepEqual(found, []);
  assert.deepEqual(errors, []);
  await page.close();
});
