//! Distribution shift at the paper's scale (SGAIS paper §6.2, Fig. 5): the first 1,000 points come
//! from 3 Gaussian clusters, the next 9,000 from 5 (including the first 3), the last 90,000 from
//! 7; Gaussian mixtures with K = 3, 5 and 7 components are fitted online to the data in order and
//! to the same points shuffled (stationary). Every variant is an independent run (so the page can
//! give each its own worker); [`shift_summary`] then marks the change points and compares the
//! models by their evidence, in numbers and in a sentence built from those numbers.
//!
//! Measured at the global defaults (K = 10, lr = 0.02; seed 1, data seed 1; `sgviz evidence --target
//! gmm --set n_points=100000 --set scenario=shift|shift_shuffled --set n_components=K`): 13–32
//! CPU-seconds per variant natively, 136 s for all six. Final log Ẑ in order / shuffled: K = 3
//! −409,617 / −409,643, K = 5 −390,893 / −405,012, K = 7 −393,540 / −390,636. At the mixture's own
//! defaults (K = 20, lr = 0.1; docs/sgais.md §10), 35–73 CPU-seconds per variant: K = 5
//! −387,619.5 / −386,991.0 (628 nats apart), K = 7 −387,523.0 / −378,850.2 (8,673 nats apart; K = 3
//! not re-run). The orders still disagree for K = 5 and 7, the failure the paper's in-order/shuffled
//! check is for (tests/sgais_shift_orders.rs checks what the page then says).

use super::charts::{annealing_chart, change_point_markers, evidence_chart, CurveRun};
use super::models::EvidenceModel;
use super::format::join_and;
use super::replicas::group_digits;
use super::run::{ChunkRecord, SgaisRun};
use super::shift_verdict::{lead_doubts, verdict_sentence, ModelEstimate, KNOWN_IN_ORDER_LOSS};
use super::SgaisConfig;
use crate::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use crate::plot::chart::ChartSpec;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The paper's data size: 1,000 + 9,000 + 90,000 points.
pub const SHIFT_N: usize = 100_000;
/// The change points of the generator (`ClusterSchedule::Shift`) and what changes there.
pub const CHANGE_POINTS: [(usize, &str); 2] = [(1_000, "3 → 5 clusters"), (10_000, "5 → 7 clusters")];
/// The fitted model sizes of Fig. 5.
pub const COMPONENTS: [usize; 3] = [3, 5, 7];

/// One curve of Fig. 5: a K-component mixture on the data in order or shuffled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShiftVariant {
    pub components: usize,
    pub shuffled: bool,
}

impl ShiftVariant {
    pub fn label(&self) -> String {
        format!("K = {}, {}", self.components, order_name(self.shuffled))
    }
}

fn order_name(shuffled: bool) -> &'static str {
    if shuffled {
        "shuffled"
    } else {
        "in order"
    }
}

/// The six variants of Fig. 5: K = 3, 5, 7 in order, then K = 3, 5, 7 shuffled.
pub fn shift_variants() -> Vec<ShiftVariant> {
    [false, true].iter().flat_map(|&shuffled| COMPONENTS.iter().map(move |&components| ShiftVariant { components, shuffled })).collect()
}

/// The first `n` points of the shifting data (in order or shuffled; the same points either way)
/// and a `K`-component mixture over them (paper B.3 priors).
pub fn shift_model(variant: ShiftVariant, n: usize, data_seed: u64) -> Result<Arc<dyn EvidenceModel>, String> {
    let points = generate_cluster_data(n, ClusterSchedule::Shift { shuffled: variant.shuffled }, data_seed);
    Ok(Arc::new(GaussianMixture::new(2, variant.components, points)?))
}

/// An SGAIS run of one variant (drive it with `advance`, e.g. in its own worker).
pub fn shift_run(variant: ShiftVariant, config: &SgaisConfig, n: usize, data_seed: u64, seed: u64) -> Result<SgaisRun, String> {
    let model = shift_model(variant, n, data_seed)?;
    let n = model.n_data();
    Ok(SgaisRun::new(model, config.clone(), n, seed))
}

