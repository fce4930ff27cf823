// The app loop: loads the wasm core, builds the controls from the registry, and advances a
// bounded amount of sampling work per animation frame.

import init, { Lab, registry_json, last_panic } from './pkg/sgviz.js';
import { buildParamControls, fillSelect, sliderPosition, sliderValue } from './controls.js';
import { formatCount, formatNumber, drawingScale } from './format.js';
import { Panel2d } from './panel2d.js';
import { wireDataUpload } from './data-upload.js';
import { decodeState, encodeState } from './url-state.js';
import { AnalysisRunner } from './analysis.js';
import { ComparePanel } from './compare.js';
import { PRESETS, findPreset } from './presets.js';
import { wireLessons } from './lessons.js';
import { SgaisPanel } from './sgais.js';

/** Wall-clock budget for sampling work in one frame, in milliseconds. */
const FRAME_WORK_BUDGET_MS = 8;
/** At or below this speed, bouncy samplers animate the particle along each path piece. */
const ANIMATE_BELOW_SPEED = 3;
/** Frames spent travelling one path piece when animating. */
const FRAMES_PER_PIECE = 12;
/** Secondary charts redraw at most this often while running (plotters text layout is costly). */
const CHART_INTERVAL_MS = 250;
const CHARTS = [['trace', 'chart-trace'], ['acf', 'chart-acf']];
const SPEED_SPEC = { name: 'speed', min: 1, max: 20000, log_scale: true, integer: true };

const $ = (id) => document.getElementById(id);

const app = {
  registry: null,
  lab: null,
  panel: null,
  target: 'gaussian',
  sampler: 'sgld',
  values: {},
  seed: 1,
  speed: 20,
  playing: false,
  frameTimes: [],
  chartsDrawnAt: 0,
  /** Progress along the newest path piece while animating a bouncy sampler, or undefined. */
  pieceProgress: undefined,
  truthPending: false,
  dead: false,
  upload: null,
  layout: { font: 'normal' },
  urlTimer: 0,
  analysis: null,
  compare: null,
  /** A pair preset waiting for the truth (most_correlated, largest_difference). */
  pendingPair: null,
};

/** Layout settings that may come from the URL, with their allowed values. */
const LAYOUT_SPEC = { font: ['normal', 'large'], pair: (v) => /^\d{1,3},\d{1,3}$/.test(v) };

/** Write the state to the URL hash (coalesced, so dragging a slider does not flood history). */
function scheduleUrlWrite() {
  app.analysis?.schedule();
  clearTimeout(app.urlTimer);
  app.urlTimer = setTimeout(() => {
    const compare = app.compare?.enabled ? { sampler: app.compare.sampler, values: app.compare.values } : undefined;
    const hash = encodeState({ target: app.target, sampler: app.sampler, seed: app.seed, values: app.values, layout: app.layout, compare });
    history.replaceState(null, '', `#${hash}`);
  }, 150);
}

/** Restore target, sampler, seed, parameters and layout from the URL; notices for the rest. */
function restoreFromUrl() {
  const { state, notices } = decodeState(location.hash, app.registry, LAYOUT_SPEC, { target: app.target, sampler: app.sampler });
  if (state.target) app.target = state.target;
  if (state.sampler) app.sampler = state.sampler;
  if (state.seed !== undefined) app.seed = state.seed;
  app.values = { ...defaultsFor(specsOf('targets', app.target)), ...defaultsFor(specsOf('samplers', app.sampler)) };
  Object.assign(app.values, state.values);
  Object.assign(app.layout, state.layout);
  app.urlCompare = state.compare;
  return notices;
}

function applyLayout() {
  document.documentElement.classList.toggle('large-font', app.layout.font === 'large');
  $('large-font').setAttribute('aria-pressed', String(app.layout.font === 'large'));
}

function specsOf(kind, name) {
  return app.registry[kind].find((e) => e.name === name);
}

/** The entries of `values` that are parameters of `spec`. */
function pick(values, spec) {
  return Object.fromEntries(spec.params.filter((p) => p.name in values).map((p) => [p.name, values[p.name]]));
}

