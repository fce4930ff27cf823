// Issue 26 ("check every number a lesson sentence states against what the page shows"): the SGHMC
// lesson said "friction κ = 0.2" while its slider showed the derived 0.044. For every lesson step,
// each "symbol = number" in the step's sentence whose symbol names a parameter slider on screen
// must be the value that slider shows (its aria-valuetext, "κ = 0.2", the text beside it). A
// number the sentence compares with ("higher than at κ = 0.2") is not a claim about the slider and
// is left out ("higher than at κ = 0.2", "its value at α = 0"), and so is one about the paper's own run
// ("the paper's own run (n = 1, …)"); so are formulas ("ε = 4/λ_max"). The sliders are the main
// panel's, or the SGAIS panel's for a step that loads an SGAIS preset.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, parseShown } from './harness.mjs';

const env = useBrowser();

/** "symbol = number" statements of a sentence: [symbol, value, the matched text]. */
function statements(text) {
  const found = [];
  const pattern = /(than at |value at |at most |up to )?\(?([^\s(),;:]+) = (−?\d[\d,]*(?:\.\d+)?)(?![\d/·^⁰¹²³⁴⁵⁶⁷⁸⁹.]|\.\d)/g;
  for (const m of text.matchAll(pattern)) {
    if (m[1]) continue; // a comparison, not the current setting
    if (/paper's own run \($/.test(text.slice(Math.max(0, m.index - 20), m.index + (m[0].startsWith('(') ? 1 : 0)))) continue;
    found.push([m[2], Number(m[3].replace(/,/g, '').replace('−', '-')), m[0]]);
  }
  return found;
}

test('statement parser: takes settings, leaves comparisons and formulas', () => {
  assert.deepEqual(statements('Friction κ = 0.2 per step; N = 100,000 points').map(([s, v]) => [s, v]), [['κ', 0.2], ['N', 100000]]);
  assert.deepEqual(statements('higher than at κ = 0.2. Beyond ε = 4/λ_max = 0.4 and ε_t = 2·10⁻⁵'), [['4/λ_max', 0.4, '4/λ_max = 0.4']]);
  assert.deepEqual(statements('far below its value at α = 0; the paper\'s own run (n = 1, ε_t from 0.01)'), []);
});

// (No text cites the out-of-tree spec: tests/docs_citations.rs `no_code_cites_the_out_of_tree_spec` reads www/.)
test('lesson and preset texts cite only docs pages that exist', async () => {
  const { LESSONS } = await import('../../www/lesson-table.js');
  const { PRESETS } = await import('../../www/presets.js');
  const { existsSync } = await import('node:fs');
  const texts = [...LESSONS.flatMap((l) => l.steps.map((s) => [`${l.id}`, JSON.stringify(s)])), ...PRESETS.map((p) => [p.id, JSON.stringify(p)])];
  assert.ok(texts.length > 50);
  for (const [where, text] of texts) {
    for (const [page] of text.matchAll(/docs\/[a-z-]+\.md/g)) assert.ok(existsSync(new URL(`../../${page}`, import.meta.url)), `${where} cites ${page}`);
  }
});

test('every number a lesson sentence states for a slider is what the slider shows', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url, '', { reducedMotion: true, viewport: { width: 1920, height: 1080 } });
  const lessons = await page.evaluate(async () => {
    const sgais = new Set((await import('./www/presets.js')).PRESETS.filter((p) => p.sgais).map((p) => p.id));
    return (await import('./www/lesson-table.js')).LESSONS.map((l) => ({ id: l.id, steps: l.steps.map((s) => s.text), sgais: l.steps.map((s) => sgais.has(s.preset)) }));
  });
  await page.click('#lesson-open');
  const checked = [];
  const failures = [];
  for (const lesson of lessons) {
    await page.selectOption('#lesson-choice', lesson.id);
    for (let k = 0; k < lesson.steps.length; k++) {
      if (k > 0) await page.$eval('#lesson-next', (b) => b.click());
      const where = `${lesson.id} step ${k + 1}`;
      assert.equal(await page.textContent('#lesson-text'), lesson.steps[k], `${where}: text shown`);
      // The sliders' "symbol = value" texts (a slider hidden by visible_if is not on screen: left out).
      const shown = await page.$$eval('input[type=range][aria-valuetext]', (inputs, sgais) => inputs
        .filter((i) => i.closest('[hidden]') === null && (i.closest('.sgais') !== null) === sgais)
        .map((i) => i.getAttribute('aria-valuetext')), lesson.sgais[k]);
      const sliders = new Map(shown.map((t) => { const [symbol, value] = t.split(' = '); return [symbol.trim(), value]; }));
      for (const [symbol, value, text] of statements(lesson.steps[k])) {
        // The shift demo's runs each have their own K (3, 5, 7); the panel's K slider is a single run's.
        if (lesson.sgais[k] && symbol === 'K') continue;
        if (!sliders.has(symbol)) continue;
        const onScreen = parseShown(sliders.get(symbol));
        checked.push(`${where}: "${text}" — slider ${symbol} = ${sliders.get(symbol)}`);
        // The slider prints 3–4 significant figures: agree to 1 %, or exactly for zero.
        const agree = value === 0 ? onScreen === 0 : Math.abs(onScreen - value) <= 0.01 * Math.abs(value);
        if (!agree) failures.push(`${where}: the sentence says "${text}", the slider shows ${symbol} = ${sliders.get(symbol)}`);
      }
    }
  }
  console.log(checked.join('\n'));
  // The lessons state slider values in many steps (ε, n, α, κ, β̂, N, k): the check must find them.
  assert.ok(checked.length >= 12, `only ${checked.length} statements matched a slider:\n${checked.join('\n')}`);
  assert.deepEqual(failures, []);
  assert.deepEqual(errors, []);
  await page.close();
});
