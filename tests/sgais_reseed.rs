//! The re-seeding move of src/sgais/reseed.rs (docs/sgais.md (SGAIS.16)–(SGAIS.17)) leaves the
//! annealed target f^(λ)(θ) = p(C | θ)^λ p(y_<n | θ) p(θ) invariant.
//!
//! Oracle: importance sampling from the prior. With θ_i drawn from the prior (the model's own
//! sampler, checked against its density in src/model/gmm.rs) and weights w_i = λ log p(C | θ_i) +
//! log p(H | θ_i) (the target over the prior), Σ w_i g(θ_i)/Σ w_i estimates E_f[g]; if the move
//! K leaves f invariant, Σ w_i g(K θ_i)/Σ w_i estimates the same number. The test compares the two
//! paired: d_i = w_i (g(Kθ_i) − g(θ_i)), mean d / mean w within 5 standard errors of 0 (the
//! ratio's delta-method SE, sd(d)/(√n mean w)). g is "the lightest component's mean lies within
//! 1 of the chunk's cluster", the quantity a wrong acceptance ratio changes most: a move that
//! drops q's ratio, or the prior's, or the history's term, piles the lightest component onto the
//! chunk. Small data (5 history points near −2, 5 chunk points near +3, 1-D, K = 2), λ = 0.5.
//!
//! What the move is for (docs/sgais.md §10): at the first change point of the shift data (3 → 5
//! clusters at n = 1,000), SGAIS seed 2 at the mixture's defaults ended the next chunk with one
//! broad component over both new clusters in every particle, and its log Ẑ 748 nats below the
//! shuffled runs. `the_new_clusters_get_their_own_components_after_the_change_point` runs that
//! chunk (K = 5, the first 2,000 points, in order, ≈ 4 CPU-s per run) with and without the move
//! and counts the generating clusters the median particle's components sit on
//! (`sgais::coverage`, written for §10 before this move): 5 with it; without it fewer (the old
//! behaviour, so the test shows it can fail).

use sgviz::model::gmm::GaussianMixture;
use sgviz::model::Model;
use sgviz::rng::chain_rng;
use sgviz::sgais::coverage::median_clusters_covered;
use sgviz::sgais::job::resolve;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::SgaisConfig;
use sgviz::sgais::reseed::{lightest_component, reseed_lightest, ReseedProposal};

fn near_chunk(theta: &[f64], model: &GaussianMixture) -> f64 {
    let k = model.n_components();
    let c = lightest_component(theta, k);
    f64::from(u8::from((theta[k - 1 + c] - 3.0).abs() < 1.0))
}

/// (mean change of g under the move, its standard error, share of moves accepted).
fn paired_change(lambda: f64, draws: usize, seed: u64) -> (f64, f64, f64) {
    let points = vec![-2.1, -1.8, -2.3, -1.9, -2.0, 3.1, 2.8, 3.3, 2.9, 3.0];
    let model = GaussianMixture::new(1, 2, points).unwrap();
    let q = ReseedProposal::new(&model, 5..10);
    let mut rng = chain_rng(seed);
    let (mut log_w, mut change, mut accepted) = (Vec::with_capacity(draws), Vec::with_capacity(draws), 0);
    for _ in 0..draws {
        let mut theta = model.sample_prior(&mut rng);
        let before = near_chunk(&theta, &model);
        log_w.push(lambda * (5..10).map(|j| model.log_lik(j, &theta)).sum::<f64>() + (0..5).map(|j| model.log_lik(j, &theta)).sum::<f64>());
        accepted += reseed_lightest(&q, lambda, 5, &mut theta, &mut rng).accepted as usize;
        change.push(near_chunk(&theta, &model) - before);
    }
    let max = log_w.iter().copied().fold(f64::MIN, f64::max);
    let w: Vec<f64> = log_w.iter().map(|l| (l - max).exp()).collect();
    let n = draws as f64;
    let mean_w = w.iter().sum::<f64>() / n;
    let d: Vec<f64> = w.iter().zip(&change).map(|(w, c)| w * c).collect();
    let mean_d = d.iter().sum::<f64>() / n;
    let sd_d = (d.iter().map(|x| (x - mean_d).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    (mean_d / mean_w, sd_d / (n.sqrt() * mean_w), accepted as f64 / n)
}

#[test]
fn the_reseeding_move_leaves_the_annealed_target_invariant() {
    for (lambda, seed) in [(0.0, 1), (0.5, 2)] {
        let (change, se, acceptance) = paired_change(lambda, 200_000, seed);
        eprintln!("λ = {lambda}: E_f[g(Kθ) − g(θ)] = {change:.4} ± {se:.4}, acceptance {acceptance:.3}");
        assert!(acceptance > 0.05, "λ = {lambda}: the move must actually move ({acceptance:.3} accepted), or invariance is trivial");
        assert!(se > 0.0 && change.abs() < 5.0 * se, "λ = {lambda}: the move changes E_f[g] by {change:.4} (SE {se:.4})");
    }
}

/// Median clusters covered after K = 5 SGAIS `seed` on the first 2,000 shift points in order.
fn clusters_after_change_point(seed: u64, reseed: bool) -> usize {
    let settings: Vec<(String, String)> = vec![("n_points".into(), "2000".into()), ("n_components".into(), "5".into()), ("scenario".into(), "shift".into())];
    let resolved = resolve("gmm", None, &settings, None).unwrap();
    let config = SgaisConfig { reseed_components: reseed, ..resolved.config };
    let mut run = SgaisRun::new(resolved.model, config, 2_000, seed);
    run.run_to_end();
    assert_eq!(*run.status(), RunStatus::Finished);
    median_clusters_covered(run.particles(), 5)
}

#[test]
fn the_new_clusters_get_their_own_components_after_the_change_point() {
    let (with, without) = (clusters_after_change_point(2, true), clusters_after_change_point(2, false));
    eprintln!("seed 2, K = 5, n = 2,000 in order: median clusters covered {with} with the re-seeding move, {without} without");
    assert_eq!(with, 5, "with the move every one of the 5 clusters present should have a component");
    assert!(without < 5, "without the move seed 2 widened one component over both new clusters (docs/sgais.md §10); now it covers {without}: the test no longer shows what the move changes");
}
