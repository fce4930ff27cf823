//! The figures gallery's SGAIS charts and numbers (issue 27; docs/sgais.md §11):
//! the run-cost chart of the paper's panels (b) — Fig. 2b–4b, 6b–8b and A3 plot run time against
//! the data set size; here the cost is counted in per-datum likelihood-and-gradient evaluations,
//! which wall time is proportional to and which does not depend on the machine's load — and, per
//! variant, the numbers the figures' claims read: annealing steps (total and per chunk), cost, and
//! the annealing-step spike after a change point (Fig. 5b). Nested sampling, when the figure runs it,
//! joins the cost chart beside SGAIS and AIS ([`gallery_with_nested`]): its per-datum evaluations
//! and wall time per data size, the mean over its replicas.

use super::charts::{annealing_chart, CurveRun, AIS_COLOUR};
use super::nested::NestedResult;
use super::nested_page::{combine_nested, NS_COLOUR};
use super::page::PageRun;
use super::run::{ChunkRecord, RunStatus};
use super::shift_data::PHASE_STARTS;
use crate::plot::chart::{ChartSpec, Series, Style, PALETTE};
use serde::Serialize;

/// Chunks before a change point whose median annealing steps are the level a spike is measured against.
pub const SPIKE_WINDOW: usize = 5;

/// One variant's numbers (from its replica 0, the run its curves are drawn from).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GalleryGroup {
    pub label: String,
    /// Data processed (the last finished chunk's end).
    pub n: usize,
    pub chunks: usize,
    pub annealing_steps: usize,
    /// Annealing steps per chunk, mean over the chunks.
    pub steps_per_chunk: f64,
    /// Per-datum evaluations up to `n`.
    pub datum_evals: u64,
    pub finished: bool,
    /// `(change point, spike ratio)` for the change points of shift data (Fig. 5b), where defined.
    pub spikes: Vec<(usize, f64)>,
}

/// A full-data AIS baseline's cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AisCost {
    pub n: usize,
    pub log_z: f64,
    pub datum_evals: u64,
}

/// Nested sampling's cost at one data size: the mean over its finished replicas
/// ([`combine_nested`]), with its log Ẑ ± SE for the claims.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NestedCost {
    pub n: usize,
    pub replicas: usize,
    pub log_z: f64,
    pub log_z_se: f64,
    pub datum_evals: f64,
    /// Mean wall seconds per replica (measured by the worker).
    pub seconds: Option<f64>,
}

/// Everything the gallery adds to the SGAIS panel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gallery {
    pub groups: Vec<GalleryGroup>,
    pub ais: Vec<AisCost>,
    /// Nested sampling by data size (empty unless the figure runs it).
    pub ns: Vec<NestedCost>,
    pub cost: ChartSpec,
    /// The annealing steps per chunk on log–log axes (paper Fig. 6c–8c): the first chunks, annealed
    /// in from the prior, need ten to a hundred times the steps of the later ones, which a linear
    /// axis flattens to zero.
    pub annealing_log: ChartSpec,
}

/// The numbers of one run's chunk records; `changes` are the data's change points (none when stationary).
pub fn group_numbers(label: &str, records: &[ChunkRecord], finished: bool, changes: &[usize]) -> GalleryGroup {
    let annealing_steps: usize = records.iter().map(|r| r.annealing_steps).sum();
    let chunks = records.len();
    GalleryGroup {
        label: label.to_string(),
        n: records.last().map_or(0, |r| r.n),
        chunks,
        annealing_steps,
        steps_per_chunk: if chunks > 0 { annealing_steps as f64 / chunks as f64 } else { 0.0 },
        datum_evals: records.last().map_or(0, |r| r.datum_evals),
        finished,
        spikes: changes.iter().filter_map(|&c| Some((c, spike_ratio(records, c, usize::MAX)?))).collect(),
    }
}

