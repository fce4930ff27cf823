//! The page's SGAIS panel combines runs that Web Workers ran independently (one worker per
//! replica and per shift variant, each posting its [`ReplicaResult`]): per group (a variant) the
//! replicas' log Ẑ ± standard error and ESS explanation ([`summarise`]), the full-data AIS points,
//! the distribution-shift comparison ([`shift_summary`]) and both charts with change points; with
//! [`combine_with_nested`] also the nested-sampling baselines.

use super::charts::{annealing_chart, evidence_chart, CurveRun};
use super::nested::NestedResult;
use super::nested_page::{add_nested_points, combine_nested, NestedPoint};
use super::prefix::{prefix_check, PrefixCheck};
use super::replicas::{summarise, ReplicaResult, ReplicaSummary};
use super::shift::{shift_annealing_chart, shift_evidence_chart, shift_summary, ShiftSummary, ShiftVariant, VariantRecords};
use crate::plot::chart::ChartSpec;
use serde::{Deserialize, Serialize};

/// One worker's run as the page collected it.
#[derive(Clone, Debug, Deserialize)]
pub struct PageRun {
    /// The curve (variant) this run belongs to; replicas of one variant share it.
    pub label: String,
    /// Set for a full-data AIS baseline on the first `ais_n` data.
    #[serde(default)]
    pub ais_n: Option<usize>,
    #[serde(default)]
    pub variant: Option<ShiftVariant>,
    pub n_total: usize,
    pub result: ReplicaResult,
}

/// One variant's replicas combined.
#[derive(Clone, Debug, Serialize)]
pub struct GroupSummary {
    pub label: String,
    pub summary: ReplicaSummary,
    /// The replicas' agreement check on their log Ẑ so far, at the deepest checkpoint two or more
    /// have reached (src/sgais/prefix.rs): the spread and flag before the replicas finish.
    pub prefix: Option<PrefixCheck>,
}

/// Everything the panel shows.
#[derive(Clone, Debug, Serialize)]
pub struct PageSummary {
    pub groups: Vec<GroupSummary>,
    /// Full-data AIS baselines: (n, log Ẑ, seconds) of the finished ones.
    pub ais: Vec<(usize, f64, Option<f64>)>,
    pub shift: Option<ShiftSummary>,
    pub evidence: ChartSpec,
    pub annealing: ChartSpec,
    /// Nested-sampling baselines by data size ([`combine_with_nested`]; empty without them).
    pub ns: Vec<NestedPoint>,
    /// Which chunks the surprise rule gave extra work, per variant (replica 0), in one sentence;
    /// empty when it boosted none (src/sgais/surprise_note.rs).
    pub surprise_note: String,
}

/// The replica a variant's curves and gallery numbers come from: its furthest (most chunks; of
/// equals, the lowest index). A replica that has posted before its first chunk (a worker's progress
/// message, or one in flight when Stop was pressed) does not blank what another has drawn, and the
/// curves end where the table's data column says the runs reached. AIS baselines are not replicas.
pub fn shown_replica<'a>(runs: &'a [PageRun], label: &str) -> Option<&'a PageRun> {
    runs.iter().filter(|r| r.ais_n.is_none() && r.label == label).min_by_key(|r| (std::cmp::Reverse(r.result.records.len()), r.result.replica))
}

/// Combine the runs (any order, finished or not). Curves are drawn from each variant's [`shown_replica`].
pub fn combine(runs: &[PageRun]) -> PageSummary {
    let n_total = runs.iter().map(|r| r.n_total).max().unwrap_or(0);
    let mut labels: Vec<&str> = Vec::new();
    for r in runs.iter().filter(|r| r.ais_n.is_none()) {
        if !labels.contains(&r.label.as_str()) {
            labels.push(&r.label);
        }
    }
    let groups: Vec<GroupSummary> = labels
        .iter()
        .map(|label| {
            let results: Vec<ReplicaResult> = runs.iter().filter(|r| r.ais_n.is_none() && r.label == *label).map(|r| r.result.clone()).collect();
            GroupSummary { label: label.to_string(), summary: summarise(&results), prefix: prefix_check(&results) }
        })
        .collect();
    let shown_replica = |label: &str| shown_replica(runs, label);
    let ais: Vec<(usize, f64, Option<f64>)> = runs
        .iter()
        .filter(|r| r.ais_n.is_some() && r.result.status == super::run::RunStatus::Finished)
        .filter_map(|r| Some((r.result.records.last()?.n, r.result.log_z()?, r.result.seconds)))
        .collect();
    let shift_runs: Vec<VariantRecords> =
        labels.iter().filter_map(|l| shown_replica(l)).filter_map(|r| Some(VariantRecords { variant: r.variant?, records: r.result.records.clone() })).collect();
    let (evidence, annealing, shift) = if shift_runs.is_empty() {
        let curves: Vec<CurveRun> =
            labels.iter().enumerate().filter_map(|(k, l)| shown_replica(l).map(|r| CurveRun { label: l, colour: k, dashed: false, records: &r.result.records })).collect();
        let points: Vec<(usize, f64)> = ais.iter().map(|a| (a.0, a.1)).collect();
        (evidence_chart(&curves, &points, n_total, Vec::new()), annealing_chart(&curves, n_total, Vec::new()), None)
    } else {
        (shift_evidence_chart(&shift_runs, n_total), shift_annealing_chart(&shift_runs, n_total), Some(shift_summary(&shift_runs, n_total)))
    };
    let boosted: Vec<(&str, &[super::run::ChunkRecord])> = labels.iter().filter_map(|l| shown_replica(l).map(|r| (*l, &r.result.records[..]))).collect();
    let surprise_note = super::surprise_note::surprise_note(&boosted);
    PageSummary { groups, ais, shift, evidence, annealing, ns: Vec::new(), surprise_note }
}

/// [`combine`] plus the nested-sampling runs the workers posted: their points (± SE) on the
/// evidence chart and their numbers in the summary (src/sgais/nested_page.rs).
pub fn combine_with_nested(runs: &[PageRun], nested: &[NestedResult]) -> PageSummary {
    let mut summary = combine(runs);
    summary.ns = combine_nested(nested);
    let exact: Vec<(usize, f64)> = summary.groups.iter().flat_map(|g| g.summary.curve.iter().filter_map(|p| Some((p.n, p.exact_log_z?)))).collect();
    super::nested_page::with_exact(&mut summary.ns, &exact);
    add_nested_points(&mut summary.evidence, &summary.ns);
    summary
}
