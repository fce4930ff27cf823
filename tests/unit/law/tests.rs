//! Unit tests of the predicted laws (law.rs) against oracles computed another way (issue 23: they
//! used to compare with the samplers' own law functions): closed forms worked by hand for the
//! scalar cases, and for correlated, non-commuting summaries the recursion x' = Ax + w of each
//! sampler written out here from its update (docs/sgld.md §4, docs/sghmc.md §3, docs/sgfs-osgfs.md §3
//! and §4) with plain arrays and iterated step by step, Σ ← AΣAᵀ + Q, to its fixed point (no
//! nalgebra, no doubling, no Lyapunov solve). The helpers' tests (batch, noise, autocovariances,
//! JSON, refusals) are in law_helper_tests.rs.
//!
//! Unit tests of src/law.rs (`law::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use nalgebra::{DMatrix, DVector};
use sgviz::params::ParamValues;
use sgviz::law::*;
use sgviz::model::gaussian::CorrelatedGaussian;
use crate::unit::helpers::sampler_params as params;

pub(super) type Mat = Vec<Vec<f64>>;

pub(super) fn mul(a: &Mat, b: &Mat) -> Mat {
    let n = a.len();
    (0..n).map(|i| (0..n).map(|j| (0..n).map(|k| a[i][k] * b[k][j]).sum()).collect()).collect()
}

pub(super) fn add(a: &Mat, b: &Mat) -> Mat {
    a.iter().zip(b).map(|(x, y)| x.iter().zip(y).map(|(u, v)| u + v).collect()).collect()
}

pub(super) fn scale(a: &Mat, c: f64) -> Mat {
    a.iter().map(|row| row.iter().map(|x| x * c).collect()).collect()
}

fn transpose(a: &Mat) -> Mat {
    (0..a.len()).map(|i| (0..a.len()).map(|j| a[j][i]).collect()).collect()
}

pub(super) fn identity(n: usize) -> Mat {
    (0..n).map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect()
}

/// The inverse of a 2 × 2 matrix by its adjugate.
fn inverse2(a: &Mat) -> Mat {
    let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    vec![vec![a[1][1] / det, -a[0][1] / det], vec![-a[1][0] / det, a[0][0] / det]]
}

/// The stationary covariance of x' = Ax + w, w ~ (0, Q), by iterating the covariance one step at a
/// time from 0 until it stops changing (to 10⁻¹⁵ of its size).
pub(super) fn iterate_to_stationarity(a: &Mat, q: &Mat) -> Mat {
    let mut sigma = scale(q, 0.0);
    for _ in 0..2_000_000 {
        let next = add(&mul(&mul(a, &sigma), &transpose(a)), q);
        let change = next.iter().flatten().zip(sigma.iter().flatten()).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        let size = next.iter().flatten().map(|x| x.abs()).fold(0.0, f64::max);
        sigma = next;
        if change < 1e-15 * size {
            return sigma;
        }
    }
    panic!("the covariance recursion did not converge")
}

/// The θ-block (first `d` rows and columns) of a law's covariance, as plain arrays.
fn top_left(m: &Mat, d: usize) -> Mat {
    (0..d).map(|i| m[i][..d].to_vec()).collect()
}

pub(super) fn assert_close(law: &DMatrix<f64>, expected: &Mat, relative: f64, what: &str) {
    let size = expected.iter().flatten().map(|x| x.abs()).fold(0.0, f64::max);
    for (i, row) in expected.iter().enumerate() {
        for (j, x) in row.iter().enumerate() {
            assert!((law[(i, j)] - x).abs() <= relative * size, "{what}: C[{i}][{j}] = {} vs {x}", law[(i, j)]);
        }
    }
}

/// A hand-made 2-D summary whose precision, Fisher and prior do not commute (so a transposed or
/// reordered product changes the law): P, F, G below, N = 200, s² = 0.04, mean (1, −2).
pub(super) fn hand_summary() -> GaussianSummary {
    GaussianSummary {
        mean: DVector::from_vec(vec![1.0, -2.0]),
        precision: DMatrix::from_row_slice(2, 2, &[2.0, 0.6, 0.6, 1.0]),
        fisher: DMatrix::from_row_slice(2, 2, &[1.5, -0.4, -0.4, 0.8]),
        prior: DMatrix::from_row_slice(2, 2, &[0.3, 0.1, 0.1, 0.2]),
        n_data: 200.0,
        synthetic: 0.04,
        exact: true,
        source: "hand-made",
        without_gradient_noise: false,
        posterior_fisher: None,
    }
}

