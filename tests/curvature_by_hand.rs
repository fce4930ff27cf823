//! The numbers of src/curvature.rs that reach the promise and the derived defaults, worked by hand
//! (issue 23, ninth mutation pass): the predicted E2 of a covariance estimate (bias, and the
//! Monte-Carlo spread of docs/diagnostics.md's AR(1) entry variances) and the minibatch gradient
//! noise (N/n − 1)·φ·λ + s² (docs/README.md, Notation). The existing simulation test
//! (unit::curvature) checks the spread to 5 %; here every term is pinned exactly.

use nalgebra::DMatrix;
use sgviz::curvature::Curvature;
use sgviz::model::gaussian::CorrelatedGaussian;

/// A 2-D summary with eigen-directions u₀ = (1, 1)/√2, u₁ = (−1, 1)/√2 and variances 3 and 1 along
/// them: Σ = [[2, 1], [1, 2]] (Σ|Σ_ab| = 6).
fn rotated_summary() -> Curvature {
    let mut c = Curvature::of(&CorrelatedGaussian::new(1.0, 1.0, 0.0, 0.0)).expect("the Gaussian has a summary");
    let r = std::f64::consts::FRAC_1_SQRT_2;
    c.directions = DMatrix::from_row_slice(2, 2, &[r, -r, r, r]);
    c.precisions = vec![1.0 / 3.0, 1.0];
    c.cov = vec![vec![2.0, 1.0], vec![1.0, 2.0]];
    c
}

#[test]
fn predicted_e2_of_a_rotated_summary_is_the_hand_worked_bias_and_ar1_spread() {
    let c = rotated_summary();
    // Bias: variances (2, 1) instead of (3, 1) give C = [[1.5, 0.5], [0.5, 1.5]], |C − Σ| = 0.5 in
    // every entry: E2 = 2/6.
    let (bias, _) = c.predicted_e2(&[2.0, 1.0], &[0.0, 0.0], 100.0);
    assert!((bias - 1.0 / 3.0).abs() < 1e-12, "bias {bias} vs 1/3");
    // Spread at the summary's own variances (3, 1), lag-one autocorrelations (0.5, 0.2), T = 100.
    // Entry variances in the eigenbasis, v_k v_l (1 + a_k a_l)/((1 − a_k a_l) T), doubled on the
    // diagonal: E₀₀ = 2·9·(1.25/0.75)/100 = 0.3, E₁₁ = 2·1·(1.04/0.96)/100 = 0.021666…,
    // E₀₁ = 3·(1.1/0.9)/100 = 0.036666…. Back in the coordinates (every |u_ak| = 1/√2):
    // Var Ĉ₀₀ = Var Ĉ₁₁ = (E₀₀ + E₁₁)/4 + (2u₀₀u₀₁)²E₀₁ = 0.0804166… + 0.0366666… = 0.1170833…,
    // Var Ĉ₀₁ = (E₀₀ + E₁₁)/4 + (u₀₀u₁₁ + u₀₁u₁₀)²E₀₁ = 0.0804166… (the cross term is 0).
    let (bias, spread) = c.predicted_e2(&[3.0, 1.0], &[0.5, 0.2], 100.0);
    let e00: f64 = 0.3;
    let e11 = 2.0 * 1.04 / 0.96 / 100.0;
    let e01 = 3.0 * 1.1 / 0.9 / 100.0;
    let (diagonal, off) = ((e00 + e11) / 4.0 + e01, (e00 + e11) / 4.0);
    let expected = 2.0 * (diagonal.sqrt() + off.sqrt()) / 6.0;
    assert!(bias.abs() < 1e-12, "the summary's own variances have no bias: {bias}");
    assert!((spread - expected).abs() < 1e-12, "spread {spread} vs {expected} (0.2085842… by hand)");
    assert!((expected - 0.208_584_248).abs() < 1e-9);
    // A unit autocorrelation never mixes: the spread is infinite.
    let (_, stuck) = c.predicted_e2(&[3.0, 1.0], &[1.0, 0.2], 100.0);
    assert!(stuck.is_infinite(), "ar = 1 gives spread {stuck}");
}

#[test]
fn gradient_noise_is_n_over_batch_minus_one_times_phi_lambda_plus_s_squared_with_the_batch_clamped() {
    let mut c = rotated_summary();
    c.n_data = 100;
    c.fisher_ratio = 0.5;
    c.synthetic_variance = 0.25;
    // (100/10 − 1)·0.5·2 + 0.25 = 9.25.
    assert!((c.gradient_noise(2.0, 10.0) - 9.25).abs() < 1e-12, "{}", c.gradient_noise(2.0, 10.0));
    // A batch below 1 counts as 1: 99·0.5·2 + 0.25; above N as N: the synthetic noise alone.
    assert!((c.gradient_noise(2.0, 0.5) - 99.25).abs() < 1e-12, "{}", c.gradient_noise(2.0, 0.5));
    assert!((c.gradient_noise(2.0, 1000.0) - 0.25).abs() < 1e-12, "{}", c.gradient_noise(2.0, 1000.0));
    // λ_max / λ_min: the summary's largest curvature over its smallest precision 1/3.
    c.lambda_max = 6.0;
    assert!((c.lambda_min() - 1.0 / 3.0).abs() < 1e-15 && (c.condition_number() - 18.0).abs() < 1e-12);
}

/// The same AR(1) spread on directions u₀ = (0.6, 0.8), u₁ = (−0.8, 0.6) (variances 3 and 1:
/// Σ = [[1.72, 0.96], [0.96, 2.28]], Σ|Σ_ab| = 5.92). At 45° the cross term of the diagonal
/// entries and that of the off-diagonal entry trade places when u_ak u_bl + u_al u_bk loses its
/// sign, and the sum of the square roots cannot tell; here
/// Var Ĉ₀₀ = 0.1296E₀₀ + 0.4096E₁₁ + (2·0.6·0.8)²E₀₁, Var Ĉ₁₁ = 0.4096E₀₀ + 0.1296E₁₁ + 0.9216E₀₁,
/// Var Ĉ₀₁ = 0.2304(E₀₀ + E₁₁) + (0.36 − 0.64)²E₀₁, by hand.
#[test]
fn predicted_spread_on_a_three_four_five_rotation_is_the_hand_worked_sum() {
    let mut c = rotated_summary();
    c.directions = DMatrix::from_row_slice(2, 2, &[0.6, -0.8, 0.8, 0.6]);
    c.cov = vec![vec![1.72, 0.96], vec![0.96, 2.28]];
    let (e00, e11, e01) = (0.3f64, 2.0 * 1.04 / 0.96 / 100.0, 3.0 * 1.1 / 0.9 / 100.0);
    let v00 = 0.1296 * e00 + 0.4096 * e11 + 0.9216 * e01;
    let v11 = 0.4096 * e00 + 0.1296 * e11 + 0.9216 * e01;
    let v01 = 0.2304 * (e00 + e11) + 0.0784 * e01;
    let expected = (v00.sqrt() + v11.sqrt() + 2.0 * v01.sqrt()) / 5.92;
    let (bias, spread) = c.predicted_e2(&[3.0, 1.0], &[0.5, 0.2], 100.0);
    assert!(bias.abs() < 1e-12, "the summary's own variances have no bias: {bias}");
    assert!((spread - expected).abs() < 1e-12, "spread {spread} vs {expected}");
    assert!((expected - 0.209_432_883).abs() < 1e-9, "the hand-worked value: {expected}");
}
