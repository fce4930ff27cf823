// The SGAIS figures' numbers without a browser (issue 23, ninth round; issue 27 part C's claims):
// the body of tests/e2e/figures-numbers*.test.mjs, which split the figures between them (tenth
// round: one 118-CPU-s process became three that node --test runs on both slots; `PARTS` below).
// every SGAIS figure of the gallery (www/figures/sgais.js) has its claims judged on the runs the
// page's panel starts for it, computed in Node by the same wasm (dist/www/pkg, the worker's
// `SgaisRunner` and `NestedRunner`) at the same settings. Nothing here restates a figure: the runs
// are the panel's own plan (www/sgais-plan.js `presetRequest`, `planRuns`, with the figures' runs
// registered as the page registers them, `registerFigureRuns`), the nested-sampling settings the
// panel's controls start with (www/sgais-nested.js `nsDefaults`), the reports combined as the
// panel combines them (`reportedOf`, then `sgais_combine_ns_json` and `sgais_gallery_ns_json`, as
// www/sgais.js `draw` and www/sgais-figures.js `update`), Fig. 1's data as it draws them
// (`sgais_shift_data_json`, `SHOWN_PER_PHASE`), the metrics and readiness from www/sgais-claims.js
// and the predicate from www/claims.js `holds`.
//
// What it does not run: runs no claim reads. The page runs every variant, AIS at N/4, N/2 and N,
// nested sampling at the same sizes, and Fig. 5's six runs to 100,000 points, for its charts; the
// claims read only the groups they name, AIS (and nested sampling) at the largest N, and, for a
// claim with `after_n`, its groups until that many data are in (`claimReady`). Each run has its own
// seed and replica and is combined per group, so leaving others out changes no value a claim reads
// (checked: the values logged here equal those figures-C logged from the page, BENCHMARKS.md "CI
// time, ninth round"); a run wrongly left out leaves its metric unknown (NaN), which fails.
//
// What stays in the browser: figures-C.test.mjs loads Fig. 1 and one sensitivity figure through
// the menu in `make test` (their charts, claims list, note, Stop), every SGAIS figure under
// SGVIZ_CLASS_TIME_SOAK=1 (`make soak`).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const dist = (path) => new URL(`../../dist/www/${path}`, import.meta.url);
const pkg = await import(dist('pkg/sgviz.js'));
pkg.initSync({ module: readFileSync(dist('pkg/sgviz_bg.wasm')) });
const { SgaisRunner, NestedRunner, registry_json: registryJson, sgais_combine_ns_json: combineJson, sgais_gallery_ns_json: galleryJson, sgais_shift_data_json: shiftDataJson } = pkg;
const { SGAIS_FIGURES } = await import(dist('figures/sgais.js'));
const { SGAIS_PRESETS, planRuns, presetRequest, registerFigureRuns, reportedOf } = await import(dist('sgais-plan.js'));
const { nsDefaults, nsSettings } = await import(dist('sgais-nested.js'));
const { claimReady, measureSgais } = await import(dist('sgais-claims.js'));
const { SHOWN_PER_PHASE } = await import(dist('sgais-figures.js'));
const { holds, describe } = await import(dist('claims.js'));

const sgais = JSON.parse(registryJson()).sgais;
registerFigureRuns();

/** Particle-SGHMC steps (nested-sampling iterations) per call: within the worker's adaptive range (www/worker.js `drive`). */
const WORK = { sgais: 20_000, nested: 100 };

const groupsOf = (claim) => (Array.isArray(claim.of) ? claim.of : claim.of ? [claim.of] : []);
/** Metrics that read full-data AIS at the largest N, and those that read nested sampling there. */
const READS_AIS = new Set(['sgais.ais_gap', 'sgais.ais_cost_ratio', 'sgais.ns_minus_ais']);
const READS_NS = new Set(['sgais.ns_minus_ais', 'sgais.ns_se']);

/** The figure's runs as the panel plans them, and the subset its claims read. */
function plannedRuns(figure) {
  const request = presetRequest(sgais, figure.sgais);
  const runs = planRuns({ ...request, nsSettings: request.ns ? nsSettings(nsDefaults(sgais.ns_params)) : null });
  const largest = (kind) => Math.max(...runs.filter(kind).map((r) => r.spec.ais_n ?? r.spec.ns_n));
  const aisN = largest((r) => r.spec.ais_n != null);
  const nsN = largest((r) => r.ns);
  const read = runs.filter((run) => figure.claims.some((claim) => {
    if (run.ns) return READS_NS.has(claim.metric) && run.spec.ns_n === nsN;
    if (run.spec.ais_n != null) return READS_AIS.has(claim.metric) && run.spec.ais_n === aisN;
    return groupsOf(claim).includes(run.label);
  }));
  return { all: runs, read };
}

