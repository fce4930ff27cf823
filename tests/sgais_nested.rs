//! Nested sampling (Skilling 2006; SGAIS paper App. A.1, src/sgais/nested.rs) against exact
//! evidences computed here, independently of the code under test:
//! - linear regression: y ~ N(0, σ²I + σ_p² ΦΦᵀ) (the Gaussian marginal likelihood written as an
//!   N-dimensional normal density, Cholesky of the N × N covariance — not the d × d
//!   posterior-precision form the library uses);
//! - the one-component mixture (paper B.3 with K = 1): per coordinate the Normal-Inverse-Gamma
//!   marginal, written out here with its own log-gamma (Stirling series).
//! Tolerance: 4 × NS's own standard error √(H/M) (Skilling 2006 §5), and that SE must be ≤ 2 nats.
//! Each test is one seeded run of ≈ 1–3 CPU-s; `make soak` runs bigger N (SGVIZ_SOAK_NS_N).

use nalgebra::DMatrix;
use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use sgviz::model::linear::{self, LinearRegression};
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::sgais::nested::{NestedConfig, NestedRun, NESTED_PARAMS};
use std::sync::Arc;

fn soak_n(default: usize) -> usize {
    std::env::var("SGVIZ_SOAK_NS_N").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn default_config() -> NestedConfig {
    NestedConfig::from_values(&ParamValues::defaults(NESTED_PARAMS))
}

/// log N(y; 0, σ²I + σ_p²ΦΦᵀ) by a Cholesky factor of the N × N covariance.
fn gaussian_marginal_log_likelihood(model: &LinearRegression) -> f64 {
    let n = model.n_data();
    let rows: Vec<Vec<f64>> = (0..n).map(|i| model.design_row(i)).collect();
    let (s2, p2) = (model.noise_sd().powi(2), model.prior_sd().powi(2));
    let cov = DMatrix::from_fn(n, n, |i, j| p2 * rows[i].iter().zip(&rows[j]).map(|(a, b)| a * b).sum::<f64>() + if i == j { s2 } else { 0.0 });
    let chol = cov.cholesky().expect("covariance is SPD");
    let y = nalgebra::DVector::from_fn(n, |i, _| model.response(i));
    let z = chol.l().solve_lower_triangular(&y).unwrap();
    let log_det: f64 = chol.l().diagonal().iter().map(|l| 2.0 * l.ln()).sum();
    -0.5 * (n as f64 * (2.0 * std::f64::consts::PI).ln() + log_det + z.dot(&z))
}

/// The same evidence by a Kalman filter (prior N(0, σ_p² I), one datum at a time: log N(y; φᵀm,
/// σ² + φᵀSφ)), O(N d²): used for the soak's large N, and checked against the N × N form above.
fn kalman_log_evidence(model: &LinearRegression) -> f64 {
    let dim = model.design_row(0).len();
    let (mut m, mut s) = (nalgebra::DVector::<f64>::zeros(dim), DMatrix::<f64>::identity(dim, dim) * model.prior_sd().powi(2));
    let mut total = 0.0;
    for i in 0..model.n_data() {
        let phi = nalgebra::DVector::from_vec(model.design_row(i));
        let s_phi = &s * &phi;
        let variance = model.noise_sd().powi(2) + phi.dot(&s_phi);
        let residual = model.response(i) - phi.dot(&m);
        total += -0.5 * (2.0 * std::f64::consts::PI * variance).ln() - 0.5 * residual * residual / variance;
        m += &s_phi * (residual / variance);
        s -= &s_phi * s_phi.transpose() / variance;
    }
    total
}

#[test]
fn nested_sampling_matches_the_exact_linear_regression_evidence() {
    let n = soak_n(1_000);
    let overrides = [("n_points".to_string(), n as f64), ("n_features".to_string(), 5.0), ("noise_sd".to_string(), 1.0), ("prior_sd".to_string(), 1.0), ("data_seed".to_string(), 3.0)];
    let model = LinearRegression::synthetic(&ParamValues::resolve(linear::PARAMS, &overrides).unwrap());
    let exact = kalman_log_evidence(&model);
    if n <= 2_000 {
        let direct = gaussian_marginal_log_likelihood(&model);
        assert!((direct - exact).abs() < 1e-6 * exact.abs(), "N × N form {direct} vs Kalman {exact}");
    }
    let result = NestedRun::new(Arc::new(model), default_config(), n, 11).run_to_end();
    assert!(result.finished, "{result:?}");
    assert!(result.log_z_se <= 2.0, "SE {} > 2 nats (H = {})", result.log_z_se, result.information);
    let error = result.log_z - exact;
    assert!(error.abs() <= 4.0 * result.log_z_se, "NS log Ẑ = {:.2}, exact {exact:.2}: error {error:.2} > 4 SE = {:.2}", result.log_z, 4.0 * result.log_z_se);
}

/// lnΓ(x) for x ≥ 1 by recurrence up to x ≥ 10 and the Stirling series (error < 1e-10).
fn ln_gamma(mut x: f64) -> f64 {
    let mut shift = 0.0;
    while x < 10.0 {
        shift -= x.ln();
        x += 1.0;
    }
    shift + (x - 0.5) * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI).ln() + 1.0 / (12.0 * x) - 1.0 / (360.0 * x.powi(3)) + 1.0 / (1260.0 * x.powi(5))
}

/// Paper B.3 priors with K = 1: μ | σ² ~ N(0, 4σ²) (κ₀ = 1/4), σ² ~ InvGamma(1, 1), per coordinate.
fn one_component_evidence(points: &[f64], p: usize) -> f64 {
    let n = points.len() / p;
    let (k0, a0, b0) = (0.25, 1.0, 1.0);
    let (kn, an) = (k0 + n as f64, a0 + n as f64 / 2.0);
    (0..p)
        .map(|j| {
            let xs: Vec<f64> = (0..n).map(|i| points[i * p + j]).collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            let ss: f64 = xs.iter().map(|x| (x - mean).powi(2)).sum();
            let bn = b0 + 0.5 * ss + k0 * n as f64 * mean * mean / (2.0 * kn);
            -(n as f64 / 2.0) * (2.0 * std::f64::consts::PI).ln() + 0.5 * (k0 / kn).ln() + a0 * b0.ln() - an * bn.ln() + ln_gamma(an) - ln_gamma(a0)
        })
        .sum()
}

#[test]
fn nested_sampling_matches_the_exact_one_component_mixture_evidence() {
    let n = soak_n(1_000);
    let points = generate_cluster_data(n, ClusterSchedule::Stationary(1), 5);
    let exact = one_component_evidence(&points, 2);
    let model = GaussianMixture::new(2, 1, points).unwrap();
    let result = NestedRun::new(Arc::new(model), default_config(), n, 12).run_to_end();
    assert!(result.finished, "{result:?}");
    assert!(result.log_z_se <= 2.0, "SE {} > 2 nats", result.log_z_se);
    let error = result.log_z - exact;
    assert!(error.abs() <= 4.0 * result.log_z_se, "NS log Ẑ = {:.2}, exact {exact:.2}: error {error:.2} > 4 SE = {:.2}", result.log_z, 4.0 * result.log_z_se);
}

#[test]
fn ln_gamma_of_the_test_is_right() {
    assert!(ln_gamma(1.0).abs() < 1e-10 && ln_gamma(2.0).abs() < 1e-10);
    assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-10 && (ln_gamma(0.5 + 1.0) - (std::f64::consts::PI.sqrt() / 2.0).ln()).abs() < 1e-10);
}
