//! Unit tests of src/sampler/band_check.rs (`sampler::band_check::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sampler::band_check::*;

#[test]
fn the_remedy_batch_scales_n_by_the_share_over_half_the_limit() {
    // Hand-worked with the limit 0.034 (half: 0.017): 7 · 0.037 / 0.017 = 15.2 → 16;
    // 20 · 0.115 / 0.017 = 135.3 → 136; capped at N; never below n + 1.
    assert_eq!(remedy_batch(7, 0.037, 1000), 16);
    assert_eq!(remedy_batch(20, 0.115, 1000), 136);
    assert_eq!(remedy_batch(20, 0.9, 500), 500);
    assert_eq!(remedy_batch(50, 0.0171, 1000), 51);
}

/// Issue 23, fifteenth pass: the share the page shows ("share of bounce intensity missed by the
/// band"), by hand. Five proposals with G̃/λ̄ = 1.5 (bounce), 0.5, 3 (bounce), 0.8 (bounce), 2:
/// missed Σ(G̃/λ̄ − 1)⁺ = 0.5 + 2 + 1 = 3.5 over 3 bounces, share 3.5/(3.5 + 3) = 7/13; after a
/// reset nothing is recorded (0/0: NaN, "before the first proposal").
#[test]
fn the_missed_share_is_the_excess_ratio_over_itself_plus_the_bounces() {
    let mut check = BandCheck::default();
    for (ratio, bounced) in [(1.5, true), (0.5, false), (3.0, true), (0.8, true), (2.0, false)] {
        check.record(ratio, bounced);
    }
    assert!((check.missed_share() - 7.0 / 13.0).abs() < 1e-15, "{}", check.missed_share());
    assert!((missed_share(1.0, 4) - 0.2).abs() < 1e-15);
    check.reset();
    assert!(check.missed_share().is_nan());
}

/// At the full batch the remedy is k, not "raise n to N (now N)" (review s52, BPS step 4: "Raise
/// the minibatch size n to 1,000 (now 1,000) or k"). 200 bounces at G̃/λ̄ = 2 miss half the
/// intensity (share 200/(200 + 200)), far past the limit: the warning names k at n = N, n below it.
#[test]
fn at_the_full_batch_the_remedy_is_k() {
    let mut check = BandCheck::default();
    for _ in 0..200 {
        check.record(2.0, true);
    }
    let full = check.warning("SBPS", 3.0, 1000, 1000).expect("half the intensity missed: warned");
    assert_eq!(full.param, "band_k");
    assert!(full.text.starts_with("Raise the confidence multiple k (now 3); n is already all N = 1,000 data: biased"), "{}", full.text);
    let below = check.warning("SBPS", 3.0, 100, 1000).expect("warned");
    assert_eq!(below.param, "batch_size");
    assert!(below.text.starts_with("Raise the minibatch size n to 1,000 (now 100) or k"), "{}", below.text);
}
