// Charts computed by Web Workers arrive as JSON chart specs; the main thread draws them (plotters'
// text measurement panics in workers). Arrivals only mark a chart dirty; each animation frame
// draws at most what the frame budget allows (FRAME_LIMITS.chartRedraws), oldest first.

import { draw_chart_json } from './pkg/sgviz.js';
import { drawingScale, fitCanvas } from './format.js';
import { fits, note } from './frame-budget.js';
import { clearStatus } from './errors.js';
import { wake } from './frame-loop.js';

/** canvas id → latest spec (JSON string) not drawn yet, in arrival order. */
const pending = new Map();
/** canvas id → the spec drawn last, to draw again after a resize or text-size change. */
const shown = new Map();
/** canvas id → the drawing scale it was last drawn at (for the legibility tests). */
export const drawnScales = new Map();

/** Show `spec` (a JSON string, or null to blank) on canvas `id` at the next frame with room. */
export function queueChart(id, spec) {
  pending.delete(id);
  pending.set(id, spec);
  shown.set(id, spec);
  wake();
}

/** Whether a queued chart waits for a frame with room (www/frame-loop.js stays awake). */
export function chartsPending() {
  return pending.size > 0;
}

/** The spec (JSON string) canvas `id` shows or is about to show, or undefined (for the SVG export). */
export function shownSpec(id) {
  return shown.get(id) ?? undefined;
}

/** Draw every worker-computed chart again (canvas size or text size changed). */
export function requeueCharts() {
  for (const [id, spec] of shown) if (!pending.has(id)) pending.set(id, spec);
}

/** Forget queued charts whose id starts with `prefix` (their job was cancelled). */
export function dropCharts(prefix) {
  for (const id of [...pending.keys()]) if (id.startsWith(prefix)) pending.delete(id);
  for (const id of [...shown.keys()]) if (id.startsWith(prefix)) shown.delete(id);
}

export function drawPendingCharts(guarded) {
  for (const [id, spec] of [...pending]) {
    if (!fits('chartRedraws')) return;
    pending.delete(id);
    const canvas = document.getElementById(id);
    if (!canvas) continue;
    note('chartRedraws', 1);
    if (spec === null) {
      canvas.getContext('2d').clearRect(0, 0, canvas.width, canvas.height);
    } else if (fitCanvas(canvas)) {
      const scale = drawingScale(canvas.clientWidth);
      drawnScales.set(id, scale);
      // A chart's own failure is shown as 'chart:<id>' and cleared when that chart draws again
      // (another chart drawing says nothing about its cause).
      if (guarded(() => { draw_chart_json(spec, canvas, scale); return true; }, `chart:${id}`)) clearStatus(`chart:${id}`);
    }
  }
}
