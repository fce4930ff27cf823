//! Unit tests of src/sgais/agreement.rs (`sgais::agreement::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::agreement::*;

/// χ²_k 99 % quantiles from tables (Abramowitz & Stegun 26.8): 6.635, 9.210, 11.345, 23.209, 37.566.
#[test]
fn wilson_hilferty_matches_tables() {
    for (k, q) in [(1, 6.635), (2, 9.210), (3, 11.345), (10, 23.209), (20, 37.566)] {
        assert!((chi_square_99(k) - q).abs() / q < 0.02, "k = {k}: {} vs {q}", chi_square_99(k));
    }
}

/// Hand-worked: log Ẑ = 10, 12, 14 → s² = 4; predicted variances 1, 1, 1 → statistic 2·4/1 = 8
/// < 9.21 (agree). With predicted 0.25 each: statistic 32 > 9.21 (disagree), ratio 4.
#[test]
fn hand_made_replicas() {
    let a = agreement(&[10.0, 12.0, 14.0], &[1.0, 1.0, 1.0]).unwrap();
    assert_eq!((a.replicas, a.between_sd, a.range, a.within_sd, a.statistic), (3, 2.0, 4.0, 1.0, 8.0));
    assert!(!a.disagree && a.sentence().starts_with("Replicas agree"));
    let b = agreement(&[10.0, 12.0, 14.0], &[0.25, 0.25, 0.25]).unwrap();
    assert_eq!((b.statistic, b.ratio), (32.0, 4.0));
    assert!(b.disagree && b.sentence().contains("DISAGREE") && b.sentence().contains("range 4.00"));
    // The GMM numbers: three replicas spread over 2,657 nats with ESS ≈ 35 of 50.
    let predicted = 40.0 * (1.0 / 25.0 - 1.0 / 50.0);
    assert!(agreement(&[-39_731.0, -38_192.0, -37_075.0], &[predicted; 3]).unwrap().disagree);
    assert!(agreement(&[1.0], &[1.0]).is_none());
    assert!(agreement(&[1.0, f64::NAN], &[1.0, 1.0]).is_none());
}
