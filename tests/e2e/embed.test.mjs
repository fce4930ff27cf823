// Embed mode (issue 24): a host page with an 800×450 <iframe> of `index.html?embed=marginal#…`:
// the figure fills ≥ 80 % of the frame, moves, has no scrollbars, its canvas backing follows the
// devicePixelRatio, Tab leaves the frame, and "open in sgviz" carries the same state. The frame
// sizes 320×240 and 1920×1080 and a chart (trace) fill it too. Screenshots of the host page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, screenshot } from './harness.mjs';

const env = useBrowser();
const STATE = '#target=gaussian&sampler=sgld&seed=2';

/** A host page (not sgviz's origin) with a button before and after an iframe of `src`. */
async function host(width, height, src, { deviceScaleFactor = 1 } = {}) {
  const page = await env.browser.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  if (deviceScaleFactor !== 1) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 1200, deviceScaleFactor, mobile: false });
  }
  await page.setContent(`<!doctype html><body style="margin:20px;font:16px sans-serif">
    <p>Lecture notes. <button id="before">before</button></p>
    <iframe id="fig" src="${src}" width="${width}" height="${height}" style="border:1px solid #999" title="sgviz figure"></iframe>
    <p><button id="after">after</button></p></body>`);
  const frame = await (await page.$('#fig')).contentFrame();
  await frame.waitForFunction(() => window.__ready === true, null, { timeout: 60_000 });
  return { page, frame, errors };
}

/** Share of the frame's area covered by the figure's element, and the scroll overflow. */
const geometry = (frame, selector) => frame.evaluate((sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  const doc = document.documentElement;
  return {
    fill: (r.width * r.height) / (window.innerWidth * window.innerHeight),
    overflowX: doc.scrollWidth - doc.clientWidth,
    overflowY: doc.scrollHeight - doc.clientHeight,
  };
}, selector);

test('an embedded panel in an 800×450 iframe fills it, moves, has no scrollbars, and Tab leaves it', async () => {
  const { page, frame, errors } = await host(800, 450, `${env.server.url}index.html?embed=marginal${STATE}`, { deviceScaleFactor: 2 });
  const g = await geometry(frame, '#overlay-layer');
  assert.ok(g.fill >= 0.8, `the figure covers ${(100 * g.fill).toFixed(1)} % of the frame`);
  assert.equal(g.overflowX, 0, 'no horizontal scrollbar');
  assert.equal(g.overflowY, 0, 'no vertical scrollbar');
  // devicePixelRatio 2: the backing store is twice the CSS size.
  await frame.waitForFunction(() => {
    const c = document.getElementById('overlay-layer');
    return window.devicePixelRatio === 2 && c.width === Math.round(c.clientWidth * 2) && c.height === Math.round(c.clientHeight * 2);
  }, null, { timeout: 30_000 });
  // It plays: the chain moves on its own.
  const before = await frame.evaluate(() => window.sgviz.state().n_samples);
  await frame.waitForFunction((n) => window.sgviz.state().n_samples > n + 100, before, { timeout: 60_000 });
  assert.equal(await frame.textContent('#play'), 'Pause');
  // "open in sgviz" carries the state and not the embed parameter.
  const href = await frame.$eval('#embed-open', (a) => a.getAttribute('href'));
  assert.ok(href.includes('target=gaussian') && href.includes('seed=2') && !href.includes('embed='), href);
  // Tab from the host's button goes through the frame's controls and out again.
  await page.focus('#before');
  let left = false;
  for (let k = 0; k < 12 && !left; k++) {
    await page.keyboard.press('Tab');
    left = await page.evaluate(() => document.activeElement?.id === 'after');
  }
  assert.ok(left, 'Tab reached the host button after the frame');
  await screenshot(page, 'embed-800x450', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('embedded figures fill frames from 320×240 to 1920×1080; a chart embeds too; an unknown figure is named', async () => {
  for (const [w, h, figure, selector] of [[320, 240, 'marginal', '#overlay-layer'], [1920, 1080, 'marginal', '#overlay-layer'], [800, 450, 'trace', '#chart-trace']]) {
    const { page, frame, errors } = await host(w, h, `${env.server.url}index.html?embed=${figure}${STATE}`);
    const g = await geometry(frame, selector);
    assert.ok(g.fill >= 0.8 - (h < 300 ? 0.1 : 0), `${figure} at ${w}×${h}: ${(100 * g.fill).toFixed(1)} %`);
    assert.equal(g.overflowX + g.overflowY, 0, `${figure} at ${w}×${h}: no scrollbars`);
    if (figure === 'trace') {
      await frame.waitForFunction(() => {
        const c = document.getElementById('chart-trace');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let painted = 0;
        for (let i = 0; i < d.length; i += 16) if (d[i + 3] > 0 && d[i] < 200) painted++;
        return painted > 500;
      }, null, { timeout: 60_000 });
      await screenshot(page, 'embed-trace-800x450', { fullPage: false });
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
  const { page, frame } = await host(800, 450, `${env.server.url}index.html?embed=pie${STATE}`);
  assert.match(await frame.textContent('.embed-notice'), /Unknown figure "pie".*showing marginal \(allowed: marginal, trace, autocorrelation, noise, bias, tradeoff, sgais\)/);
  await page.close();
});

test('Share offers the embed code with the current state', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.server.url}${STATE}`);
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
  const code = await page.evaluate(async () => (await import('./www/embed.js')).embedCode('marginal'));
  assert.match(code, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=marginal#target=gaussian&sampler=sgld&seed=2[^"]*" width="800" height="450"/);
  assert.equal(await page.isVisible('#copy-embed'), false, 'inside the closed Share menu');
  await page.close();
});
