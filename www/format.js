// Number formatting shared by the controls and the statistics panel.

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/**
 * A number with `digits` significant digits as a lecturer reads it aloud (issue 26): thousands
 * separated from 1,000 up ("5,000", "100,000", "12,300"), plain decimals down to 10⁻⁴ ("0.000923"), and
 * "9.23·10⁻⁵" (a centred dot and a superscript exponent, never "e-5") beyond those.
 */
export function formatNumber(x, digits = 3) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  if (x === 0) return '0';
  const magnitude = Math.abs(Number(x.toPrecision(digits))); // rounded first: 0.00009999… is 0.0001
  if (magnitude >= 1e15 || magnitude < 1e-4) return formatPower(x, digits);
  const rounded = Number(x.toPrecision(digits));
  if (Math.abs(rounded) >= 1e3) {
    // Separated, keeping the `digits` significant digits ("-2,865.51" at 6 digits, "12,300" at 3).
    const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(rounded))));
    return rounded.toLocaleString('en-US', { maximumFractionDigits: decimals });
  }
  return rounded.toString();
}

/** `x` with `digits` significant digits as a power of ten: "9.23·10⁻⁵", "6.84·10⁸". */
export function formatPower(x, digits = 3) {
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  const power = String(Number(exponent)).replace(/./g, (c) => SUPERSCRIPT[c]);
  return `${Number(mantissa)}·10${power}`;
}

/** A count with thousands separators. */
export function formatCount(n) {
  return Number(n).toLocaleString('en-US');
}

/** Backing-store pixels per CSS pixel for canvases (the device-pixel ratio, at most 3). */
export function pixelRatio() {
  return Math.min(window.devicePixelRatio || 1, 3);
}

/** The page's text size relative to the browser default (1.5 in large-text projector mode). */
export function textScale() {
  const size = parseFloat(getComputedStyle(document.documentElement).fontSize);
  return Number.isFinite(size) && size > 0 ? size / 16 : 1;
}

/** Smallest legibility factor of canvas text: the charts' 12 px base text drawn at 16 px. */
const MIN_CANVAS_TEXT_FACTOR = 4 / 3;
/** Largest factor (a figure filling a projector). */
const MAX_CANVAS_TEXT_FACTOR = 2;
/**
 * Smallest factor in present mode (www/present.js): the charts' 12 px base text drawn at 24 px
 * (issue 26: chart text at least 24 px on a projector; a 700 px chart beside the plot drew 16 px).
 */
const PRESENT_CANVAS_TEXT_FACTOR = 2;
/** CSS width at which a canvas's text starts to grow beyond the smallest factor (issue 26). */
const CANVAS_TEXT_WIDTH = 600;

/**
 * How much larger than its base size a canvas draws its text at a CSS width of `cssWidth`: at
 * least 4/3 (16 px from the charts' 12 px base, legible from the back of a room), growing with the
 * canvas so that a large figure on a projector has proportionally large labels.
 */
export function canvasTextFactor(cssWidth = 0) {
  if (document.documentElement.classList.contains('present')) return PRESENT_CANVAS_TEXT_FACTOR;
  return Math.min(MAX_CANVAS_TEXT_FACTOR, Math.max(MIN_CANVAS_TEXT_FACTOR, cssWidth / CANVAS_TEXT_WIDTH));
}

/**
 * Scale of plot text, margins and lines in backing-store pixels for a canvas `cssWidth` CSS pixels
 * wide: the device-pixel ratio times the page's text size (labels grow with "Large text" as the
 * HTML does) times the canvas's legibility factor.
 */
export function drawingScale(cssWidth = 0) {
  return pixelRatio() * textScale() * canvasTextFactor(cssWidth);
}

/** Give a canvas a backing store of its CSS size times the pixel ratio; false when too small to draw. */
export function fitCanvas(canvas) {
  const ratio = pixelRatio();
  const width = Math.round(canvas.clientWidth * ratio);
  const height = Math.round(canvas.clientHeight * ratio);
  if (width < 32 || height < 32) return false;
  if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
  return true;
}

/**
 * The core's refusal "sampler 'sbps' cannot run on target 'logreg_dd': …" (src/chain/mod.rs) with
 * the menus' labels from `registry` instead of internal ids (review s42 item 3); its reason names
 * the slider that fixes it.
 */
export function withLabels(text, registry) {
  const label = (kind, name) => registry?.[kind]?.find((e) => e.name === name)?.label || `this ${kind === 'samplers' ? 'sampler' : 'target'}`;
  return text.replace(/sampler '([^']+)' cannot run on target '([^']+)'/, (_, sampler, target) => `${label('samplers', sampler)} cannot run on ${label('targets', target)} at these settings`);
}
