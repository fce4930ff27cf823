// Number formatting shared by the controls and the statistics panel.

/** A number with `digits` significant digits; exponent form when very large or small. */
export function formatNumber(x, digits = 3) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  if (x === 0) return '0';
  const magnitude = Math.abs(x);
  if (magnitude >= 1e5 || magnitude < 1e-3) return x.toExponential(digits - 1);
  return Number(x.toPrecision(digits)).toString();
}

/** A count with thousands separators. */
export function formatCount(n) {
  return Number(n).toLocaleString('en-US');
}

/**
 * Backing-store pixels per CSS pixel for canvases: the device-pixel ratio, times 1.5 in
 * large-text (projector) mode so plot labels and lines grow with the page's text.
 */
export function drawingScale() {
  const large = document.documentElement.classList.contains('large-font');
  return Math.min(window.devicePixelRatio || 1, 3) * (large ? 1.5 : 1);
}
