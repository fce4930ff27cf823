// One rule for a seed (no browser needed): the seed box and a shared link's `seed=` accept exactly
// the same texts (www/seed-text.js). Before, a link's seed went through Number(), so `seed=1e3`
// loaded seed 1000 and `seed=0x10` seed 16 while the box refused both; expected values are hand-worked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSeed } from '../../www/seed-text.js';
import { decodeState } from '../../www/url-state.js';

const registry = { targets: [{ name: 'gaussian', params: [] }], samplers: [{ name: 'sgld', params: [] }] };
const fromLink = (seedText) => decodeState(`#seed=${encodeURIComponent(seedText)}`, registry, {});

const SEEDS = [['0', 0], ['12345', 12345], [' 7 ', 7], ['007', 7], ['9007199254740991', 9007199254740991]];
const NOT_SEEDS = ['', ' ', '-4', '+4', '1e3', '0x10', '1.5', '3.0', 'seven', '9007199254740993', 'Infinity', 'NaN'];

test('digits are a seed; sign, exponent, hex, fraction, words, empty and unsafe integers are not', () => {
  for (const [text, seed] of SEEDS) assert.equal(parseSeed(text), seed, `'${text}'`);
  for (const text of NOT_SEEDS) assert.equal(parseSeed(text), null, `'${text}'`);
});

test("a link's seed follows the box's rule: accepted seeds load, the rest are named in a notice", () => {
  for (const [text, seed] of SEEDS) {
    const { state, notices } = fromLink(text);
    assert.equal(state.seed, seed, `'${text}'`);
    assert.deepEqual(notices, [], `'${text}'`);
  }
  for (const text of NOT_SEEDS) {
    const { state, notices } = fromLink(text);
    assert.equal(state.seed, undefined, `'${text}' must not load a seed`);
    assert.equal(notices.length, 1, `'${text}': ${JSON.stringify(notices)}`);
    assert.match(notices[0], /^Seed '.*' in the link is not a whole number ≥ 0; using the default\.$/);
  }
});
