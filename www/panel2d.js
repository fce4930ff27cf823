// The 2-D marginal panel: three stacked canvases. The static layer (axes, contours, truth
// ellipse) is drawn by Rust through plotters-canvas when the view changes; the density layer is
// an RGBA image rendered in Rust and blitted from wasm memory; the overlay holds the current
// point, the fading trail and the sampler's dashed 2σ ellipse.

import { drawingScale, pixelRatio } from './format.js';

const TRAIL_LENGTH = 40;

/** Colours of a slow-motion step's arrows, by part (the legend under the plot uses the same). */
export const PART_COLOURS = {
  momentum: '#6b6b6b',
  drift: '#1f5fbf',
  minibatch_noise: '#e07b00',
  injected_noise: '#7b3fa0',
};

export class Panel2d {
  constructor(stack, memory) {
    this.stack = stack;
    this.memory = memory;
    this.staticCanvas = stack.querySelector('.static-layer');
    this.densityCanvas = stack.querySelector('.density-layer');
    this.overlayCanvas = stack.querySelector('.overlay-layer');
    this.colours = readColours();
  }

  /**
   * Backing-store size in device pixels, and the drawing scale for text and lines (device pixels
   * per CSS pixel times the page's text size).
   */
  size() {
    const rect = this.stack.getBoundingClientRect();
    if (this.stack.closest('#embed-root')) {
      // Embedded (www/embed.js): the panel fills its frame, whatever the frame's shape.
      const px = (css) => Math.max(64, Math.round(css * pixelRatio()));
      return { width: px(rect.width), height: px(rect.height), ratio: drawingScale() };
    }
    const side = Math.max(64, Math.round(Math.min(rect.width, rect.height || rect.width) * pixelRatio()));
    return { width: side, height: side, ratio: drawingScale(side / pixelRatio()) };
  }

  /** Resize the canvases to the stack; returns true when the size or the drawing scale changed. */
  fit() {
    const { width, height, ratio } = this.size();
    const scaled = ratio !== this.fittedRatio;
    this.fittedRatio = ratio;
    if (!scaled && this.staticCanvas.width === width && this.staticCanvas.height === height) return false;
    for (const c of [this.staticCanvas, this.densityCanvas, this.overlayCanvas]) {
      c.width = width;
      c.height = height;
    }
    return true;
  }

  drawStatic(lab) {
    lab.draw_static(this.staticCanvas);
  }

  /** Blit the density image rendered in wasm memory (views are recreated on every use). */
  drawDensity(lab) {
    const ptr = lab.render_density();
    const w = lab.density_width();
    const h = lab.density_height();
    const pixels = new Uint8ClampedArray(this.memory.buffer, ptr, w * h * 4);
    const ctx = this.densityCanvas.getContext('2d');
    ctx.clearRect(0, 0, this.densityCanvas.width, this.densityCanvas.height);
    ctx.putImageData(new ImageData(pixels, w, h), lab.plot_left(), lab.plot_top());
  }

