//! Unit tests of src/sgais/surprise.rs (`sgais::surprise::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::surprise::*;

#[test]
fn quantiles_match_tables() {
    // χ²_k 0.9995 quantiles (R: qchisq(0.9995, k)): k = 24: 53.48, k = 49: 88.23 (W–H within 1 %).
    for (k, q) in [(24.0, 53.48), (49.0, 88.23)] {
        assert!((chi_square_upper(k) - q).abs() / q < 0.01, "k = {k}: {}", chi_square_upper(k));
    }
}

#[test]
fn first_chunk_is_always_surprising_and_the_threshold_falls_with_n() {
    assert_eq!(surprise_threshold(24, 0, 1000, 25.0), 0.0);
    assert!(chunk_surprise(&[-10.0, -12.0], 24, 0, 1000, 25.0).surprising);
    let (a, b) = (surprise_threshold(24, 1000, 1000, 25.0), surprise_threshold(24, 10_000, 1000, 25.0));
    assert!(a > 5.0 * b, "{a} vs {b}");
    // Hand-worked: d = 2, n = m (r = 1): expected variance 1·2·2 + ½·2·1 = 5.
    assert!((stationary_variance(2, 100, 100) - 5.0).abs() < 1e-12);
    assert!((log_lik_variance(&[1.0, 2.0, 3.0, f64::NEG_INFINITY]) - 1.0).abs() < 1e-12);
}
