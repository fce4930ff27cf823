// Slider quantisation (www/controls.js `sliderValue`) on hand-made specs (no browser needed): the
// 1,000 positions of a slider must reach its defaults exactly, or a slider dragged away and back
// lands one position off the default, where the promise's boundary can sit (issue 21/26, review
// s42: SGFS-f "Set noise level α to 1.63 (now 1.63)" at α = 1.632; OSGFS "Set c back to 0.1 (now
// 0.0999)"). The derived default below is the CLI's (`sgviz defaults --target gaussian --sampler
// sgfs_f`), the ranges the registry's (src/sampler/sgfs.rs α in [0, 6]; src/sampler/osgfs.rs c in
// [0.001, 0.99], default 0.1, the report's).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rememberSetValue, sliderPosition, sliderValue } from '../../www/controls.js';

const alpha = { name: 'sgfs_alpha', min: 0, max: 6, default: 0, log_scale: false, integer: false };
const derivedAlpha = 1.6329959257173094;
const cap = { name: 'osgfs_c', min: 0.001, max: 0.99, default: 0.1, log_scale: false, integer: false };

test('a slider dragged back to the position of its derived default gives the default exactly', () => {
  const at = sliderPosition(alpha, derivedAlpha);
  assert.equal(at, 272, 'α = 1.63299 sits at position 272 of 1,000 over [0, 6]');
  assert.equal(sliderValue(alpha, at, [derivedAlpha, alpha.default]), derivedAlpha);
  // Without the anchor the position gives 272 · 6/1000 = 1.632, not the default (the defect).
  assert.ok(Math.abs(sliderValue(alpha, at) - 1.632) < 1e-12);
  // Neighbouring positions keep their own values; position 0 still gives the registry's 0.
  assert.ok(Math.abs(sliderValue(alpha, at + 1, [derivedAlpha]) - 1.638) < 1e-12);
  assert.equal(sliderValue(alpha, 0, [derivedAlpha, alpha.default]), 0);
});

test('a registry default that no position holds (OSGFS c = 0.1 over [0.001, 0.99]) is reached exactly', () => {
  const at = sliderPosition(cap, 0.1);
  // 0.001 + at · 0.989/1000 for at = 100 is 0.0999, not 0.1 (review s42: "back to 0.1 (now 0.0999)").
  assert.equal(at, 100);
  assert.ok(Math.abs(sliderValue(cap, at) - 0.0999) < 1e-12);
  assert.equal(sliderValue(cap, at, [undefined, cap.default]), 0.1);
});

test('an anchor outside the slider range is ignored', () => {
  const narrow = { ...alpha, min: 2, max: 6 };
  assert.equal(sliderValue(narrow, 0, [derivedAlpha]), 2);
});

test('a value set from outside the slider (a link, a preset) is reached again after dragging away and back', () => {
  const rho = { name: 'rho', min: -0.99, max: 0.99, default: 0.9, log_scale: false, integer: false };
  // By hand: ρ = 0.5 sits at (0.5 + 0.99) / 1.98 · 1000 = 752.53 → position 753, which alone gives
  // −0.99 + 0.753 · 1.98 = 0.50094 (the round trip "0.5 → 0.501" a student saw).
  const at = sliderPosition(rho, 0.5);
  assert.equal(at, 753);
  assert.ok(Math.abs(sliderValue(rho, at) - 0.50094) < 1e-12);
  const kept = rememberSetValue([], rho, 0.5);
  assert.deepEqual(kept, [0.5]);
  assert.equal(sliderValue(rho, at, kept), 0.5);
  assert.ok(Math.abs(sliderValue(rho, at + 1, kept) - 0.50292) < 1e-12, 'the next position keeps its own value');
  // A value the slider itself gives is not remembered (a drag adds nothing); the newest comes first,
  // a repeat moves to the front, and only four are kept.
  assert.deepEqual(rememberSetValue(kept, rho, sliderValue(rho, 900)), kept);
  assert.deepEqual(rememberSetValue([0.5, 0.25], rho, 0.25), [0.25, 0.5]);
  assert.deepEqual(rememberSetValue([0.1, 0.2, 0.3, 0.4], rho, 0.15), [0.15, 0.1, 0.2, 0.3]);
  assert.deepEqual(rememberSetValue(kept, rho, NaN), kept);
});

test('a target parameter the sampler never reads (registry unread) is hidden, dropped from links and named (review s42 item 11)', async () => {
  const { unreadBy } = await import('../../www/controls.js');
  const { decodeState, encodeState } = await import('../../www/url-state.js');
  const s = { name: 'grad_noise', label: 'Gradient noise', symbol: 's', min: 0, max: 100, choices: [] };
  const rho = { name: 'rho', label: 'Correlation', symbol: 'ρ', min: -0.99, max: 0.99, choices: [] };
  // Entries shaped as `sgviz list` prints them (src/spec.rs `unread`); the native test
  // unread_params checks the real registry against the chains' paths.
  const why = 'it uses full-data gradients';
  const mala = { name: 'mala', label: 'MALA (exact)', params: [{ name: 'mala_step', min: 1e-14, max: 10, choices: [] }], unread: [{ param: 'grad_noise', why }] };
  const sgld = { name: 'sgld', label: 'SGLD', params: [{ name: 'step_size', min: 1e-14, max: 10, choices: [] }], unread: [] };
  assert.equal(unreadBy(mala, s).why, why);
  assert.equal(unreadBy(mala, rho), undefined);
  assert.equal(unreadBy(sgld, s), undefined);
  const registry = { targets: [{ name: 'gaussian', params: [s, rho] }], samplers: [mala, sgld] };
  const link = (sampler) => decodeState(`#target=gaussian&sampler=${sampler}&p.grad_noise=5&p.rho=0.5`, registry, {});
  const forMala = link('mala');
  assert.deepEqual(forMala.state.values, { rho: 0.5 });
  assert.deepEqual(forMala.notices, ["Parameter 'grad_noise' in the link is not read by MALA (exact) and was ignored."]);
  assert.deepEqual(link('sgld').state.values, { grad_noise: 5, rho: 0.5 });
  const hash = encodeState({ target: 'gaussian', sampler: 'mala', seed: 1, values: { grad_noise: 5, rho: 0.5 }, layout: {}, unread: ['grad_noise'] });
  assert.equal(hash, 'target=gaussian&sampler=mala&seed=1&p.rho=0.5');
});

test('the core refusal reaches the screen with menu labels, not internal ids (review s42 item 3)', async () => {
  const { withLabels } = await import('../../www/format.js');
  const registry = { samplers: [{ name: 'sbps', label: 'SBPS' }], targets: [{ name: 'logreg_dd', label: 'Logistic regression (D = 20)' }] };
  const core = "sampler 'sbps' cannot run on target 'logreg_dd': SBPS's upper band … Pick a minibatch n < N";
  const shown = withLabels(core, registry);
  assert.equal(shown, 'SBPS cannot run on Logistic regression (D = 20) at these settings: SBPS\'s upper band … Pick a minibatch n < N');
  assert.doesNotMatch(withLabels(core, undefined), /'sbps'|logreg_dd/);
});
