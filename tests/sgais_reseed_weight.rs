//! The weight-changing re-seeding move of src/sgais/reseed_weight.rs (docs/sgais.md
//! (SGAIS.21)–(SGAIS.22)) leaves the annealed target f^(λ)(θ) = p(C | θ)^λ p(H | θ) p(θ) invariant,
//! tested on the move alone, apart from SGAIS.
//!
//! Oracle: importance sampling from the prior, with the likelihood written here from the layout of
//! docs/sgais.md §8 (not the model's `log_lik`). θ_i from the prior (the model's sampler, checked
//! against its density in src/model/gmm.rs) with weights w_i ∝ p(C | θ_i)^λ p(H | θ_i) represent f;
//! if the kernel P leaves f invariant, the same weights on P³θ_i represent f too. Paired:
//! d_i = w_i (g(P³θ_i) − g(θ_i)), mean d / mean w within 5 standard errors (delta method,
//! sd(d)/(√n mean w)) of 0 for five statistics (the move picks its component uniformly, so a fixed
//! label is a fair statistic): β_0², the largest weight, whether component 0's mean is within 1 of
//! the chunk's cluster, its mean and its log-variance (clipped to [−10, 10] against the prior's
//! heavy tails). K = 3 so that the Jacobian ((1 − β')/(1 − β))^(K−2) is not 1; 1-D data, 6 history
//! points in two clusters (−2, +0.5) and 5 chunk points near +3; λ = 0 and ½.
//!
//! `a_wrong_jacobian_exponent_fails_the_invariance_check` runs the same check with the exponent
//! K − 1 and K − 3 in place of K − 2 and requires it to fail (numbers in docs/sgais.md §10, "A move
//! that re-weights").

#[path = "common/paired.rs"]
mod paired;
#[path = "common/mixture_1d.rs"]
mod mixture_1d;
use mixture_1d::{assert_check_sees, assert_invariant, log_lik, statistics, CHUNK, HISTORY, K};
use sgviz::model::gmm::GaussianMixture;
use sgviz::rng::chain_rng;
use sgviz::sgais::reseed::ReseedProposal;
use sgviz::sgais::reseed_weight::{reseed_weight_move, reseed_with_weight, WeightMove};

/// Per statistic (the weighted mean change under `moves` moves, its SE), and the share accepted;
/// `how` None is the move itself, Some(w) the move as `w` says (choice bias, Jacobian); without
/// `history` the target is p(C | θ)^λ p(θ) (at λ = 0 the prior itself, every weight equal).
fn paired_change(lambda: f64, history: bool, draws: usize, moves: usize, seed: u64, how: Option<WeightMove>) -> ([(f64, f64); 5], f64) {
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
        for _ in 0..moves {
            let outcome = match how {
                None => reseed_with_weight(&q, lambda, h, &mut theta, &mut rng),
                Some(w) => reseed_weight_move(&q, lambda, h, w, &mut theta, &mut rng),
            };
            accepted += outcome.accepted as usize;
        }
        let after = statistics(&theta);
        change.push([0, 1, 2, 3, 4].map(|s| after[s] - before[s]));
    }
    let per_statistic = paired::weighted_mean_changes(&log_w, &change);
    (per_statistic, accepted as f64 / (draws as f64 * moves as f64))
}

#[test]
fn the_weight_changing_move_leaves_the_annealed_target_invariant() {
    for (lambda, history, seed) in [(0.0, true, 21), (0.5, true, 22), (0.0, false, 23)] {
        let (changes, acceptance) = paired_change(lambda, history, 100_000, 3, seed, None);
        assert_invariant(&format!("λ = {lambda}, history {history}"), &changes, acceptance);
    }
}

/// The same check has the power to see a wrong Jacobian: with the exponent K − 1 or K − 3 instead
/// of K − 2 (the same draws as the test above on the prior, λ = 0 without history, where every
/// importance weight is equal) some statistic moves by more than 5 SE.
#[test]
fn a_wrong_jacobian_exponent_fails_the_invariance_check() {
    for power in [K as f64 - 1.0, K as f64 - 3.0] {
        let (changes, _) = paired_change(0.0, false, 100_000, 3, 23, Some(WeightMove { power, light_bias: 0.0, selection_ratio: true }));
        assert_check_sees(&format!("exponent {power} (a wrong Jacobian)"), &changes);
    }
}

/// The light-biased choice, P(k | θ) ∝ β_k^(−a) with a = 1 ((SGAIS.23)), leaves the target invariant
/// when the choice's ratio P(k | θ')/P(k | θ) enters the acceptance, and fails the same check
/// without it (the choice then favours moving light components and leaves them heavier).
#[test]
fn the_light_biased_choice_needs_its_ratio_in_the_acceptance() {
    let exact = WeightMove::exact(K, 1.0);
    for (lambda, history, seed) in [(0.5, true, 24), (0.0, false, 25)] {
        let (changes, acceptance) = paired_change(lambda, history, 100_000, 3, seed, Some(exact));
        assert_invariant(&format!("biased, λ = {lambda}, history {history}"), &changes, acceptance);
    }
    let (changes, _) = paired_change(0.0, false, 100_000, 3, 25, Some(WeightMove { selection_ratio: false, ..exact }));
    assert_check_sees("biased without the choice's ratio", &changes);
}

/// The log-likelihood written here agrees with the model's at a random θ (so the oracle's weights
/// are the target's).
#[test]
fn the_tests_likelihood_is_the_models() {
    use sgviz::model::Model;
    let points: Vec<f64> = HISTORY.iter().chain(&CHUNK).copied().collect();
    let model = GaussianMixture::new(1, K, points.clone()).unwrap();
    let theta = model.sample_prior(&mut chain_rng(5));
    for (i, &y) in points.iter().enumerate() {
        assert!((log_lik(y, &theta) - model.log_lik(i, &theta)).abs() < 1e-9 * (1.0 + log_lik(y, &theta).abs()));
    }
}
