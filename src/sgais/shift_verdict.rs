//! Whether one model of the distribution-shift comparison leads (issue 26, stop 53; docs/sgais.md
//! §9, "Which model leads, in words"). A lecturer reads the sentence under the evidence chart aloud,
//! so it names a model as leading only when its lead over every other model exceeds what the page
//! itself shows of the estimates' uncertainty:
//!
//! - the standard errors the runs' own weights predict (`ChunkRecord::log_z_var`, docs/sgais.md
//!   §14): a gap within [`Z99`] combined standard errors, Z99·√(sd_a² + sd_b²), is noise;
//! - the paper's in-order/shuffled check (§6.2): the two orders of one model estimate the same
//!   log p(y) at n = N, so |in order − shuffled| is an error of at least that size in one of them;
//!   a gap is taken as a lead only beyond noise plus both models' differences;
//! - a model whose other order has not finished is not yet checked: no verdict about it;
//! - K = 7's in-order run is known to lose posterior mass where the last two clusters arrive
//!   ([`KNOWN_IN_ORDER_LOSS`]): a gap over it from there on is not a verdict (its log Ẑ is too low).
//!
//! On the lecture preset (N = 12,000, M = 25) the orders differ by 1,057 / 1,624 / 1,568 nats for
//! K = 3 / 5 / 7 and the models' gaps are 515–3,303 nats (examples/shift_lecture.rs), so the page
//! says which gaps are decided and which are not, and why.

use super::format::{group_digits, join_and};
use serde::{Deserialize, Serialize};

/// Two-sided 99 % point of the normal law, the level of the replicas' agreement check
/// (src/sgais/agreement.rs, χ² at 99 %).
pub const Z99: f64 = 2.576;

/// (K, n): the K-component mixture's in-order run is known to lose posterior mass from the change
/// point at n on (docs/sgais.md §9 and §15; `K7_KNOWN_DISAGREEMENT` in tests/sgais_shift_agreement.rs).
pub const KNOWN_IN_ORDER_LOSS: [(usize, usize); 1] = [(7, 10_000)];

/// What the page knows of one model's estimate at the compared checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelEstimate {
    pub components: usize,
    pub log_z: f64,
    /// √ of the variance its weights predict.
    pub sd: f64,
    /// |in order − shuffled| at N once both orders have finished, else None.
    pub orders_apart: Option<f64>,
    /// The change point from which this run is known to lose posterior mass, when the compared
    /// checkpoint is past it.
    pub known_loss_from: Option<usize>,
}

/// Why the leader's gap over one other model is not a lead.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Doubt {
    /// The gap over `other` is within Z99 combined standard errors (`noise`).
    Noise { other: usize, gap: f64, noise: f64 },
    /// The orders of these models differ by `apart` (K, nats), more than the gap over `other` minus the noise.
    Orders { other: usize, gap: f64, apart: Vec<(usize, f64)> },
    /// These models' other order has not finished: their check is still to come.
    Unchecked { components: Vec<usize> },
    /// `other`, behind, is known to lose posterior mass from n = `from` on.
    KnownLoss { other: usize, from: usize },
}

/// The doubts about `winner`'s lead over each of `others` (empty: it leads).
pub fn lead_doubts(winner: &ModelEstimate, others: &[ModelEstimate]) -> Vec<Doubt> {
    let mut doubts = Vec::new();
    let mut unchecked: Vec<usize> = std::iter::once(winner).chain(others).filter(|e| e.orders_apart.is_none()).map(|e| e.components).collect();
    unchecked.sort_unstable();
    for other in others {
        let gap = winner.log_z - other.log_z;
        let noise = Z99 * (winner.sd * winner.sd + other.sd * other.sd).sqrt();
        let apart: Vec<(usize, f64)> = [winner, other].iter().filter_map(|e| e.orders_apart.filter(|d| *d > 0.0).map(|d| (e.components, d))).collect();
        if gap <= noise {
            doubts.push(Doubt::Noise { other: other.components, gap, noise });
        } else if gap <= noise + apart.iter().map(|(_, d)| d).sum::<f64>() {
            doubts.push(Doubt::Orders { other: other.components, gap, apart });
        }
        if let Some(from) = other.known_loss_from {
            doubts.push(Doubt::KnownLoss { other: other.components, from });
        }
    }
    if !unchecked.is_empty() {
        doubts.push(Doubt::Unchecked { components: unchecked });
    }
    doubts
}

