// The bouncy samplers' analysis (issues 21 and 26; docs/bouncy.md §15): with SBPS, pSBPS, lipSBPS or
// BPS in view the analysis area draws a sweep over the sampler's own knobs, its marked point follows
// the sliders, and its text is true: the events per point are the page's speed × 1,200 frames, the
// warning limit is the page's 3.4 %, and at n = 1 the measured E2 is a bias beyond its MC error.
// Waits on state only. Screenshots in test-artifacts/bouncy-analysis/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, parseShown } from './harness.mjs';

const env = useBrowser();

/** The chart `kind` once the worker posted it for the current setting with a point at `x` marked. */
async function chartMarked(page, kind, x) {
  const found = await page.waitForFunction(([k, at]) => {
    const c = window.sgviz.chart(k);
    if (!c || window.sgviz.analysis().stale.length) return null;
    return c.markers.some((m) => m.x === at) && c.series[0]?.points.some((p) => p[0] === at) ? c : null;
  }, [kind, x], { timeout: 240_000, polling: 250 });
  return found.jsonValue();
}

test('SBPS: bias over n and over k, the marked point follows both sliders, and the text is true', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '#target=gaussian&sampler=sbps');
  const state = await page.evaluate(() => window.sgviz.state());
  const n = state.sampler_params.batch_size;
  const k = state.sampler_params.band_k;
  const speed = await page.evaluate(() => window.sgviz.app.speed);
  const overN = await chartMarked(page, 'noise', n);
  assert.match(overN.title, new RegExp(`^SBPS: bias vs n \\(${(speed * 1200).toLocaleString('en')} events per point\\)`), overN.title);
  const limit = overN.series.find((s) => /warning above 3.4 % missed/.test(s.label));
  assert.ok(limit && limit.points.every(([, y]) => y === 0.034), 'the page\'s limit drawn where it is');
  const overK = await chartMarked(page, 'bias', k);
  assert.equal(overK.x_label, 'band k (predictive sds)');
  // The sweep's knobs, n and k, are mirrored above the charts (classfix item 5: the mirror was empty).
  assert.equal(await page.isVisible('#analysis-params'), true, 'the mirror row is shown');
  for (const [name, value] of [['batch_size', n], ['band_k', k]]) {
    assert.ok(await page.isVisible(`#analysis-${name}`), `#analysis-${name} mirrors the sweep's knob`);
    assert.equal(await page.$eval(`#analysis-${name}-value`, (o) => o.textContent.trim()), await page.$eval(`#param-${name}-value`, (o) => o.textContent.trim()), `${name} = ${value} in both places`);
  }
  await page.$eval('#chart-noise', (c) => c.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'bouncy-analysis/sbps-gaussian-default', { fullPage: false });

  // n to the slider's minimum (1) with the keyboard, as a student would: the marked point moves there,
  // and what is drawn there is a bias beyond 3 MC errors (issue 21: E2 16 at n = 1).
  // Every status the sweep shows from here on, recorded as it is written.
  await page.evaluate(() => {
    window.statusSeen = [];
    const status = document.getElementById('analysis-status');
    new MutationObserver(() => window.statusSeen.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
  });
  await page.focus('#param-batch_size');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => window.sgviz.state().sampler_params.batch_size === 1, null, { timeout: 10_000 });
  const atOne = await chartMarked(page, 'noise', 1);
  const [, e2] = atOne.series[0].points.find(([x]) => x === 1);
  const mc = atOne.series[0].error_bars[atOne.series[0].points.findIndex(([x]) => x === 1)];
  assert.ok(e2 - 3 * mc > 1, `n = 1: E2 ${e2} ± ${mc}`);
  // k to its maximum: the k chart's mark follows.
  await page.focus('#param-band_k');
  await page.keyboard.press('End');
  await page.waitForFunction(() => window.sgviz.state().sampler_params.band_k === 10, null, { timeout: 10_000 });
  await chartMarked(page, 'bias', 10);
  await page.waitForFunction(() => window.sgviz.analysis().done, null, { timeout: 240_000, polling: 250 });
  // The share-missed line covers the slider's range or says why it stops (stop 44's review: it
  // stopped at n = 3, nothing said): every n with an E2 point has a share drawn, or is named in the
  // line's label as an n where the band missed nothing (0 has no place on the log axis).
  const swept = await page.evaluate(() => window.sgviz.chart('noise'));
  const missed = swept.series.find((s) => s.label.startsWith('share of the bounce intensity the band missed'));
  const named = (missed.label.match(/\(none at n = ([\d., ]+): 0 is off a log axis\)$/)?.[1] ?? '').split(', ').filter(Boolean).map((v) => parseShown(v));
  // Drawn: a share above 0 (a log axis draws no 0; the old chart listed the zeros as points and
  // nothing was seen of them).
  const drawn = missed.points.filter(([, y]) => y > 0).map(([x]) => x);
  for (const [x] of swept.series[0].points) assert.ok(drawn.includes(x) !== named.includes(x), `n = ${x}: drawn ${drawn}, named ${named} ("${missed.label}")`);
  console.log(`bias vs n at k = 10: share drawn at n = ${drawn.join(', ')}; named as none at n = ${named.join(', ')}`);
  await page.$eval('#chart-noise', (c) => c.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'bouncy-analysis/sbps-missed-share-k10', { fullPage: false });
  // While it sweeps, the status says what a point costs here: events, not a gradient budget.
  const seen = await page.evaluate(() => window.statusSeen);
  assert.ok(seen.some((t) => t.includes(`${(speed * 1200).toLocaleString('en-US')} events a point`)), seen.join(' | '));
  assert.ok(!seen.some((t) => /gradient budget/.test(t)), seen.join(' | '));
  // A new speed makes new points (speed × 1,200 events each, docs/bouncy.md §15): the sweep starts
  // over and its charts say the new count (classfix item 5: they kept the old speed's points).
  const jobBefore = await page.evaluate(() => window.sgviz.analysis().job);
  await page.$eval('#speed', (s) => { s.value = String(Math.max(0, Number(s.value) - Math.round(Number(s.max) / 6))); s.dispatchEvent(new Event('input', { bubbles: true })); });
  const slower = await page.evaluate(() => window.sgviz.app.speed);
  assert.ok(slower < speed, `speed ${speed} → ${slower}`);
  const perPoint = `(${(slower * 1200).toLocaleString('en')} events per point)`;
  await page.waitForFunction(([text, before]) => window.sgviz.analysis().job !== before && window.sgviz.chart('noise')?.title.includes(text) && !window.sgviz.analysis().stale.length, [perPoint, jobBefore], { timeout: 240_000, polling: 250 });
  await page.$eval('#analysis-params', (c) => c.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'bouncy-analysis/sbps-gaussian-speed-changed', { fullPage: false });
  await page.$eval('#chart-noise', (c) => c.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'bouncy-analysis/sbps-gaussian-n1-k10', { fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [sampler, target, param, label] of [['psbps', 'gaussian', 'batch_size', 'pSBPS'], ['bps', 'gaussian', 'refresh_rate', 'BPS (exact)'], ['lipsbps', 'logreg', 'batch_size', 'lipSBPS (exact thinning)']]) {
  test(`${label}: the analysis area draws its sweep over its own knob, the current value marked`, async () => {
    const { page, errors } = await openApp(env.browser, env.server.url, `#target=${target}&sampler=${sampler}`);
    const value = (await page.evaluate(() => window.sgviz.state())).sampler_params[param];
    const kind = sampler === 'psbps' ? 'noise' : 'bias';
    // BPS's chart marks its rate raised to 0.01 when it is 0 (a log axis); the defaults are > 0.
    const spec = await chartMarked(page, kind, value);
    // SBPS's kin show bias; the exact samplers say their E2 is Monte-Carlo error.
    assert.ok(spec.title.startsWith(sampler === 'psbps' ? `${label}: bias vs` : `${label}: error vs`), spec.title);
    if (sampler !== 'psbps') assert.match(spec.title, /exact: no bias, E2 is Monte-Carlo error/);
    await page.waitForFunction(() => window.sgviz.analysis().done, null, { timeout: 240_000, polling: 250 });
    if (sampler !== 'psbps') {
      const said = await page.textContent('#analysis-status');
      assert.match(said, /No noise chart: .* has no step size, and it thins with an exact bound/, said);
      assert.match((await page.evaluate(() => window.sgviz.chart('sweep'))).title, /mixing vs/);
    }
    await page.$eval('#chart-bias', (c) => c.scrollIntoView({ block: 'start' }));
    await screenshot(page, `bouncy-analysis/${sampler}-${target}`, { fullPage: false });
    assert.deepEqual(errors, []);
    await page.close();
  });
}