/** Drive `run` in calls of WORK until it ends or `enough(run)`; its result as the worker posts it. */
function drive(run, enough) {
  const started = process.cpuUsage();
  const runner = run.ns ? new NestedRunner(JSON.stringify(run.spec)) : new SgaisRunner(JSON.stringify(run.spec));
  const seconds = () => { const u = process.cpuUsage(started); return (u.user + u.system) / 1e6; };
  try {
    for (;;) {
      const running = runner.advance(run.ns ? WORK.nested : WORK.sgais);
      run.result = JSON.parse(runner.result_json(seconds()));
      run.done = !running;
      if (run.done || enough(run)) return seconds();
    }
  } finally {
    runner.free();
  }
}

/** The view the panel's claims read (www/sgais-figures.js `showClaims`). */
function viewOf(figure, runs) {
  const { reported, nested } = reportedOf(runs);
  const combined = reported.length ? JSON.parse(combineJson(JSON.stringify(reported), JSON.stringify(nested))) : null;
  const gallery = reported.length ? JSON.parse(galleryJson(JSON.stringify(reported), JSON.stringify(nested))) : null;
  const data = figure.sgaisChart === 'data' ? JSON.parse(shiftDataJson(SGAIS_PRESETS[figure.sgais].values.n_points, 1, false, SHOWN_PER_PHASE)) : null;
  return { combined, gallery, data };
}

/**
 * The figures each file checks (issue 23, tenth round): Fig. 5 (K = 3 in order at the paper's
 * scale through n = 11,000, ≈ 43 % of the CPU) and Fig. 4 (SGAIS and AIS on 1,000 mixture points,
 * ≈ 28 %) have files of their own; figures-numbers.test.mjs checks every other figure, so that a
 * figure added to the gallery is checked without naming it here.
 */
export const PARTS = { shift: ['sgais-shift'], gmm: ['sgais-gmm'] };

/** The figures of `part` (a key of PARTS, or 'rest': every figure no part names). */
export function figuresOf(part) {
  const named = Object.values(PARTS).flat();
  return part === 'rest' ? SGAIS_FIGURES.filter((f) => !named.includes(f.id)) : SGAIS_FIGURES.filter((f) => PARTS[part].includes(f.id));
}

/** Every id a part names is a figure of the gallery (a renamed figure is not silently skipped). */
export function partsNameFigures() {
  const ids = SGAIS_FIGURES.map((f) => f.id);
  return Object.values(PARTS).flat().filter((id) => !ids.includes(id));
}

export { SGAIS_FIGURES };

// SGVIZ_FIGURES=id,id checks only those figures (while working on one).
const only = process.env.SGVIZ_FIGURES?.split(',');

/**
 * Every figure of `figures` has its claims judged on the runs its panel starts, the runs no claim
 * reads left out; logs each claim's value and the CPU of its runs, and asserts none failed.
 */
export function checkFigures(figures) {
  const log = [];
  const failures = [];
  for (const figure of figures.filter((f) => !only || only.includes(f.id))) {
    assert.ok(figure.claims?.length, `${figure.id}: makes a checkable claim`);
    const { all, read } = plannedRuns(figure);
    const runs = read.map((run) => ({ ...run, result: null, done: false }));
    // A claim with `after_n` is judged once its groups' first replicas are that far (claimReady).
    const enough = () => figure.claims.every((claim) => claimReady(claim, runs));
    let cpu = 0;
    for (const run of runs) if (!enough()) cpu += drive(run, enough);
    const view = viewOf(figure, runs);
    for (const claim of figure.claims) {
      const value = measureSgais(claim, view);
      const ready = claimReady(claim, runs);
      const line = `${figure.figure} (${figure.id}): ${describe(claim)} (now ${value})${ready ? '' : ' NOT READY'}`;
      log.push(line);
      if (!(ready && holds(claim, value))) failures.push(line);
    }
    log.push(`${figure.id}: ${runs.length} of the page's ${all.length} runs, ${cpu.toFixed(1)} CPU s (information only)`);
  }
  console.log(log.join('\n'));
  assert.deepEqual(failures, []);
}
