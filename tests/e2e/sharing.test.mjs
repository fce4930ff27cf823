// Sharing: the state round-trips through the URL (same seed ⇒ same first 100 samples), and a
// garbage URL gives a visible notice, defaults and no console error.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, downloadedBytes } from './harness.mjs';

const env = useBrowser();

const firstSamples = (page) => page.evaluate(() => {
  window.sgviz.app.lab.run(100);
  return window.sgviz.app.lab.samples_csv();
});

test('URL round trip restores an identical state', async () => {
  const first = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  const page = first.page;
  await page.click('#advanced > summary');
  await page.focus('#param-rho');
  for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowLeft');
  await page.focus('#param-step_size');
  for (let i = 0; i < 25; i++) await page.keyboard.press('ArrowRight');
  await page.fill('#seed', '12345');
  await page.press('#seed', 'Enter');
  await page.click('#large-font');
  // Every change is in the link and the chain rebuilt for the new seed has its truth.
  await page.waitForFunction(() => ['seed=12345', 'layout.font=large', 'p.rho=', 'p.step_size='].every((s) => location.hash.includes(s)) && !window.sgviz.app.truthPending);
  const url = page.url();
  const state = await page.evaluate(() => window.sgviz.state());
  const samples = await firstSamples(page);
  assert.equal(samples.trim().split('\n').length, 101);

  const second = await openApp(env.browser, url, '', { reducedMotion: true });
  const restored = await second.page.evaluate(() => window.sgviz.state());
  assert.deepEqual(restored.sampler_params, state.sampler_params);
  assert.deepEqual(restored.target_params, state.target_params);
  assert.equal(await second.page.inputValue('#seed'), '12345');
  assert.equal(await second.page.getAttribute('#large-font', 'aria-pressed'), 'true');
  assert.equal(await firstSamples(second.page), samples, 'same seed and settings replay the same samples');
  assert.equal(await second.page.isVisible('#banner'), false, 'a clean link gives no notice');
  await screenshot(second.page, 'sharing-restored-large-font');
  assert.deepEqual([...first.errors, ...second.errors], []);
  await page.close();
  await second.page.close();
});

test('garbage URL state gives a notice, defaults and no console error', async () => {
  const hostile = '#target=<img src=x onerror=alert(1)>&sampler=sgld&seed=-4&p.step_size=NaN&p.rho=7&p.bogus=1&layout.font=huge&zzz=1&p.sd1=2';
  const { page, errors } = await openApp(env.browser, env.server.url, hostile);
  const banner = await page.textContent('#banner');
  assert.match(banner, /Unknown target '<img src=x onerror=alert\(1\)>'/);
  assert.match(banner, /Seed '-4'/);
  assert.match(banner, /step_size: not a finite number/);
  assert.match(banner, /rho: 7 is out of range/);
  assert.match(banner, /Parameter 'bogus' in the link is not one of gaussian \/ sgld/);
  assert.match(banner, /layout setting 'font=huge'/);
  assert.equal(await page.$('#banner img'), null, 'no markup from the URL is rendered');
  const state = await page.evaluate(() => window.sgviz.state());
  const registryDefault = (await page.evaluate(() => window.sgviz.app.registry)).samplers[0].params.find((p) => p.name === 'step_size').default;
  assert.equal(state.sampler_params.step_size, state.derived.step_size?.default ?? registryDefault, 'invalid value replaced by the (derived) default');
  assert.ok(!('step_size' in (await page.evaluate(() => window.sgviz.app.explicit))), 'and not linked as set');
  assert.equal(state.target_params.rho, 0.9);
  assert.equal(state.target_params.sd1, 2, 'valid fields are kept');
  await screenshot(page, 'sharing-garbage-notice');
  assert.deepEqual(errors, []);
  await page.close();
});

test('parameters in the link are checked against the chosen target, not a namesake', async () => {
  // logreg allows n_points up to 10⁶; the mixture target's n_points stops at 10⁵.
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=logreg&sampler=sgld&p.n_points=200000');
  assert.equal(await page.isVisible('#banner'), false);
  assert.equal(await page.evaluate(() => window.sgviz.state().n_data), 200000);
  assert.deepEqual(errors, []);
  await page.close();
});

test('help overlay opens with ? and lists the shortcuts', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  await page.keyboard.press('?');
  assert.equal(await page.isVisible('#help'), true);
  const text = await page.textContent('#help');
  for (const key of ['Space', 'play / pause', 'one step', 'reset']) assert.ok(text.includes(key), key);
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#help'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('samples export as CSV and the panel as PNG', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true });
  await page.click('#share-menu > summary');
  await page.evaluate(() => window.sgviz.app.lab.run(250));
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const text = (await downloadedBytes(csv)).toString('utf8');
  const lines = text.trim().split('\n');
  // ArviZ's long format: chain, draw, one column per parameter; draws 0..249 of chain 0.
  assert.equal(lines[0], 'chain,draw,θ1,θ2');
  assert.equal(lines.length, 251);
  assert.ok(lines.slice(1).every((l, k) => l.startsWith(`0,${k},`) && l.split(',').length === 4 && l.split(',').every((x) => Number.isFinite(Number(x)))));
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  const bytes = await downloadedBytes(png);
  assert.deepEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG file');
  assert.ok(png.suggestedFilename().endsWith('.png'));
  assert.deepEqual(errors, []);
  await page.close();
});
