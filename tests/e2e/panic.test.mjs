// A panic inside wasm surfaces as the page's error banner (issue 8): a real panic is raised through
// the exported test hook `debug_panic` (src/web_bench.rs), routed through the page's own
// `guarded()` as every wasm call of the page is; the banner shows the panic message, the chain
// stops, and the page stays responsive with no exception loop.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, frames } from './harness.mjs';

const env = useBrowser();

test('a wasm panic shows the banner with its message and the page stays responsive', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  assert.equal(await page.isVisible('#banner'), false, 'no banner before the panic');
  await page.click('#play');
  await page.waitForFunction(() => window.sgviz.state().n_samples > 100);
  const returned = await page.evaluate(async () => {
    const wasm = await import('./www/pkg/sgviz.js');
    return String(window.sgviz.guarded(() => wasm.debug_panic('raised by the e2e test')));
  });
  assert.equal(returned, 'undefined', 'guarded() swallowed the trap');
  await page.waitForSelector('#banner', { state: 'visible', timeout: 5000 });
  const text = await page.textContent('#banner');
  assert.match(text, /debug_panic: raised by the e2e test/);
  assert.match(text, /[Rr]eload/);
  assert.equal(await page.evaluate(() => window.sgviz.app.playing), false, 'playing stopped');
  await screenshot(page, 'panic-banner');

  // The panic hook logged once; nothing keeps throwing afterwards.
  const errorsAfterPanic = errors.length;
  assert.ok(errors.some((e) => e.includes('sgviz panicked')), `panic logged: ${errors}`);
  await page.click('#play');
  await page.click('#reset');
  await page.selectOption('#sampler', 'sghmc');
  await page.click('#play');
  assert.equal(await frames(page, 10), 10, 'animation frames still run');
  // 60 more frames of the page's own work (not a wall-clock wait): an exception loop would log in each.
  assert.equal(await frames(page, 60), 60);
  assert.equal(errors.length, errorsAfterPanic, `no further errors or exception loop: ${errors.slice(errorsAfterPanic)}`);
  assert.ok(await page.isVisible('#banner'), 'banner stays up');
  assert.equal(await page.evaluate(() => 1 + 1), 2, 'page still evaluates');
  await page.close();
});
