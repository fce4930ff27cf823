// The figures gallery's SGAIS side (issue 27): registers each SGAIS figure's runs (`runs` in
// www/figures/sgais.js) as a preset of the SGAIS panel, draws the figure's own chart beside the
// evidence charts — the run cost against data seen (panels (b) of the paper's figures,
// src/sgais/gallery.rs) or, for Fig. 1, the shift data by phase (src/sgais/shift_data.rs) — and
// shows the figure's claims with live marks, read from what the panel shows.
//
// Claims are `{metric, of, op, value, label, after_n}`; `of` names a run group (a variant's label,
// e.g. 'ESS* = 8') or two, [a, b], for a ratio a / b. Metrics:
//   sgais.error                  |mean log Ẑ − exact log Z| of group `of` over its finished replicas (nats)
//   sgais.ais_gap                |log Ẑ of `of` − full-data AIS log Ẑ at the largest n| / |AIS log Ẑ|
//   sgais.ais_cost_ratio         per-datum evaluations of full-data AIS at the largest n over those of
//                                `of` up to that n (the speed-up counted in work, not seconds)
//   sgais.steps_per_chunk        annealing steps per chunk of `of`
//   sgais.steps_ratio            total annealing steps of a over b
//   sgais.steps_per_chunk_ratio  annealing steps per chunk of a over b
//   sgais.cost_ratio             per-datum evaluations of a over b
//   sgais.error_ratio            sgais.error of a over b
//   sgais.spike                  annealing steps of `of`'s first chunk after change point `at` over
//                                the median of the 5 chunks before it (gallery.rs spike_ratio)
//   sgais.new_mass_fraction      Fig. 1: share of the last phase's points in cells the first left empty
// A claim is ready once every run has finished, or, with `after_n`, once replica 0 of every group it
// reads has processed that many data.

import { sgais_gallery_json, sgais_shift_data_json } from './pkg/sgviz.js';
import { SGAIS_PRESETS } from './sgais.js';
import { SGAIS_FIGURES } from './figures/sgais.js';
import { holds, describe } from './claims.js';
import { queueChart } from './charts.js';
import { formatNumber } from './format.js';

const $ = (id) => document.getElementById(id);
/** Points of each phase drawn in Fig. 1 (all 100,000 would hide the small first phase). */
const SHOWN_PER_PHASE = 600;

const groupsOf = (claim) => (Array.isArray(claim.of) ? claim.of : claim.of ? [claim.of] : []);

/** Register the figures' runs as SGAIS panel presets (by their `sgais` name). */
export function registerFigureRuns() {
  for (const f of SGAIS_FIGURES) if (f.runs) SGAIS_PRESETS[f.sgais] = f.runs;
}

/** The value of an SGAIS claim's metric in what the panel shows (NaN when not known yet). */
export function measureSgais(claim, view) {
  const { combined, gallery, data } = view;
  const summaryOf = (label) => combined?.groups.find((g) => g.label === label)?.summary;
  const numbersOf = (label) => gallery?.groups.find((g) => g.label === label);
  const error = (label) => Math.abs(summaryOf(label)?.error?.mean ?? NaN);
  const largestAis = () => (gallery?.ais || []).reduce((a, b) => (!a || b.n > a.n ? b : a), null);
  const [a, b] = groupsOf(claim);
  switch (claim.metric) {
    case 'sgais.error': return error(a);
    case 'sgais.ais_gap': {
      const ais = largestAis();
      const logZ = summaryOf(a)?.log_z?.mean;
      return ais && logZ !== undefined ? Math.abs(logZ - ais.log_z) / Math.abs(ais.log_z) : NaN;
    }
    case 'sgais.ais_cost_ratio': {
      const ais = largestAis();
      const g = numbersOf(a);
      return ais && g && g.n >= ais.n ? ais.datum_evals / g.datum_evals : NaN;
    }
    case 'sgais.steps_per_chunk': return numbersOf(a)?.steps_per_chunk ?? NaN;
    case 'sgais.steps_ratio': return (numbersOf(a)?.annealing_steps ?? NaN) / (numbersOf(b)?.annealing_steps ?? NaN);
    case 'sgais.steps_per_chunk_ratio': return (numbersOf(a)?.steps_per_chunk ?? NaN) / (numbersOf(b)?.steps_per_chunk ?? NaN);
    case 'sgais.cost_ratio': return (numbersOf(a)?.datum_evals ?? NaN) / (numbersOf(b)?.datum_evals ?? NaN);
    case 'sgais.error_ratio': return error(a) / error(b);
    case 'sgais.spike': return (numbersOf(a)?.spikes || []).find(([at]) => at === claim.at)?.[1] ?? NaN;
    case 'sgais.new_mass_fraction': return data?.new_mass_fraction ?? NaN;
    default: throw new Error(`unknown SGAIS claim metric '${claim.metric}'`);
  }
}

/** Whether the runs a claim reads are far enough along for it to be judged. */
function claimReady(claim, runs) {
  if (claim.metric === 'sgais.new_mass_fraction') return true;
  if (!runs.length) return false;
  if (claim.after_n === undefined) return runs.every((r) => r.done);
  return groupsOf(claim).every((label) => {
    const first = runs.find((r) => r.label === label && !r.spec.ais_n && r.spec.replica === 0);
    return Boolean(first?.done || (first?.result?.result.records.at(-1)?.n ?? 0) >= claim.after_n);
  });
}

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
    panel.afterDraw = (reported) => this.update(reported);
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
    $('preset-note').after(this.list);
    if (this.figure.sgaisChart === 'data') {
      const values = SGAIS_PRESETS[this.figure.sgais].values;
      this.data = this.guarded(() => JSON.parse(sgais_shift_data_json(values.n_points, 1, false, SHOWN_PER_PHASE)));
      if (this.data) queueChart('chart-sgais-figure', JSON.stringify(this.data.chart));
    } else {
      queueChart('chart-sgais-figure', null);
    }
    this.showClaims();
  }

  /** After the panel combined its runs: the gallery numbers, the cost chart, the claims' marks. */
  update(reported) {
    if (!this.figure || this.panel.loadedPreset !== this.figure.sgais) {
      if (this.figure && this.panel.loadedPreset === null) this.show(null);
      return;
    }
    const gallery = this.guarded(() => JSON.parse(sgais_gallery_json(JSON.stringify(reported))));
    if (!gallery) return;
    this.panel.gallery = gallery;
    if (this.figure.sgaisChart !== 'data') queueChart('chart-sgais-figure', JSON.stringify(gallery.cost));
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