const P: [[f64; 2]; 2] = [[2.0, 0.6], [0.6, 1.0]];
const F: [[f64; 2]; 2] = [[1.5, -0.4], [-0.4, 0.8]];
const G: [[f64; 2]; 2] = [[0.3, 0.1], [0.1, 0.2]];
const N_DATA: f64 = 200.0;
const S2: f64 = 0.04;

fn mat(m: [[f64; 2]; 2]) -> Mat {
    m.iter().map(|r| r.to_vec()).collect()
}

/// Σ_ξ = (N/n − 1)F + s²I (docs/README.md, Notation).
fn gradient_noise(batch: f64) -> Mat {
    add(&scale(&mat(F), N_DATA / batch - 1.0), &scale(&identity(2), S2))
}

#[test]
fn sgld_on_a_correlated_summary_is_the_iterated_langevin_recursion() {
    // A = I − (ε/2)P, Q = (ε²/4)Σ_ξ + εI (Welling & Teh eq. 4).
    let (step, batch) = (0.4, 20.0);
    let a = add(&identity(2), &scale(&mat(P), -step / 2.0));
    let q = add(&scale(&gradient_noise(batch), step * step / 4.0), &scale(&identity(2), step));
    let expected = iterate_to_stationarity(&a, &q);
    let law = law_on_summary("sgld", &params("sgld", &[("step_size", step), ("batch_size", batch)]), &hand_summary()).unwrap();
    assert_close(&law.cov, &expected, 1e-10, "SGLD");
    assert_eq!(law.mean, vec![1.0, -2.0]);
    assert!(law.exact && law.note == "hand-made", "{}", law.note);
}

#[test]
fn sgld_law_is_the_scalar_closed_form_with_minibatch_and_synthetic_noise() {
    // Uncorrelated σ₁ = 1, σ₂ = 2 (precisions λ = 1, 1/4), 100 pseudo-data whose Fisher is P:
    // q = (N/n − 1)λ + s², Var = (ε + ε²q/4)/(1 − (1 − ελ/2)²) = (1 + εq/4)/(λ(1 − ελ/4)).
    let (step, batch, s) = (0.3, 7.0, 1.5);
    let closed = [1.0, 0.25].map(|l: f64| {
        let q = (100.0 / batch - 1.0) * l + s * s;
        (1.0 + step * q / 4.0) / (l * (1.0 - step * l / 4.0))
    });
    // By hand: λ = 1: q = 15.535714 (13.285714 + 2.25), 2.165179/0.925 = 2.340734.
    assert!((closed[0] - 2.340_734).abs() < 1e-6, "{closed:?}");
    let law = predicted_law("sgld", &params("sgld", &[("step_size", step), ("batch_size", batch)]), &CorrelatedGaussian::new(1.0, 2.0, 0.0, s)).unwrap();
    assert_close(&law.cov, &vec![vec![closed[0], 0.0], vec![0.0, closed[1]]], 1e-9, "SGLD scalar");
    assert!(law.exact, "{}", law.note);
}

/// SGHMC's one-step map on x = (δ, v): A = [[I − ηP, (1−α)I], [−ηP, (1−α)I]], Q = [[R, R], [R, R]],
/// R = η²Σ_ξ + 2(α − β̂)ηI (Chen et al. 2014 eq. 15, v first, then θ with the new v).
fn sghmc_recursion(eta: f64, alpha: f64, beta: f64, batch: f64) -> (Mat, Mat) {
    let r = add(&scale(&gradient_noise(batch), eta * eta), &scale(&identity(2), 2.0 * (alpha - beta) * eta));
    let mut a = vec![vec![0.0; 4]; 4];
    let mut q = vec![vec![0.0; 4]; 4];
    for i in 0..2 {
        for j in 0..2 {
            let id = if i == j { 1.0 } else { 0.0 };
            a[i][j] = id - eta * P[i][j];
            a[i][j + 2] = (1.0 - alpha) * id;
            a[i + 2][j] = -eta * P[i][j];
            a[i + 2][j + 2] = (1.0 - alpha) * id;
            for (di, dj) in [(0, 0), (0, 2), (2, 0), (2, 2)] {
                q[i + di][j + dj] = r[i][j];
            }
        }
    }
    (a, q)
}

