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

/// Weights that are all zero (log-weights −∞, every particle impossible on the data so far) are
/// all equal, so the doc's "0 when all weights are equal" holds there too: the ESS of no weight is
/// 0 (src/sgais/annealing.rs), and 1/0 − 1/M must not reach the record as +∞ (stop 52: the guard's
/// `||` → `&&` returned ∞ here). The same for a single particle (1/1 − 1/1 = 0, worked by hand).
#[test]
fn weights_that_are_all_zero_have_no_epoch_variance() {
    assert_eq!(epoch_log_z_variance(&[f64::NEG_INFINITY; 4]), 0.0);
    assert_eq!(epoch_log_z_variance(&[-3.0]), 0.0);
}
