// Issue 26 (messages that stay): the seed box's message goes when its cause does (a seed typed, or
// Reset), what the user typed stays in the box until then; a chart that fails to draw says in
// words what to do, never the drawing library's Debug text, and the message goes once the chart
// draws again; errors.js turns Debug/serde-looking text from anywhere into a plain sentence.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, frames } from './harness.mjs';

const env = useBrowser();

/** Rust Debug / serde / engine text (written here, not taken from www/errors.js). */
const RAW = /[A-Z][A-Za-z]*(Error|Kind)\b|\b(Some|Ok|Err)\(|::|invalid type|line \d+ column|drawing failed|JsValue/;

const status = (page) => page.textContent('#status').then((t) => t.trim());

async function typeSeed(page, text) {
  await page.fill('#seed', text);
  await page.press('#seed', 'Enter'); // commits: the 'change' event
}

test('seed box: a bad seed is named under Play, kept in the box, and the message goes with a valid seed or Reset', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&seed=3', { reducedMotion: true });
  await page.$eval('#advanced', (d) => { d.open = true; });
  for (const bad of ['1.5', '-2', '']) {
    await typeSeed(page, bad);
    const message = await status(page);
    assert.match(message, /^Seed \(under More settings\): .* is not a seed; type a whole number ≥ 0/, `'${bad}': ${message}`);
    assert.doesNotMatch(message, RAW);
    assert.equal(await page.inputValue('#seed'), bad, 'what was typed stays in the box');
    assert.equal(await page.getAttribute('#seed', 'aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => window.sgviz.app.seed), 3, 'the chain keeps its seed');
  }
  await screenshot(page, 'messages-seed-invalid', { fullPage: false });
  // Cause gone by typing: a valid seed clears the message and rebuilds at that seed.
  await typeSeed(page, '7');
  assert.equal(await status(page), '', 'a valid seed clears the message');
  assert.equal(await page.getAttribute('#seed', 'aria-invalid'), null);
  assert.equal(await page.evaluate(() => window.sgviz.app.seed), 7);
  // Cause gone by Reset: the box shows the chain's seed again and the message goes.
  await typeSeed(page, '0.5');
  assert.match(await status(page), /^Seed/);
  await page.click('#reset');
  assert.equal(await status(page), '', 'Reset clears the message');
  assert.equal(await page.inputValue('#seed'), '7', 'Reset shows the chain\'s seed in the box');
  assert.equal(await page.getAttribute('#seed', 'aria-invalid'), null);
  // The keyboard's Reset (r) too.
  await typeSeed(page, '2.5');
  await page.click('#play'); await page.click('#play'); // focus leaves the box (r typed in it is text)
  await page.keyboard.press('r');
  assert.equal(await status(page), '', 'r clears the message');
  assert.equal(await page.inputValue('#seed'), '7');
  await screenshot(page, 'messages-seed-cleared', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a chart whose drawing fails says what to do in words (the real Rust path), and the message goes when it draws again', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld', { reducedMotion: true });
  await page.click('#play');
  await page.waitForFunction(() => window.sgviz.analysis().stale.length === 0 && window.sgviz.chart('noise'), null, { timeout: 120_000, polling: 250 });
  await page.click('#play');
  // The canvas refuses to draw text (fillText throws: web-sys returns it to plotters as a
  // backend error, the path of any real failure on a canvas).
  await page.evaluate(() => {
    const proto = CanvasRenderingContext2D.prototype;
    proto.__realFillText = proto.fillText;
    proto.fillText = function (...args) {
      if (this.canvas.id === 'chart-noise') throw new DOMException('fabricated failure', 'InvalidStateError');
      if (this.canvas.id === 'chart-bias') window.__biasDraws = (window.__biasDraws ?? 0) + 1;
      return proto.__realFillText.apply(this, args);
    };
  });
  await page.evaluate(async () => (await import('./www/charts.js')).requeueCharts());
  await page.waitForFunction(() => document.querySelector('#status').textContent.trim() !== '', null, { timeout: 30_000 });
  const message = await status(page);
  assert.match(message, /^This chart could not be drawn; resize the window or press Reset\.$/, message);
  assert.doesNotMatch(message, RAW);
  assert.equal(await page.evaluate(() => document.querySelector('#status').dataset.source), 'chart:chart-noise');
  // Other charts drawing (the bias chart draws fine) do not clear it: its cause is still there.
  await page.evaluate(async () => { window.__biasDraws = 0; (await import('./www/charts.js')).queueChart('chart-bias', JSON.stringify(window.sgviz.chart('bias'))); });
  await page.waitForFunction(() => (window.__biasDraws ?? 0) > 0, null, { timeout: 30_000 });
  assert.equal(await status(page), message, 'the bias chart drawing leaves the noise chart\'s message');
  await screenshot(page, 'messages-chart-failed', { fullPage: false });
  // The canvas draws again (the cause is gone): the next chart drawn clears the message.
  await page.evaluate(() => { const p = CanvasRenderingContext2D.prototype; p.fillText = p.__realFillText; });
  await page.evaluate(async () => (await import('./www/charts.js')).requeueCharts());
  await page.waitForFunction(() => document.querySelector('#status').textContent.trim() === '', null, { timeout: 30_000 });
  await frames(page, 2);
  assert.equal(await status(page), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('errors.js: Debug- and serde-looking text from any call is replaced by a sentence naming what to do', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld', { reducedMotion: true });
  const fabricated = [
    'drawing failed: DrawingError(CanvasError(JsValue(InvalidStateError: fabricated)))',
    'BackendError(JsValue(Object({})))',
    'chart failed: Some(ChartSpec { title: "x", series: [] })',
    'plotters::drawing::DrawingAreaErrorKind',
    'Err(ParseFloatError { kind: Invalid })',
    'invalid type: null, expected f64 at line 1 column 2163',
  ];
  for (const text of fabricated) {
    const shown = await page.evaluate(async (t) => {
      const { guarded } = await import('./www/errors.js');
      guarded(() => { throw new Error(t); }, 'fabricated');
      return document.querySelector('#status').textContent;
    }, text);
    assert.doesNotMatch(shown, RAW, `'${text}' reached the screen as '${shown}'`);
    assert.match(shown, /press Reset/, `'${text}': the sentence names what to do (${shown})`);
  }
  // A message written for the user passes unchanged.
  const plain = 'Seed (under More settings): \'1.5\' is not a seed; type a whole number ≥ 0, e.g. 1.';
  const shown = await page.evaluate(async (t) => (await import('./www/errors.js')).userMessage(t), plain);
  assert.equal(shown, plain);
  assert.deepEqual(errors, []);
  await page.close();
});
