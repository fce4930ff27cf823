// Start-up and the animation loop: load the wasm core, restore the state from the link, build the
// page's parts, and then, every frame, give each part its bounded slice of work (truth, analysis,
// SGAIS, the compared chain, sampling) and draw. The page plays on load unless the system asks
// for reduced motion.

import init, { registry_json } from './pkg/sgviz.js';
import { $, app, pick, specsOf } from './app.js';
import { guarded, showBanner } from './errors.js';
import { advanceFrame, autoplayAllowed, promisedStepsPerSecond, setPlaying } from './playback.js';
import { Panel2d } from './panel2d.js';
import { wireDataUpload } from './data-upload.js';
import { AnalysisRunner } from './analysis.js';
import { ComparePanel } from './compare.js';
import { SgaisPanel } from './sgais.js';
import { SgaisFigures, registerFigureRuns } from './sgais-figures.js';
import { TruthRunner } from './truth.js';
import { applyPendingPair, buildControls, discardSinceRunaway, labState, rebuildCompare, rebuildLab, setPair, setParam } from './chain.js';
import { syncParameterControls } from './parameters.js';
import { wirePairControls } from './pair-controls.js';
import { clearTruthWaitOnceIn, showTruthWait, wirePresets } from './preset-loader.js';
import { wireRunControls } from './run-controls.js';
import { applyLayout, wireToolbar } from './toolbar.js';
import { restoreFromUrl, scheduleUrlWrite } from './url-sync.js';
import { chartsDue, draw, drawCounts, drawStale, viewStale, wireView } from './view.js';
import { wireDrag, wireSlowMotion } from './direct.js';
import { chartsPending, drawPendingCharts, drawnScales } from './charts.js';
import { pixelRatio } from './format.js';
import { endFrame, frameWork, resetFrameWork, FRAME_LIMITS } from './frame-budget.js';
import { countFrame, frameCost, frameRecords, resetFrameCost, timed } from './frame-cost.js';
import { activeJobs, jobCounts, liveWorkers, POOL_SIZE, poolSize, setWasmModule, spawned } from './jobs.js';
import { loopState, startLoop, wake } from './frame-loop.js';
import { latestMixing, mixingCounts } from './mixing.js';
import { entry_counts_json } from './pkg/sgviz.js';
import { svgText, wireSvgExport } from './export-svg.js';
import { seek, showPosition, wireRewind } from './rewind.js';
import { setUpEmbed, wireEmbedCode } from './embed.js';
import { lessonPosition, startPresenting } from './present.js';
import { MultichainPanel } from './multichain.js';
import { FigureScan } from './figure-scan.js';

const truth = new TruthRunner({
  guarded,
  onText: (text, fraction, started = false) => {
    $('truth-note').textContent = `Truth: ${text}`;
    app.analysis?.truthProgress(fraction);
    showTruthWait(text, started);
  },
  onDone: () => {
    app.truthPending = false;
    showTruthWait(null);
    applyPendingPair();
    guarded(() => app.panel.drawStatic(app.lab));
    app.analysis?.schedule();
    // While playing, this frame's own drawing follows (frameParts): drawing here as well drew the
    // panel twice in the frame that adopts the truth (issue 26).
    if (!app.playing || app.loadingInSteps) draw();
  },
});

/** A preset's load about to build other chains stops the truth job of the chain it replaces (www/promise-job.js). */
app.dropStaleTruth = () => truth.dropUnless(truthRequest());

/** What the worker needs to compute the main chain's truth. */
function truthRequest() {
  const targetValues = pick(app.explicit, specsOf('targets', app.target));
  return { target: app.target, sampler: app.sampler, settings: targetValues, targetValues, seed: app.seed, data: app.upload?.current() };
}

/** One animation frame (www/frame-loop.js asks for the next one only while `loopBusy()`). */
function frame() {
  countFrame();
  timed('frame', frameParts);
}

/**
 * Whether the next frame has work: the chain plays or loads, a job is queued or running, a truth
 * or pair waits to be adopted, a chart or the paused view waits to be drawn, an SGAIS run or a
 * live figure band updates. Otherwise the loop sleeps until a change wakes it (issue 23).
 */
function loopBusy() {
  if (app.dead) return false;
  if (!app.lab || app.playing || app.loadingInSteps || app.building || app.truthPending || app.pendingPair) return true;
  if (Object.keys(activeJobs()).length || viewStale() || chartsPending()) return true;
  return Boolean(app.sgais?.running || app.sgais?.dirty || (app.compare?.enabled && app.compare.truthPending) || app.figureScan?.preset?.live);
}