  /**
   * `progress` ∈ [0, 1] animates a bouncy sampler's particle along its newest path piece;
   * undefined draws the particle at the current position.
   */
  drawOverlay(lab, progress, { stepParts = null, stepProgress = 1, dragPixel = null } = {}) {
    const ctx = this.overlayCanvas.getContext('2d');
    const ratio = this.size().ratio;
    ctx.clearRect(0, 0, this.overlayCanvas.width, this.overlayCanvas.height);
    this.strokes = [];
    const marginals = JSON.parse(lab.marginals_json());
    for (const axis of [marginals.x, marginals.y]) {
      this.drawPolyline(ctx, axis.histogram, { fill: this.colours.histogram, stroke: this.colours.histogramEdge, width: ratio });
      this.drawPolyline(ctx, axis.truth, { stroke: this.colours.truth, width: 2 * ratio });
    }
    // Everything data-driven is clipped to the plot frame; a point outside it is shown at the edge.
    const [left, top, width, height] = lab.plot_frame();
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    // The measured (dashed) ellipse first, the predicted (dotted) one on top: where they
    // coincide the dots stay visible over the dashes (the dashes show between the dots).
    this.drawEllipse(ctx, lab.sampler_ellipse(), ratio);
    this.drawPredicted(ctx, lab.predicted_ellipse(), ratio);
    const path = JSON.parse(lab.path_json());
    let [x, y] = lab.position_pixel();
    if (path.kind === 'path') {
      if (progress !== undefined && path.path.length >= 4) [x, y] = truncateLastPiece(path, progress);
      this.drawPath(ctx, path, ratio);
    } else {
      this.drawTrail(ctx, lab.trail(TRAIL_LENGTH), ratio);
    }
    if (path.proposal) this.drawProposal(ctx, path.proposal, ratio);
    if (stepParts?.parts?.length) [x, y] = this.drawStepParts(ctx, stepParts, stepProgress, ratio);
    if (dragPixel) {
      this.drawDragGhost(ctx, [x, y], dragPixel, ratio);
      [x, y] = dragPixel;
    }
    if (Number.isFinite(x) && Number.isFinite(y)) {
      const inside = x >= left && x <= left + width && y >= top && y <= top + height;
      const [px, py] = [Math.min(left + width, Math.max(left, x)), Math.min(top + height, Math.max(top, y))];
      ctx.fillStyle = inside ? this.colours.point : '#ffffff';
      ctx.strokeStyle = inside ? '#ffffff' : this.colours.point;
      ctx.lineWidth = (inside ? 1.5 : 2.5) * ratio;
      ctx.beginPath();
      ctx.arc(px, py, 5 * ratio, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
    ctx.restore();
  }

  /**
   * Stroke (and optionally fill) a pixel polyline [x, y, x, y, …], optionally dashed. A `name`d
   * polyline is logged in `strokes`, in the order the overlay drew it (what lies on top of what).
   */
  drawPolyline(ctx, points, { fill, stroke, width, dash = [], name }) {
    if (points.length < 4) return;
    if (name) this.strokes?.push(name);
    ctx.save();
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(points[0], points[1]);
    for (let i = 2; i < points.length; i += 2) ctx.lineTo(points[i], points[i + 1]);
    if (fill) { ctx.fillStyle = fill; ctx.fill(); }
    ctx.strokeStyle = stroke;
    ctx.lineWidth = width;
    ctx.stroke();
    ctx.restore();
  }

  drawEllipse(ctx, points, ratio) {
    this.drawPolyline(ctx, points, { stroke: this.colours.sampler, width: 2.5 * ratio, dash: [8 * ratio, 6 * ratio], name: 'sampler ellipse' });
  }

  /** The sampler's predicted stationary law (issue 13): dotted, over the measured ellipse. */
  drawPredicted(ctx, points, ratio) {
    ctx.save();
    ctx.lineCap = 'round';
    this.drawPolyline(ctx, points, { stroke: this.colours.predicted, width: 3 * ratio, dash: [0.5 * ratio, 6 * ratio], name: 'predicted ellipse' });
    ctx.restore();
  }

  /** An exact sampler's last proposal (MALA's jump, HMC's leapfrog path): green if accepted. */
  drawProposal(ctx, { points, accepted }, ratio) {
    if (points.length < 4) return;
    const stroke = accepted ? this.colours.accepted : this.colours.rejected;
    this.drawPolyline(ctx, points, { stroke, width: 2 * ratio, dash: [4 * ratio, 3 * ratio] });
    const [x, y] = points.slice(-2);
    ctx.strokeStyle = stroke;
    ctx.lineWidth = 2 * ratio;
    // A ring around the end (radius 8, outside the current point's 5 + stroke), so an accepted
    // proposal's end stays visible under the point that moved there.
    ctx.beginPath();
    ctx.arc(x, y, 8 * ratio, 0, 2 * Math.PI);
    ctx.stroke();
  }

  /**
   * One step's parts as arrows head to tail, revealed one after another as `progress` goes from
   * 0 to 1 (the last fifth of the time shows the whole step); returns where the point is drawn.
   */
  drawStepParts(ctx, { parts, start_pixel: start }, progress, ratio) {
    const shown = Math.min(1, progress / 0.8) * parts.length;
    let tip = start;
    parts.forEach((part, k) => {
      const fraction = Math.max(0, Math.min(1, shown - k));
      if (fraction <= 0) return;
      const [x0, y0] = part.from;
      const to = [x0 + (part.to[0] - x0) * fraction, part.from[1] + (part.to[1] - y0) * fraction];
      this.drawArrow(ctx, part.from, to, PART_COLOURS[part.name] || this.colours.truth, ratio);
      tip = to;
    });
    return tip;
  }

  drawArrow(ctx, [x0, y0], [x1, y1], colour, ratio) {
    const length = Math.hypot(x1 - x0, y1 - y0);
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = 2.5 * ratio;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
    if (length > 1) {
      const head = Math.min(9 * ratio, length / 2);
      const angle = Math.atan2(y1 - y0, x1 - x0);
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x1 - head * Math.cos(angle - 0.45), y1 - head * Math.sin(angle - 0.45));
      ctx.lineTo(x1 - head * Math.cos(angle + 0.45), y1 - head * Math.sin(angle + 0.45));
      ctx.closePath();
      ctx.fill();
    }
    ctx.restore();
  }

  /** While dragging: a dashed line from the current point to where it would restart. */
  drawDragGhost(ctx, from, to, ratio) {
    this.drawPolyline(ctx, [...from, ...to], { stroke: this.colours.point, width: 1.5 * ratio, dash: [4 * ratio, 4 * ratio] });
  }

  /** A bouncy sampler's piecewise-linear path (fading with age) with its bounces marked. */
  drawPath(ctx, { path, bounces }, ratio) {
    this.drawTrail(ctx, path, ratio);
    ctx.strokeStyle = this.colours.truth;
    ctx.lineWidth = 1.5 * ratio;
    const r = 3.5 * ratio;
    for (let i = 0; i < bounces.length; i += 2) {
      const [x, y] = [bounces[i], bounces[i + 1]];
      ctx.beginPath();
      ctx.moveTo(x - r, y - r); ctx.lineTo(x + r, y + r);
      ctx.moveTo(x - r, y + r); ctx.lineTo(x + r, y - r);
      ctx.stroke();
    }
  }

  drawTrail(ctx, points, ratio) {
    const n = points.length / 2;
    ctx.lineWidth = 1.5 * ratio;
    for (let i = 1; i < n; i++) {
      ctx.strokeStyle = withAlpha(this.colours.point, i / n);
      ctx.beginPath();
      ctx.moveTo(points[2 * i - 2], points[2 * i - 1]);
      ctx.lineTo(points[2 * i], points[2 * i + 1]);
      ctx.stroke();
    }
  }
}

/** Cut the newest piece of a path at fraction `progress`; returns the particle's position. */
function truncateLastPiece(path, progress) {
  const p = path.path;
  const n = p.length;
  const [x0, y0, x1, y1] = [p[n - 4], p[n - 3], p[n - 2], p[n - 1]];
  const x = x0 + (x1 - x0) * progress;
  const y = y0 + (y1 - y0) * progress;
  p[n - 2] = x;
  p[n - 1] = y;
  if (progress < 1 && path.bounces.length >= 2 && path.bounces.at(-2) === x1 && path.bounces.at(-1) === y1) path.bounces.length -= 2;
  return [x, y];
}

function readColours() {
  const css = getComputedStyle(document.documentElement);
  const read = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  return {
    point: read('--point', '#e4572e'),
    sampler: read('--sampler', '#d1495b'),
    predicted: read('--predicted', '#6a3d9a'),
    truth: read('--truth', '#141414'),
    accepted: read('--accepted', '#2e7d32'),
    rejected: read('--rejected', '#c62828'),
    histogram: read('--histogram', 'rgba(33, 113, 181, 0.35)'),
    histogramEdge: read('--histogram-edge', '#2171b5'),
  };
}

function withAlpha(hex, alpha) {
  const v = parseInt(hex.slice(1), 16);
  return `rgba(${(v >> 16) & 255}, ${(v >> 8) & 255}, ${v & 255}, ${alpha.toFixed(3)})`;
}
