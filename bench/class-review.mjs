// A lecturer's pass (issue 26): every preset and every lesson step chosen through the page's own
// controls, played for SECS (default 20) seconds of wall time, then screenshots at 1920×1080
// (projector) and 390×844 (phone) in test-artifacts/class-review/, with a log of each view's
// claims and their `data-ok` marks, the messages on screen and the page width on the phone
// (test-artifacts/class-review/log-*.txt). Wall time on purpose: what a class sees on this machine
// now (a loaded machine draws fewer frames; tests/e2e/class-time.test.mjs checks the same claims
// at a fixed work count). Not a test: LOOK at the screenshots.
//   node bench/class-review.mjs                      (everything, ≈ 25 min)
//   ONLY=presets FILTER='^sbps-' node bench/class-review.mjs
// Uses dist/ (scripts/build.sh first).
import { chromium } from 'playwright-core';
import { startServer, launchOptions } from '../tests/e2e/harness.mjs';
import { writeFileSync, appendFileSync, mkdirSync } from 'node:fs';
const SECS = Number(process.env.SECS || 20);
const ONLY = process.env.ONLY; // 'presets' | 'lessons'
const FILTER = process.env.FILTER ? new RegExp(process.env.FILTER) : null;
const OUT = 'test-artifacts/class-review';
const LOG = `${OUT}/log-${ONLY || 'all'}.txt`;
mkdirSync(OUT, { recursive: true });
writeFileSync(LOG, '');
const log = (s) => { console.log(s); appendFileSync(LOG, s + '\n'); };
const server = await startServer();
const browser = await chromium.launch(launchOptions());
const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
const page = await context.newPage();
const errors = [];
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
page.on('pageerror', (e) => errors.push(String(e)));
await page.goto(server.url);
await page.waitForFunction(() => window.__ready === true, null, { timeout: 60_000 });
const waitLoaded = () => page.waitForFunction(() => !window.sgviz.app.building, null, { timeout: 180_000 });

async function inspect(name) {
  const info = await page.evaluate(() => {
    const vis = (e) => e && !e.hidden && e.closest('[hidden]') === null && e.getClientRects().length > 0;
    const claims = [...document.querySelectorAll('#lesson-claims li, #figure-claims li')].filter(vis).map((li) => `[${li.dataset.ok}] ${li.textContent}`);
    const msgs = [...document.querySelectorAll('[role=alert], .error, .warning, [role=status]')].filter(vis).map((e) => `${e.id || e.className}: ${e.textContent.trim().slice(0, 200)}`).filter((s) => !/:\s*$/.test(s));
    const sw = document.documentElement.scrollWidth;
    const st = window.sgviz.state?.();
    return { claims, msgs, scrollWidth: sw, inner: window.innerWidth, steps: st?.steps, samples: st?.n_samples, speed: window.sgviz.app.speed, playing: window.sgviz.app.playing };
  });
  log(`== ${name}: steps ${info.steps} samples ${info.samples} speed ${info.speed} playing ${info.playing} scrollW ${info.scrollWidth}/${info.inner}`);
  for (const c of info.claims) log(`   claim ${c}`);
  for (const m of info.msgs) log(`   msg ${m}`);
}

async function shoot(name, focus) {
  await page.setViewportSize({ width: 1920, height: 1080 });
  if (focus) await page.$eval(focus, (e) => e.scrollIntoView({ block: 'start' })).catch(() => {});
  else await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${OUT}/${name}-projector.png` });
  await inspect(name + ' (projector)');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(500);
  if (focus) await page.$eval(focus, (e) => e.scrollIntoView({ block: 'start' })).catch(() => {});
  await page.screenshot({ path: `${OUT}/${name}-phone.png` });
  const sw = await page.evaluate(() => document.documentElement.scrollWidth);
  log(`   phone scrollWidth ${sw}`);
  await page.setViewportSize({ width: 1920, height: 1080 });
}

if (ONLY !== 'lessons') {
  const presets = await page.evaluate(async () => (await import('./www/presets.js')).PRESETS.map((p) => ({ id: p.id, sgais: Boolean(p.sgais), chart: p.chart })));
  for (const p of presets) {
    if (FILTER && !FILTER.test(p.id)) continue;
    await page.selectOption('#preset', p.id);
    await waitLoaded();
    await page.evaluate(() => { if (!window.sgviz.app.playing && !document.querySelector('#play').disabled) document.querySelector('#play').click(); });
    await page.waitForTimeout(SECS * 1000);
    await shoot(`preset-${p.id}`, p.sgais ? '#sgais-title' : (p.chart ? '#preset-note' : null));
  }
}
if (ONLY !== 'presets') {
  await page.selectOption('#preset', '').catch(() => {});
  await page.click('#lesson-open');
  const lessons = await page.evaluate(async () => (await import('./www/lesson-table.js')).LESSONS.map((l) => ({ id: l.id, n: l.steps.length })));
  for (const l of lessons) {
    if (FILTER && !FILTER.test(l.id)) continue;
    await page.selectOption('#lesson-choice', l.id);
    for (let k = 0; k < l.n; k++) {
      if (k > 0) await page.$eval('#lesson-next', (b) => b.click());
      await waitLoaded();
      await page.evaluate(() => { if (!window.sgviz.app.playing && !document.querySelector('#play').disabled) document.querySelector('#play').click(); });
      await page.waitForTimeout(SECS * 1000);
      const text = await page.textContent('#lesson-text');
      log(`## ${l.id} step ${k + 1}: ${text}`);
      await shoot(`lesson-${l.id}-${k + 1}`, '#lesson');
    }
  }
}
log(`errors: ${JSON.stringify(errors)}`);
await browser.close();
await server.close();
