// The main thread's single calls while playing (issue 26: no call over a few ms): for a few
// scenarios, the page is played for a while, paused, and each call the frame loop makes one at a
// time is timed on its own, repeated: the mixing panel's ESS (`mixing_json`, main and compared
// chain; since stop 48 computed in a worker, the page taking only `mixing_window`), the lesson claims' re-check, the autocorrelation and trace charts, the density image.
// Prints the main thread's CPU ms per call (Chromium's ThreadTime through the DevTools protocol,
// over REPEATS calls in one task: robust to other processes loading the machine) and the median
// and worst wall ms. A diagnostic: it asserts nothing.
// Usage: node bench/single-calls.mjs [seconds played per scenario, default 8]

import { startServer, launchBrowser, openApp } from '../tests/e2e/harness.mjs';

const PLAY_S = Number(process.argv[2] || 8);
const REPEATS = 15;
const SCENARIOS = [
  ['gaussian sgld', async () => {}],
  ['preset sgld-mixture', async (page) => page.selectOption('#preset', 'sgld-mixture')],
  ['preset sgfs-bias-mixing', async (page) => page.selectOption('#preset', 'sgfs-bias-mixing')],
  ['lesson cost 2 (compare)', async (page) => {
    await page.click('#lesson-open');
    await page.selectOption('#lesson-choice', 'cost');
    await page.$eval('#lesson-next', (b) => b.click());
  }],
];

const server = await startServer();
const context = await launchBrowser();
for (const [name, open] of SCENARIOS) {
  const { page } = await openApp(context, server.url, '', { viewport: { width: 1920, height: 1080 } });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const threadMs = async () => 1000 * (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value;
  await open(page);
  await page.waitForTimeout(PLAY_S * 1000);
  const times = await page.evaluate(async (repeats) => {
    const { app } = window.sgviz;
    if (app.playing) document.querySelector('#play').click();
    const calls = {
      'mixing_json (main)': () => app.lab.mixing_json(),
      'mixing_json (compared)': app.compare?.enabled && app.compare.lab ? () => app.compare.lab.mixing_json() : null,
      'mixing_window (main)': () => app.lab.mixing_window(),
      'lesson claims refresh': app.lessons ? () => app.lessons.refresh() : null,
      'acf chart': () => app.lab.draw_chart('acf', document.querySelector('#chart-acf')),
      'trace chart': () => app.lab.draw_chart('trace', document.querySelector('#chart-trace')),
      'density image': () => app.panel.drawDensity(app.lab),
      'state_json': () => app.lab.state_json(),
    };
    const out = {};
    for (const [call, run] of Object.entries(calls)) {
      if (!run) continue;
      const ms = [];
      for (let k = 0; k < repeats; k++) {
        const t = performance.now();
        run();
        ms.push(performance.now() - t);
        await new Promise((resolve) => { setTimeout(resolve, 0); });
      }
      ms.sort((a, b) => a - b);
      out[call] = { median: ms[Math.floor(ms.length / 2)], worst: ms.at(-1) };
    }
    return { out, samples: window.sgviz.state().n_samples, calls: Object.keys(calls).filter((k) => calls[k]) };
  }, REPEATS);
  // CPU per call: each call REPEATS times in one task, between two ThreadTime reads.
  const base0 = await threadMs();
  await page.evaluate(() => 0);
  const overhead = (await threadMs()) - base0;
  for (const call of times.calls) {
    const before = await threadMs();
    await page.evaluate(({ name, repeats }) => {
      const { app } = window.sgviz;
      const run = {
        'mixing_json (main)': () => app.lab.mixing_json(),
        'mixing_json (compared)': () => app.compare.lab.mixing_json(),
        'mixing_window (main)': () => app.lab.mixing_window(),
        'lesson claims refresh': () => app.lessons.refresh(),
        'acf chart': () => app.lab.draw_chart('acf', document.querySelector('#chart-acf')),
        'trace chart': () => app.lab.draw_chart('trace', document.querySelector('#chart-trace')),
        'density image': () => app.panel.drawDensity(app.lab),
        'state_json': () => app.lab.state_json(),
      }[name];
      for (let k = 0; k < repeats; k++) run();
    }, { name: call, repeats: REPEATS });
    times.out[call].cpu = ((await threadMs()) - before - overhead) / REPEATS;
  }
  console.log(`${name} (${times.samples} samples):`);
  for (const [call, t] of Object.entries(times.out)) console.log(`  ${call.padEnd(24)} CPU ${t.cpu.toFixed(2)} ms per call; wall median ${t.median.toFixed(1)} ms, worst ${t.worst.toFixed(1)} ms`);
  await page.close();
}
await context.close();
await server.close();
