// Issue 26 (part A): the analysis charts follow the sampler in view. SGFS's noise and bias charts
// are over its own knob α (not SGLD's ε), and moving the α slider moves them; every point stays
// inside the slider's range.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, parseShown } from './harness.mjs';

const env = useBrowser();

/** The analysis charts of the current setting, once the worker has posted them (not stale). */
async function freshCharts(page) {
  await page.waitForFunction(() => window.sgviz.analysis().stale.length === 0 && window.sgviz.chart('noise') && window.sgviz.chart('bias'), null, { timeout: 120_000, polling: 250 });
  return page.evaluate(() => ({ noise: window.sgviz.chart('noise'), bias: window.sgviz.chart('bias'), sweep: window.sgviz.chart('sweep'), state: window.sgviz.state() }));
}

const currentMarker = (spec) => spec.markers.find((m) => m.label.startsWith('current α'));

test('SGFS: the noise and bias charts are over α, and moving α moves them', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sgfs_f&p.rho=0.9&p.sgfs_alpha=0&p.batch_size=10', { reducedMotion: true });
  await page.click('#play');
  const before = await freshCharts(page);
  for (const kind of ['noise', 'bias']) {
    assert.equal(before[kind].x_label, 'α', `${kind}: over α, not ε (${before[kind].title})`);
    assert.equal(currentMarker(before[kind])?.x, 0, `${kind}: the current α marked`);
    assert.ok(!before[kind].markers.some((m) => m.label.includes('ε')), `${kind}: no SGLD step-size marker`);
  }
  // Move α to the slider's maximum with the keyboard, as a student would.
  await page.focus('#param-sgfs_alpha');
  await page.keyboard.press('End');
  await page.waitForFunction(() => window.sgviz.state().sampler_params.sgfs_alpha > 0, null, { timeout: 10_000 });
  const alpha = (await page.evaluate(() => window.sgviz.state())).sampler_params.sgfs_alpha;
  await page.waitForFunction((a) => window.sgviz.chart('noise')?.markers.some((m) => m.label.startsWith('current α') && m.x === a), alpha, { timeout: 120_000, polling: 250 });
  const after = await freshCharts(page);
  const sliderMax = after.state.derived?.sgfs_alpha?.max ?? 100;
  assert.ok(alpha >= sliderMax - 1e-9, `End moved α to the slider's maximum ${sliderMax}: ${alpha}`);
  for (const kind of ['noise', 'bias']) {
    assert.equal(currentMarker(after[kind])?.x, alpha, `${kind}: the marker follows α`);
  }
  assert.notEqual(currentMarker(after.noise).label, currentMarker(before.noise).label, 'the noise ratio at the marker changed');
  // α = 0 injects nothing (ratio ∞); at the maximum α the injected noise dominates.
  assert.match(currentMarker(before.noise).label, /∞/);
  assert.doesNotMatch(currentMarker(after.noise).label, /∞/);
  // Every point of every analysis chart is a setting the slider can reach.
  for (const [kind, spec] of Object.entries({ noise: after.noise, bias: after.bias })) {
    for (const s of spec.series) for (const [x] of s.points) assert.ok(x >= 0 && x <= sliderMax + 1e-9, `${kind}/${s.label}: α = ${x} beyond the slider's [0, ${sliderMax}]`);
  }
  const swept = after.sweep.series.filter((s) => s.label.endsWith('(predicted)')).map((s) => parseShown(s.label.match(/α = (\S+)/)[1]));
  assert.ok(swept.length >= 1 && swept.every((a) => a >= 0 && a <= sliderMax + 1e-9), `trade-off curves at α = ${swept} inside [0, ${sliderMax}]`);
  await page.$eval('#chart-noise', (c) => c.scrollIntoView());
  await screenshot(page, 'knob-charts-sgfs-noise-over-alpha', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
