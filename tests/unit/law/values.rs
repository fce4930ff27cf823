//! Unit tests that pin SGHMC's periodic law with momentum resampling (`sghmc_with_resampling`,
//! issue 23: it had none) against numbers computed another way: a closed form at L = 1 and, for
//! L = 5, the scalar covariance recursion iterated period after period to its fixed point (plain
//! f64 arithmetic written here from the sampler's update, docs/sghmc.md; no Lyapunov solve, no matrix
//! power), rotated into the correlated Gaussian's eigenbasis by hand.
//!
//! Unit tests of src/law.rs (`law::values`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use nalgebra::{DMatrix, DVector};
use sgviz::law::*;
use sgviz::model::gaussian::CorrelatedGaussian;
use crate::unit::helpers::sampler_params as params;

/// Full batch (the toy Gaussian's 100 pseudo-data), so the gradient is exact and only the injected
/// noise 2αη remains.
const FULL_BATCH: f64 = 100.0;

/// Var δ averaged over the L positions of a period, for SGHMC on a 1-D Gaussian of precision `p`
/// with v ~ N(0, η) redrawn before the first step of each period. One step (sghmc.rs):
/// v' = (1 − α)v − ηPδ + w, δ' = δ + v', w ~ N(0, 2αη); so with a = 1 − ηP, b = 1 − α, c = −ηP:
/// Var δ' = a²X + 2abC + b²V + r, Var v' = c²X + 2cbC + b²V + r, Cov = acX + (ab + bc)C + b²V + r.
fn periodic_variance_by_iteration(eta: f64, alpha: f64, p: f64, period: usize) -> f64 {
    let (a, b, c, r) = (1.0 - eta * p, 1.0 - alpha, -eta * p, 2.0 * alpha * eta);
    // The state is (Var δ, Cov(δ, v), Var v).
    let step = |(x, cv, v): (f64, f64, f64)| {
        (a * a * x + 2.0 * a * b * cv + b * b * v + r, a * c * x + (a * b + b * c) * cv + b * b * v + r, c * c * x + 2.0 * c * b * cv + b * b * v + r)
    };
    let mut start = 1.0;
    for _ in 0..1_000_000 {
        let (mut state, mut sum) = ((start, 0.0, eta), 0.0);
        for _ in 0..period {
            state = step(state);
            sum += state.0;
        }
        if (state.0 - start).abs() < 1e-13 * start {
            return sum / period as f64;
        }
        start = state.0;
    }
    panic!("the period map did not converge")
}

/// The correlated Gaussian σ₁ = σ₂ = 1, ρ = 0.5 has eigenvalues 1.5 and 0.5 along (1, 1)/√2 and
/// (1, −1)/√2, i.e. precisions 2/3 and 2; the chain's law is diagonal in that basis, so
/// C₁₁ = C₂₂ = (v₁ + v₂)/2 and C₁₂ = (v₁ − v₂)/2.
fn rotated(v: [f64; 2]) -> [[f64; 2]; 2] {
    let (sum, diff) = ((v[0] + v[1]) / 2.0, (v[0] - v[1]) / 2.0);
    [[sum, diff], [diff, sum]]
}

fn law_with_resampling(eta: f64, alpha: f64, period: f64) -> Law {
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.5, 0.0);
    let values = params("sghmc", &[("sghmc_lr", eta), ("friction", alpha), ("batch_size", FULL_BATCH), ("beta_hat", 0.0), ("resample_every", period)]);
    predicted_law("sghmc", &values, &model).unwrap()
}

fn assert_cov(law: &Law, expected: [[f64; 2]; 2], what: &str) {
    for a in 0..2 {
        for b in 0..2 {
            assert!((law.cov[(a, b)] - expected[a][b]).abs() < 1e-9, "{what}: C[{a}][{b}] = {} vs {}", law.cov[(a, b)], expected[a][b]);
        }
    }
}

#[test]
fn momentum_redrawn_every_step_gives_the_closed_form_one_plus_alpha_squared_over_p_two_minus_eta_p() {
    // L = 1: δ' = (1 − ηP)δ + (1 − α)v + w with v ~ N(0, η) fresh, an AR(1) of innovation variance
    // (1 − α)²η + 2αη = η(1 + α²): Var δ = (1 + α²)/(P(2 − ηP)).
    let (eta, alpha) = (0.2, 0.05);
    let closed = [2.0 / 3.0, 2.0].map(|p: f64| (1.0 + alpha * alpha) / (p * (2.0 - eta * p)));
    // Hand values: 1.0025/(2/3 · 1.866667) = 0.805580, 1.0025/(2 · 1.6) = 0.313281.
    assert!((closed[0] - 0.805_580).abs() < 1e-6 && (closed[1] - 0.313_281).abs() < 1e-6, "{closed:?}");
    // The iteration reproduces the closed form (a check of the oracle itself).
    for (j, p) in [2.0 / 3.0, 2.0].into_iter().enumerate() {
        assert!((periodic_variance_by_iteration(eta, alpha, p, 1) - closed[j]).abs() < 1e-12);
    }
    let law = law_with_resampling(eta, alpha, 1.0);
    assert_cov(&law, rotated(closed), "L = 1");
    assert!(law.exact && law.note.contains("momentum redrawn every 1 steps"), "{}", law.note);
    assert_eq!(law.mean, vec![0.0, 0.0]);
}

