// Offline (issue 24): after one visit, with the network gone (context.setOffline), a reload
// loads and runs the page from the service worker's cache, the embedded figure too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser({ serviceWorkers: 'allow', cache: null });

test('after one load the page reloads and runs offline', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgld&seed=3');
  // The service worker has installed (precached the site) and controls the page.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => window.__ready === true && navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
  await env.browser.setOffline(true);
  try {
    // The network is gone: a request the page makes is answered from the cache.
    const probe = await page.evaluate(() => fetch('./www/app.js', { cache: 'no-store' }).then((r) => r.text()).then((t) => t.includes('export'), () => 'failed'));
    assert.equal(probe, true, 'an app file from the cache');
    await page.reload();
    await page.waitForFunction(() => window.__ready === true, null, { timeout: 60_000 });
    const n = await page.evaluate(() => window.sgviz.state().n_samples);
    await page.waitForFunction((k) => window.sgviz.state().n_samples > k + 100, n, { timeout: 60_000 });
    assert.match(page.url(), /seed=3/);
    // A page never opened before, an embedded figure, also comes from the cache.
    await page.goto(`${env.server.url}index.html?embed=marginal#target=gaussian&sampler=sgld&seed=3`);
    await page.waitForFunction(() => window.__ready === true && document.documentElement.classList.contains('embed'), null, { timeout: 60_000 });
    await screenshot(page, 'offline-embed', { fullPage: false });
  } finally {
    await env.browser.setOffline(false);
  }
  assert.deepEqual(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(e)), []);
  await page.close();
});
