//! Unit tests of src/model/linear.rs (`model::linear::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use nalgebra::{DMatrix, DVector};
use sgviz::params::ParamValues;
use sgviz::model::linear::*;

/// docs/truth.md (TRUTH.3), the direct form: y ~ N(0, σ²I + σ_p² ΦΦᵀ).
fn direct_log_evidence(model: &LinearRegression) -> f64 {
    let n = model.n_data();
    let phi = DMatrix::from_fn(n, model.d + 1, |i, j| model.design_row(i)[j]);
    let c = DMatrix::<f64>::identity(n, n) * model.noise_sd.powi(2) + &phi * phi.transpose() * model.prior_sd.powi(2);
    let y = DVector::from_vec(model.responses.clone());
    let chol = c.cholesky().unwrap();
    let log_det: f64 = chol.l().diagonal().iter().map(|l| 2.0 * l.ln()).sum();
    -(n as f64 / 2.0) * (2.0 * std::f64::consts::PI).ln() - 0.5 * log_det - 0.5 * y.dot(&chol.solve(&y))
}

#[test]
fn evidence_forms_agree() {
    let mut values = ParamValues::defaults(PARAMS);
    values.set(PARAMS, "n_points", 50.0).unwrap();
    values.set(PARAMS, "n_features", 3.0).unwrap();
    values.set(PARAMS, "noise_sd", 0.7f64.sqrt()).unwrap();
    values.set(PARAMS, "prior_sd", 1.3).unwrap();
    let model = LinearRegression::synthetic(&values);
    let direct = direct_log_evidence(&model);
    assert!((model.log_evidence() - direct).abs() < 1e-9, "{} vs {direct}", model.log_evidence());
}

#[test]
fn gradient_matches_finite_differences() {
    let model = LinearRegression::synthetic(&ParamValues::defaults(PARAMS));
    let theta = [0.4, -1.1];
    let mut g = [0.0; 2];
    model.grad_log_density(&theta, &mut g);
    for j in 0..2 {
        let h = 1e-5;
        let (mut up, mut down) = (theta, theta);
        up[j] += h;
        down[j] -= h;
        let fd = (model.log_density(&up) - model.log_density(&down)) / (2.0 * h);
        assert!((fd - g[j]).abs() < 1e-6 * (1.0 + fd.abs()));
    }
}
