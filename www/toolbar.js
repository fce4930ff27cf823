// The top bar: help, compare mode, large text (projector), and the share/export menu (copy link,
// samples as CSV, the 2-D panel as PNG); a "Save PNG" button under every chart.

import { $, app } from './app.js';
import { guarded } from './errors.js';
import { rebuildCompare } from './chain.js';
import { scheduleUrlWrite } from './url-sync.js';
import { drawCharts } from './view.js';
import { requeueCharts } from './charts.js';

export function openHelp() {
  const dialog = $('help');
  if (!dialog.open) dialog.showModal();
}

export function applyLayout() {
  document.documentElement.classList.toggle('large-font', app.layout.font === 'large');
  $('large-font').setAttribute('aria-pressed', String(app.layout.font === 'large'));
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

export function wireToolbar() {
  addChartExports();
  $('help-open').addEventListener('click', openHelp);
  $('export-csv').addEventListener('click', () => {
    const csv = guarded(() => app.lab.samples_long_csv());
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
    requeueCharts();
    scheduleUrlWrite();
  });
}