function defaultsFor(spec) {
  return Object.fromEntries(spec.params.map((p) => [p.name, p.default]));
}

function showBanner(message, kind = 'error') {
  const banner = $('banner');
  banner.textContent = message;
  banner.className = kind === 'error' ? 'banner' : 'banner notice';
  banner.hidden = false;
}

/** Run a call into wasm; a panic kills the instance and shows a banner instead of a dead page. */
function guarded(action) {
  if (app.dead) return undefined;
  try {
    return action();
  } catch (error) {
    const panic = last_panic();
    if (panic) {
      app.dead = true;
      app.playing = false;
      showBanner(`Internal error: ${panic}. Reload the page to start again.`);
    } else {
      $('status').textContent = String(error.message || error);
    }
    return undefined;
  }
}

/** (Re)build the chain from the current selections; on failure keep the previous chain. */
function rebuildLab() {
  const size = app.panel.size();
  const next = guarded(() => new Lab(app.target, app.sampler, JSON.stringify(app.values), app.seed, size.width, size.height, size.ratio));
  if (!next) return false;
  if (app.lab) app.lab.free();
  app.lab = next;
  $('status').textContent = '';
  app.upload?.reapply();
  app.panel.fit();
  guarded(() => app.panel.drawStatic(app.lab));
  rebuildCompare();
  draw();
  return true;
}

/** Rebuild the compared chain (if compare mode is on) for the current target, seed and data. */
function rebuildCompare() {
  if (!app.compare?.enabled) return;
  app.compare.rebuild({
    target: app.target,
    targetValues: pick(app.values, specsOf('targets', app.target)),
    seed: app.seed,
    data: app.upload?.current(),
    mainTitle: specsOf('samplers', app.sampler).label,
  });
  const [i, j] = (app.layout.pair || '0,1').split(',').map(Number);
  if (i !== 0 || j !== 1) app.compare.setPair(i, j);
}

function buildControls() {
  fillSelect($('target'), app.registry.targets, app.target);
  fillSelect($('sampler'), app.registry.samplers, app.sampler);
  const target = specsOf('targets', app.target);
  const sampler = specsOf('samplers', app.sampler);
  buildParamControls($('sampler-params'), sampler.params, app.values, setParam);
  buildParamControls($('target-params'), target.params, app.values, setParam, { live: false });
  app.upload.refresh(target);
}

/** A parameter moved: apply it to the live chain. Returns an error message or null. */
function setParam(name, value) {
  let message = null;
  guarded(() => {
    try {
      app.lab.set_param(name, value);
      app.values[name] = value;
    } catch (error) {
      message = String(error.message || error);
    }
  });
  if (!message) {
    scheduleUrlWrite();
    const targetParams = specsOf('targets', app.target).params;
    if (targetParams.some((p) => p.name === name)) {
      guarded(() => app.panel.drawStatic(app.lab));
      rebuildCompare();
    }
    draw();
  }
  return message;
}

function selectModel(kind, name) {
  const previous = { target: app.target, sampler: app.sampler, values: app.values };
  app[kind] = name;
  if (kind === 'target') { app.upload.forget(); delete app.layout.pair; }
  const targetValues = kind === 'target' ? defaultsFor(specsOf('targets', app.target)) : pick(app.values, specsOf('targets', app.target));
  app.values = { ...targetValues, ...defaultsFor(specsOf('samplers', app.sampler)) };
  if (!rebuildLab()) Object.assign(app, previous);
  buildControls();
  scheduleUrlWrite();
}

function setPlaying(playing) {
  app.playing = playing && !app.dead;
  const button = $('play');
  button.textContent = app.playing ? 'Pause' : 'Play';
  button.setAttribute('aria-pressed', String(app.playing));
}

function stepOnce() {
  guarded(() => app.lab.run(1));
  app.compare?.enabled && app.compare.follow(app.lab.grad_evals());
  draw();
}

function reset() {
  guarded(() => app.lab.reset());
  app.compare?.reset();
  draw();
}

