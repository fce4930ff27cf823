// What the SGAIS panel runs, as plain functions over plain data (no page, no wasm): its presets
// (the paper's Fig. 2 and Fig. 5 runs, the lecture's shift demo, and the figures gallery's runs
// registered under their `sgais` names), the values a run starts from (registry defaults with the
// model's own SGAIS defaults and a preset's laid over them) and the plan of runs — every replica of
// every variant, the AIS baselines, the nested-sampling runs. www/sgais.js starts these runs in the
// page's workers; tests/e2e/figures-numbers.test.mjs runs the same plans in Node with the same wasm
// (issue 23, ninth round), so both read one definition.

import { SGAIS_FIGURES } from './figures/sgais.js';
import { nestedRuns } from './sgais-nested.js';

/**
 * Variants of the distribution-shift demo (paper §6.2, Fig. 5): K = 3, 5, 7 in order, then shuffled.
 * The in-order runs come first: with fewer workers than runs, the model comparison (K = 3 vs 5 vs 7
 * on the data in order) is complete before the shuffled controls start.
 */
const shiftVariants = (ks) => [false, true].flatMap((shuffled) => ks.map((k) => ({
  label: `K = ${k}, ${shuffled ? 'shuffled' : 'in order'}`,
  settings: [['n_components', String(k)], ['scenario', shuffled ? 'shift_shuffled' : 'shift']],
})));
const SHIFT_VARIANTS = shiftVariants([3, 5, 7]);
/**
 * In a lecture (issue 26) the runs start in this order, and it is what a slide sees: the 7-component
 * model in order (its run shows both change points) and shuffled (the in-order/shuffled comparison
 * of §6.2 is complete after these two; on a 2-core laptop they run side by side, the main chain
 * paused meanwhile: www/sgais-focus.js), then K = 3 and 5 in order (the model comparison), then
 * their shuffled controls.
 */
const SHIFT_VARIANTS_LECTURE = (() => {
  const all = shiftVariants([7, 3, 5]);
  const pick = (label) => all.find((v) => v.label === label);
  return ['K = 7, in order', 'K = 7, shuffled', 'K = 3, in order', 'K = 5, in order', 'K = 3, shuffled', 'K = 5, shuffled'].map(pick);
})();

/** Paper presets: Fig. 2 (linear regression, exact curve; accurate or paper settings) and Fig. 5. */
export const SGAIS_PRESETS = {
  linreg: { target: 'linreg', values: { n_points: 10000 }, variants: [], ais: true, replicas: 4 },
  paper: { target: 'linreg', values: { n_points: 10000 }, preset: 'paper', variants: [], ais: true, replicas: 4 },
  // The mixture's replicas at class size (issue 26): N = 1,500 in chunks of 500 with history
  // minibatches of 500 (the paper's |C| = |B| = 500, §6.1), the mixture's own defaults otherwise,
  // four replicas; on a 2-core laptop they go two at a time, taking turns in one worker
  // (www/sgais.js bundleRuns), so the first pair is compared after its first chunk and finished
  // within a slide (8.1 and 8.5 CPU s each in wasm, docs/sgais.md §14); the model's default
  // N = 10,000 is the next preset. No AIS: the slide is the replicas' spread.
  gmmClass: {
    target: 'gmm', values: { n_points: 1500, chunk_size: 500, batch_size: 500 }, variants: [], ais: false, replicas: 4,
    note: 'Class size: N = 1,500 points in chunks of 500 (the paper\'s chunk and minibatch size) instead of the mixture\'s 10,000 in chunks of 1,000, so that the first two replicas are compared (at n = 500) within a slide and finish within two (docs/sgais.md §14–§15); the full size is the next button.',
  },
  gmm: { target: 'gmm', values: { n_points: 10000 }, variants: [], ais: true, replicas: 4 },
  // The paper's scale: 1,000 + 9,000 + 90,000 points, one worker per variant; the registry's
  // `surprise_rule` (auto) is on for these data (docs/sgais.md §10).
  // Its first chunk is annealed from the prior with the surprise rule's extra work: about 10⁸ datum
  // evaluations, tens of seconds of a worker before the first point (issue 26); the status line
  // shows that chunk's λ meanwhile, and the note names the lecture-scale runs.
  shift: {
    target: 'gmm', values: { n_points: 100000 }, variants: SHIFT_VARIANTS, ais: false, replicas: 1,
    note: 'Paper scale: six runs of 100,000 points, one after another on a 2-core laptop. Each run\'s first chunk is annealed in from the prior with extra work (about 10⁸ likelihood evaluations, tens of seconds), so the first points come after that; the line below shows how far its annealing has come (λ from 0 to 1). For a slide: the next button, the same change points at 12,000 points.',
  },
  // The same runs as the paper's algorithm, the surprise rule off (the figures gallery's Fig. 1 and
  // Fig. 5: their annealing-step spikes must be the adaptive schedule's own, not the rule's raised
  // ESS* at the chunks it flags; docs/sgais.md §10).
  shiftPaperAlgorithm: { target: 'gmm', values: { n_points: 100000, surprise_rule: 1 }, variants: SHIFT_VARIANTS, ais: false, replicas: 1 },
  // Lecture scale (issue 26): the same change points with 2,000 points after the last one, and
  // M = 25 particles (ESS* = 12.5) instead of 50 and K = 10 SGHMC steps per temperature instead of
  // the mixture's 20 (docs/sgais.md §10), so that the K = 7 pair (in order and shuffled) is
  // finished within a slide's 20 s on a 2-core laptop even with one worker (BENCHMARKS.md, "Class time").
  // The surprise rule (registry `surprise_rule`, on for shifting data at the paper's scale) is off
  // here: its extra work on the first and the change points' chunks is not within that budget.
  shiftLecture: { target: 'gmm', values: { n_points: 12000, particles: 25, target_ess: 12.5, burn_in_steps: 10, learning_rate: 0.02, surprise_rule: 1 }, variants: SHIFT_VARIANTS_LECTURE, ais: false, replicas: 1 },
};