/// A variant's chunk records, as a worker posts them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantRecords {
    pub variant: ShiftVariant,
    pub records: Vec<ChunkRecord>,
}

/// Which model the evidence prefers, for one data order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelComparison {
    pub shuffled: bool,
    /// The last checkpoint every compared model reached.
    pub n: usize,
    /// K with the highest log Ẑ at `n`.
    pub winner: usize,
    /// The first checkpoint from which `winner` leads at every later common checkpoint.
    pub winner_from: usize,
    /// log Ẑ of every model at `n`, as (K, log Ẑ).
    pub log_z: Vec<(usize, f64)>,
    /// log Bayes factors of the winner over every other model at `n`, in nats: (K, log Ẑ_win − log Ẑ_K).
    pub log_bayes_factors: Vec<(usize, f64)>,
    /// Earlier leaders, in order: (K, last checkpoint at which it led).
    pub earlier_leaders: Vec<(usize, usize)>,
    /// How many checkpoints every compared model reached (the ones compared).
    pub checkpoints: usize,
    /// Models already past `n` while the runs arrive, as (K, their last checkpoint): the comparison
    /// is so far only (issue 26: mid-run it said "at every checkpoint" of one chunk).
    pub ahead: Vec<(usize, usize)>,
    /// Every model's estimate at `n` with what the page knows of its uncertainty (winner first).
    pub estimates: Vec<ModelEstimate>,
    /// `winner` leads beyond that uncertainty (src/sgais/shift_verdict.rs); else the sentence says why not.
    pub decided: bool,
    pub sentence: String,
}

/// Compare the models fitted to one data order (at least two K). None with fewer than two
/// models or no common checkpoint with finite estimates. `checks`: the in-order/shuffled check of
/// every K whose two orders have finished ([`shift_summary`]); a K without one is not yet checked,
/// and no model is said to lead over it (src/sgais/shift_verdict.rs).
pub fn compare_models(runs: &[&VariantRecords], checks: &[OrderAgreement]) -> Option<ModelComparison> {
    if runs.len() < 2 {
        return None;
    }
    let shuffled = runs[0].variant.shuffled;
    let mut sorted: Vec<&VariantRecords> = runs.to_vec();
    sorted.sort_by_key(|r| r.variant.components);
    let common: Vec<usize> = sorted[0].records.iter().map(|c| c.n).filter(|n| sorted.iter().all(|r| value_at(r, *n).is_some())).collect();
    let leaders: Vec<(usize, usize)> = common.iter().map(|&n| (n, leader_at(&sorted, n))).collect();
    let &(n, winner) = leaders.last()?;
    let first_of_final_run = leaders.iter().rposition(|&(_, k)| k != winner).map_or(0, |i| i + 1);
    let winner_from = leaders[first_of_final_run].0;
    let mut earlier_leaders: Vec<(usize, usize)> = Vec::new();
    for &(at, k) in &leaders[..first_of_final_run] {
        match earlier_leaders.last_mut() {
            Some(last) if last.0 == k => last.1 = at,
            _ => earlier_leaders.push((k, at)),
        }
    }
    let log_z: Vec<(usize, f64)> = sorted.iter().map(|r| (r.variant.components, value_at(r, n).expect("common checkpoint"))).collect();
    let best = log_z.iter().find(|(k, _)| *k == winner).expect("winner is compared").1;
    let log_bayes_factors: Vec<(usize, f64)> = log_z.iter().filter(|(k, _)| *k != winner).map(|&(k, z)| (k, best - z)).collect();
    let ahead: Vec<(usize, usize)> = sorted.iter().filter_map(|r| r.records.last().filter(|c| c.n > n).map(|c| (r.variant.components, c.n))).collect();
    let checkpoints = common.len();
    let mut estimates: Vec<ModelEstimate> = sorted.iter().map(|r| estimate_at(r, n, checks)).collect();
    estimates.sort_by_key(|e| e.components != winner);
    let decided = lead_doubts(&estimates[0], &estimates[1..]).is_empty();
    let mut comparison = ModelComparison { shuffled, n, winner, winner_from, log_z, log_bayes_factors, earlier_leaders, checkpoints, ahead, estimates, decided, sentence: String::new() };
    comparison.sentence = comparison_sentence(&comparison);
    Some(comparison)
}

