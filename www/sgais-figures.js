// The figures gallery's SGAIS side (issue 27): registers each SGAIS figure's runs (`runs` in
// www/figures/sgais.js) as a preset of the SGAIS panel, draws the figure's own chart beside the
// evidence charts — the run cost against data seen (panels (b) of the paper's figures, with nested
// sampling's points beside SGAIS's curve and AIS's points when the figure runs it; src/sgais/gallery.rs) or, for Fig. 1, the shift data by phase (src/sgais/shift_data.rs) — and
// shows the figure's claims with live marks, read from what the panel shows.
//
// Claims and their metrics: www/sgais-claims.js.

import { sgais_gallery_ns_json, sgais_shift_data_json } from './pkg/sgviz.js';
import { SGAIS_PRESETS } from './sgais-plan.js';
import { holds, describe } from './claims.js';
import { claimReady, measureSgais } from './sgais-claims.js';
import { queueChart } from './charts.js';
import { formatNumber } from './format.js';

const $ = (id) => document.getElementById(id);
/** Points of each phase drawn in Fig. 1 (all 100,000 would hide the small first phase). */
export const SHOWN_PER_PHASE = 600;

export { registerFigureRuns } from './sgais-plan.js';

/** A chart spec that is only its sentence (src/plot/chart/note.rs draws it without a frame). */
const noteSpec = (title) => JSON.stringify({ title, x_label: '', y_label: '', log_x: false, log_y: false, series: [], markers: [] });

/** The figure side of the SGAIS panel: its chart and claims for the loaded SGAIS figure. */
export class SgaisFigures {
  constructor(panel, guarded) {
    this.panel = panel;
    this.guarded = guarded;
    this.figure = null;
    this.data = null;
    this.list = document.createElement('ul');
    this.list.id = 'sgais-claims';
    this.list.className = 'lesson-claims sgais-claims';
    this.list.hidden = true;
    panel.afterDraw = (reported, nested) => this.update(reported, nested);
    panel.beforeChunk = (running) => this.showWaiting(running);
  }

  /** Show `preset`'s chart and claims when it is an SGAIS figure; hide them otherwise. */
  show(preset) {
    this.figure = preset?.sgais && (preset.claims || preset.sgaisChart) ? preset : null;
    this.panel.gallery = null;
    this.data = null;
    const holder = $('chart-sgais-figure').closest('figure');
    holder.hidden = !this.figure;
    this.list.hidden = !this.figure?.claims?.length;
    if (!this.figure) return;
    // Inside the lesson's box under its claims when a lesson step loaded the figure (present mode's
    // slide shows that box; after the page's preset note the list sat above the slide in small
    // type, stop 46's screenshot), after the preset note otherwise.
    if ($('lesson').hidden) $('preset-note').after(this.list);
    else $('lesson-claims').after(this.list);
    if (this.figure.sgaisChart === 'data') {
      const values = SGAIS_PRESETS[this.figure.sgais].values;
      this.data = this.guarded(() => JSON.parse(sgais_shift_data_json(values.n_points, 1, false, SHOWN_PER_PHASE)));
      if (this.data) queueChart('chart-sgais-figure', JSON.stringify(this.data.chart));
    } else {
      // A lesson's next step on the same runs keeps them (www/preset-loader.js): redraw from them
      // at the next tick (issue 26: sgais step 2's third chart was an empty card after "Finished
      // in 38.4 s"); the chart they drew stays meanwhile. New runs: until their first chunk the
      // card says what fills it (issue 26: an empty white box beside the two cards that said so,
      // stop 41's 1280×720 screenshots).
      const kept = this.panel.loadedPreset === this.figure.sgais && this.panel.runs.some((r) => r.result && !r.ns);
      if (kept) this.panel.dirty = true;
      else this.showWaiting(true);
    }
    this.showClaims();
  }

  /**
   * The cost chart before the runs' first chunk: a sentence saying what comes (`running`) or which
   * button fills it, as the panel's two charts do (www/sgais.js `showWaitingForChunk`).
   */
  showWaiting(running) {
    if (!this.figure || this.figure.sgaisChart === 'data') return;
    const what = 'the run cost against the data seen';
    queueChart('chart-sgais-figure', noteSpec(running ? `Running: ${what} appears here once the first chunk of data is in.` : `Press Start (or a Preset button above) to draw ${what}.`));
  }

  /**
   * After the panel combined its runs: the gallery numbers, the cost chart (with nested sampling's
   * points when the figure runs it), the claims' marks.
   */
  update(reported, nested = []) {
    if (!this.figure || this.panel.loadedPreset !== this.figure.sgais) {
      if (this.figure && this.panel.loadedPreset === null) this.show(null);
      return;
    }
    const gallery = this.guarded(() => JSON.parse(sgais_gallery_ns_json(JSON.stringify(reported), JSON.stringify(nested))));
    if (!gallery) return;
    this.panel.gallery = gallery;
    if (this.figure.sgaisChart !== 'data') queueChart('chart-sgais-figure', JSON.stringify(gallery.cost));
    // Replaces the panel's linear chart queued in the same draw (the later spec wins).
    if (this.figure.annealingLog) queueChart('chart-annealing', JSON.stringify(gallery.annealing_log));
    this.showClaims();
  }

  /** The claims with their current values, marked once ready (`data-ok` as in the lesson panel). */
  showClaims() {
    const claims = this.figure?.claims || [];
    const view = { combined: this.panel.combined, gallery: this.panel.gallery, data: this.data };
    this.list.replaceChildren(...claims.map((claim) => {
      const value = measureSgais(claim, view);
      // Until the panel runs this figure's runs, the runs it holds are another figure's.
      const ready = (claim.metric === 'sgais.new_mass_fraction' || this.panel.loadedPreset === this.figure.sgais) && claimReady(claim, this.panel.runs);
      const ok = ready && holds(claim, value);
      const li = document.createElement('li');
      const now = Number.isFinite(value) ? ` (now ${formatNumber(value)})` : '';
      li.textContent = `${describe(claim)}${now}${ready ? (ok ? ' ✓' : ' ✗') : ' — when the runs are in'}`;
      li.dataset.ok = String(ok);
      li.dataset.ready = String(ready);
      return li;
    }));
  }
}
