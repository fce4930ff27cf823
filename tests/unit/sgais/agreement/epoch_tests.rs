//! Unit tests of src/sgais/agreement.rs (`sgais::agreement::epoch_tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::run::epoch_log_z_variance;

/// Hand-worked: weights 1 and 3 (M = 2) have mean 2 and population variance 1, so the
/// delta-method variance of log((w₁ + w₂)/2) is Var(w)/(M·mean²) = 1/8; equal weights give 0.
#[test]
fn epoch_variance_is_the_delta_method_variance_of_the_weights_mean() {
    assert!((epoch_log_z_variance(&[0.0, 3f64.ln()]) - 0.125).abs() < 1e-12);
    assert!((epoch_log_z_variance(&[5.0, 5.0 + 3f64.ln()]) - 0.125).abs() < 1e-12, "scale-free");
    assert_eq!(epoch_log_z_variance(&[2.0; 4]), 0.0);
}