/** One frame's work, each part timed (www/frame-cost.js; 'frame' is their total). */
function frameParts() {
  if (!app.dead) timed('jobs', tickJobs);
  // While a preset loads in steps the previous chains stay still (www/load-hold.js); Play/Pause
  // meanwhile says what happens once the new ones are shown.
  if (app.playing && app.lab && !app.loadingInSteps) {
    const started = performance.now();
    timed('steps', () => advanceFrame(guarded));
    if (app.compare?.enabled) timed('compare', () => app.compare.follow(app.lab.grad_evals()));
    timed('draw', draw);
    app.frameTimes.push(performance.now() - started);
    if (app.frameTimes.length > 600) app.frameTimes.shift();
  } else if (app.lab && !app.dead) {
    drawStale();
  }
  if (!app.dead) timed('workerCharts', () => drawPendingCharts(guarded));
  if (!app.dead) timed('position', showPosition);
  endFrame();
}

/** Each background part's share of a frame: start or poll its jobs. */
function tickJobs() {
  if (app.lab && app.truthPending && !app.building) timed('jobs.truth', () => truth.tick(app.lab, truthRequest()));
  clearTruthWaitOnceIn();
  app.analysis?.tick();
  if (app.sgais) timed('jobs.sgais', () => app.sgais.tick());
  if (app.compare?.enabled) timed('jobs.compare', () => app.compare.tick());
  if (app.figureScan) timed('jobs.figureScan', () => app.figureScan.tick());
}

/** Build the parts of the page that do not depend on the chain. */
function buildPage(memory) {
  wireView({ discardSinceRunaway });
  app.panel = new Panel2d($('stack'), memory);
  app.upload = wireDataUpload({
    fieldset: $('data-controls'), file: $('data-file'), standardise: $('data-standardise'),
    clear: $('data-clear'), summary: $('data-summary'), error: $('data-error'),
  }, () => app.lab, () => {
    guarded(() => app.panel.drawStatic(app.lab));
    rebuildCompare();
    syncParameterControls(labState());
    draw();
  });
  wireRunControls();
  wireToolbar();
  wireSvgExport();
  wireRewind();
  wireEmbedCode();
  wirePairControls({ setPair });
  wirePresets();
  wireDrag();
  wireSlowMotion();
  app.compare = new ComparePanel({
    registry: app.registry, memory, guarded,
    onChange: (options) => { if (options?.rebuild !== false) rebuildCompare(); scheduleUrlWrite(); },
  });
  if (app.urlCompare) app.compare.setEnabled(true, app.urlCompare.sampler, app.urlCompare.values);
  app.sgais = new SgaisPanel(app.registry, guarded);
  registerFigureRuns();
  app.sgaisFigures = new SgaisFigures(app.sgais, guarded);
  app.analysis = new AnalysisRunner({
    progress: $('analysis-progress'), status: $('analysis-status'), restart: $('analysis-restart'),
  }, () => app.lab, guarded);
  app.multichain = new MultichainPanel();
  app.figureScan = new FigureScan();
}

/** Build the chain from the link's state, or from the defaults if the link's cannot be used. */
async function startChain() {
  if (!rebuildLab()) {
    showBanner(`The link's settings could not be used; defaults restored. ${$('status').textContent}`, 'notice');
    app.target = 'gaussian';
    app.sampler = 'sgld';
    app.explicit = {};
    rebuildLab();
  }
  if (!app.lab) {
    // A large target from the link is being built in a worker: wait for it before going on.
    await new Promise((resolve) => { app.onLabBuilt = resolve; });
  }
  buildControls();
  if (app.layout.pair) {
    const [i, j] = app.layout.pair.split(',').map(Number);
    try {
      app.lab.set_pair(i, j);
      guarded(() => app.panel.drawStatic(app.lab));
      draw();
    } catch (error) {
      delete app.layout.pair;
      showBanner(`Ignored pair from the link: ${error.message || error}`, 'notice');
    }
  }
}

/**
 * The wasm module, compiled once: the page instantiates it and posts it to each worker it starts
 * (www/jobs.js), so no worker compiles the file again.
 */
async function compileWasm() {
  const url = new URL('./pkg/sgviz_bg.wasm', import.meta.url);
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch {
    return WebAssembly.compile(await (await fetch(url)).arrayBuffer());
  }
}