function discardSamples() {
  guarded(() => app.lab.discard_samples());
  app.compare?.lab && guarded(() => app.compare.lab.discard_samples());
  draw();
}

function wireRunControls() {
  $('discard').addEventListener('click', discardSamples);
  $('play').addEventListener('click', () => setPlaying(!app.playing));
  $('step').addEventListener('click', stepOnce);
  $('reset').addEventListener('click', reset);
  $('target').addEventListener('change', (e) => selectModel('target', e.target.value));
  $('sampler').addEventListener('change', (e) => selectModel('sampler', e.target.value));
  const speed = $('speed');
  speed.value = String(sliderPosition(SPEED_SPEC, app.speed));
  const showSpeed = () => { $('speed-value').textContent = formatCount(app.speed); };
  showSpeed();
  speed.addEventListener('input', () => {
    app.speed = sliderValue(SPEED_SPEC, Number(speed.value));
    showSpeed();
  });
  const seed = $('seed');
  seed.addEventListener('change', () => {
    const value = Number(seed.value);
    if (!Number.isInteger(value) || value < 0 || value > Number.MAX_SAFE_INTEGER) {
      $('status').textContent = `seed: '${seed.value}' is not allowed; expected a whole number ≥ 0`;
      seed.value = String(app.seed);
      return;
    }
    const previous = app.seed;
    app.seed = value;
    if (!rebuildLab()) app.seed = previous;
    scheduleUrlWrite();
  });
  document.addEventListener('keydown', (event) => {
    const typing = event.target.closest('input[type=number], select');
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === ' ' && !event.target.closest('button')) { event.preventDefault(); setPlaying(!app.playing); }
    else if (event.key === 's') stepOnce();
    else if (event.key === 'r') reset();
    else if (event.key === 'd') discardSamples();
    else if (event.key === '?') openHelp();
  });
  window.addEventListener('resize', () => {
    if (app.panel.fit()) {
      const size = app.panel.size();
      guarded(() => { app.lab.resize(size.width, size.height, size.ratio); app.panel.drawStatic(app.lab); });
      draw();
    }
    app.compare?.resize();
  });
}

function openHelp() {
  const dialog = $('help');
  if (!dialog.open) dialog.showModal();
}

function download(filename, blob) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Flatten the three layers of the 2-D panel into one PNG. */
function exportPanelPng() {
  const layers = ['static-layer', 'density-layer', 'overlay-layer'].map($);
  const canvas = document.createElement('canvas');
  canvas.width = layers[0].width;
  canvas.height = layers[0].height;
  const ctx = canvas.getContext('2d');
  for (const layer of layers) ctx.drawImage(layer, 0, 0);
  canvas.toBlob((blob) => download(`sgviz-${app.target}-${app.sampler}.png`, blob), 'image/png');
}

/** A "Save PNG" button under every chart (any panel can be exported). */
function addChartExports() {
  for (const figure of document.querySelectorAll('figure.chart')) {
    const canvas = figure.querySelector('canvas');
    const caption = document.createElement('figcaption');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'png';
    button.textContent = 'Save PNG';
    button.setAttribute('aria-label', `Save PNG: ${canvas.getAttribute('aria-label')}`);
    button.addEventListener('click', () => canvas.toBlob((blob) => download(`sgviz-${canvas.id}.png`, blob), 'image/png'));
    caption.append(button);
    figure.append(caption);
  }
}

function wireToolbar() {
  addChartExports();
  $('help-open').addEventListener('click', openHelp);
  $('export-csv').addEventListener('click', () => {
    const csv = guarded(() => app.lab.samples_csv());
    if (csv) download(`sgviz-${app.target}-${app.sampler}-seed${app.seed}.csv`, new Blob([csv], { type: 'text/csv' }));
  });
  $('export-png').addEventListener('click', exportPanelPng);
  $('copy-link').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      $('status').textContent = 'Link copied.';
    } catch {
      $('status').textContent = 'Copy the address bar to share this state.';
    }
  });
  $('compare-toggle').addEventListener('click', () => {
    app.compare.setEnabled(!app.compare.enabled);
    rebuildCompare();
    window.dispatchEvent(new Event('resize'));
    scheduleUrlWrite();
  });
  $('large-font').addEventListener('click', () => {
    app.layout.font = app.layout.font === 'large' ? 'normal' : 'large';
    applyLayout();
    window.dispatchEvent(new Event('resize'));
    drawCharts();
    scheduleUrlWrite();
  });
}

