//! Unit tests of src/fastmath.rs (`fastmath::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::fastmath::*;

#[test]
fn table_exponential_matches_the_library_to_two_ulp() {
    let mut worst: f64 = 0.0;
    for k in 0..=400_000 {
        let x = (-708.0 * k as f64 / 400_000.0 - 1e-3 * ((k as u64 * 7919) % 1000) as f64 / 1000.0).max(-708.0);
        let (fast, exact) = (table_exp_nonpositive(x), x.exp());
        worst = worst.max(((fast - exact) / exact).abs());
    }
    assert!(worst < 4.5e-16, "worst relative error {worst:e}");
    assert_eq!(table_exp_nonpositive(0.0), 1.0);
    assert_eq!(table_exp_nonpositive(-800.0), 0.0);
    assert!(table_exp_nonpositive(f64::NAN).is_nan());
    assert_eq!(table_exp_nonpositive(f64::NEG_INFINITY), 0.0);
}
