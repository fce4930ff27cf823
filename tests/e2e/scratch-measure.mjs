// scratch (not committed): load an arbitrary preset object and print metrics at sample counts
import { startServer, launchBrowser } from './harness.mjs';
const [presetJson, countsJson, metricsJson] = process.argv.slice(2);
const server = await startServer();
const browser = await launchBrowser();
const page = await browser.newPage();
await page.emulateMedia({ reducedMotion: 'reduce' });
page.on('pageerror', (e) => console.log('ERR', String(e)));
await page.goto(server.url);
await page.waitForFunction(() => window.__ready === true);
await page.evaluate(async (p) => { const m = await import('./www/preset-loader.js'); m.applyPreset(JSON.parse(p)); document.querySelector('#play').click(); }, presetJson);
await page.waitForFunction(() => !window.sgviz.app.truthPending && !window.sgviz.app.pendingPair, null, { timeout: 120000 });
for (const target of JSON.parse(countsJson)) {
  const out = await page.evaluate(async ([target, metrics]) => {
    const { measure } = await import('./www/claims.js');
    const { app } = window.sgviz;
    let s = JSON.parse(app.lab.state_json());
    while (s.n_samples < target && !s.diverged) { app.lab.run(Math.min(50000, Math.max(64, target - s.n_samples))); s = JSON.parse(app.lab.state_json()); }
    let cs;
    if (app.compare?.enabled && app.compare.lab) { cs = JSON.parse(app.compare.lab.state_json()); while (!cs.diverged && cs.grad_evals < s.grad_evals) { app.compare.lab.run(1); cs = JSON.parse(app.compare.lab.state_json()); } }
    s.mixing = JSON.parse(app.lab.mixing_json());
    if (cs) cs.mixing = JSON.parse(app.compare.lab.mixing_json());
    return { n: s.n_samples, grads: s.grad_evals, div: s.diverged, params: s.sampler_params, m: Object.fromEntries(metrics.map((k) => [k, measure(k, s, cs)])), mix: s.mixing.ess_per_1000_grads, cmix: cs?.mixing.ess_per_1000_grads };
  }, [target, JSON.parse(metricsJson)]);
  console.log(JSON.stringify(out));
}
await browser.close(); await server.close();
