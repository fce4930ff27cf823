//! The split/merge move of src/sgais/reseed_split.rs (docs/sgais.md (SGAIS.24)–(SGAIS.25)) leaves
//! the annealed target f^(λ)(θ) = p(C | θ)^λ p(H | θ) p(θ) invariant, tested on the move alone,
//! apart from SGAIS, with the oracle of tests/sgais_reseed_weight.rs: importance sampling from the
//! prior with a likelihood written here (not the model's `log_lik`), paired changes of five
//! statistics after three moves, each within 5 standard errors of 0 (delta method). K = 3, 1-D
//! data, 6 history points in two clusters (−2, +0.5) and 5 chunk points near +3; λ = 0 and ½.
//!
//! `a_wrong_jacobian_or_fraction_density_fails_the_invariance_check` runs the same check with the
//! Jacobian (1 − t')/(1 − t) (the split's w_j ↦ w_j (1 − u) read as a factor of the move) and
//! without q's densities of the weight fraction t, and requires each to fail (numbers in
//! docs/sgais.md §10, "A split/merge move").

#[path = "common/paired.rs"]
mod paired;
#[path = "common/mixture_1d.rs"]
mod mixture_1d;
use mixture_1d::{assert_check_sees, assert_invariant, log_lik, statistics, CHUNK, HISTORY, K};
use sgviz::model::gmm::GaussianMixture;
use sgviz::rng::chain_rng;
use sgviz::sgais::reseed::ReseedProposal;
use sgviz::sgais::reseed_split::{split_merge_move, SplitAcceptance};

/// Per statistic (the weighted mean change under three moves accepted as `how` says, its SE), and
/// the share accepted; without `history` the target is p(C | θ)^λ p(θ).
fn paired_change(lambda: f64, history: bool, draws: usize, seed: u64, how: SplitAcceptance) -> ([(f64, f64); 5], f64) {
    let points: Vec<f64> = HISTORY.iter().chain(&CHUNK).copied().collect();
    let model = GaussianMixture::new(1, K, points).unwrap();
    let (start, c) = (HISTORY.len(), HISTORY.len() + CHUNK.len());
    let h = if history { start } else { 0 };
    let q = ReseedProposal::new(&model, start..c);
    let mut rng = chain_rng(seed);
    let (mut log_w, mut change, mut accepted) = (Vec::with_capacity(draws), Vec::with_capacity(draws), 0);
    for _ in 0..draws {
        let mut theta = model.sample_prior(&mut rng);
        let before = statistics(&theta);
        log_w.push(lambda * CHUNK.iter().map(|&y| log_lik(y, &theta)).sum::<f64>() + HISTORY[..h].iter().map(|&y| log_lik(y, &theta)).sum::<f64>());
        for _ in 0..3 {
            accepted += split_merge_move(&q, lambda, h, how, &mut theta, &mut rng).accepted as usize;
        }
        let after = statistics(&theta);
        change.push([0, 1, 2, 3, 4].map(|s| after[s] - before[s]));
    }
    (paired::weighted_mean_changes(&log_w, &change), accepted as f64 / (draws as f64 * 3.0))
}

#[test]
fn the_split_merge_move_leaves_the_annealed_target_invariant() {
    for (lambda, history, seed) in [(0.5, true, 31), (0.0, false, 32)] {
        let (changes, acceptance) = paired_change(lambda, history, 100_000, seed, SplitAcceptance::Exact);
        assert_invariant(&format!("λ = {lambda}, history {history}"), &changes, acceptance);
    }
}

/// The check has the power to see a wrong acceptance: with the Jacobian (1 − t')/(1 − t), or without
/// the weight fraction's proposal densities, some statistic moves by more than 5 SE (the draws of
/// the exact check above on the prior, λ = 0 without history, every importance weight equal).
#[test]
fn a_wrong_jacobian_or_fraction_density_fails_the_invariance_check() {
    for how in [SplitAcceptance::WrongJacobian, SplitAcceptance::NoFractionDensity] {
        let (changes, _) = paired_change(0.0, false, 100_000, 32, how);
        assert_check_sees(&format!("{how:?}"), &changes);
    }
}