/** Advance at most `app.speed` steps within the frame's time budget. */
function advance() {
  const started = performance.now();
  let remaining = app.speed;
  let chunk = Math.min(remaining, 64);
  while (remaining > 0 && !app.dead) {
    const ran = guarded(() => app.lab.run(chunk));
    if (!ran || ran < chunk) break;
    remaining -= ran;
    if (performance.now() - started > FRAME_WORK_BUDGET_MS) break;
    chunk = Math.min(remaining, chunk * 2);
  }
}

function draw() {
  if (!app.lab || app.dead) return;
  guarded(() => {
    app.panel.drawDensity(app.lab);
    app.panel.drawOverlay(app.lab, app.playing ? app.pieceProgress : undefined);
    showState(JSON.parse(app.lab.state_json()));
  });
  if (app.compare?.enabled) app.compare.draw();
  if (!app.playing || performance.now() - app.chartsDrawnAt > CHART_INTERVAL_MS) drawCharts();
}

function drawCharts() {
  app.chartsDrawnAt = performance.now();
  guarded(() => showMixing(JSON.parse(app.lab.mixing_json())));
  if (app.compare?.enabled) app.compare.showMixing();
  const ratio = drawingScale();
  for (const [kind, id] of CHARTS) {
    const canvas = $(id);
    const width = Math.round(canvas.clientWidth * ratio);
    const height = Math.round(canvas.clientHeight * ratio);
    if (width < 32 || height < 32) continue;
    if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
    guarded(() => app.lab.draw_chart(kind, canvas));
  }
}

function showMixing(mixing) {
  $('ess').textContent = mixing.ess.map((e) => formatNumber(e)).join(', ');
  $('ess-per-grad').textContent = mixing.ess_per_1000_grads.map((e) => formatNumber(e)).join(', ');
}

function showState(state) {
  $('count-steps').textContent = formatCount(state.steps);
  $('count-samples').textContent = formatCount(state.n_samples);
  $('count-grads').textContent = formatCount(state.grad_evals);

  const rows = [];
  const names = state.names;
  const cell = (text) => { const td = document.createElement('td'); td.textContent = text; return td; };
  const row = (label, value, truth) => {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = label;
    tr.append(th, cell(state.n_samples > 0 ? formatNumber(value) : '—'), cell(truth === undefined ? '—' : formatNumber(truth)));
    rows.push(tr);
  };
  const [p, q] = state.pair;
  row('mean x', state.mean[p], state.truth?.mean[p]);
  row('mean y', state.mean[q], state.truth?.mean[q]);
  row('var x', state.cov[p][p], state.truth?.cov[p][p]);
  row('cov x, y', state.cov[p][q], state.truth?.cov[p][q]);
  row('var y', state.cov[q][q], state.truth?.cov[q][q]);
  $('moments').caption.textContent = `x = ${names[p]}, y = ${names[q]}`;
  $('moments').tBodies[0].replaceChildren(...rows);
  const diagnostics = $('diagnostics');
  diagnostics.replaceChildren(...state.diagnostics.flatMap((d) => {
    const dt = document.createElement('dt');
    dt.textContent = d.label;
    const dd = document.createElement('dd');
    dd.textContent = formatNumber(d.value);
    dd.dataset.diagnostic = d.name;
    return [dt, dd];
  }));
  app.truthPending = state.truth_pending;
  $('error-e1').textContent = formatNumber(state.e1);
  $('error-e2').textContent = formatNumber(state.e2);
  if (!state.truth_pending) $('truth-note').textContent = state.truth_error ? `Truth: ${state.truth_error}` : '';
  showPairControls(state);
  if (state.diverged) {
    $('status').textContent = state.diverged;
    setPlaying(false);
  }
}

