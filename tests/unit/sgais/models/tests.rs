//! Unit tests of src/sgais/models.rs (`sgais::models::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::linear::{self, LinearRegression};
use sgviz::params::ParamValues;
use sgviz::sgais::models::*;

#[test]
fn sequential_curve_matches_direct_evidence() {
    let mut values = ParamValues::defaults(linear::PARAMS);
    values.set(linear::PARAMS, "n_points", 300.0).unwrap();
    values.set(linear::PARAMS, "n_features", 5.0).unwrap();
    let model = LinearRegression::synthetic(&values);
    let checkpoints = [1, 50, 120, 300];
    let curve = sequential_linear_evidence(&model, &checkpoints);
    for (n, z) in checkpoints.iter().zip(&curve) {
        assert!((z - model.log_evidence_after(*n)).abs() < 1e-8, "n = {n}");
    }
}