/// A run's estimate at checkpoint `n` with its predicted sd, its orders' check and its known loss.
fn estimate_at(run: &VariantRecords, n: usize, checks: &[OrderAgreement]) -> ModelEstimate {
    let record = run.records.iter().find(|c| c.n == n).expect("common checkpoint");
    let k = run.variant.components;
    ModelEstimate {
        components: k,
        log_z: record.log_z,
        sd: record.log_z_var.max(0.0).sqrt(),
        orders_apart: checks.iter().find(|a| a.components == k).map(|a| a.difference.abs()),
        known_loss_from: known_loss(k, run.variant.shuffled, n),
    }
}

/// The change point from which K's run in this order is known to lose mass, if `n` is past it.
fn known_loss(components: usize, shuffled: bool, n: usize) -> Option<usize> {
    KNOWN_IN_ORDER_LOSS.iter().find(|&&(k, from)| !shuffled && k == components && n > from).map(|&(_, from)| from)
}

fn value_at(run: &VariantRecords, n: usize) -> Option<f64> {
    run.records.iter().find(|c| c.n == n).map(|c| c.log_z).filter(|z| z.is_finite())
}

/// K with the largest log Ẑ at `n` (the smaller K on a tie).
fn leader_at(sorted: &[&VariantRecords], n: usize) -> usize {
    let mut best = (sorted[0].variant.components, f64::NEG_INFINITY);
    for r in sorted {
        let z = value_at(r, n).expect("common checkpoint");
        if z > best.1 {
            best = (r.variant.components, z);
        }
    }
    best.0
}

/// E.g. "Data in order: K = 5 has the highest log Ẑ from n = 10,500 on; at n = 100,000 its estimated
/// log Bayes factor is 12.30 nats over K = 7 and 4,567.80 nats over K = 3. Before that, K = 3 was
/// highest until n = 1,000." While the runs arrive it says how far it compares and who is further
/// on: "Data in order, so far: K = 7 has the highest log Ẑ at the only checkpoint compared; at n =
/// 500 … K = 3 is already at n = 6,000 and K = 7 at n = 12,000; the comparison goes as far as every
/// run has reached." Then whether that is a lead (src/sgais/shift_verdict.rs): "K = 5 leads: …" or
/// "Which model leads is not decided: …".
pub fn comparison_sentence(c: &ModelComparison) -> String {
    let so_far = if c.ahead.is_empty() { "" } else { ", so far" };
    let order = if c.shuffled { format!("Shuffled data{so_far}") } else { format!("Data in order{so_far}") };
    let since = match (c.earlier_leaders.is_empty(), c.checkpoints) {
        (true, 1) => "at the only checkpoint compared".to_string(),
        (true, m) => format!("at all {m} checkpoints compared"),
        (false, _) => format!("from n = {} on", group_digits(c.winner_from as f64, 0)),
    };
    let factors: Vec<String> = c.log_bayes_factors.iter().map(|(k, bf)| format!("{} nats over K = {k}", group_digits(*bf, 2))).collect();
    let mut text = format!(
        "{order}: K = {} has the highest log Ẑ {since}; at n = {} its estimated log Bayes factor is {}.",
        c.winner,
        group_digits(c.n as f64, 0),
        join_and(&factors)
    );
    if !c.earlier_leaders.is_empty() {
        let before: Vec<String> = c.earlier_leaders.iter().map(|(k, until)| format!("K = {k} was highest until n = {}", group_digits(*until as f64, 0))).collect();
        text.push_str(&format!(" Before that, {}.", join_and(&before)));
    }
    if !c.ahead.is_empty() {
        let further: Vec<String> = c.ahead.iter().enumerate().map(|(i, (k, at))| format!("K = {k}{} at n = {}", if i == 0 { " is already" } else { "" }, group_digits(*at as f64, 0))).collect();
        text.push_str(&format!(" {}; the comparison goes as far as every run has reached.", join_and(&further)));
    }
    text.push(' ');
    text.push_str(&verdict_sentence(&c.estimates[0], &c.estimates[1..]));
    text
}

