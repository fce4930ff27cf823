// Direct manipulation of the 2-D plot: drag the current point to restart the chain there (mouse,
// pen and touch through pointer events), and the slow-motion mode that shows one SGLD / SGHMC /
// SGFS step as its parts — gradient drift, minibatch noise, injected noise (and SGHMC's momentum)
// — as arrows head to tail. The parts come from the sampler itself (Lab.step_parts_json).

import { $, app } from './app.js';
import { guarded, userMessage } from './errors.js';
import { setPlaying } from './playback.js';
import { draw } from './view.js';

/** How close (CSS pixels) a press must be to the current point to grab it: mouse, then touch. */
const GRAB_RADIUS = { mouse: 14, touch: 28 };

/** Samplers whose steps the core can take apart. */
const SLOW_MOTION_SAMPLERS = new Set(['sgld', 'sghmc', 'sgfs_f', 'sgfs_d']);

export function slowMotionAvailable() {
  return SLOW_MOTION_SAMPLERS.has(app.sampler);
}

/** Canvas backing pixels of a pointer event on `canvas`. */
function backingPixel(canvas, event) {
  const rect = canvas.getBoundingClientRect();
  return [(event.clientX - rect.left) * (canvas.width / rect.width), (event.clientY - rect.top) * (canvas.height / rect.height)];
}

/** Wire dragging of the current point on the main panel's overlay canvas. */
export function wireDrag() {
  const canvas = app.panel.overlayCanvas;
  let drag = null;
  canvas.addEventListener('pointerdown', (event) => {
    // While a preset loads in steps the chain shown is about to be replaced (www/load-hold.js).
    if (!app.lab || app.dead || app.loadingInSteps) return;
    const [x, y] = backingPixel(canvas, event);
    const [px, py] = guarded(() => app.lab.position_pixel()) || [NaN, NaN];
    const scale = canvas.width / canvas.getBoundingClientRect().width;
    const radius = (GRAB_RADIUS[event.pointerType] || GRAB_RADIUS.mouse) * scale;
    if (!(Math.hypot(x - px, y - py) <= radius)) return;
    event.preventDefault();
    try { canvas.setPointerCapture(event.pointerId); } catch { /* synthetic or finished pointer */ }
    drag = { id: event.pointerId, wasPlaying: app.playing };
    setPlaying(false);
    app.dragPixel = [x, y];
    draw();
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    app.dragPixel = backingPixel(canvas, event);
    draw();
  });
  const drop = (event, cancelled) => {
    if (!drag || event.pointerId !== drag.id) return;
    const [x, y] = backingPixel(canvas, event);
    const { wasPlaying } = drag;
    drag = null;
    app.dragPixel = null;
    if (!cancelled) {
      guarded(() => {
        try {
          app.lab.restart_at_pixel(x, y);
          $('status').textContent = '';
        } catch (error) {
          $('status').textContent = `Could not restart there: ${userMessage(error.message || error)}`;
        }
      });
      app.stepParts = null;
    }
    draw();
    setPlaying(wasPlaying);
  };
  canvas.addEventListener('pointerup', (event) => drop(event, false));
  canvas.addEventListener('pointercancel', (event) => drop(event, true));
}

/** Wire the slow-motion toggle; it applies to the samplers that can take a step apart. */
export function wireSlowMotion() {
  const button = $('slow-motion');
  button.addEventListener('click', () => setSlowMotion(!app.slowMotion));
  syncSlowMotion();
}

export function setSlowMotion(on, { redraw = true } = {}) {
  app.slowMotion = on && slowMotionAvailable();
  app.stepParts = null;
  app.stepProgress = undefined;
  guarded(() => app.lab?.set_slow_motion(app.slowMotion));
  $('slow-motion').setAttribute('aria-pressed', String(app.slowMotion));
  $('legend-parts').hidden = !app.slowMotion;
  if (redraw) draw();
}

/**
 * After the chain was rebuilt: show the toggle only where it applies and re-arm the recording.
 * The caller draws (www/adoption.js `install`: drawing here as well drew the panel twice in the
 * task that shows adopted chains, issue 26).
 */
export function syncSlowMotion() {
  const available = slowMotionAvailable();
  $('slow-motion').hidden = !available;
  setSlowMotion(app.slowMotion && available, { redraw: false });
}

/** The latest step's parts, read from the core after a step. */
export function readStepParts() {
  app.stepParts = app.slowMotion ? guarded(() => JSON.parse(app.lab.step_parts_json())) : null;
}
