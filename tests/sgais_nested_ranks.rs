//! Nested sampling's insertion-rank test (Fowlie, Handley & Su 2020, MNRAS 497:5256; docs/sgais.md
//! (SGAIS.20)): when every replacement is an independent draw from the prior restricted to
//! L > L*, its rank among the M − 1 survivors' likelihoods is uniform on {0, …, M − 1}, independently
//! from one iteration to the next, whatever the model. A constrained walk (src/sgais/nested.rs,
//! App. A.1) that is too short leaves the new point near the live point it copied, and the ranks
//! stop being uniform. The statistic is Kolmogorov–Smirnov's √n·D over the pooled ranks of four
//! seeded runs against the discrete uniform CDF, written here; the critical value is the Kolmogorov
//! distribution's 1 % point, 1.628 (conservative for a discrete law).
//!
//! - At NS's defaults (25 live points, 20 steps of 0.1 sd) on linear regression (N = 1,000, d = 5)
//!   and on the one-component mixture (N = 1,000): the ranks pass.
//! - A deliberately broken walk of 3 steps on the same linear regression: the ranks fail.
//!   What the test cannot see is a walk of 1 step: a point that barely moves keeps the rank of the
//!   survivor it copied, which is itself uniform (on {0, …, M − 2}), and such runs collapse and stop
//!   early with few ranks. Measured: √n·D = 1.89 on seeds 101–104 but 0.99 on this file's seeds
//!   201–204, so no test here claims it; its evidence is 1,800 nats low, which
//!   `tests/sgais_nested.rs` catches (docs/sgais.md §7).
//!
//! CI: 3 × 4 runs of ≈ 1 CPU-s (linear regression at the defaults and at 3 steps, the mixture).

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use sgviz::model::linear::{self, LinearRegression};
use sgviz::params::ParamValues;
use sgviz::sgais::models::EvidenceModel;
use sgviz::sgais::nested::{NestedConfig, NestedRun, NESTED_PARAMS};
use std::sync::Arc;

/// The Kolmogorov distribution's upper 1 % point: P(√n·D > 1.628) = 0.01 for n → ∞.
const KS_CRITICAL_1_PERCENT: f64 = 1.628;

const SEEDS: [u64; 4] = [201, 202, 203, 204];

fn default_config() -> NestedConfig {
    NestedConfig::from_values(&ParamValues::defaults(NESTED_PARAMS))
}

fn linear_regression() -> Arc<dyn EvidenceModel> {
    let overrides = [("n_points".to_string(), 1000.0), ("n_features".to_string(), 5.0), ("noise_sd".to_string(), 1.0), ("prior_sd".to_string(), 1.0), ("data_seed".to_string(), 3.0)];
    Arc::new(LinearRegression::synthetic(&ParamValues::resolve(linear::PARAMS, &overrides).unwrap()))
}

fn one_component_mixture() -> Arc<dyn EvidenceModel> {
    Arc::new(GaussianMixture::new(2, 1, generate_cluster_data(1000, ClusterSchedule::Stationary(1), 5)).unwrap())
}

/// The ranks of every replacement over the seeded runs, pooled.
fn pooled_ranks(model: &Arc<dyn EvidenceModel>, config: &NestedConfig) -> Vec<u32> {
    SEEDS
        .iter()
        .flat_map(|&seed| {
            let mut run = NestedRun::new(model.clone(), config.clone(), model.n_data(), seed);
            run.run_to_end();
            run.insertion_ranks().to_vec()
        })
        .collect()
}

/// √n · max_k |F̂(k) − (k + 1)/M| over k = 0 … M − 1: KS against the uniform law on {0, …, M − 1}.
fn ks_statistic(ranks: &[u32], m: usize) -> f64 {
    let mut counts = vec![0usize; m];
    ranks.iter().for_each(|&r| counts[r as usize] += 1);
    let n = ranks.len() as f64;
    let mut cumulative = 0.0;
    let mut largest: f64 = 0.0;
    for (k, count) in counts.iter().enumerate() {
        cumulative += *count as f64 / n;
        largest = largest.max((cumulative - (k + 1) as f64 / m as f64).abs());
    }
    n.sqrt() * largest
}

fn describe(ranks: &[u32], m: usize) -> String {
    let mean = ranks.iter().map(|&r| r as f64).sum::<f64>() / ranks.len() as f64 / (m - 1) as f64;
    format!("{} ranks, mean rank {mean:.3} of 1 (uniform: 0.5), √n·D = {:.2}", ranks.len(), ks_statistic(ranks, m))
}

#[test]
fn the_ks_statistic_of_the_test_is_right() {
    assert!(ks_statistic(&[0, 1, 2, 3, 0, 1, 2, 3], 4) < 1e-12, "exactly uniform");
    let all_zero = ks_statistic(&[0; 16], 4);
    assert!((all_zero - 4.0 * 0.75).abs() < 1e-12, "all at 0: D = 3/4, √16·D = 3, got {all_zero}");
}

#[test]
fn insertion_ranks_are_uniform_at_the_defaults_on_linear_regression() {
    let config = default_config();
    let ranks = pooled_ranks(&linear_regression(), &config);
    assert!(ks_statistic(&ranks, config.live_points) < KS_CRITICAL_1_PERCENT, "{}", describe(&ranks, config.live_points));
}

#[test]
fn insertion_ranks_are_uniform_at_the_defaults_on_the_one_component_mixture() {
    let config = default_config();
    let ranks = pooled_ranks(&one_component_mixture(), &config);
    assert!(ks_statistic(&ranks, config.live_points) < KS_CRITICAL_1_PERCENT, "{}", describe(&ranks, config.live_points));
}

#[test]
fn a_walk_of_three_steps_fails_the_insertion_rank_test() {
    let config = NestedConfig { steps: 3, ..default_config() };
    let ranks = pooled_ranks(&linear_regression(), &config);
    assert!(ks_statistic(&ranks, config.live_points) > KS_CRITICAL_1_PERCENT, "3 steps passed: {}", describe(&ranks, config.live_points));
}
