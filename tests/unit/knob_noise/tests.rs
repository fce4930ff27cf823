//! Unit tests of src/knob_noise.rs (`knob_noise::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::law::GaussianSummary;
use sgviz::knob_noise::*;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::model::toy::PSEUDO_DATA;

use crate::unit::helpers::sampler_params as params;

/// Hand-worked on the uncorrelated Gaussian with σ = (1, 2): precisions P = diag(1, 1/4); the
/// pseudo-data make F = P (toy.rs), so Σ_ξ = (N/n − 1)P with N = 100.
fn summary() -> GaussianSummary {
    GaussianSummary::of(&CorrelatedGaussian::new(1.0, 2.0, 0.0, 0.0)).unwrap()
}

#[test]
fn sghmc_split_is_eta_squared_sigma_xi_against_two_alpha_eta() {
    let (eta, friction, batch) = (0.01, 0.3, 10.0);
    let split = update_noise("sghmc", &params("sghmc", &[("sghmc_lr", eta), ("friction", friction), ("batch_size", batch), ("beta_hat", 0.0)]), &summary()).unwrap();
    let n = PSEUDO_DATA as f64;
    assert!((split.gradient - eta * eta * (n / batch - 1.0) * 1.0).abs() < 1e-12, "{split:?}");
    assert!((split.injected - 2.0 * friction * eta).abs() < 1e-12, "{split:?}");
}

#[test]
fn sgfs_split_over_alpha_follows_h_squared() {
    // I_N = F + G + λI ≈ P (flat prior, λ = 1e-12): injected h²α²γP⁻¹ → λ_max = h²α²γ·4;
    // gradient h²P⁻¹(N/n − 1)PP⁻¹ = h²(N/n − 1)P⁻¹ → λ_max = h²(N/n − 1)·4.
    let (batch, n) = (10.0, PSEUDO_DATA as f64);
    let gamma = (batch + n) / batch;
    for alpha in [0.0, 1.0, 3.0] {
        let split = update_noise("sgfs_f", &params("sgfs_f", &[("sgfs_alpha", alpha), ("batch_size", batch), ("sgfs_ridge", 1e-12)]), &summary()).unwrap();
        let h = 2.0 / ((1.0 + alpha * alpha) * gamma);
        let expected_injected = h * h * alpha * alpha * gamma * 4.0;
        let expected_gradient = h * h * (n / batch - 1.0) * 4.0;
        assert!((split.injected - expected_injected).abs() < 1e-9 * (1.0 + expected_injected), "α = {alpha}: {split:?} vs {expected_injected}");
        assert!((split.gradient - expected_gradient).abs() < 1e-9 * expected_gradient, "α = {alpha}: {split:?} vs {expected_gradient}");
    }
}

#[test]
fn full_batch_has_no_gradient_noise() {
    let split = update_noise("sgfs_f", &params("sgfs_f", &[("sgfs_alpha", 2.0), ("batch_size", PSEUDO_DATA as f64)]), &summary()).unwrap();
    assert!(split.gradient.abs() < 1e-15 && split.injected > 0.0, "{split:?}");
}