#[test]
fn sghmc_on_a_correlated_summary_is_the_iterated_momentum_recursion() {
    let (eta, alpha, batch) = (0.1, 0.2, 25.0);
    let (a, q) = sghmc_recursion(eta, alpha, 0.0, batch);
    let full = iterate_to_stationarity(&a, &q);
    let values = params("sghmc", &[("sghmc_lr", eta), ("friction", alpha), ("batch_size", batch), ("beta_hat", 0.0)]);
    let law = law_on_summary("sghmc", &values, &hand_summary()).unwrap();
    assert_close(&law.cov, &top_left(&full, 2), 1e-10, "SGHMC");
    // The full (δ, v) covariance is what the autocorrelations start from.
    let (chain, stationary) = law.chain.as_ref().unwrap();
    assert_eq!(chain.dim, 2);
    assert_close(stationary, &full, 1e-10, "SGHMC (δ, v)");
    // β̂ is clamped to at most α: β̂ = 1 acts as β̂ = α = 0.2.
    let (a, q) = sghmc_recursion(eta, alpha, alpha, batch);
    let clamped = law_on_summary("sghmc", &params("sghmc", &[("sghmc_lr", eta), ("friction", alpha), ("batch_size", batch), ("beta_hat", 1.0)]), &hand_summary()).unwrap();
    assert_close(&clamped.cov, &top_left(&iterate_to_stationarity(&a, &q), 2), 1e-10, "SGHMC β̂ → α");
}

#[test]
fn sghmc_law_of_the_scalar_case_matches_its_hand_worked_fixed_point() {
    // Standard Gaussian in 1-D terms (λ = 1, σ₁ = σ₂ = 1), full batch, isotropic synthetic noise
    // s² = 4 cancelled by β̂ = ηs²/2: the injected 2(α − β̂)η plus η²s² is exactly 2αη, so the law is
    // the noise-free one. For x = (δ, v) with a = 1 − η, b = 1 − α, r = 2αη the fixed point of
    // X = a²X + 2abC + b²V + r, C = −ηaX + (ab − ηb)C + b²V + r, V = η²X − 2ηbC + b²V + r is solved
    // here by iterating those three scalars.
    let (eta, alpha, s) = (0.05, 0.3, 2.0);
    let (a, b, c, r) = (1.0 - eta, 1.0 - alpha, -eta, 2.0 * alpha * eta);
    let mut state = (0.0, 0.0, 0.0);
    for _ in 0..200_000 {
        let (x, cv, v) = state;
        state = (a * a * x + 2.0 * a * b * cv + b * b * v + r, a * c * x + (a * b + b * c) * cv + b * b * v + r, c * c * x + 2.0 * c * b * cv + b * b * v + r);
    }
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.0, s);
    let values = params("sghmc", &[("sghmc_lr", eta), ("friction", alpha), ("batch_size", 100.0), ("beta_hat", eta * s * s / 2.0)]);
    let law = predicted_law("sghmc", &values, &model).unwrap();
    assert_close(&law.cov, &vec![vec![state.0, 0.0], vec![0.0, state.0]], 1e-9, "SGHMC with β̂");
    // The scalar fixed point is close to, but above, the truth 1 (discretisation bias).
    assert!(state.0 > 1.0 && state.0 < 1.05, "{state:?}");
}

/// SGFS once Î has converged (Ahn et al. 2012, Algorithm 1, B = γI_N): I_N = F + (ns²/N)I + G + λI
/// (its diagonal for SGFS-d), h = 2/((1 + α²)γ), γ = (n + N)/n, A = I − hI_N⁻¹P,
/// Q = h²I_N⁻¹(Σ_ξ + α²γI_N)I_N⁻¹.
fn sgfs_law_by_iteration(alpha: f64, batch: f64, ridge: f64, diagonal: bool) -> Mat {
    let gamma = (batch + N_DATA) / batch;
    let mut info = add(&add(&mat(F), &mat(G)), &scale(&identity(2), batch * S2 / N_DATA + ridge));
    if diagonal {
        info[0][1] = 0.0;
        info[1][0] = 0.0;
    }
    let inv = inverse2(&info);
    let h = 2.0 / ((1.0 + alpha * alpha) * gamma);
    let a = add(&identity(2), &scale(&mul(&inv, &mat(P)), -h));
    let q = scale(&mul(&mul(&inv, &add(&gradient_noise(batch), &scale(&info, alpha * alpha * gamma))), &inv), h * h);
    iterate_to_stationarity(&a, &q)
}

