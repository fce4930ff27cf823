// Issue 21, twelfth pass: what a MEASURED promise would cost per slider setting, in wasm under Node
// (the worker's code): 40 chains × 5,000 steps at the setting (seeds 1001–1040, not the page's),
// as the lead's proposal would run them in the promise worker (www/promise-job.js) on a 2-D target
// whose grid truth the page already has. Prints CPU ms per setting (process.cpuUsage, so the
// machine's load does not inflate it) and the part spent building the 40 chains; the first build
// of each setting (its promise, memoised) is left out, as the page has it already. Asserts nothing.
// The rows are issue 21's open ones (docs/diagnostics.md §10, twelfth pass) and two references.
// Needs dist/ (scripts/build.sh).
//
//   node bench/ensemble-cost.mjs

import { readFile } from 'node:fs/promises';

const pkg = await import(new URL('../dist/www/pkg/sgviz.js', import.meta.url));
pkg.initSync({ module: await readFile(new URL('../dist/www/pkg/sgviz_bg.wasm', import.meta.url)) });

const RUNS = 40;
const STEPS = 5_000;
const ROWS = [
  ['mixture', 'sgfs_f', { batch_size: 6 }], ['mixture', 'sgfs_f', { batch_size: 14 }], ['mixture', 'sgfs_f', {}],
  ['mixture', 'osgfs', { osgfs_c: 0.99 }], ['mixture', 'hmc', { leapfrog_steps: 1 }], ['mixture', 'hmc', {}],
  ['banana', 'sghmc', {}], ['banana', 'sghmc', { batch_size: 10 }], ['funnel', 'sghmc', {}], ['mixture', 'sgld', {}],
];

const ms = (usage) => (usage.user + usage.system) / 1e3;

for (const [target, sampler, settings] of ROWS) {
  const json = JSON.stringify(settings);
  new pkg.BenchChain(target, sampler, json, 1).free();
  const start = process.cpuUsage();
  let build = 0;
  for (let seed = 1001; seed < 1001 + RUNS; seed++) {
    const before = process.cpuUsage();
    const chain = new pkg.BenchChain(target, sampler, json, seed);
    build += ms(process.cpuUsage(before));
    for (let ran = 0; ran < STEPS;) {
      const r = chain.run(STEPS - ran);
      ran += r;
      if (r === 0 || chain.status() !== 'running') break;
    }
    chain.free();
  }
  console.log(`| ${target} × ${sampler} ${json} | ${ms(process.cpuUsage(start)).toFixed(0)} | ${build.toFixed(0)} |`);
}
