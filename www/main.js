// The app loop: loads the wasm core, builds the controls from the registry, and advances a
// bounded amount of sampling work per animation frame.

import init, { Lab, registry_json, last_panic } from './pkg/sgviz.js';
import { buildParamControls, fillSelect, sliderPosition, sliderValue } from './controls.js';
import { formatCount, formatNumber } from './format.js';
import { Panel2d } from './panel2d.js';

/** Wall-clock budget for sampling work in one frame, in milliseconds. */
const FRAME_WORK_BUDGET_MS = 8;
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
  dead: false,
};

function specsOf(kind, name) {
  return app.registry[kind].find((e) => e.name === name);
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
  app.panel.fit();
  guarded(() => app.panel.drawStatic(app.lab));
  draw();
  return true;
}

function buildControls() {
  fillSelect($('target'), app.registry.targets, app.target);
  fillSelect($('sampler'), app.registry.samplers, app.sampler);
  const target = specsOf('targets', app.target);
  const sampler = specsOf('samplers', app.sampler);
  buildParamControls($('sampler-params'), sampler.params, app.values, setParam);
  buildParamControls($('target-params'), target.params, app.values, setParam);
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
    const targetParams = specsOf('targets', app.target).params;
    if (targetParams.some((p) => p.name === name)) guarded(() => app.panel.drawStatic(app.lab));
    draw();
  }
  return message;
}

function selectModel(kind, name) {
  const previous = { target: app.target, sampler: app.sampler, values: app.values };
  app[kind] = name;
  app.values = { ...defaultsFor(specsOf('targets', app.target)), ...defaultsFor(specsOf('samplers', app.sampler)) };
  if (!rebuildLab()) Object.assign(app, previous);
  buildControls();
}

function setPlaying(playing) {
  app.playing = playing && !app.dead;
  const button = $('play');
  button.textContent = app.playing ? 'Pause' : 'Play';
  button.setAttribute('aria-pressed', String(app.playing));
}

function stepOnce() {
  guarded(() => app.lab.run(1));
  draw();
}

function reset() {
  guarded(() => app.lab.reset());
  draw();
}

function wireRunControls() {
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
  });
  document.addEventListener('keydown', (event) => {
    const typing = event.target.closest('input[type=number], select');
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === ' ' && !event.target.closest('button')) { event.preventDefault(); setPlaying(!app.playing); }
    else if (event.key === 's') stepOnce();
    else if (event.key === 'r') reset();
  });
  window.addEventListener('resize', () => {
    if (app.panel.fit()) {
      const size = app.panel.size();
      guarded(() => { app.lab.resize(size.width, size.height, size.ratio); app.panel.drawStatic(app.lab); });
      draw();
    }
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
    app.panel.drawOverlay(app.lab);
    showState(JSON.parse(app.lab.state_json()));
  });
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
    tr.append(th, cell(formatNumber(value)), cell(truth === undefined ? '—' : formatNumber(truth)));
    rows.push(tr);
  };
  for (let i = 0; i < Math.min(2, names.length); i++) row(`mean ${names[i]}`, state.mean[i], state.truth?.mean[i]);
  for (const [a, b] of [[0, 0], [0, 1], [1, 1]]) {
    if (b < names.length) row(`cov ${names[a]},${names[b]}`, state.cov[a][b], state.truth?.cov[a][b]);
  }
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
  if (state.diverged) {
    $('status').textContent = state.diverged;
    setPlaying(false);
  }
}

function frame(now) {
  if (app.playing) {
    const started = performance.now();
    advance();
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
  app.values = { ...defaultsFor(specsOf('targets', app.target)), ...defaultsFor(specsOf('samplers', app.sampler)) };
  buildControls();
  wireRunControls();
  rebuildLab();
  window.sgviz = {
    state: () => JSON.parse(app.lab.state_json()),
    frameTimes: () => [...app.frameTimes],
    app,
  };
  window.__ready = true;
  requestAnimationFrame(frame);
}

main().catch((error) => showBanner(`sgviz failed to start: ${error.message || error}`));
