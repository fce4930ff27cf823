//! Unit tests of src/sampler/sgfs.rs (`sampler::sgfs::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use nalgebra::DMatrix;
use sgviz::curvature::Curvature;
use sgviz::sampler::sgfs::*;

#[test]
fn scalar_law_is_the_lyapunov_solution_and_reduces_to_the_deflation_formula() {
    // θ' = (1 − h)θ + (h/λ)(ξ + η): v = (h/λ)²(q + α²γλ)/(1 − (1 − h)²).
    let (alpha, gamma, precision, noise): (f64, f64, f64, f64) = (0.7, 11.0, 5.0, 9.0 * 5.0);
    let h = 2.0 / ((1.0 + alpha * alpha) * gamma);
    let direct = (h / precision).powi(2) * (noise + alpha * alpha * gamma * precision) / (1.0 - (1.0 - h).powi(2));
    let (v, ar) = sgfs_law(alpha, gamma, precision, noise);
    assert!((v - direct).abs() < 1e-12 * direct && (ar - (1.0 - h)).abs() < 1e-15);
    // q = (N/n − 1)λ = (γ − 2)λ: vλ = 2(1 − h)/(2 − h).
    assert!((v * precision - 2.0 * (1.0 - h) / (2.0 - h)).abs() < 1e-12);
}

#[test]
fn diagonal_law_in_closed_form_solves_the_lyapunov_equation() {
    // Against Σ = AΣAᵀ + Q solved by doubling, on a correlated toy with synthetic noise (all
    // three noise terms present), and equal to the full law on an uncorrelated target.
    let model = sgviz::model::gaussian::CorrelatedGaussian::new(1.0, 2.0, 0.8, 0.7);
    let c = Curvature::of(&model).unwrap();
    let (alpha, gamma, batch) = (0.5, 3.0, 50.0);
    let (sigma, radius) = DiagonalSgfsLaw::new(&c).unwrap().covariance(alpha, gamma, batch).unwrap();
    let p = sgviz::linalg::rows_to_matrix(&c.cov).try_inverse().unwrap();
    let m = DMatrix::from_fn(2, 2, |a, b| if a == b { 1.0 / p[(a, a)] } else { 0.0 });
    let h = 2.0 / ((1.0 + alpha * alpha) * gamma);
    let a = DMatrix::identity(2, 2) - &m * &p * h;
    let noise = &p * ((100.0 / batch - 1.0) * c.fisher_ratio) + DMatrix::identity(2, 2) * 0.49;
    let injected = DMatrix::from_fn(2, 2, |i, j| if i == j { alpha * alpha * gamma * p[(i, i)] } else { 0.0 });
    let q = &m * (noise + injected) * &m * (h * h);
    let doubled = sgviz::linalg::stationary_covariance(&a, &q).unwrap();
    assert!((&sigma - &doubled).abs().max() < 1e-10 * doubled.abs().max(), "{sigma} vs {doubled}");
    let largest = a.complex_eigenvalues().iter().map(|z| z.norm()).fold(0.0, f64::max);
    assert!((radius - largest).abs() < 1e-12);

    let round = sgviz::model::gaussian::CorrelatedGaussian::new(1.0, 2.0, 0.0, 0.0);
    let c = Curvature::of(&round).unwrap();
    let (sigma, _) = DiagonalSgfsLaw::new(&c).unwrap().covariance(alpha, gamma, batch).unwrap();
    let (variances, _, _) = sgfs_variances(&c, None, alpha, gamma, batch).unwrap();
    for k in 0..2 {
        let u = c.directions.column(k);
        assert!(((u.transpose() * &sigma * u)[(0, 0)] - variances[k]).abs() < 1e-10);
    }
}
