//! Unit tests of src/noise_law.rs (`noise_law::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use nalgebra::DMatrix;
use sgviz::noise_law::*;

fn law(beta_hat: f64, batch: f64, s2: f64) -> NoiseLaw {
    // A Gaussian N(0, diag(4, 1)) whose Fisher is its precision: F⁻¹ = Σ at every point.
    let truth = DMatrix::from_row_slice(2, 2, &[4.0, 0.0, 0.0, 1.0]);
    let l = NoiseLaw { eta: 0.01, friction: 0.1, beta_hat, batch, n_data: 100.0, synthetic_variance: s2, mean_inverse_fisher: truth.clone(), truth: truth.clone() };
    let chain = &truth + l.excess();
    l.from_chain(&chain)
}

/// By hand: full batch, no synthetic noise, β̂ = 0: Δ = 0. β̂ = 0.05 = α/2: the chain runs at
/// temperature 1/2, Δ = −Σ/2, E2 = (2 + 0.5)/5 = 0.5. n = 10: Δ = 0.01·9/2/0.1 I = 0.45 I,
/// E2 = 0.9/5 = 0.18. s² = 10 with β̂ = ηs²/2 = 0.05: Δ = 0.
#[test]
fn excess_matches_hand_worked_cases() {
    assert!(law(0.0, 100.0, 0.0).bias_e2().abs() < 1e-12);
    assert!((law(0.05, 100.0, 0.0).bias_e2() - 0.5).abs() < 1e-12);
    assert!((law(0.0, 10.0, 0.0).bias_e2() - 0.18).abs() < 1e-12);
    assert!(law(0.05, 100.0, 10.0).bias_e2().abs() < 1e-12);
    // Both at once (the sign of each term shows): n = 10 and β̂ = 0.05, Δ = 0.45 I − Σ/2 =
    // diag(−1.55, −0.05), E2 = 1.6/5 = 0.32.
    assert!((law(0.05, 10.0, 0.0).bias_e2() - 0.32).abs() < 1e-12);
    // β̂ beyond α is clamped to α: no injected noise at all, temperature 0 on a full batch.
    assert!((law(0.7, 100.0, 0.0).bias_e2() - 1.0).abs() < 1e-12);
}

/// The remedies: β̂ back to ηs²/2 = 0; at n = 10 the full batch (100); with s² = 10 at n = 100
/// and β̂ = 0, β̂ = ηs²/2 = 0.05; with both unmatched neither alone: none.
#[test]
fn remedies_are_the_hand_worked_values() {
    let ranges = |p: &str| if p == "batch_size" { (1.0, 100.0) } else { (0.0, 1.0) };
    assert_eq!(law(0.05, 100.0, 0.0).remedy(&ranges), Some(("beta_hat", 0.0)));
    assert_eq!(law(0.0, 10.0, 0.0).remedy(&ranges), Some(("batch_size", 100.0)));
    assert_eq!(law(0.0, 100.0, 10.0).remedy(&ranges), Some(("beta_hat", 0.05)));
    assert_eq!(law(0.0, 10.0, 10.0).remedy(&ranges), None);
}
