//! The grid truth at the node budget's floor (issue 26: at N = 10⁵ the logistic regression's truth
//! is a 17² grid, h = 18/16 = 1.125 Laplace sd on the ±9 sd region, and the page said "too coarse
//! … moments unreliable" while using it). Oracles written here, not the code's trapezoid rule:
//! 1. Gauss–Hermite product quadrature (Golub–Welsch nodes) in the coordinates that whiten the
//!    model's Laplace approximation: π/q is then nearly a low polynomial, so 20² nodes suffice;
//! 2. for the spacing rule, Gaussians with closed-form moments on grids from 0.5 to 4 sd.
//!
//! Tolerances from a closed form written here: by Poisson summation the trapezoid rule with spacing
//! h on a Gaussian of sd σ errs in E[x²] by 2(σ²ω² − 1)e^{−σ²ω²/2}·σ² (ω = 2π/h, leading alias), in
//! the mean by 2σω e^{−σ²ω²/2}·σ: at h = 1.125 σ that is 1.0·10⁻⁵ of the variance and 1.9·10⁻⁶
//! sd. The posterior is not exactly Gaussian, so a tenfold margin: 10⁻⁴ of each variance, 10⁻⁴ sd.

use nalgebra::DMatrix;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::model::logistic::{PARAMS, SPEC};
use sgviz::model::{Model, View};
use sgviz::params::ParamValues;
use sgviz::truth::{grid_truth, truth_for, TruthSource};

/// Physicists' Gauss–Hermite nodes and weights (∫ e^{−x²} f ≈ Σ wᵢ f(xᵢ)) by Golub–Welsch: the
/// eigenvalues of the Jacobi matrix with off-diagonals √(k/2), weights √π·(first eigenvector
/// component)².
fn gauss_hermite(n: usize) -> Vec<(f64, f64)> {
    let mut jacobi = DMatrix::zeros(n, n);
    for k in 1..n {
        let b = (k as f64 / 2.0).sqrt();
        jacobi[(k, k - 1)] = b;
        jacobi[(k - 1, k)] = b;
    }
    let eigen = jacobi.symmetric_eigen();
    (0..n).map(|i| (eigen.eigenvalues[i], std::f64::consts::PI.sqrt() * eigen.eigenvectors[(0, i)].powi(2))).collect()
}

/// [mx, my, vxx, vxy, vyy] of π by Gauss–Hermite in z, θ = μ + L z (L Lᵀ = the Laplace covariance).
fn hermite_moments(model: &dyn Model, n: usize) -> [f64; 5] {
    let laplace = model.laplace_moments().expect("the logistic regression caches its Laplace approximation");
    let (mu, c) = (&laplace.mean, &laplace.cov);
    let l11 = c[0][0].sqrt();
    let l21 = c[1][0] / l11;
    let l22 = (c[1][1] - l21 * l21).sqrt();
    let top = model.log_density(mu);
    let rule = gauss_hermite(n);
    let mut s = [0.0; 6];
    for &(xa, wa) in &rule {
        for &(xb, wb) in &rule {
            let (za, zb) = (std::f64::consts::SQRT_2 * xa, std::f64::consts::SQRT_2 * xb);
            let (x, y) = (mu[0] + l11 * za, mu[1] + l21 * za + l22 * zb);
            // The weight e^{−x²} of each axis is the standard normal in z: divide it out.
            let w = wa * wb * (model.log_density(&[x, y]) - top + 0.5 * (za * za + zb * zb)).exp();
            for (acc, v) in s.iter_mut().zip([1.0, x, y, x * x, x * y, y * y]) {
                *acc += w * v;
            }
        }
    }
    let (mx, my) = (s[1] / s[0], s[2] / s[0]);
    [mx, my, s[3] / s[0] - mx * mx, s[4] / s[0] - mx * my, s[5] / s[0] - my * my]
}