function isBouncy() {
  return specsOf('samplers', app.sampler).kind === 'bouncy';
}

/** Slow bouncy playback: one event per FRAMES_PER_PIECE frames, the particle moving along it. */
function animatePiece() {
  if (app.pieceProgress === undefined || app.pieceProgress >= 1) {
    guarded(() => app.lab.run(1));
    app.pieceProgress = 0;
  }
  app.pieceProgress = Math.min(1, app.pieceProgress + 1 / FRAMES_PER_PIECE);
}

/**
 * Load a preset (or a lesson step's inline state): target, sampler, parameters, speed, compare
 * mode and pair; then play.
 */
function applyPreset({ state, compare, pair, title, text, source, sgais }) {
  const note = $('preset-note');
  note.hidden = !title;
  if (title) note.textContent = `${title} — ${source}. ${text}`;
  if (sgais) {
    app.sgais.applyPreset(sgais);
    $('sgais-title').scrollIntoView({ block: 'start' });
    return;
  }
  setPlaying(false);
  app.target = state.target;
  app.sampler = state.sampler;
  const values = { ...defaultsFor(specsOf('targets', state.target)), ...defaultsFor(specsOf('samplers', state.sampler)) };
  for (const [name, value] of Object.entries(state.values || {})) if (name in values) values[name] = value;
  app.values = values;
  if (state.seed !== undefined) { app.seed = state.seed; $('seed').value = String(app.seed); }
  if (state.speed) {
    app.speed = state.speed;
    $('speed').value = String(sliderPosition(SPEED_SPEC, app.speed));
    $('speed-value').textContent = formatCount(app.speed);
  }
  app.upload.forget();
  delete app.layout.pair;
  app.pendingPair = pair || null;
  if (compare) app.compare.setEnabled(true, compare.sampler, compare.values);
  else app.compare.setEnabled(false);
  buildControls();
  rebuildLab();
  applyPendingPair();
  window.dispatchEvent(new Event('resize'));
  scheduleUrlWrite();
  setPlaying(true);
}

/** Apply a pair preset once the truth it needs is known. */
function applyPendingPair() {
  if (!app.pendingPair || app.truthPending) return;
  const kind = app.pendingPair;
  app.pendingPair = null;
  const pair = guarded(() => { try { return app.lab.preset_pair(kind); } catch { return null; } });
  if (pair) setPair(pair[0], pair[1]);
}

function wirePresets() {
  const select = $('preset');
  select.append(...PRESETS.map((p) => new Option(p.title, p.id)));
  select.addEventListener('change', () => {
    const preset = findPreset(select.value);
    if (preset) applyPreset(preset);
    select.value = '';
  });
  wireLessons((step) => {
    const preset = step.preset ? findPreset(step.preset) : { state: step.state };
    applyPreset({ ...preset, title: undefined });
    $('lesson').scrollIntoView({ block: 'nearest' });
  });
}

/** Advance a pending reference computation of the truth within a small time slice. */
function advanceTruth() {
  if (!app.lab || !app.truthPending) return;
  const started = performance.now();
  let progress;
  while (performance.now() - started < 6) {
    progress = guarded(() => JSON.parse(app.lab.advance_truth(200)));
    if (!progress || !progress.running) break;
  }
  if (!progress) return;
  $('truth-note').textContent = `Truth: ${progress.text}`;
  if (!progress.running) {
    app.truthPending = false;
    applyPendingPair();
    guarded(() => app.panel.drawStatic(app.lab));
    app.analysis?.schedule();
    draw();
  }
}

/** Coordinate-pair selectors, shown for targets with more than two parameters. */
function showPairControls(state) {
  const box = $('pair-controls');
  box.hidden = state.dim <= 2;
  if (box.hidden) return;
  for (const [id, index] of [['pair-x', 0], ['pair-y', 1]]) {
    const select = $(id);
    if (select.options.length !== state.dim) {
      select.replaceChildren(...state.names.map((name, k) => new Option(name, String(k))));
    }
    if (document.activeElement !== select) select.value = String(state.pair[index]);
  }
}