/// (SGAIS.11): annealing steps of the first chunk with data after `change` over the median steps of the last
/// [`SPIKE_WINDOW`] chunks that end at or before it (the run's first chunk, annealed in from the
/// prior, excluded; a median of 0 counts as 1). None until that chunk is in or without 2 chunks to
/// compare with. Only records with n ≤ `upto` count, so that the number does not depend on how far
/// the run has gone when it is read.
pub fn spike_ratio(records: &[ChunkRecord], change: usize, upto: usize) -> Option<f64> {
    let seen: Vec<&ChunkRecord> = records.iter().filter(|r| r.n <= upto).collect();
    let after = seen.iter().find(|r| r.n > change)?;
    let before: Vec<f64> = seen.iter().skip(1).filter(|r| r.n <= change).map(|r| r.annealing_steps as f64).collect();
    if before.len() < 2 {
        return None;
    }
    let level = median(&before[before.len().saturating_sub(SPIKE_WINDOW)..]).max(1.0);
    Some(after.annealing_steps as f64 / level)
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    }
}

/// Cost against data seen on log–log axes: each run's cumulative per-datum evaluations at the end
/// of every chunk, and the full-data AIS baselines `(n, evaluations)` as points.
pub fn cost_chart(runs: &[CurveRun], ais: &[(usize, u64)]) -> ChartSpec {
    let mut series: Vec<Series> = runs
        .iter()
        .map(|r| {
            let points = r.records.iter().filter(|c| c.datum_evals > 0).map(|c| (c.n as f64, c.datum_evals as f64)).collect();
            Series::new(r.label, points, PALETTE[r.colour % PALETTE.len()], if r.dashed { Style::Dashed } else { Style::Line })
        })
        .collect();
    let points: Vec<(f64, f64)> = ais.iter().filter(|(n, e)| *n > 0 && *e > 0).map(|(n, e)| (*n as f64, *e as f64)).collect();
    if !points.is_empty() {
        series.push(Series::new("AIS (full data, one run per n)", points, AIS_COLOUR, Style::Points));
    }
    ChartSpec {
        title: "Run cost as the data arrive (∝ run time)".into(),
        x_label: "data seen n".into(),
        y_label: "per-datum evaluations".into(),
        log_x: true,
        log_y: true,
        series,
        ..Default::default()
    }
}

/// The gallery's numbers and cost chart from the runs the page collected (any order, finished or not).
pub fn gallery(runs: &[PageRun]) -> Gallery {
    let mut labels: Vec<&str> = Vec::new();
    for r in runs.iter().filter(|r| r.ais_n.is_none()) {
        if !labels.contains(&r.label.as_str()) {
            labels.push(&r.label);
        }
    }
    let first: Vec<&PageRun> =
        labels.iter().filter_map(|l| runs.iter().filter(|r| r.ais_n.is_none() && r.label == *l).min_by_key(|r| r.result.replica)).collect();
    let groups = first
        .iter()
        .map(|r| {
            let changes: &[usize] = if r.variant.is_some_and(|v| !v.shuffled) { &PHASE_STARTS[1..] } else { &[] };
            group_numbers(&r.label, &r.result.records, r.result.status == RunStatus::Finished, changes)
        })
        .collect();
    let ais: Vec<AisCost> = runs
        .iter()
        .filter(|r| r.ais_n.is_some() && r.result.status == RunStatus::Finished)
        .filter_map(|r| {
            let last = r.result.records.last()?;
            Some(AisCost { n: last.n, log_z: last.log_z, datum_evals: last.datum_evals })
        })
        .collect();
    let curves: Vec<CurveRun> = first
        .iter()
        .enumerate()
        .map(|(k, r)| CurveRun { label: &r.label, colour: k, dashed: r.variant.is_some_and(|v| v.shuffled), records: &r.result.records })
        .collect();
    let cost = cost_chart(&curves, &ais.iter().map(|a| (a.n, a.datum_evals)).collect::<Vec<_>>());
    let n_total = runs.iter().map(|r| r.n_total).max().unwrap_or(0);
    let annealing_log = ChartSpec { log_x: true, log_y: true, x_range: None, ..annealing_chart(&curves, n_total, Vec::new()) };
    Gallery { groups, ais, ns: Vec::new(), cost, annealing_log }
}