#[test]
fn momentum_redrawn_every_five_steps_matches_the_iterated_period_map() {
    // The setting of issue 23 (η = 0.2, α = 0.05, ρ = 0.5, full batch): Var θ₁ ≈ 0.987, where a
    // simulated chain gives 0.985 (tests/gradient_samplers.rs) and redrawing at every step 0.56.
    let (eta, alpha) = (0.2, 0.05);
    let v = [2.0 / 3.0, 2.0].map(|p| periodic_variance_by_iteration(eta, alpha, p, 5));
    let expected = rotated(v);
    assert!((expected[0][0] - 0.987).abs() < 0.001, "oracle: {expected:?}");
    let law = law_with_resampling(eta, alpha, 5.0);
    assert_cov(&law, expected, "L = 5");
    // Not the law without resampling (L = 0), nor the one-step law: the period matters.
    let never = law_with_resampling(eta, alpha, 0.0);
    assert!((never.cov[(0, 0)] - expected[0][0]).abs() > 0.01, "{}", never.cov);
    // A period too long to compute is refused with the reason, not computed for minutes.
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.5, 0.0);
    let long = params("sghmc", &[("sghmc_lr", eta), ("friction", alpha), ("batch_size", FULL_BATCH), ("resample_every", 1e6)]);
    let why = predicted_law("sghmc", &long, &model).unwrap_err();
    assert!(why.contains("every 1000000 steps") && why.contains("not computed"), "{why}");
}

/// A hand-made summary: the standard Gaussian in `dim` dimensions, exact gradients.
fn standard_summary(dim: usize) -> GaussianSummary {
    GaussianSummary {
        mean: DVector::zeros(dim),
        precision: DMatrix::identity(dim, dim),
        fisher: DMatrix::zeros(dim, dim),
        prior: DMatrix::zeros(dim, dim),
        n_data: 100.0,
        synthetic: 0.0,
        exact: true,
        source: "hand-made",
        without_gradient_noise: false,
        posterior_fisher: None,
    }
}

#[test]
fn the_periodic_law_is_computed_up_to_fifty_million_times_two_d_cubed_steps() {
    // The work cap L·(2D)³ ≤ 5·10⁷ (sghmc_with_resampling's doc): D = 3 gives 216 per step, so
    // L = 300,000 (6.48·10⁷) is refused while (2 + D)³ = 125 would have allowed it; D = 2 gives 64,
    // so L = 781,250 (exactly 5·10⁷) is still computed.
    let values = |period: f64| params("sghmc", &[("sghmc_lr", 0.2), ("friction", 0.05), ("batch_size", 100.0), ("resample_every", period)]);
    let why = law_on_summary("sghmc", &values(300_000.0), &standard_summary(3)).unwrap_err();
    assert!(why.contains("not computed"), "{why}");
    let at_cap = law_on_summary("sghmc", &values(781_250.0), &standard_summary(2)).unwrap();
    // Var δ on the standard Gaussian (λ = 1) from the iterated period map would take too long at
    // this L; the average over a period this long is the law without resampling to ≈ 1/L, and that
    // is the L = 0 recursion's.
    let never = law_on_summary("sghmc", &values(0.0), &standard_summary(2)).unwrap();
    assert!((at_cap.cov[(0, 0)] - never.cov[(0, 0)]).abs() < 1e-3, "{} vs {}", at_cap.cov, never.cov);
}

#[test]
fn momentum_redrawn_every_five_steps_in_three_dimensions_is_the_scalar_law_on_each_axis() {
    // The standard Gaussian in D = 3 (exact gradients): the axes do not interact, so each has the
    // scalar period law at λ = 1 and the covariances are 0. (At D = 2 a state of 2 + D = 4
    // coordinates would have the right size by accident; at D = 3 only 2D = 6 does.)
    let (eta, alpha) = (0.2, 0.05);
    let v = periodic_variance_by_iteration(eta, alpha, 1.0, 5);
    let values = params("sghmc", &[("sghmc_lr", eta), ("friction", alpha), ("batch_size", 100.0), ("resample_every", 5.0)]);
    let law = law_on_summary("sghmc", &values, &standard_summary(3)).unwrap();
    for a in 0..3 {
        for b in 0..3 {
            let expected = if a == b { v } else { 0.0 };
            assert!((law.cov[(a, b)] - expected).abs() < 1e-9, "C[{a}][{b}] = {} vs {expected}", law.cov[(a, b)]);
        }
    }
}
