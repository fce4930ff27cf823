// Embed mode (issue 24): `index.html?embed=<figure>#…state…` shows one figure filling its frame
// (an <iframe> in slides or course notes), playing, with Play/Pause, Reset and an "open in sgviz"
// link carrying the same state. Nothing else of the page is shown; nothing traps the focus (Tab
// leaves the frame after the link); canvases keep their devicePixelRatio backing (format.js).

import { $ } from './app.js';

/** Figure name → the element that shows it (the 2-D panel's canvas stack, or a chart's canvas). */
export const EMBED_FIGURES = {
  marginal: 'stack',
  trace: 'chart-trace',
  autocorrelation: 'chart-acf',
  noise: 'chart-noise',
  bias: 'chart-bias',
  tradeoff: 'chart-sweep',
  sgais: 'chart-evidence',
};

/** The `embed` query parameter, or null when the page is not embedded. */
export function embedRequest() {
  return new URLSearchParams(location.search).get('embed');
}

/** The full page with the same state (the embed parameter dropped, the state hash kept). */
export function openUrl() {
  const params = new URLSearchParams(location.search);
  params.delete('embed');
  const query = params.toString();
  return `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
}

/** The `<iframe>` snippet that embeds `figure` with the current state (the Share menu copies it). */
export function embedCode(figure = 'marginal') {
  const url = new URL(location.href);
  url.searchParams.set('embed', figure);
  return `<iframe src="${url.href.replace(/"/g, '&quot;')}" width="800" height="450" style="border:0" title="sgviz: ${figure}" loading="lazy"></iframe>`;
}

/**
 * Turn the page into one figure when embedded; returns the figure's name or null. Called before
 * the page is built, so every size read afterwards is the embedded one.
 */
export function setUpEmbed() {
  const request = embedRequest();
  if (request === null) return null;
  const known = Object.hasOwn(EMBED_FIGURES, request);
  const figure = known ? request : 'marginal';
  document.documentElement.classList.add('embed');
  document.documentElement.dataset.embed = figure;
  const root = document.createElement('div');
  root.id = 'embed-root';
  const host = document.createElement('div');
  host.className = 'embed-figure';
  const shown = $(EMBED_FIGURES[figure]);
  // A chart moves with its <figure> (other modules find the canvas there); its caption is hidden.
  host.append(figure === 'marginal' ? shown : shown.closest('figure'));
  const bar = document.createElement('div');
  bar.className = 'embed-bar';
  const link = document.createElement('a');
  link.id = 'embed-open';
  link.target = '_blank';
  link.rel = 'noopener';
  link.textContent = 'open in sgviz ↗';
  const refresh = () => { link.href = openUrl(); };
  for (const event of ['focus', 'pointerenter', 'click']) link.addEventListener(event, refresh);
  window.addEventListener('hashchange', refresh);
  refresh();
  bar.append($('play'), $('reset'));
  if (!known) {
    const notice = document.createElement('span');
    notice.className = 'embed-notice';
    notice.textContent = `Unknown figure "${request}" in the embed link; showing marginal (allowed: ${Object.keys(EMBED_FIGURES).join(', ')}).`;
    bar.append(notice);
  }
  bar.append(link);
  root.append($('banner'), host, bar);
  document.body.append(root);
  return figure;
}

/** Keep the link's state current (the page rewrites its hash as the state changes). */
export function refreshEmbedLink() {
  const link = document.getElementById('embed-open');
  if (link) link.href = openUrl();
}

/** "Copy embed code" in the Share menu: the <iframe> snippet of the 2-D panel with this state. */
export function wireEmbedCode() {
  const button = document.createElement('button');
  button.id = 'copy-embed';
  button.type = 'button';
  button.textContent = 'Copy embed code';
  button.addEventListener('click', async () => {
    const code = embedCode('marginal');
    try {
      await navigator.clipboard.writeText(code);
      $('status').textContent = 'Embed code copied: paste it into your slides or notes (?embed= also takes trace, autocorrelation, noise, bias, tradeoff, sgais).';
    } catch {
      $('status').textContent = `Copy this embed code: ${code}`;
    }
  });
  $('copy-link').after(button);
}