/// [`gallery`] plus the nested-sampling runs the workers posted: their cost per data size in
/// `ns` and as points on the cost chart, beside the AIS points.
pub fn gallery_with_nested(runs: &[PageRun], nested: &[NestedResult]) -> Gallery {
    let mut g = gallery(runs);
    g.ns = combine_nested(nested)
        .into_iter()
        .map(|p| NestedCost { n: p.n, replicas: p.finished, log_z: p.log_z, log_z_se: p.log_z_se, datum_evals: p.datum_evals, seconds: p.seconds })
        .collect();
    add_nested_cost(&mut g.cost, &g.ns);
    g
}

/// Nested sampling's points `(n, per-datum evaluations)` on the cost chart (sizes with evaluations only).
pub fn add_nested_cost(chart: &mut ChartSpec, ns: &[NestedCost]) {
    let points: Vec<(f64, f64)> = ns.iter().filter(|c| c.n > 0 && c.datum_evals > 0.0).map(|c| (c.n as f64, c.datum_evals)).collect();
    if !points.is_empty() {
        chart.series.push(Series::new("nested sampling (full data, mean per replica)", points, NS_COLOUR, Style::Points));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgais::replicas::ReplicaResult;

    fn record(n: usize, annealing_steps: usize, datum_evals: u64) -> ChunkRecord {
        ChunkRecord {
            n,
            log_z: -(n as f64),
            exact_log_z: None,
            annealing_steps,
            ess: 10.0,
            min_step_ess: 5.0,
            datum_evals,
            learning_rate: 1e-3,
            noise_ratio: 0.0,
            log_z_var: 0.0,
            boosted: false,
        }
    }

    /// The K = 3 in-order run of the shift data (CLI, n = 12,000, seed 1): steps per chunk.
    fn shift_records() -> Vec<ChunkRecord> {
        [19, 36, 9, 5, 3, 3, 2, 2, 2, 2, 6, 5].iter().enumerate().map(|(k, &s)| record(1000 * (k + 1), s, 0)).collect()
    }

    #[test]
    fn the_spike_is_the_first_chunk_after_the_change_over_the_median_of_the_five_before() {
        let records = shift_records();
        // Before 10,000 (first chunk excluded): the last five are 3, 2, 2, 2, 2 → median 2; after: 6.
        assert_eq!(spike_ratio(&records, 10_000, 12_000), Some(3.0));
        // Only the first chunk lies before 1,000: nothing to compare with.
        assert_eq!(spike_ratio(&records, 1_000, 12_000), None);
        // The chunk after the change is not in yet.
        assert_eq!(spike_ratio(&records, 10_000, 10_999), None);
        // Four chunks before 5,000 (36, 9, 5, 3): median (5 + 9)/2 = 7; after: 3.
        assert_eq!(spike_ratio(&records, 5_000, 12_000), Some(3.0 / 7.0));
        // A level of 0 steps counts as 1.
        let flat: Vec<ChunkRecord> = [4, 0, 0, 0, 5].iter().enumerate().map(|(k, &s)| record(10 * (k + 1), s, 0)).collect();
        assert_eq!(spike_ratio(&flat, 40, 50), Some(5.0));
    }

    #[test]
    fn group_numbers_add_the_chunks_up() {
        let records = vec![record(500, 7, 1_000), record(1000, 2, 3_000), record(1500, 3, 6_500)];
        let g = group_numbers("ESS* = 5", &records, true, &[]);
        assert_eq!((g.n, g.chunks, g.annealing_steps, g.datum_evals), (1500, 3, 12, 6_500));
        assert!((g.steps_per_chunk - 4.0).abs() < 1e-12);
        let empty = group_numbers("none", &[], false, &[]);
        let shift = group_numbers("K = 3, in order", &shift_records(), true, &[1_000, 10_000]);
        assert_eq!(shift.spikes, vec![(10_000, 3.0)]);
        assert_eq!((empty.n, empty.chunks, empty.steps_per_chunk), (0, 0, 0.0));
    }

    #[test]
    fn the_cost_chart_plots_the_cumulative_evaluations_and_the_ais_points_on_log_axes() {
        let records = vec![record(500, 7, 1_000), record(1000, 2, 3_000)];
        let run = CurveRun { label: "SGAIS", colour: 0, dashed: false, records: &records };
        let spec = cost_chart(&[run], &[(1000, 40_000), (0, 5)]);
        assert!(spec.log_x && spec.log_y);
        assert_eq!(spec.series[0].points, vec![(500.0, 1_000.0), (1000.0, 3_000.0)]);
        // n = 0 cannot be drawn on a log axis and is left out.
        assert_eq!(spec.series[1].points, vec![(1000.0, 40_000.0)]);
        assert_eq!(spec.series[1].style, Style::Points);
    }

    fn page_run(label: &str, replica: usize, ais_n: Option<usize>, records: Vec<ChunkRecord>, status: RunStatus) -> PageRun {
        let datum_evals = records.last().map_or(0, |r| r.datum_evals);
        PageRun {
            label: label.into(),
            ais_n,
            variant: None,
            n_total: 1000,
            result: ReplicaResult { replica, seed: 1, particles: 10, records, status, datum_evals, seconds: None },
        }
    }

    #[test]
    fn the_gallery_reads_replica_0_of_each_variant_and_the_finished_ais_runs() {
        let runs = vec![
            page_run("lr = 1", 1, None, vec![record(1000, 99, 99)], RunStatus::Finished),
            page_run("lr = 1", 0, None, vec![record(500, 3, 10), record(1000, 4, 20)], RunStatus::Finished),
            page_run("lr = 0.1", 0, None, vec![record(500, 5, 30)], RunStatus::Running),
            page_run("AIS", 0, Some(500), vec![record(500, 12, 700)], RunStatus::Finished),
            page_run("AIS", 0, Some(1000), vec![record(1000, 12, 900)], RunStatus::Running),
        ];
        let g = gallery(&runs);
        let labels: Vec<&str> = g.groups.iter().map(|x| x.label.as_str()).collect();
        assert_eq!(labels, ["lr = 1", "lr = 0.1"]);
        assert_eq!((g.groups[0].annealing_steps, g.groups[0].datum_evals, g.groups[0].finished), (7, 20, true));
        assert_eq!((g.groups[1].n, g.groups[1].finished), (500, false));
        assert_eq!(g.ais, vec![AisCost { n: 500, log_z: -500.0, datum_evals: 700 }]);
        assert_eq!(g.cost.series.len(), 3);
        assert!(g.annealing_log.log_x && g.annealing_log.log_y);
        assert_eq!(g.annealing_log.series[0].points, vec![(500.0, 3.0), (1000.0, 4.0)]);
    }

    fn nested(n: usize, datum_evals: u64, seconds: f64, finished: bool) -> NestedResult {
        NestedResult { seed: 1, live_points: 25, n, log_z: -(n as f64), log_z_se: 1.0, information: 25.0, iterations: 10, log_volume: -1.0, datum_evals, finished, problem: None, seconds: Some(seconds) }
    }

    /// Hand-worked: two finished replicas at n = 1,000 (6,000 and 10,000 evaluations, 2 s and 4 s)
    /// give one point at 8,000 evaluations and 3 s; an unfinished run at n = 500 gives none.
    #[test]
    fn nested_sampling_joins_the_cost_chart_as_the_mean_over_its_finished_replicas() {
        let runs = vec![page_run("SGAIS", 0, None, vec![record(500, 3, 10), record(1000, 4, 20)], RunStatus::Finished), page_run("AIS", 0, Some(1000), vec![record(1000, 12, 900)], RunStatus::Finished)];
        let g = gallery_with_nested(&runs, &[nested(1000, 6_000, 2.0, true), nested(500, 99, 1.0, false), nested(1000, 10_000, 4.0, true)]);
        assert_eq!(g.ns.len(), 1);
        assert_eq!((g.ns[0].n, g.ns[0].replicas, g.ns[0].datum_evals, g.ns[0].seconds), (1000, 2, 8_000.0, Some(3.0)));
        let series = g.cost.series.last().unwrap();
        assert_eq!((series.points.clone(), series.colour, series.style), (vec![(1000.0, 8_000.0)], NS_COLOUR, Style::Points));
        assert_eq!(g.cost.series.len(), 3, "SGAIS, AIS and NS");
        assert!(gallery_with_nested(&runs, &[]).ns.is_empty() && gallery_with_nested(&runs, &[]).cost.series.len() == 2);
    }
}
