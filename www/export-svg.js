// Vector export: every chart and the 2-D panel as SVG, drawn in Rust by plotters' SVG backend with
// the same drawing code as the canvases. `svgText(name)` backs `window.sgviz.svg(name)`; a
// "Save SVG" button sits beside every "Save PNG", and the share menu saves the panel as SVG.

import { $, app } from './app.js';
import { chart_json_svg } from './pkg/sgviz.js';
import { shownSpec } from './charts.js';
import { drawingScale } from './format.js';
import { showStatus } from './errors.js';

/** Chart name → the canvas that shows it, and where its drawing comes from. */
export const SVG_CHARTS = {
  marginal: { canvas: 'overlay-layer', source: 'panel' },
  trace: { canvas: 'chart-trace', source: 'lab', kind: 'trace' },
  autocorrelation: { canvas: 'chart-acf', source: 'lab', kind: 'acf' },
  noise: { canvas: 'chart-noise', source: 'worker', what: 'noise chart', hint: 'the analysis is still running' },
  bias: { canvas: 'chart-bias', source: 'worker', what: 'bias chart', hint: 'the analysis is still running' },
  tradeoff: { canvas: 'chart-sweep', source: 'worker', what: 'trade-off chart', hint: 'the analysis is still running' },
  // Before a run the evidence canvas shows only its "Press Start" sentence: nothing to save yet.
  sgais: { canvas: 'chart-evidence', source: 'worker', what: 'SGAIS evidence chart', hint: 'press "Start" in the SGAIS panel first', needsData: true },
};

/** Backing-pixel size of a canvas, or a 640 × 400 default while it is not laid out. */
function sizeOf(canvas) {
  return canvas && canvas.width > 0 && canvas.height > 0 ? [canvas.width, canvas.height] : [640, 400];
}

/** The SVG text of chart `name` (one of SVG_CHARTS); throws a readable Error when there is none. */
export function svgText(name) {
  const chart = SVG_CHARTS[name];
  if (!chart) throw new Error(`unknown chart '${name}'; allowed: ${Object.keys(SVG_CHARTS).join(', ')}`);
  if (!app.lab) throw new Error('the chain is still being built');
  const [width, height] = sizeOf($(chart.canvas));
  if (chart.source === 'panel') return app.lab.panel_svg();
  if (chart.source === 'lab') return app.lab.chart_svg(chart.kind, width, height);
  const spec = shownSpec(chart.canvas);
  if (!spec || (chart.needsData && JSON.parse(spec).series.length === 0)) throw new Error(`There is no ${chart.what} to save yet: ${chart.hint}.`);
  return chart_json_svg(spec, width, height, drawingScale());
}

function download(filename, text) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Save chart `name` as an SVG file, or say in the status line why it cannot be saved yet. */
function saveSvg(name) {
  try {
    download(`sgviz-${name}-${app.target}-${app.sampler}.svg`, svgText(name));
  } catch (error) {
    showStatus(error.message || String(error));
  }
}

/** "Save SVG" beside every "Save PNG" of a chart that has an SVG export, and "Save panel (SVG)". */
export function wireSvgExport() {
  const byCanvas = Object.fromEntries(Object.entries(SVG_CHARTS).map(([name, c]) => [c.canvas, name]));
  for (const figure of document.querySelectorAll('figure.chart')) {
    const canvas = figure.querySelector('canvas');
    const name = byCanvas[canvas?.id];
    const caption = figure.querySelector('figcaption');
    if (!name || !caption) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'svg';
    button.textContent = 'Save SVG';
    button.setAttribute('aria-label', `Save SVG: ${canvas.getAttribute('aria-label')}`);
    button.addEventListener('click', () => saveSvg(name));
    caption.append(button);
  }
  const panel = document.createElement('button');
  panel.id = 'export-svg';
  panel.type = 'button';
  panel.textContent = 'Save panel (SVG)';
  panel.addEventListener('click', () => saveSvg('marginal'));
  $('export-png').after(panel);
}
