//! Unit tests of src/error_split.rs (`error_split::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use nalgebra::DMatrix;
use sgviz::diagnostics::Moments;
use sgviz::error_split::*;
use sgviz::law::{LinearChain, Law};

/// A scalar AR(1) x' = ax + w with Var x = v: Γ(k) = a^{|k|}v, so
/// S = Σ_k 2a^{2|k|}v² = 2v²(1 + a²)/(1 − a²) — the variance of a sample variance.
#[test]
fn asymptotic_variance_of_an_ar1_sample_variance() {
    let (a, v) = (0.9, 2.0);
    let law = Law {
        mean: vec![0.0],
        cov: DMatrix::from_element(1, 1, v),
        exact: true,
        note: String::new(),
        chain: Some((LinearChain { transition: DMatrix::from_element(1, 1, a), noise: DMatrix::from_element(1, 1, v * (1.0 - a * a)), dim: 1 }, DMatrix::from_element(1, 1, v))),
    };
    let s = asymptotic_covariance_variance(&law).unwrap();
    let expected = 2.0 * v * v * (1.0 + a * a) / (1.0 - a * a);
    assert!((s - expected).abs() < 1e-6 * expected, "{s} vs {expected}");
    let truth = Moments { mean: vec![0.0], cov: vec![vec![1.0]] };
    let p = PredictedError::of(&law, &truth, 10.0).unwrap();
    assert!((p.bias - 1.0).abs() < 1e-12);
    // mc² = S·(grads per sample)/(budget·‖Σ‖²).
    assert!((p.mc_error(1e4).powi(2) - expected * 10.0 / 1e4).abs() < 1e-6 * expected * 1e-3);
    assert!((series_by_lags(&law).unwrap() - expected).abs() < 1e-6 * expected);
}

#[test]
fn closed_form_series_matches_the_lag_sum_on_a_correlated_sghmc_law() {
    // SGHMC's state (θ, v) has complex eigenvalues: the Kronecker form against brute force.
    let model = sgviz::model::gaussian::CorrelatedGaussian::new(1.0, 2.0, 0.9, 0.5);
    let spec = sgviz::registry::sampler("sghmc").unwrap();
    let mut params = sgviz::params::ParamValues::defaults(spec.params);
    params.set(spec.params, "sghmc_lr", 0.05).unwrap();
    params.set(spec.params, "friction", 0.1).unwrap();
    let law = sgviz::law::predicted_law("sghmc", &params, &model).unwrap();
    let (chain, full) = law.chain.as_ref().unwrap();
    let closed = series_by_kronecker(&chain.transition, full, 2).unwrap();
    let summed = series_by_lags(&law).unwrap();
    assert!((closed - summed).abs() < 1e-6 * summed, "{closed} vs {summed}");
}