fn logistic(n_points: f64) -> Box<dyn Model> {
    let mut values = ParamValues::defaults(PARAMS);
    values.set(PARAMS, "n_points", n_points).unwrap();
    (SPEC.build)(&values, None).unwrap()
}

/// The page's truth at N agrees with the Gauss–Hermite oracle, says it is reliable, and its stated
/// bound covers its distance to the oracle.
fn check(n_points: f64) {
    let model = logistic(n_points);
    let truth = truth_for(model.as_ref());
    assert_eq!(truth.source, TruthSource::GridQuadrature, "N = {n_points}: {}", truth.error);
    assert!(truth.error_bound.is_finite() && !truth.error.contains("unreliable"), "N = {n_points}: the truth disowns itself: {}", truth.error);
    let m = truth.moments.clone().unwrap();
    let oracle = hermite_moments(model.as_ref(), 20);
    let shown = [m.mean[0], m.mean[1], m.cov[0][0], m.cov[0][1], m.cov[1][1]];
    let (sx, sy) = (oracle[2].sqrt(), oracle[4].sqrt());
    let tolerance = [1e-4 * sx, 1e-4 * sy, 1e-4 * oracle[2], 1e-4 * sx * sy, 1e-4 * oracle[4]];
    for k in 0..5 {
        let off = (shown[k] - oracle[k]).abs();
        assert!(off <= tolerance[k], "N = {n_points}, entry {k}: truth {} vs Gauss–Hermite {}: off by {off:e} > {:e}", shown[k], oracle[k], tolerance[k]);
        assert!(off <= truth.error_bound, "N = {n_points}, entry {k}: off by {off:e}, beyond the stated bound {:e}", truth.error_bound);
    }
}

#[test]
fn the_17_node_grid_at_n_100000_is_the_truth_it_claims_to_be() {
    check(100_000.0);
}

#[test]
fn the_refined_grid_at_n_1000_agrees_with_gauss_hermite() {
    check(1_000.0);
}

/// At every spacing from 0.5 to 4 sd the grid either refuses ("too coarse", infinite bound) or its
/// stated bound covers its true error; and up to 2 sd it does not refuse (today's code refused from
/// h = 1 sd on, the spacing the budget's 17² grid has at N = 10⁵). Not guarded here: refusal
/// beyond 2 sd (with the limit at 4 sd this still passes at these offsets) (the closed form above:
/// the h rule errs by 0.13 of the variance at h = 2σ, the 2h rule by 0.86, so |M_h − M_2h| covers
/// the h rule's error; at h = 3σ the 2h rule is the more accurate and the comparison means nothing).
#[test]
fn the_grid_refuses_or_its_bound_covers_it_and_it_does_not_refuse_up_to_two_sd() {
    let (sd1, sd2) = (1.0, 0.6);
    let model = CorrelatedGaussian::new(sd1, sd2, 0.5, 0.0);
    let exact = model.exact_moments().unwrap();
    for tenths in 5..=40 {
        let h = tenths as f64 / 10.0; // in units of the larger sd
        // 16 intervals, the budget's floor, off-centre by a third of a spacing (no lucky symmetry).
        let half = 8.0 * h;
        let region = View::centred(h / 3.0, -h / 5.0, half, half * sd2 / sd1);
        let grid = grid_truth(&model, region, 16);
        let m = grid.moments.clone().unwrap();
        let off = m.mean.iter().zip(&exact.mean).map(|(a, b)| (a - b).abs()).chain(m.cov.iter().flatten().zip(exact.cov.iter().flatten()).map(|(a, b)| (a - b).abs())).fold(0.0, f64::max);
        assert!(off <= grid.error_bound, "h = {h} sd: off by {off:e}, stated bound {:e} ({})", grid.error_bound, grid.error);
        if h <= 2.0 {
            assert!(grid.error_bound.is_finite(), "h = {h} sd: refused though the h/2h comparison holds: {}", grid.error);
        }
    }
}
