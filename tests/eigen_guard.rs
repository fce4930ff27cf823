//! The eigen-solvers bounded (issue 21, s44; docs/diagnostics.md §7 addendum "s44"): nalgebra's
//! `symmetric_eigen` / `symmetric_eigenvalues` iterate without limit (its Schur iteration never
//! returned on a non-finite law in s43). Every call now goes through src/linalg.rs
//! `bounded_symmetric_eigen`; each test below hands one caller a NaN or ∞ matrix and checks the
//! defined answer (nextest's slow-timeout for this file, .config/nextest.toml, turns a hang into a
//! failure). Checked with the guard removed (the unbounded call put back): on these 2 × 2 matrices
//! nalgebra 0.35 returned NaN eigenvalues rather than hanging, and the first two checks of
//! `nan_and_infinite_…` and the promise's error law failed (a "decomposition" of NaNs, an error law
//! drawn from it); the step/refresh-law and noise-split checks passed either way (they read only
//! that a value comes back). The bounded solver's values against a hand-worked 2 × 2 case.

use nalgebra::DMatrix;
use sgviz::linalg::{bounded_symmetric_eigen, largest_symmetric_eigenvalue, principal_axes, smallest_symmetric_eigenvalue};

fn poisoned(bad: f64) -> DMatrix<f64> {
    DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, bad])
}

#[test]
fn the_bounded_solver_matches_a_hand_worked_case() {
    // [[2, 1], [1, 2]]: eigenvalues 1 and 3 (trace 4, determinant 3), axes (1, ∓1)/√2.
    let m = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
    assert!((largest_symmetric_eigenvalue(&m) - 3.0).abs() < 1e-12);
    assert!((smallest_symmetric_eigenvalue(&m) - 1.0).abs() < 1e-12);
    let (variances, axes) = principal_axes(&m);
    let mut sorted = variances.clone();
    sorted.sort_by(f64::total_cmp);
    assert!((sorted[0] - 1.0).abs() < 1e-12 && (sorted[1] - 3.0).abs() < 1e-12);
    assert!((axes[(0, 0)].abs() - 0.5f64.sqrt()).abs() < 1e-12);
}

#[test]
fn nan_and_infinite_matrices_get_no_decomposition() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let m = poisoned(bad);
        assert!(bounded_symmetric_eigen(&m).is_none());
        assert!(largest_symmetric_eigenvalue(&m).is_nan() && smallest_symmetric_eigenvalue(&m).is_nan());
        let (variances, _) = principal_axes(&m);
        assert!(variances.iter().all(|v| *v == f64::INFINITY), "no finite law from a non-finite covariance: {variances:?}");
        assert!(sgviz::sampler::fisher::largest_eigenvalue(&m).is_nan());
    }
}

#[test]
fn the_step_and_refresh_laws_return_on_a_non_finite_truth() {
    for bad in [f64::NAN, f64::INFINITY] {
        let _ = sgviz::step_law::StepLaw::of_covariance(poisoned(bad));
        let _ = sgviz::refresh_law::RefreshLaw::of_covariance(poisoned(bad));
    }
}

#[test]
fn the_promise_draws_no_error_law_from_a_non_finite_covariance() {
    let offset = DMatrix::zeros(2, 2);
    let pairs = [(0, 0), (0, 1), (1, 1)];
    for bad in [f64::NAN, f64::INFINITY] {
        let mut entries = DMatrix::identity(3, 3);
        entries[(1, 1)] = bad;
        assert!(sgviz::promise::draw_e2(&offset, &entries, &pairs, 1.0).is_err());
    }
}

#[test]
fn the_noise_split_is_nan_not_a_hang_on_a_non_finite_fisher() {
    let model = sgviz::model::gaussian::CorrelatedGaussian::new(1.0, 2.0, 0.5, 1.0);
    let spec = sgviz::registry::sampler("sgld").unwrap();
    let params = sgviz::params::ParamValues::defaults(spec.params);
    let mut summary = sgviz::law::GaussianSummary::of(&model).unwrap();
    summary.synthetic = f64::NAN;
    let split = sgviz::knob_noise::update_noise("sgld", &params, &summary).unwrap();
    assert!(split.gradient.is_nan(), "{}", split.gradient);
    assert!(split.injected.is_finite());
}
