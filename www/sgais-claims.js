// The SGAIS figures' claims (www/figures/sgais.js) as predicates over what the SGAIS panel shows:
// the combined replica summaries (sgais_combine_json), the gallery numbers (sgais_gallery_json,
// src/sgais/gallery.rs) and Fig. 1's shift data (src/sgais/shift_data.rs). Plain functions over
// plain data, tested on hand-made views by tests/e2e/sgais-claims.test.mjs.
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
//   sgais.ns_minus_ais           nested sampling's log Ẑ (mean over its replicas) minus full-data AIS's
//                                log Ẑ, both at the largest n where both ran (nats)
//   sgais.ns_se                  nested sampling's standard error √(Σ SE_r²)/R at the largest n (nats)
// A claim is ready once every run has finished, or, with `after_n`, once every group it reads has a
// replica that has processed that many data: the furthest replica, which the gallery's numbers come
// from (src/sgais/page.rs shown_replica).

const groupsOf = (claim) => (Array.isArray(claim.of) ? claim.of : claim.of ? [claim.of] : []);

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
    case 'sgais.ns_minus_ais': {
      const ns = combined?.ns || [];
      const both = ns.filter((p) => (combined?.ais || []).some(([n]) => n === p.n)).at(-1);
      return both ? both.log_z - combined.ais.find(([n]) => n === both.n)[1] : NaN;
    }
    case 'sgais.ns_se': return combined?.ns?.at(-1)?.log_z_se ?? NaN;
    default: throw new Error(`unknown SGAIS claim metric '${claim.metric}'`);
  }
}

/** Whether the runs a claim reads are far enough along for it to be judged. */
export function claimReady(claim, runs) {
  if (claim.metric === 'sgais.new_mass_fraction') return true;
  if (!runs.length) return false;
  if (claim.after_n === undefined) return runs.every((r) => r.done);
  return groupsOf(claim).every((label) => runs.some((r) => r.label === label && !r.spec.ais_n && (r.done || (r.result?.result.records.at(-1)?.n ?? 0) >= claim.after_n)));
}