/// Final log Ẑ of one K in order and shuffled (the paper's check that the particles kept up with the
/// posterior in both orders).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrderAgreement {
    pub components: usize,
    pub n: usize,
    pub in_order: f64,
    pub shuffled: f64,
    /// in order − shuffled, nats.
    pub difference: f64,
    /// |difference| ≤ [`agreement_threshold`]`(n)`.
    pub agree: bool,
}

/// Largest in-order/shuffled difference taken as agreement: max(10, n/1,000) nats. Independent
/// replicas on unimodal posteriors spread by ≲ 1 nat up to n = 10⁵ (tests/sgais_defaults.rs), so a
/// larger gap is not sampling noise: the particles missed a mode in one of the orders.
pub fn agreement_threshold(n: usize) -> f64 {
    (n as f64 / 1_000.0).max(10.0)
}

/// Everything the page shows under the Fig. 5 charts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShiftSummary {
    /// (n, what changes) for every change point within the data.
    pub change_points: Vec<(usize, String)>,
    pub comparisons: Vec<ModelComparison>,
    pub agreement: Vec<OrderAgreement>,
    /// Each K's higher final log Ẑ of the two orders (missing a mode only lowers log Ẑ), as
    /// (K, log Ẑ), when both orders ran.
    pub best_of_orders: Vec<(usize, f64)>,
    /// The comparisons' sentences and the agreement, one paragraph each (joined by newlines).
    pub sentence: String,
}

/// Change points at or below `n_total`.
pub fn change_points(n_total: usize) -> Vec<(usize, String)> {
    CHANGE_POINTS.iter().filter(|(n, _)| *n < n_total).map(|(n, label)| (*n, label.to_string())).collect()
}

/// Compare the models per data order and the orders per model.
pub fn shift_summary(runs: &[VariantRecords], n_total: usize) -> ShiftSummary {
    let agreement: Vec<OrderAgreement> = COMPONENTS
        .iter()
        .filter_map(|&k| {
            let find = |shuffled: bool| runs.iter().find(|r| r.variant == ShiftVariant { components: k, shuffled });
            let (a, b) = (find(false)?, find(true)?);
            let (last_a, last_b) = (a.records.last()?, b.records.last()?);
            let difference = last_a.log_z - last_b.log_z;
            // Only once both orders have seen all the data: before that they hold different subsets
            // (the first 1,000 in order come from 3 clusters), whose evidences differ by design.
            (last_a.n == n_total && last_b.n == n_total && difference.is_finite()).then_some(OrderAgreement {
                components: k,
                n: last_a.n,
                in_order: last_a.log_z,
                shuffled: last_b.log_z,
                difference,
                agree: difference.abs() <= agreement_threshold(last_a.n),
            })
        })
        .collect();
    let comparisons: Vec<ModelComparison> = [false, true]
        .iter()
        .filter_map(|&shuffled| compare_models(&runs.iter().filter(|r| r.variant.shuffled == shuffled).collect::<Vec<_>>(), &agreement))
        .collect();
    let best_of_orders: Vec<(usize, f64)> = agreement.iter().map(|a| (a.components, a.in_order.max(a.shuffled))).collect();
    // Each K's higher estimate as the verdict reads it: that run's sd, its orders' difference, and
    // the known loss when the in-order run is the higher one.
    let best_estimates: Vec<ModelEstimate> = agreement
        .iter()
        .filter_map(|a| {
            let shuffled = a.shuffled > a.in_order;
            let run = runs.iter().find(|r| r.variant == ShiftVariant { components: a.components, shuffled })?;
            Some(estimate_at(run, a.n, &agreement))
        })
        .collect();
    let mut parts: Vec<String> = comparisons.iter().map(|c| c.sentence.clone()).collect();
    if !agreement.is_empty() {
        parts.push(agreement_sentence(&agreement, &best_estimates));
    }
    // One paragraph per part (in order, shuffled, the orders' check), so that a lecturer finds each
    // on screen (#sgais-comparison keeps the line breaks).
    ShiftSummary { change_points: change_points(n_total), comparisons, agreement, best_of_orders, sentence: parts.join("\n") }
}