#[test]
fn sgfs_full_and_diagonal_on_a_correlated_summary_are_the_iterated_recursions() {
    let (alpha, batch, ridge) = (0.7, 10.0, 0.05);
    for (sampler, diagonal) in [("sgfs_f", false), ("sgfs_d", true)] {
        let values = params(sampler, &[("sgfs_alpha", alpha), ("batch_size", batch), ("sgfs_ridge", ridge)]);
        let law = law_on_summary(sampler, &values, &hand_summary()).unwrap();
        assert_close(&law.cov, &sgfs_law_by_iteration(alpha, batch, ridge, diagonal), 1e-10, sampler);
    }
}

#[test]
fn sgfs_full_law_is_the_scalar_closed_form() {
    // Uncorrelated Gaussian, F = P = λ, no prior, s = 0, ridge ≈ 0: I_N = λ, A = 1 − h,
    // Q = h²(q + α²γλ)/λ², so Var = h(q + α²γλ)/(λ²(2 − h)) with q = (N/n − 1)λ.
    let (alpha, batch) = (0.7, 10.0);
    let gamma = (batch + 100.0) / batch;
    let h = 2.0 / ((1.0 + alpha * alpha) * gamma);
    let closed = [1.0, 0.25].map(|l: f64| h * ((100.0 / batch - 1.0) * l + alpha * alpha * gamma * l) / (l * l * (2.0 - h)));
    // By hand at λ = 1: γ = 11, h = 0.122026, Var = 0.122026 · 14.39/1.877974 = 0.935029.
    assert!((closed[0] - 0.935_029).abs() < 1e-5, "{closed:?}");
    let values = params("sgfs_f", &[("sgfs_alpha", alpha), ("batch_size", batch), ("sgfs_ridge", 1e-12)]);
    let law = predicted_law("sgfs_f", &values, &CorrelatedGaussian::new(1.0, 2.0, 0.0, 0.0)).unwrap();
    assert_close(&law.cov, &vec![vec![closed[0], 0.0], vec![0.0, closed[1]]], 1e-8, "SGFS-f scalar");
}

/// OSGFS once C has converged (El hanchi 2018 eq. 8–10, ε = 1) with k given: NC = F + (ns²/N)I,
/// H = NC + G, D = (k/2)H⁻¹, A = I − DP, Q = DΣ_ξD + 2D − (N/n)D·NC·D [− DHD].
fn osgfs_law_by_iteration(k: f64, batch: f64, corrected: bool) -> Mat {
    let n_c = add(&mat(F), &scale(&identity(2), batch * S2 / N_DATA));
    let h = add(&n_c, &mat(G));
    let d = scale(&inverse2(&h), k / 2.0);
    let mut injected = add(&scale(&d, 2.0), &scale(&mul(&mul(&d, &n_c), &d), -N_DATA / batch));
    if corrected {
        injected = add(&injected, &scale(&mul(&mul(&d, &h), &d), -1.0));
    }
    let a = add(&identity(2), &scale(&mul(&d, &mat(P)), -1.0));
    let q = add(&mul(&mul(&d, &gradient_noise(batch)), &d), &injected);
    iterate_to_stationarity(&a, &q)
}

#[test]
fn osgfs_on_a_correlated_summary_is_the_iterated_recursion_with_k_equal_to_c_below_its_cap() {
    // n = 20, N = 200: the cap 4 max{n/(N + n), r/(r + N/n)} ≥ 4·20/220 = 0.36 > c = 0.05, so k = c.
    let (c, batch) = (0.05, 20.0);
    for (variant, corrected) in [(0.0, true), (1.0, false)] {
        let values = params("osgfs", &[("osgfs_c", c), ("batch_size", batch), ("osgfs_variant", variant)]);
        let law = law_on_summary("osgfs", &values, &hand_summary()).unwrap();
        assert_close(&law.cov, &osgfs_law_by_iteration(c, batch, corrected), 1e-10, &format!("OSGFS variant {variant}"));
        assert!(law.exact && !law.note.contains("clipped"), "{}", law.note);
    }
}

