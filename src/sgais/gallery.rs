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

/// One variant's numbers, from the replica its curves are drawn from (`page::shown_replica`: the
/// furthest; once all finish, replica 0).
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
    let shown: Vec<&PageRun> = labels.iter().filter_map(|l| super::page::shown_replica(runs, l)).collect();
    let groups = shown
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
    let curves: Vec<CurveRun> = shown
        .iter()
        .enumerate()
        .map(|(k, r)| CurveRun { label: &r.label, colour: k, dashed: r.variant.is_some_and(|v| v.shuffled), records: &r.result.records })
        .collect();
    let mut cost = cost_chart(&common_part(&curves, &shown), &ais.iter().map(|a| (a.n, a.datum_evals)).collect::<Vec<_>>());
    if let Some(common) = common_n(&shown) {
        cost.title = format!("Run cost as the data arrive (∝ run time), up to n = {}, which every run drawn has reached", super::format::group_digits(common as f64, 0));
    }
    let n_total = runs.iter().map(|r| r.n_total).max().unwrap_or(0);
    let annealing_log = ChartSpec { log_x: true, log_y: true, x_range: None, ..annealing_chart(&curves, n_total, Vec::new()) };
    Gallery { groups, ais, ns: Vec::new(), cost, annealing_log }
}

/// While any run is unfinished (running, or stopped mid-run), the data size every drawn run (one
/// with a chunk) has reached: the cost chart compares the runs up to there (issue 26: after a
/// mid-run Stop it drew ESS* = 2 far above ESS* = 1, one run ended at a larger n than the
/// other). None once all have finished.
fn common_n(first: &[&PageRun]) -> Option<usize> {
    let ends = first.iter().filter_map(|r| r.result.records.last().map(|c| c.n));
    first.iter().any(|r| r.result.status != RunStatus::Finished).then(|| ends.min()).flatten()
}

/// The curves cut at [`common_n`] (all of them while every run has finished).
fn common_part<'a>(curves: &[CurveRun<'a>], first: &[&PageRun]) -> Vec<CurveRun<'a>> {
    let common = common_n(first).unwrap_or(usize::MAX);
    curves.iter().map(|c| CurveRun { records: &c.records[..c.records.partition_point(|r| r.n <= common)], ..*c }).collect()
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
