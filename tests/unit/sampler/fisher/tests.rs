//! Unit tests of src/sampler/fisher.rs (`sampler::fisher::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use nalgebra::DMatrix;
use sgviz::sampler::fisher::*;
use sgviz::model::linear::{LinearRegression, PARAMS};
use sgviz::params::ParamValues;
use sgviz::rng::chain_rng;

#[test]
fn prior_precision_of_a_gaussian_prior_is_its_inverse_variance() {
    let mut values = ParamValues::defaults(PARAMS);
    values.set(PARAMS, "prior_sd", 2.0).unwrap();
    let model = LinearRegression::synthetic(&values);
    let g = prior_precision(&model, &[0.3, -1.2]);
    assert!((g[(0, 0)] - 0.25).abs() < 1e-8 && (g[(1, 1)] - 0.25).abs() < 1e-8 && g[(0, 1)].abs() < 1e-8);
}

#[test]
fn running_fisher_is_the_mean_of_the_updates() {
    let mut f = RunningFisher::new(1);
    for v in [1.0, 2.0, 6.0] {
        f.update(&[v]);
    }
    assert!((f.estimate()[(0, 0)] - 3.0).abs() < 1e-12);
}

#[test]
fn indefinite_covariance_is_clipped_not_panicking() {
    let cov = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, -1.0]);
    let (x, clipped) = gaussian_with_covariance(&cov, &mut chain_rng(1));
    assert!(clipped && x[1].abs() < 1e-12 && x[0].is_finite());
    let nan = DMatrix::from_element(2, 2, f64::NAN);
    assert!(gaussian_with_covariance(&nan, &mut chain_rng(1)).0.iter().all(|v| v.is_nan()));
}
