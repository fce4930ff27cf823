// How long the mixing panel's ESS waits for its answer while the pool's one worker runs a job
// (issue 26, stop 49: the requests go to the pool's workers, www/jobs.js `askPool`, and a busy
// worker answers between its job's slices, www/worker.js `betweenSlices`). On a page told it has
// 2 cores (pool: one worker), each preset of PRESETS is loaded and played for SECONDS of wall time
// with its sweep; prints the requests answered, the mean and longest wall ms from posting to the
// answer, and the jobs active at the end. Wall time: grows with the machine's load (printed).
// Asserts nothing. Usage: [MIXING_WAIT_PRESETS=sgld-mixture,sgfs-bias-mixing] [MIXING_WAIT_SECONDS=20] node bench/mixing-wait.mjs

import { loadavg } from 'node:os';
import { startServer, launchBrowser, openApp, waitLoaded } from '../tests/e2e/harness.mjs';

const PRESETS = (process.env.MIXING_WAIT_PRESETS || 'sgld-mixture,sgfs-bias-mixing').split(',');
const SECONDS = Number(process.env.MIXING_WAIT_SECONDS || 20);
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

const server = await startServer();
const context = await launchBrowser();
console.log(`load average at the start: ${load()}`);
for (const id of PRESETS) {
  const { page } = await openApp(context, server.url, '', { viewport: { width: 1920, height: 1080 }, cores: 2 });
  await page.selectOption('#preset', id);
  await waitLoaded(page);
  const start = await page.evaluate(() => ({ ...window.sgviz.mixing().counts }));
  await page.waitForTimeout(SECONDS * 1000);
  const end = await page.evaluate(() => ({ counts: window.sgviz.mixing().counts, jobs: window.sgviz.jobs() }));
  const answered = end.counts.answered - start.answered;
  const mean = answered > 0 ? (end.counts.waitedMs - start.waitedMs) / answered : null;
  console.log(`${id}: ${answered} answers in ${SECONDS} s, wait mean ${mean?.toFixed(1) ?? '—'} ms, longest ${end.counts.longestWaitMs.toFixed(1)} ms (since load); lost ${end.counts.lost ?? 0}, on page ${end.counts.onPage}; jobs active ${JSON.stringify(end.jobs.active)}, workers ${JSON.stringify(end.jobs.workers)}`);
  await page.close();
}
console.log(`load average at the end: ${load()}`);
await context.close();
await server.close();