fn k_list(ks: &[usize]) -> String {
    join_and(&ks.iter().map(|k| format!("K = {k}")).collect::<Vec<_>>())
}

fn nats(x: f64) -> String {
    format!("{} nats", group_digits(x, 2))
}

fn doubt_text(winner: usize, doubt: &Doubt) -> String {
    match doubt {
        Doubt::Noise { other, gap, noise } => format!("its gap over K = {other} ({}) is within {Z99} combined standard errors ({})", nats(*gap), nats(*noise)),
        Doubt::Orders { other, gap, apart } => {
            let diffs: Vec<String> = apart.iter().map(|(k, d)| format!("{} for K = {k}", nats(*d))).collect();
            let together = if apart.len() > 1 { "together " } else { "" };
            format!("the in-order and shuffled runs disagree by {}, {together}more than its gap over K = {other} ({})", join_and(&diffs), nats(*gap))
        }
        Doubt::Unchecked { components } => {
            let (is, them, runs) = if components.len() == 1 { ("is", "its", "that run has") } else { ("are", "their", "those runs have") };
            format!("{} {is} not yet checked against {them} other order ({runs} not finished)", k_list(components))
        }
        Doubt::KnownLoss { other, from } => format!(
            "K = {other}'s in-order run is known to lose posterior mass where the last clusters arrive (n = {}; docs/sgais.md §9), so its log Ẑ from there on is too low and K = {winner}'s gap over it is no verdict",
            group_digits(*from as f64, 0)
        ),
    }
}

/// Several `Doubt::Orders` in one clause: every model's difference once, then the gaps.
fn orders_text(orders: &[&Doubt]) -> String {
    let mut apart: Vec<(usize, f64)> = Vec::new();
    let mut gaps: Vec<String> = Vec::new();
    for d in orders {
        if let Doubt::Orders { other, gap, apart: pairs } = d {
            gaps.push(format!("K = {other} ({})", nats(*gap)));
            for &(k, x) in pairs {
                if !apart.iter().any(|(j, _)| *j == k) {
                    apart.push((k, x));
                }
            }
        }
    }
    apart.sort_by_key(|(k, _)| *k);
    let diffs: Vec<String> = apart.iter().map(|(k, d)| format!("{} for K = {k}", nats(*d))).collect();
    format!("the in-order and shuffled runs disagree by {}, and its gaps over {} are each less than the two models' differences added", join_and(&diffs), join_and(&gaps))
}

/// The verdict in words: "K = 5 leads: …" or "Which model leads is not decided: …; …."
pub fn verdict_sentence(winner: &ModelEstimate, others: &[ModelEstimate]) -> String {
    let doubts = lead_doubts(winner, others);
    let k = winner.components;
    if doubts.is_empty() {
        return format!("K = {k} leads: its gap over every other model is beyond {Z99} combined standard errors plus the in-order/shuffled differences.");
    }
    let orders: Vec<&Doubt> = doubts.iter().filter(|d| matches!(d, Doubt::Orders { .. })).collect();
    // Several gaps undone by the orders' differences: one clause naming each difference once.
    let reasons: Vec<String> = if orders.len() > 1 {
        let first = doubts.iter().position(|d| matches!(d, Doubt::Orders { .. })).expect("an Orders doubt");
        let mut reasons: Vec<String> = doubts.iter().filter(|d| !matches!(d, Doubt::Orders { .. })).map(|d| doubt_text(k, d)).collect();
        reasons.insert(first.min(reasons.len()), orders_text(&orders));
        reasons
    } else {
        doubts.iter().map(|d| doubt_text(k, d)).collect()
    };
    let doubted = |o: usize| doubts.iter().any(|d| matches!(d, Doubt::Noise { other, .. } | Doubt::Orders { other, .. } | Doubt::KnownLoss { other, .. } if *other == o));
    let clear: Vec<usize> = others.iter().map(|e| e.components).filter(|&o| !doubted(o)).collect();
    let mut text = format!("Which model leads is not decided: {}.", reasons.join("; "));
    let checked = !doubts.iter().any(|d| matches!(d, Doubt::Unchecked { .. }));
    if checked && !clear.is_empty() {
        text.push_str(&format!(" K = {k}'s gap over {} is beyond that uncertainty.", k_list(&clear)));
    }
    text
}
