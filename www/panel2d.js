// The 2-D marginal panel: three stacked canvases. The static layer (axes, contours, truth
// ellipse) is drawn by Rust through plotters-canvas when the view changes; the density layer is
// an RGBA image rendered in Rust and blitted from wasm memory; the overlay holds the current
// point, the fading trail and the sampler's dashed 2σ ellipse.

const TRAIL_LENGTH = 40;

export class Panel2d {
  constructor(stack, memory) {
    this.stack = stack;
    this.memory = memory;
    this.staticCanvas = stack.querySelector('#static-layer');
    this.densityCanvas = stack.querySelector('#density-layer');
    this.overlayCanvas = stack.querySelector('#overlay-layer');
    this.colours = readColours();
  }

  /** Backing-store size in device pixels, and the device-pixel ratio. */
  size() {
    const ratio = Math.min(window.devicePixelRatio || 1, 3);
    const rect = this.stack.getBoundingClientRect();
    const side = Math.max(64, Math.round(Math.min(rect.width, rect.height || rect.width) * ratio));
    return { width: side, height: side, ratio };
  }

  /** Resize the canvases to the stack; returns true when the size changed. */
  fit() {
    const { width, height } = this.size();
    if (this.staticCanvas.width === width && this.staticCanvas.height === height) return false;
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

  drawOverlay(lab) {
    const ctx = this.overlayCanvas.getContext('2d');
    const ratio = this.size().ratio;
    ctx.clearRect(0, 0, this.overlayCanvas.width, this.overlayCanvas.height);
    this.drawEllipse(ctx, lab.sampler_ellipse(), ratio);
    this.drawTrail(ctx, lab.trail(TRAIL_LENGTH), ratio);
    const [x, y] = lab.position_pixel();
    if (Number.isFinite(x) && Number.isFinite(y)) {
      ctx.fillStyle = this.colours.point;
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 1.5 * ratio;
      ctx.beginPath();
      ctx.arc(x, y, 5 * ratio, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
  }

  drawEllipse(ctx, points, ratio) {
    if (points.length < 4) return;
    ctx.save();
    ctx.strokeStyle = this.colours.sampler;
    ctx.lineWidth = 2.5 * ratio;
    ctx.setLineDash([8 * ratio, 6 * ratio]);
    ctx.beginPath();
    ctx.moveTo(points[0], points[1]);
    for (let i = 2; i < points.length; i += 2) ctx.lineTo(points[i], points[i + 1]);
    ctx.stroke();
    ctx.restore();
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

function readColours() {
  const css = getComputedStyle(document.documentElement);
  const read = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  return { point: read('--point', '#e4572e'), sampler: read('--sampler', '#d1495b') };
}

function withAlpha(hex, alpha) {
  const v = parseInt(hex.slice(1), 16);
  return `rgba(${(v >> 16) & 255}, ${(v >> 8) & 255}, ${v & 255}, ${alpha.toFixed(3)})`;
}
