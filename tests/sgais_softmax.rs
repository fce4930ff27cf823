//! Softmax regression's evidence (issue 22; docs/sgais.md §13) against an independent reference:
//! importance sampling from a Student-t centred at the Laplace mode
//! (`sgviz::sgais::softmax_reference`, its own likelihood code), itself checked here against
//! brute-force quadrature on a two-class, one-feature case. There the likelihood depends on θ only
//! through the class differences Δw = w₂ − w₁ and Δb = b₂ − b₁, which under the N(0, 1) prior are
//! independent N(0, 2), so Z = ∫∫ Π_i σ(±(Δw x_i + Δb)) N(Δw; 0, 2) N(Δb; 0, 2): a 2-D integral,
//! written here.
//!
//! SGAIS at softmax's own defaults (`model_defaults`, resolved as the CLI and the page do) must
//! be within 0.3 % of |log Z| of the reference at N = 2,000 (3.2 nats; data seed 2, SGAIS seeds
//! 5 and 6, none used to choose the defaults, which were chosen on data seed 1, seed 1). The
//! issue's 0.1 % is 1.05 nats there, below the replicas' own scatter: seeds 2–4 on the same data
//! were 0.4, 1.2 and 2.9 nats low (docs/sgais.md §13). `SGVIZ_SGAIS_SOFTMAX_SOAK=1` (`make soak`)
//! runs N = 10⁴ with seeds 5–7 and full-data AIS at the 0.1 % (5.2 nats).
//! CI ≈ 15 CPU-s (two SGAIS runs of ≈ 5 CPU-s, the reference ≈ 1 CPU-s).

use sgviz::model::softmax::SoftmaxRegression;
use sgviz::model::Model;
use sgviz::rng::chain_rng;
use sgviz::sgais::ais::{ais_run, baseline_seed};
use sgviz::sgais::job::resolve;
use sgviz::sgais::models::EvidenceModel;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::softmax_reference::{importance_log_evidence, log_joint};
use std::sync::Arc;

fn soak() -> bool {
    std::env::var("SGVIZ_SGAIS_SOFTMAX_SOAK").is_ok_and(|v| v != "0")
}

/// log σ(z) = −log(1 + e^{−z}), stable for either sign.
fn log_sigmoid(z: f64) -> f64 {
    if z >= 0.0 { -(-z).exp().ln_1p() } else { z - z.exp().ln_1p() }
}

/// The two-class, one-feature evidence by the trapezoid rule over (Δw, Δb) ∈ [−10, 10]²
/// (7 prior sds of √2), `points` nodes per axis, summed in log space.
fn two_class_quadrature(m: &SoftmaxRegression, points: usize) -> f64 {
    let (lo, hi) = (-10.0, 10.0);
    let h = (hi - lo) / (points - 1) as f64;
    let log_prior_1d = |u: f64| -u * u / 4.0 - 0.5 * (4.0 * std::f64::consts::PI).ln();
    let mut terms = Vec::with_capacity(points * points);
    for a in 0..points {
        let dw = lo + a as f64 * h;
        for b in 0..points {
            let db = lo + b as f64 * h;
            let log_lik: f64 = (0..m.n_data())
                .map(|i| {
                    let (x, y) = m.datum(i);
                    let z = dw * x[0] + db;
                    if y == 1 { log_sigmoid(z) } else { log_sigmoid(-z) }
                })
                .sum();
            let edge = (if a == 0 || a == points - 1 { 0.5f64 } else { 1.0 }) * (if b == 0 || b == points - 1 { 0.5 } else { 1.0 });
            terms.push(log_lik + log_prior_1d(dw) + log_prior_1d(db) + edge.ln() + 2.0 * h.ln());
        }
    }
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    max + terms.iter().map(|t| (t - max).exp()).sum::<f64>().ln()
}

#[test]
fn the_importance_sampling_reference_matches_quadrature_on_a_two_class_case() {
    for (n, data_seed) in [(15, 4), (60, 5)] {
        let m = SoftmaxRegression::synthetic(n, 1, 2, 1.0, data_seed);
        let exact = two_class_quadrature(&m, 801);
        let coarse = two_class_quadrature(&m, 401);
        assert!((exact - coarse).abs() < 1e-6, "N = {n}: quadrature not converged ({exact} vs {coarse})");
        let is = importance_log_evidence(&m, 4_000, 5, 9);
        assert!((is.log_z - exact).abs() <= 4.0 * is.se, "N = {n}: IS {:.4} ± {:.4}, quadrature {exact:.4}", is.log_z, is.se);
        assert!(is.se < 0.05, "N = {n}: SE {}", is.se);
    }
}

/// The reference's own likelihood agrees with the model's (`log_lik`, which SGAIS and NS use) in
/// the paper's shape (C = 4): the two were written separately.
#[test]
fn the_reference_log_joint_is_the_models_log_likelihood_plus_prior() {
    let m = SoftmaxRegression::synthetic(40, 3, 4, 1.0, 6);
    for seed in 1..4 {
        let theta = m.sample_prior(&mut chain_rng(seed));
        let model_side: f64 = (0..m.n_data()).map(|i| m.log_lik(i, &theta)).sum::<f64>() + m.log_prior(&theta);
        assert!((log_joint(&m, &theta) - model_side).abs() < 1e-9 * model_side.abs(), "{} vs {model_side}", log_joint(&m, &theta));
    }
}

/// The paper's softmax (d = 10, C = 4) on N points of data seed `data_seed`, and the SGAIS
/// settings `sgviz evidence --target softmax` resolves (softmax's own defaults).
fn softmax_at_its_defaults(n: usize, data_seed: u64) -> (SoftmaxRegression, sgviz::sgais::SgaisConfig) {
    let settings = [("n_points".to_string(), n.to_string()), ("data_seed".to_string(), data_seed.to_string())];
    let resolved = resolve("softmax", None, &settings, None).unwrap();
    (SoftmaxRegression::synthetic(n, 10, 4, 1.0, data_seed), resolved.config)
}

#[test]
fn sgais_on_softmax_at_its_defaults_agrees_with_the_importance_sampling_reference() {
    let n = if soak() { 10_000 } else { 2_000 };
    let (model, config) = softmax_at_its_defaults(n, 2);
    let reference = importance_log_evidence(&model, if soak() { 2_000 } else { 1_000 }, 5, 3);
    let tolerance = if soak() { 1e-3 } else { 3e-3 } * reference.log_z.abs();
    assert!(reference.se < 0.1 * tolerance, "reference SE {} not small beside {tolerance}", reference.se);
    let shared: Arc<dyn EvidenceModel> = Arc::new(model.clone());
    let seeds: &[u64] = if soak() { &[5, 6, 7] } else { &[5, 6] };
    for &seed in seeds {
        let mut run = SgaisRun::new(shared.clone(), config.clone(), n, seed);
        run.run_to_end();
        assert_eq!(*run.status(), RunStatus::Finished);
        let error = run.log_z() - reference.log_z;
        assert!(error.abs() <= tolerance, "N = {n}, seed {seed}: log Ẑ = {:.2}, reference {:.2} ± {:.2}: error {error:.2} > {tolerance:.2}", run.log_z(), reference.log_z, reference.se);
    }
    if soak() {
        let mut ais = ais_run(shared, &config, n, baseline_seed(5));
        ais.run_to_end();
        let error = ais.log_z() - reference.log_z;
        assert!(error.abs() <= tolerance, "AIS at N = {n}: log Ẑ = {:.2}, reference {:.2}: error {error:.2} > {tolerance:.2}", ais.log_z(), reference.log_z);
    }
}
