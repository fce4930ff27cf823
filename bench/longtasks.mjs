// Where the main thread's long tasks come from: a CPU profile (Chrome DevTools Protocol) of one
// scenario, cut into busy stretches between idle samples; every stretch over 50 ms is listed with
// the JavaScript functions that took most of its self time and the page's own function closest to
// the root. A diagnostic for issue 16's frame budget; asserts nothing.
// Usage: node bench/longtasks.mjs [mixture|logreg|shift|play] [seconds]

import { startServer, launchBrowser, openApp } from '../tests/e2e/harness.mjs';

const scenario = process.argv[2] || 'mixture';
const seconds = Number(process.argv[3] || 40);
const server = await startServer();
const context = await launchBrowser();
const { page } = await openApp(context, server.url);
const cdp = await context.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
await page.evaluate(() => {
  window.__long = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
});
await cdp.send('Profiler.start');
if (scenario === 'mixture') await page.selectOption('#preset', 'sgld-mixture');
if (scenario === 'logreg') {
  await page.selectOption('#target', 'logreg');
  await page.selectOption('#sampler', 'sgfs_f');
  await page.evaluate(() => window.sgviz.setParam('n_points', 1_000_000));
}
if (scenario === 'shift') await page.click('#sgais-preset-shift');
await page.waitForTimeout(seconds * 1000);
const { profile } = await cdp.send('Profiler.stop');
const longtasks = await page.evaluate(() => window.__long);
await context.close();
await server.close();

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
const name = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
function stack(id) {
  const out = [];
  for (let at = id; at !== undefined; at = parent.get(at)) out.push(byId.get(at));
  return out;
}
// Busy stretches: consecutive samples in JavaScript or wasm, cut at (idle) and (program) samples.
const stretches = [];
let t = profile.startTime;
let current = null;
for (let i = 0; i < profile.samples.length; i += 1) {
  t += profile.timeDeltas[i];
  const leaf = byId.get(profile.samples[i]);
  const idle = ['(idle)', '(program)'].includes(leaf.callFrame.functionName); // between tasks
  if (idle) { if (current) { stretches.push(current); current = null; } continue; }
  if (!current) current = { start: t, end: t, self: new Map(), roots: new Map() };
  const dt = profile.timeDeltas[i + 1] ?? 0;
  current.end = t + dt;
  current.self.set(name(leaf), (current.self.get(name(leaf)) || 0) + dt);
  const own = stack(profile.samples[i]).reverse().find((n) => /www\/|\.js$/.test(n.callFrame.url) && !/sgviz\.js$/.test(n.callFrame.url));
  const pageFrames = stack(profile.samples[i]).filter((n) => /\.js$/.test(n.callFrame.url)).map(name).reverse().slice(0, 6).join(' > ');
  if (own) current.roots.set(pageFrames, (current.roots.get(pageFrames) || 0) + dt);
}
if (current) stretches.push(current);
const long = stretches.filter((s) => s.end - s.start > 50_000).sort((a, b) => (b.end - b.start) - (a.end - a.start));
console.log(`scenario ${scenario}, ${seconds} s: ${longtasks.length} long tasks (max ${Math.max(0, ...longtasks).toFixed(0)} ms); busy stretches > 50 ms: ${long.length}`);
for (const s of long.slice(0, 12)) {
  const top = [...s.self].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}ms`).join('; ');
  const roots = [...s.roots].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `    ${(v / 1000).toFixed(0)}ms ${k}`).join('\n');
  console.log(`- ${((s.end - s.start) / 1000).toFixed(0)} ms at ${((s.start - profile.startTime) / 1e6).toFixed(1)} s: ${top}\n${roots}`);
}