#[test]
fn osgfs_law_deflates_by_one_minus_k_over_two_over_one_minus_k_over_four_and_uncorrected_is_exact() {
    // Flat prior, F = P: k = min(c, 4n/(N + n)) = c; corrected Q = 2D − 2DPD with D = (k/2)P⁻¹
    // gives Σ = P⁻¹(1 − k/2)/(1 − k/4); without −DHD, Σ = P⁻¹ (the without-replacement noise
    // (N/n − 1)F is smaller than the (N²/n)C the appendix's 1/(1 − k/4) assumes). The truth of
    // σ₁ = 1, σ₂ = 2, ρ = 0.9 by hand: [[1, 1.8], [1.8, 4]].
    let model = CorrelatedGaussian::new(1.0, 2.0, 0.9, 0.0);
    let truth = vec![vec![1.0, 1.8], vec![1.8, 4.0]];
    let c = 0.4;
    let corrected = predicted_law("osgfs", &params("osgfs", &[("osgfs_c", c), ("batch_size", 50.0)]), &model).unwrap();
    assert_close(&corrected.cov, &scale(&truth, (1.0 - c / 2.0) / (1.0 - c / 4.0)), 1e-9, "OSGFS corrected");
    let uncorrected = predicted_law("osgfs", &params("osgfs", &[("osgfs_c", c), ("batch_size", 50.0), ("osgfs_variant", 1.0)]), &model).unwrap();
    assert_close(&uncorrected.cov, &truth, 1e-9, "OSGFS uncorrected");
}

#[test]
fn exact_samplers_predict_the_truth_and_other_cases_say_why_not() {
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.9, 0.0);
    let law = predicted_law("mala", &params("mala", &[]), &model).unwrap();
    assert!(law.exact && law.note == "exact sampler: its stationary law is the target");
    assert_close(&law.cov, &vec![vec![1.0, 0.9], vec![0.9, 1.0]], 1e-12, "MALA");
    let why = |sampler: &str, settings: &[(&str, f64)]| predicted_law(sampler, &params(sampler, settings), &model).unwrap_err();
    assert!(why("sbps", &[]).contains("no closed-form"));
    assert!(why("sgld", &[("sgld_schedule", 1.0)]).contains("decreasing"));
    // ε beyond the stability limit 4/λ_max = 0.4 (ρ = 0.9: λ_max = 1/(1 − ρ) = 10).
    assert!(why("sgld", &[("step_size", 0.45)]).contains("unstable"));
    assert!(predicted_law("sgld", &params("sgld", &[("step_size", 0.35)]), &model).is_ok());
    // The banana's curvature varies more than tenfold: refused, or at most an approximate law.
    let spec = sgviz::registry::target("banana").unwrap();
    let banana = (spec.build)(&ParamValues::defaults(spec.params), None).unwrap();
    match predicted_law("sgld", &params("sgld", &[]), banana.as_ref()) {
        Ok(law) => assert!(!law.exact),
        Err(why) => assert!(why.contains("curvature") || why.contains("modes"), "{why}"),
    }
}

#[test]
fn osgfs_at_its_batch_cap_without_a_prior_injects_no_noise() {
    // G = 0 and k = 4n/(N + n) (c = 0.9 above the cap 80/220): the corrected injected noise
    // 2D − (N/n)D·NC·D − DHD = (k/2)H⁻¹[(2 − k/2)H − (N/n)(k/2)NC]H⁻¹ with H = NC is
    // (k/2)(2 − k/2 − (N/n)(k/2))H⁻¹ = 0 (2 − 0.1818 − 1.8182), so only DΣ_ξD remains. Rounding
    // leaves ±10⁻¹⁷ entries, which the law clips to the nearest positive semi-definite matrix
    // (its eigenvalues at 0): the law must still be the one without injected noise.
    let (batch, k) = (20.0, 80.0 / 220.0);
    let summary = GaussianSummary { prior: DMatrix::zeros(2, 2), ..hand_summary() };
    let n_c = add(&mat(F), &scale(&identity(2), batch * S2 / N_DATA));
    let d = scale(&inverse2(&n_c), k / 2.0);
    let a = add(&identity(2), &scale(&mul(&d, &mat(P)), -1.0));
    let q = mul(&mul(&d, &gradient_noise(batch)), &d);
    let law = law_on_summary("osgfs", &params("osgfs", &[("osgfs_c", 0.9), ("batch_size", batch)]), &summary).unwrap();
    assert_close(&law.cov, &iterate_to_stationarity(&a, &q), 1e-9, "OSGFS at its cap");
    // The clipping branch ran (this test is what pins clip_negative's reconstruction V·max(Λ, 0)·Vᵀ).
    assert!(law.note.ends_with("clipped (not positive definite at these settings)"), "{}", law.note);
}