function setPair(i, j) {
  const ok = guarded(() => { app.lab.set_pair(i, j); return true; });
  if (ok) {
    app.layout.pair = `${i},${j}`;
    app.compare?.setPair(i, j);
    guarded(() => app.panel.drawStatic(app.lab));
    draw();
    scheduleUrlWrite();
  }
}

function wirePairControls() {
  const change = () => {
    const [i, j] = [Number($('pair-x').value), Number($('pair-y').value)];
    if (i === j) { $('status').textContent = 'Choose two different coordinates.'; return; }
    setPair(i, j);
  };
  $('pair-x').addEventListener('change', change);
  $('pair-y').addEventListener('change', change);
  for (const [id, kind] of [['pair-correlated', 'most_correlated'], ['pair-difference', 'largest_difference']]) {
    $(id).addEventListener('click', () => {
      const pair = guarded(() => app.lab.preset_pair(kind));
      if (pair) setPair(pair[0], pair[1]);
    });
  }
}

function frame(now) {
  if (!app.dead) { advanceTruth(); app.analysis?.tick(); app.sgais?.tick(); }
  if (app.playing) {
    const started = performance.now();
    if (isBouncy() && app.speed <= ANIMATE_BELOW_SPEED) animatePiece();
    else { app.pieceProgress = undefined; advance(); }
    if (app.compare?.enabled) app.compare.follow(app.lab.grad_evals());
    draw();
    app.frameTimes.push(performance.now() - started);
    if (app.frameTimes.length > 600) app.frameTimes.shift();
  }
  requestAnimationFrame(frame);
}

async function main() {
  const wasm = await init();
  app.registry = JSON.parse(registry_json());
  app.panel = new Panel2d($('stack'), wasm.memory);
  const notices = restoreFromUrl();
  applyLayout();
  if (notices.length) showBanner(notices.join(' '), 'notice');
  $('seed').value = String(app.seed);
  app.upload = wireDataUpload({
    fieldset: $('data-controls'), file: $('data-file'), standardise: $('data-standardise'),
    clear: $('data-clear'), summary: $('data-summary'), error: $('data-error'),
  }, () => app.lab, () => { guarded(() => app.panel.drawStatic(app.lab)); rebuildCompare(); draw(); });
  buildControls();
  wireRunControls();
  wireToolbar();
  wirePairControls();
  wirePresets();
  app.compare = new ComparePanel({
    registry: app.registry, memory: wasm.memory, guarded,
    onChange: (options) => { if (options?.rebuild !== false) rebuildCompare(); scheduleUrlWrite(); },
  });
  if (app.urlCompare) app.compare.setEnabled(true, app.urlCompare.sampler, app.urlCompare.values);
  app.sgais = new SgaisPanel(app.registry, guarded);
  app.analysis = new AnalysisRunner({
    progress: $('analysis-progress'), status: $('analysis-status'), restart: $('analysis-restart'),
  }, () => app.lab, guarded);
  if (!rebuildLab()) {
    showBanner(`The link's settings could not be used; defaults restored. ${$('status').textContent}`, 'notice');
    app.target = 'gaussian';
    app.sampler = 'sgld';
    app.values = { ...defaultsFor(specsOf('targets', app.target)), ...defaultsFor(specsOf('samplers', app.sampler)) };
    buildControls();
    rebuildLab();
  }
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
  scheduleUrlWrite();
  window.sgviz = {
    state: () => JSON.parse(app.lab.state_json()),
    frameTimes: () => [...app.frameTimes],
    app,
    guarded, // lets the e2e suite route a deliberate wasm panic through the page's own error path
  };
  window.__ready = true;
  requestAnimationFrame(frame);
}

main().catch((error) => showBanner(`sgviz failed to start: ${error.message || error}`));
