// Sharing: the full state (target, sampler, every parameter, seed, layout) lives in the URL hash
// and is restored from it. Malformed or hostile values are ignored field by field; the caller
// shows the returned notices. Nothing from the URL is ever inserted as HTML.

import { validate } from './controls.js';
import { parseSeed } from './seed-text.js';

const MAX_HASH_LENGTH = 4000;

/**
 * Serialise the app state into a hash string (without '#'); `unread`: names of target parameters
 * the sampler never reads (registry `unread`), left out of the link.
 */
export function encodeState({ target, sampler, seed, values, layout, compare, unread = [] }) {
  const params = new URLSearchParams();
  params.set('target', target);
  params.set('sampler', sampler);
  params.set('seed', String(seed));
  for (const [name, value] of Object.entries(values)) if (!unread.includes(name)) params.set(`p.${name}`, String(value));
  if (compare) {
    params.set('compare', compare.sampler);
    for (const [name, value] of Object.entries(compare.values)) params.set(`q.${name}`, String(value));
  }
  for (const [name, value] of Object.entries(layout)) params.set(`layout.${name}`, String(value));
  return params.toString();
}

/**
 * Parse a hash against the registry. Returns { state, notices } where state holds only the
 * fields that passed validation (others fall back to defaults in the caller).
 */
export function decodeState(hash, registry, layoutSpec, fallback = { target: 'gaussian', sampler: 'sgld' }) {
  const notices = [];
  const state = { values: {}, layout: {} };
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!text) return { state, notices };
  if (text.length > MAX_HASH_LENGTH) {
    return { state, notices: [`The link's state is too long (${text.length} characters) and was ignored.`] };
  }
  let params;
  try {
    params = new URLSearchParams(text);
  } catch {
    return { state, notices: ['The link\'s state could not be read and was ignored.'] };
  }
  const pick = (key, entries, label) => {
    const name = params.get(key);
    if (name === null) return undefined;
    if (entries.some((e) => e.name === name)) return name;
    notices.push(`Unknown ${label} '${clip(name)}' in the link; using the default.`);
    return undefined;
  };
  state.target = pick('target', registry.targets, 'target');
  state.sampler = pick('sampler', registry.samplers, 'sampler');
  const compared = pick('compare', registry.samplers, 'compared sampler');
  if (compared) state.compare = { sampler: compared, values: {} };
  const seedText = params.get('seed');
  if (seedText !== null) {
    const seed = parseSeed(seedText);
    if (seed !== null) state.seed = seed;
    else notices.push(`Seed '${clip(seedText)}' in the link is not a whole number ≥ 0; using the default.`);
  }
  // Parameters are checked against the chosen target's and sampler's own specs (two targets may
  // share a name with different ranges).
  const target = registry.targets.find((e) => e.name === (state.target || fallback.target));
  const sampler = registry.samplers.find((e) => e.name === (state.sampler || fallback.sampler));
  const specs = [...(target?.params || []), ...(sampler?.params || [])];
  for (const [key, raw] of params) {
    if (key.startsWith('p.')) {
      const name = key.slice(2);
      const spec = specs.find((s) => s.name === name);
      if (!spec) { notices.push(`Parameter '${clip(name)}' in the link is not one of ${target?.name} / ${sampler?.name} and was ignored.`); continue; }
      // A target parameter the sampler never reads (registry `unread`, src/spec.rs) is dropped.
      if (sampler?.unread?.some((u) => u.param === name)) { notices.push(`Parameter '${clip(name)}' in the link is not read by ${sampler.label} and was ignored.`); continue; }
      const value = raw.trim() === '' ? NaN : Number(raw);
      const problem = validate(spec, value);
      if (problem) notices.push(`Ignored from the link: ${clip(problem, 120)}.`);
      else state.values[name] = value;
    } else if (key.startsWith('q.')) {
      const name = key.slice(2);
      const spec = state.compare && registry.samplers.find((e) => e.name === state.compare.sampler).params.find((p) => p.name === name);
      if (!spec) { notices.push(`Parameter '${clip(name)}' of the compared sampler was ignored.`); continue; }
      const value = raw.trim() === '' ? NaN : Number(raw);
      const problem = validate(spec, value);
      if (problem) notices.push(`Ignored from the link: ${clip(problem, 120)}.`);
      else state.compare.values[name] = value;
    } else if (key.startsWith('layout.')) {
      const name = key.slice(7);
      const allowed = layoutSpec[name];
      const ok = Array.isArray(allowed) ? allowed.includes(raw) : typeof allowed === 'function' && allowed(raw);
      if (ok) state.layout[name] = raw;
      else notices.push(`Ignored layout setting '${clip(name)}=${clip(raw)}' from the link.`);
    } else if (!['target', 'sampler', 'seed', 'compare'].includes(key)) {
      notices.push(`Unknown field '${clip(key)}' in the link was ignored.`);
    }
  }
  return { state, notices };
}

function clip(text, length = 40) {
  const s = String(text);
  return s.length > length ? `${s.slice(0, length)}…` : s;
}
