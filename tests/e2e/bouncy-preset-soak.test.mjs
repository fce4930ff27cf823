// Issue 11: "The SBPS vs SGLD preset runs 5 minutes in the page with no runaway". Only `make soak`
// runs it (SGVIZ_BOUNCY_SOAK_SECONDS=300); the regular suite pins the same settings natively for
// 900,000 steps (tests/bouncy_long.rs). The page plays the preset at its own speed; at the end
// the Lab reports no runaway (state().runaway, from the runaway detector in src/runaway.rs), no
// divergence, a finite covariance, and the chain actually ran.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openApp, frames, waitLoaded } from './harness.mjs';

const SECONDS = Number(process.env.SGVIZ_BOUNCY_SOAK_SECONDS || 0);

let server;
let browser;

before(async () => {
  if (!SECONDS) return;
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test(`SBPS vs SGLD preset plays ${SECONDS} s without a runaway`, { skip: !SECONDS && 'only in make soak (SGVIZ_BOUNCY_SOAK_SECONDS)', timeout: (3 * SECONDS + 120) * 1000 }, async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.selectOption('#preset', 'sbps-vs-sgld');
  await waitLoaded(page); // its chains are built over three frames (www/chain.js rebuildLabInSteps)
  if (!(await page.evaluate(() => window.sgviz.app.playing))) await page.click('#play');
  // Counted in the page's own frames (60 a second at full speed), checked every 600 frames.
  const trace = [];
  for (let frame = 0; frame < SECONDS * 60; frame += 600) {
    await frames(page, 600);
    const s = await page.evaluate(() => window.sgviz.state());
    trace.push(`${(frame + 600) / 60}s of frames steps=${s.steps} e2=${s.e2} runaway=${JSON.stringify(s.runaway)}`);
    assert.equal(s.runaway, null, `runaway after ${s.steps} steps\n${trace.join('\n')}`);
  }
  const s = await page.evaluate(() => window.sgviz.state());
  console.log(trace.join('\n'));
  assert.equal(s.sampler_params.band_k, 3);
  assert.ok(s.steps > 10_000, `only ${s.steps} steps`);
  assert.equal(s.diverged, null);
  assert.ok(s.cov.flat().every((x) => Number.isFinite(x)), 'finite covariance');
  assert.deepEqual(errors, []);
  await page.close();
});
