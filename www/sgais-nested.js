// Nested sampling in the SGAIS panel (issue 22): the runs the panel starts when "Nested sampling
// baseline" is ticked — one `nested` worker job per replica and data size, each replica with its own
// seed (src/sgais/nested_page.rs) — and their rows in the panel's table, from the combined
// `ns` points (log Ẑ ± √(Σ SE²)/R, wall time, per-datum evaluations).

import { formatCount, formatNumber } from './format.js';

/** Per-datum evaluations compactly ("333 M"), for the table's last column. */
export const formatEvals = (x) => (Number.isFinite(x) ? (x >= 1e6 ? `${Number((x / 1e6).toPrecision(3)).toLocaleString('en-US')} M` : formatCount(Math.round(x))) : '—');

/** Row label of the nested-sampling runs on the first `n` data. */
export const nestedLabel = (n) => `NS, full data n = ${formatCount(n)}`;

/** One run per replica and data size, with the SGAIS runs' target and settings. */
export function nestedRuns(target, settings, sizes, replicas) {
  return [...sizes].flatMap((n) => Array.from({ length: replicas }, (_, replica) => ({
    label: nestedLabel(n),
    ns: true,
    spec: { target, settings, seed: 1, replica, ns_n: n },
  })));
}

/** Table rows of the combined nested-sampling points; `cell(text)` makes a td. */
export function nestedRows(points, cell) {
  return (points || []).map((p) => {
    const tr = document.createElement('tr');
    tr.className = 'sgais-ns-row';
    const problems = p.problems.length ? ` (${p.problems.length} stopped early)` : '';
    tr.append(cell(`${nestedLabel(p.n)} (${p.finished}/${p.replicas} replicas)${problems}`), cell(formatCount(p.n)),
      cell(`${formatNumber(p.log_z, 6)} ± ${formatNumber(p.log_z_se)}`), cell(p.exact_log_z == null ? '—' : formatNumber(p.exact_log_z, 6)), cell('—'), cell('—'),
      cell(p.seconds === null ? '—' : formatNumber(p.seconds)), cell(formatEvals(p.datum_evals)));
    return tr;
  });
}
