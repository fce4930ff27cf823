// The worker's `prepare` job for a chain whose truth is a grid (issue 26: lipSBPS on the logistic
// regression showed no truth ellipse for 44 s at load ≈ 20): the wasm the page runs, under Node on
// the process's CPU clock (a worker with a core to itself). Builds the Lab as www/worker.js
// `prepare` does (not deferred: truth, contour grid), runs its truth to the end and exports it.
// Usage: node bench/truth-time.mjs [DIST_DIR=dist] [target=logreg] [sampler=lipsbps]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const [distDir = 'dist', target = 'logreg', sampler = 'lipsbps'] = process.argv.slice(2);
const pkg = await import(resolve(distDir, 'www/pkg/sgviz.js'));
pkg.initSync({ module: readFileSync(resolve(distDir, 'www/pkg/sgviz_bg.wasm')) });
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const start = cpu();
const lab = new pkg.Lab(target, sampler, '{}', 1, 64, 64, 1);
const built = cpu();
let text = '';
for (;;) { const p = JSON.parse(lab.advance_truth(2_000)); text = p.text; if (!p.running) break; }
lab.export_prepared_json();
const done = cpu();
console.log(`${target} × ${sampler} (${distDir}): Lab built ${(built - start).toFixed(3)} CPU s (truth + contour grid), truth finished + export ${(done - built).toFixed(3)}, total ${(done - start).toFixed(3)} CPU s`);
console.log(`  truth: ${text}`);