/// The paper's in-order/shuffled check in words, and the comparison over each K's higher estimate.
fn agreement_sentence(agreement: &[OrderAgreement], best: &[ModelEstimate]) -> String {
    let n = agreement[0].n;
    let diffs: Vec<String> = agreement.iter().map(|a| format!("{} nats for K = {}", group_digits(a.difference, 2), a.components)).collect();
    let mut text = format!("Final log Ẑ in order minus shuffled at n = {}: {}.", group_digits(n as f64, 0), join_and(&diffs));
    let apart: Vec<String> = agreement.iter().filter(|a| !a.agree).map(|a| format!("K = {}", a.components)).collect();
    if !apart.is_empty() {
        text.push_str(&format!(
            " They disagree for {} by more than {} nats: in one of the orders the particles did not keep up with the posterior (new clusters far from every particle), so the evidence increments computed then were too low (paper §6.2); missing posterior mass lowers log Ẑ, so the higher estimate is the better one.",
            join_and(&apart),
            group_digits(agreement_threshold(n), 0)
        ));
    }
    // Said plainly where the loss is known (docs/sgais.md §9): not left to the general explanation.
    for a in agreement.iter().filter(|a| !a.agree && a.in_order < a.shuffled) {
        if let Some(from) = known_loss(a.components, false, a.n) {
            text.push_str(&format!(
                " For K = {} this loss is known: its in-order particles fall behind where the last clusters arrive (n = {}; docs/sgais.md §9), which this method does not yet fix.",
                a.components,
                group_digits(from as f64, 0)
            ));
        }
    }
    if best.len() >= 2 {
        let winner = best.iter().fold(&best[0], |a, b| if b.log_z > a.log_z { b } else { a });
        let others: Vec<ModelEstimate> = best.iter().filter(|e| e.components != winner.components).cloned().collect();
        let factors: Vec<String> = others.iter().map(|e| format!("{} nats over K = {}", group_digits(winner.log_z - e.log_z, 2), e.components)).collect();
        text.push_str(&format!(
            " Taking each K's higher estimate, K = {} has the highest log Ẑ; its estimated log Bayes factor is {}. {}",
            winner.components,
            join_and(&factors),
            verdict_sentence(winner, &others)
        ));
    }
    text
}

/// Palette index of a K (the same colour in order and shuffled; shuffled is dashed).
fn colour_of(components: usize) -> usize {
    COMPONENTS.iter().position(|&k| k == components).unwrap_or(components)
}

fn curve_runs<'a>(runs: &'a [VariantRecords], labels: &'a [String]) -> Vec<CurveRun<'a>> {
    runs.iter()
        .zip(labels)
        .map(|(r, label)| CurveRun { label, colour: colour_of(r.variant.components), dashed: r.variant.shuffled, records: &r.records })
        .collect()
}

/// Fig. 5a: log Ẑ/n per variant (solid in order, dashed shuffled) with the change points marked.
pub fn shift_evidence_chart(runs: &[VariantRecords], n_total: usize) -> ChartSpec {
    let labels: Vec<String> = runs.iter().map(|r| r.variant.label()).collect();
    evidence_chart(&curve_runs(runs, &labels), &[], n_total, change_point_markers(&change_points(n_total)))
}

/// Fig. 5b: annealing steps per chunk with the change points marked.
pub fn shift_annealing_chart(runs: &[VariantRecords], n_total: usize) -> ChartSpec {
    let labels: Vec<String> = runs.iter().map(|r| r.variant.label()).collect();
    annealing_chart(&curve_runs(runs, &labels), n_total, change_point_markers(&change_points(n_total)))
}
