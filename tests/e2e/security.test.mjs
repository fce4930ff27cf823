// Security checks (issue 8): no HTML sinks in the page's scripts, a Content-Security-Policy that
// allows only the app's own scripts and wasm, and no request to anything but the page's origin
// during a session that touches every control family.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { useBrowser, openApp } from './harness.mjs';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const env = useBrowser();

/**
 * Do `action` (a switch that builds a new chain, or Reset), then wait until the chain in view is a
 * new one and has drawn `n` samples: the page did its work (a wait on state, not on the clock).
 */
async function thenSample(page, action, n = 50) {
  await page.evaluate(() => { window.sgviz.app.lab.__before = true; });
  await action();
  await page.waitForFunction((k) => !window.sgviz.app.lab?.__before && window.sgviz.state().n_samples >= k, n, { timeout: 60_000 });
}

test('no innerHTML/outerHTML/insertAdjacentHTML/document.write in www/*.js or index.html', async () => {
  const files = (await readdir(join(ROOT, 'www'))).filter((f) => f.endsWith('.js')).map((f) => join(ROOT, 'www', f));
  files.push(join(ROOT, 'index.html'));
  assert.ok(files.length >= 3, `found the sources: ${files}`);
  const sinks = /\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write(ln)?|createContextualFragment)\b|\beval\s*\(|new\s+Function\s*\(/;
  const offending = [];
  for (const file of files) {
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines.forEach((line, k) => { if (sinks.test(line)) offending.push(`${file}:${k + 1}: ${line.trim()}`); });
  }
  assert.deepEqual(offending, [], 'HTML/code sinks found (use textContent and DOM nodes instead)');
});

function cspDirectives(html) {
  const meta = html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i);
  assert.ok(meta, 'CSP meta tag present');
  return Object.fromEntries(meta[1].split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name, ...values] = d.split(/\s+/);
    return [name, values];
  }));
}

test('the CSP allows only the app\'s own scripts and wasm', async () => {
  for (const file of [join(ROOT, 'index.html'), join(ROOT, 'dist/index.html')]) {
    const csp = cspDirectives(await readFile(file, 'utf8'));
    assert.deepEqual(csp['default-src'], ["'self'"], `${file}: default-src`);
    const script = csp['script-src'];
    assert.ok(script?.includes("'self'") && script.includes("'wasm-unsafe-eval'"), `${file}: script-src ${script}`);
    assert.deepEqual(script.filter((s) => s !== "'self'" && s !== "'wasm-unsafe-eval'"), [], `${file}: nothing else may run scripts`);
    assert.ok(!JSON.stringify(csp).includes("'unsafe-eval'"), `${file}: no 'unsafe-eval'`);
    for (const directive of ['connect-src', 'img-src', 'style-src']) {
      assert.ok(!(csp[directive] || []).some((s) => /^(https?:|\*|wss?:)/.test(s)), `${file}: ${directive} allows no other host`);
    }
    assert.deepEqual(csp['object-src'], ["'none'"], `${file}: object-src`);
  }
});

test('a session requests nothing outside the page\'s origin, and the CSP blocks attempts', async () => {
  const { page, errors, outsideRequests } = await openApp(env.browser, env.server.url);
  const registry = await page.evaluate(() => window.sgviz.app.registry);
  if (!(await page.evaluate(() => window.sgviz.app.playing))) await page.click('#play');
  for (const target of registry.targets.slice(0, 4)) {
    await thenSample(page, async () => {
      await page.selectOption('#target', target.name);
      await page.selectOption('#sampler', 'sgld');
    });
  }
  await thenSample(page, async () => {
    await page.selectOption('#target', 'gaussian'); // BPS needs bounds some targets do not offer
    await page.selectOption('#sampler', 'bps');
  });
  await page.click('#reset');
  await page.waitForFunction(() => window.sgviz.state().n_samples >= 50, null, { timeout: 60_000 });
  assert.deepEqual(errors, [], 'no console errors during the session');
  assert.deepEqual(outsideRequests, [], 'no request left the origin');
  const served = new Set(env.server.requests);
  for (const path of served) assert.ok(path === '/' || path.startsWith('/www/') || path === '/favicon.ico' || path === '/sw.js', `unexpected path requested: ${path}`);
  // The CSP is live: a fetch or an image to another host is refused before it leaves the page.
  const attempts = await page.evaluate(async () => {
    const fetched = await fetch('http://192.0.2.1/exfiltrate').then(() => 'sent', () => 'blocked');
    return { fetched };
  });
  assert.equal(attempts.fetched, 'blocked');
  assert.deepEqual(outsideRequests, [], 'the blocked attempt never became a request');
  await page.close();
});
