// CPU of an idle page (BENCHMARKS.md "CI time, thirteenth round"): Chromium's CPU per wall second
// while the page is paused with no background job (the frame loop asleep, www/frame-loop.js, or
// before it, a frame every 1/60 s that found nothing to do). Launches its own Chromium on dist/,
// opens `?QUERY` with reduced motion (the page does not play), waits until the page is paused, its
// truth adopted and no job queued, running or owed (the sweep's restart), then reads the CPU (user + system) of every process
// and thread under this one from /proc over SECONDS of wall time. A bench, not a test: it reads
// wall time. Usage: node bench/idle-cpu.mjs [SECONDS=20] [QUERY=target=gaussian&sampler=sgld]
import { launchBrowser, openApp, startServer, waitLoaded } from '../tests/e2e/harness.mjs';
import { readThreads } from '../tests/e2e/cpu-split.mjs';

const seconds = Number(process.argv[2] || 20);
const query = process.argv[3] || 'target=gaussian&sampler=sgld';
const TICK = 100; // USER_HZ on Linux

const ticks = () => {
  let sum = 0;
  for (const { ticks: t } of readThreads(new Map()).values()) sum += t;
  return sum;
};

const server = await startServer();
const context = await launchBrowser();
try {
  const { page } = await openApp(context, server.url, `?${query}`, { reducedMotion: true });
  await waitLoaded(page);
  await page.waitForFunction(() => {
    const { app, jobs, analysis } = window.sgviz;
    return !app.playing && !app.truthPending && Object.keys(jobs().active).length === 0 && !analysis().owed;
  }, null, { timeout: 300_000, polling: 500 });
  const loop = () => page.evaluate(() => window.sgviz.frameLoop?.() ?? { frames: window.sgviz.frameCost().frames });
  const before = { cpu: ticks(), loop: await loop(), at: performance.now() };
  await new Promise((ok) => setTimeout(ok, seconds * 1000));
  const after = { cpu: ticks(), loop: await loop(), at: performance.now() };
  const wall = (after.at - before.at) / 1000;
  const cpu = (after.cpu - before.cpu) / TICK;
  console.log(JSON.stringify({ query, wall_s: +wall.toFixed(2), cpu_s: +cpu.toFixed(2), cpu_per_wall_s: +(cpu / wall).toFixed(4), frames: after.loop.frames - before.loop.frames, heartbeats: (after.loop.heartbeats ?? 0) - (before.loop.heartbeats ?? 0) }));
} finally {
  await context.close();
  await server.close();
}
