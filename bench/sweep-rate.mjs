// `make bench` (with worker-rate.mjs): how much work the analysis worker (the phase picture and the
// bias–mixing sweep, www/worker.js `sweep`) finishes per CPU-second (issue 26). The class-time test
// (tests/e2e/class-time.test.mjs) lets the analysis of a lesson step do only "20 s × this rate" of
// work before it reads the figure the step talks about; its constant restates the number printed
// here. Work = the sweep chains' gradient evaluations (`grad_evals` of every sweep result); the job's
// CPU time includes building the analysis (the phase picture and the predicted curves), so the rate
// charges that set-up to the sweep. Measured in wasm under Node (the worker's code, a core to
// itself) for every lesson step whose figure is an analysis chart, at the step's settings; the
// slowest is the rate. Prints a Markdown section; `--write` puts it into BENCHMARKS.md.

import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { replaceSection } from './sections.mjs';
import { LESSONS } from '../www/lesson-table.js';

const SECTION = '## Class time: the analysis worker\'s rate';
/** www/analysis.js BUDGET: gradient evaluations per sweep chain. */
const BUDGET = 200_000;

const pkg = await import(new URL('../dist/www/pkg/sgviz.js', import.meta.url));
pkg.initSync({ module: await readFile(new URL('../dist/www/pkg/sgviz_bg.wasm', import.meta.url)) });

const rows = [];
for (const lesson of LESSONS) {
  lesson.steps.forEach((step, k) => {
    if (!['noise', 'bias', 'sweep'].includes(step.figure) || !step.state) return;
    const { target, sampler, seed, values } = step.state;
    const before = process.cpuUsage();
    const lab = new pkg.Lab(target, sampler, JSON.stringify(values || {}), seed, 64, 64, 1);
    lab.start_analysis(BUDGET);
    while (lab.advance_analysis(20_000) < 1);
    const used = process.cpuUsage(before);
    const evals = JSON.parse(lab.analysis_json()).results.reduce((a, r) => a + r.grad_evals, 0);
    lab.free();
    const seconds = (used.user + used.system) / 1e6;
    rows.push({ where: `${lesson.id} step ${k + 1} (${target}, ${sampler})`, evals, seconds, rate: evals / seconds });
  });
}
const slowest = Math.min(...rows.map((r) => r.rate));
const lines = [SECTION, '',
  `wasm under Node (\`Lab.start_analysis\` / \`advance_analysis\`, the analysis worker's code) on the process's CPU clock, ${new Date().toISOString()}, ${cpus().length} logical CPUs; \`bench/sweep-rate.mjs\`. Work = the sweep chains' gradient evaluations; CPU time includes building the analysis.`, '',
  '| lesson step | gradient evaluations | CPU s | evaluations per CPU s |',
  '|---|---:|---:|---:|',
  ...rows.map((r) => `| ${r.where} | ${r.evals.toExponential(3)} | ${r.seconds.toFixed(2)} | ${r.rate.toExponential(2)} |`),
  '',
  `The slowest, **${(slowest / 1e6).toFixed(3)}·10⁶ per second**, is what the class-time test lets the analysis worker do per second of class time (\`SWEEP_GRAD_EVALS_PER_S\`).`,
  ''];
console.log(lines.join('\n'));
if (process.argv.includes('--write')) {
  const path = new URL('../BENCHMARKS.md', import.meta.url);
  await writeFile(path, replaceSection(await readFile(path, 'utf8'), SECTION, lines.join('\n')));
}
