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
    // True on linear regression too, where the flag fires because the weights understate the
    // replicas' error (ratio ≈ 1.4, docs/sgais.md §15), not because a mode is missed: the
    // sentence claims the understatement, not that no replica can be trusted.
    assert!(b.sentence().contains("understates its error") && !b.sentence().contains("can be trusted"), "{}", b.sentence());
    // The GMM numbers: three replicas spread over 2,657 nats with ESS ≈ 35 of 50.
    let predicted = 40.0 * (1.0 / 25.0 - 1.0 / 50.0);
    assert!(agreement(&[-39_731.0, -38_192.0, -37_075.0], &[predicted; 3]).unwrap().disagree);
    assert!(agreement(&[1.0], &[1.0]).is_none());
    assert!(agreement(&[1.0, f64::NAN], &[1.0, 1.0]).is_none());
}

/// Two replicas (the smallest set the check accepts), hand-worked: log Ẑ = 0, 2 → mean 1,
/// s² = ((−1)² + 1²)/1 = 2; predicted variances 1, 1 → statistic 1·2/1 = 2, ratio √2, range 2.
/// The threshold is χ²₁'s 99 % point, 6.635 (Abramowitz & Stegun 26.8), within Wilson–Hilferty's
/// 2 %; with three replicas χ²₂'s, 9.210. (Issue 23, twelfth pass: kills `r < 2` → `r <= 2` and
/// the degrees of freedom r − 1 → r + 1, r / 1.)
#[test]
fn two_replicas_are_checked_against_chi_square_with_one_degree_of_freedom() {
    let a = agreement(&[0.0, 2.0], &[1.0, 1.0]).expect("two replicas are enough");
    assert_eq!((a.replicas, a.range, a.statistic), (2, 2.0, 2.0));
    assert!((a.between_sd - 2f64.sqrt()).abs() < 1e-15 && (a.ratio - 2f64.sqrt()).abs() < 1e-15);
    assert!((a.threshold - 6.635).abs() / 6.635 < 0.02, "threshold {} for R = 2", a.threshold);
    assert!(!a.disagree && a.sentence().contains("R − 1 = 1 degrees"), "{}", a.sentence());
    let b = agreement(&[10.0, 12.0, 14.0], &[1.0; 3]).unwrap();
    assert!((b.threshold - 9.210).abs() / 9.210 < 0.02, "threshold {} for R = 3", b.threshold);
}

/// Replicas whose weights predict no variance at all (σ̄² = 0): identical log Ẑ agree
/// (statistic 0, ratio s/σ̄ = √(statistic/(R − 1)) = 0), different ones disagree (statistic and
/// ratio ∞, any scatter is unexplained).
#[test]
fn zero_predicted_variance_flags_any_scatter_and_only_scatter() {
    let same = agreement(&[3.0, 3.0, 3.0], &[0.0; 3]).unwrap();
    assert_eq!((same.statistic, same.ratio), (0.0, 0.0), "no scatter, nothing to explain (the page said 'ratio inf')");
    assert!(!same.disagree && same.sentence().starts_with("Replicas agree"));
    let apart = agreement(&[1.0, 3.0], &[0.0, 0.0]).unwrap();
    assert_eq!((apart.statistic, apart.ratio), (f64::INFINITY, f64::INFINITY));
    assert!(apart.disagree && apart.sentence().contains("DISAGREE"));
}

/// "Flagged when the statistic EXCEEDS the 99 % point": at equality the replicas agree. The
/// case is built so that (R − 1)s²/σ̄² lands on the threshold exactly (asserted first).
#[test]
fn a_statistic_equal_to_the_threshold_is_not_flagged() {
    let t = chi_square_99(1);
    // s² = 2 (log Ẑ = 0, 2); statistic = 2/v. Step v by ulps until 2/v == t exactly.
    let mut v = 2.0 / t;
    for _ in 0..8 {
        if 2.0 / v == t {
            break;
        }
        v = if 2.0 / v > t { f64::from_bits(v.to_bits() + 1) } else { f64::from_bits(v.to_bits() - 1) };
    }
    let a = agreement(&[0.0, 2.0], &[v, v]).unwrap();
    assert_eq!(a.statistic, a.threshold, "the case is on the threshold");
    assert!(!a.disagree, "equal is not above");
}