async function main() {
  const module = await compileWasm();
  setWasmModule(module);
  const wasm = await init({ module_or_path: module });
  app.registry = JSON.parse(registry_json());
  const notices = restoreFromUrl();
  applyLayout();
  const embedded = setUpEmbed();
  if (notices.length) showBanner(notices.join(' '), 'notice');
  $('seed').value = String(app.seed);
  buildPage(wasm.memory);
  await startChain();
  scheduleUrlWrite();
  window.sgviz = {
    state: () => JSON.parse(app.lab.state_json()),
    frameTimes: () => [...app.frameTimes],
    app,
    guarded, // lets the e2e suite route a deliberate wasm panic through the page's own error path
    setParam, // the page's own path for a parameter change (what a slider does), for the e2e suite
    /** Heavy entry points run by the main thread's wasm instance (workers have their own). */
    entryCounts: () => JSON.parse(entry_counts_json()),
    /** Per-frame work units: limits, maxima since the last reset, frames. */
    frameWork,
    resetFrameWork,
    frameLimits: FRAME_LIMITS,
    /** Where the frames' main-thread time went since the last reset (bench/frame-cost.mjs). */
    frameCost,
    /** The last frames' parts one by one (wall ms per part per frame; 'frame' is the whole callback). */
    frameRecords,
    resetFrameCost,
    /** Draws of the throttled parts of the 2-D view since load: { density, numbers, pieces, overlay }. */
    drawCounts: () => ({ ...drawCounts }),
    /** The ESS worker's newest numbers for the main and compared chain (with `recorded`, the samples they were computed on), and its request counts (www/mixing.js). */
    mixing: () => ({ main: app.lab ? latestMixing(app.lab) : null, compare: app.compare?.lab ? latestMixing(app.compare.lab) : null, counts: { ...mixingCounts } }),
    /** The chains whose ESS the page shows (main, and compared when comparing), and one chain's newest numbers from the ESS worker. */
    mixingChains: () => [app.lab, app.compare?.enabled ? app.compare.lab : null].filter(Boolean),
    mixingOf: latestMixing,
    /** Canvas ids of the charts on screen that still show a drawing from before they came into view (www/view.js). */
    chartsDue,
    /** One frame's sampling as the loop does it, at page time `now` ms, closing the frame's work count (tests drive it while paused). */
    playFrame: (now) => { advanceFrame(guarded, now); endFrame(); },
    /** Steps per wall second the page promises now (speed × 60, or 60 / frames per animated step). */
    promisedStepsPerS: promisedStepsPerSecond,
    /** Background jobs queued or running by group, jobs started by kind, the pool size, workers alive (now, peak). */
    jobs: () => ({ active: activeJobs(), started: { ...jobCounts }, pool: POOL_SIZE, poolNow: poolSize(), workers: liveWorkers(), spawned: spawned.count }),
    /** The main chain's last truth adoption: its steps and the frame each ran in (www/truth.js). */
    truthSteps: () => truth.steps.map((step) => ({ ...step })),
    sgais: () => app.sgais.summary(),
    analysis: () => app.analysis.snapshot(),
    /** The analysis chart of `kind` (noise, bias, sweep) as the worker last posted it, or null. */
    chart: (kind) => app.analysis.charts[kind] ?? null,
    /** Backing-store pixels per CSS pixel and drawing scales (2-D panel and its charts; worker charts by id). */
    drawingScales: () => ({ pixelRatio: pixelRatio(), panel: app.panel.fittedRatio, charts: Object.fromEntries(drawnScales) }),
    /** Chart `name` (marginal, trace, autocorrelation, noise, bias, tradeoff, sgais) as SVG text. */
    svg: (name) => svgText(name),
    /** Go to step `n` of the run (back: replayed exactly from the seed); resolves to the step reached. */
    seek: (n) => seek(n),
    /** The open lesson as { lesson, step, steps } (step from 1), or null. */
    lesson: () => lessonPosition(),
    /** The last "Run 4 chains" result { status, chains, steps, coordinates: [{name, rhat, …}] }, or null. */
    multichain: () => app.multichain.snapshot(),
    /** The loaded figure's scan chart { id, done, fraction, failure, points, chart } (www/figure-scan.js). */
    figureScan: () => app.figureScan.snapshot(),
    /** The frame loop: `{ sleeping, frames, heartbeats, wakes, sleeps }` (www/frame-loop.js). */
    frameLoop: loopState,
    /** Wake the frame loop as a change does (the e2e helper `frames` does, after a change it made by script). */
    wakeLoop: wake,
  };
  setPlaying(autoplayAllowed());
  if (embedded === 'sgais') $('sgais-start').click();
  startPresenting();
  window.__ready = true;
  startLoop(frame, loopBusy);
}

main().catch((error) => showBanner(`sgviz failed to start: ${error.message || error}`));

// Offline after one visit (www/sw.js, copied to the site root by scripts/build.sh).
if ('serviceWorker' in navigator && location.protocol.startsWith('http')) {
  navigator.serviceWorker.register('./sw.js').catch(() => {});
}