/** Register the figures' runs (`runs` in www/figures/sgais.js) as SGAIS panel presets (by their `sgais` name). */
export function registerFigureRuns() {
  for (const f of SGAIS_FIGURES) if (f.runs) SGAIS_PRESETS[f.sgais] = f.runs;
}

/**
 * The values a run on `target` starts from: every parameter's default, with the model's own SGAIS
 * defaults laid over them (registry `sgais.defaults_by_model`, src/sgais/model_defaults.rs).
 */
export function sgaisDefaults(sgais, target) {
  const spec = sgais.targets.find((t) => t.name === target);
  const own = sgais.defaults_by_model?.[target]?.values ?? {};
  return { ...Object.fromEntries([...sgais.params, ...spec.params].map((p) => [p.name, p.default])), ...own };
}

/** A registry preset's SGAIS settings (e.g. the paper's §6.1 values) as `{name: value}`. */
export function registryPresetValues(sgais, name) {
  const preset = (sgais.presets || []).find((p) => p.name === name);
  return preset ? Object.fromEntries(preset.settings) : {};
}

/**
 * What the panel's preset `name` starts with (www/sgais.js `applyPreset`, no overrides): its target,
 * the values (defaults, then the registry preset it names, then its own), variants, whether AIS and
 * nested sampling are ticked, and the replicas.
 */
export function presetRequest(sgais, name) {
  const preset = SGAIS_PRESETS[name];
  const values = { ...sgaisDefaults(sgais, preset.target), ...(preset.preset ? registryPresetValues(sgais, preset.preset) : {}), ...preset.values };
  return { target: preset.target, values, variants: preset.variants, ais: preset.ais, ns: Boolean(preset.ns), replicas: preset.replicas };
}

/**
 * The runs to start: every replica of every variant, then the AIS baselines of the first at N/4,
 * N/2 and N rounded up to whole chunks, then nested sampling at the same data sizes, one run per
 * replica. `nsSettings` (`[name, text]` pairs) when nested sampling is ticked, else null.
 */
export function planRuns({ target, values, variants, replicas, ais, nsSettings }) {
  const settings = Object.entries(values).map(([k, v]) => [k, String(v)]);
  const all = variants.length ? variants : [{ label: 'SGAIS', settings: [] }];
  const count = Math.max(1, Math.min(16, Math.round(Number(replicas) || 1)));
  const runs = [];
  for (const variant of all) {
    const merged = [...settings.filter(([k]) => !variant.settings.some(([v]) => v === k)), ...variant.settings];
    for (let replica = 0; replica < count; replica += 1) {
      runs.push({ label: variant.label, spec: { target, settings: merged, seed: 1, replica } });
    }
  }
  const n = Number(values.n_points) || 0;
  const chunk = Number(values.chunk_size) || 1;
  // N/4 and N/2 rounded up to whole chunks (once each: with two chunks they coincide).
  const sizes = new Set([0.25, 0.5, 1].map((fraction) => Math.min(n, Math.ceil((fraction * n) / chunk) * chunk)));
  if (ais) {
    for (const aisN of sizes) {
      runs.push({ label: `AIS, full data n = ${aisN}`, spec: { target, settings: runs[0].spec.settings, seed: 1, replica: 0, ais_n: aisN } });
    }
  }
  if (nsSettings) runs.push(...nestedRuns(target, [...runs[0].spec.settings, ...nsSettings], sizes, count));
  return runs;
}

/**
 * What the panel combines from its runs' latest results (www/sgais.js `draw`): the SGAIS and AIS
 * runs' reports (`sgais_combine_ns_json`'s and `sgais_gallery_ns_json`'s first argument) and the
 * nested-sampling results (their second).
 */
export function reportedOf(runs) {
  const reported = runs.filter((r) => r.result && !r.ns).map((r) => ({ label: r.label, ais_n: r.spec.ais_n ?? null, ...r.result }));
  const nested = runs.filter((r) => r.result && r.ns).map((r) => r.result);
  return { reported, nested };
}
