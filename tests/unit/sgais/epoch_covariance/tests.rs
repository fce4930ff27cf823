//! The epoch covariances of src/sgais/epoch_covariance.rs on hand-worked cases (M = 2; weights
//! 3 : 1 normalise to W̃ = 1.5, 0.5, deviations ±0.5; c = (1/M²) Σ_j (ancestor's dev)(own dev)).
//! With every copy given particle 0's deviation instead of its parent's (`Ancestry::resampled`)
//! the two lag tests fail.

use sgviz::sgais::epoch_covariance::{correction, Ancestry, LAGS};

const HEAVY_FIRST: [f64; 2] = [1.098_612_288_668_109_8, 0.0]; // ln 3, ln 1
const HEAVY_SECOND: [f64; 2] = [0.0, 1.098_612_288_668_109_8];

#[test]
fn without_a_resampling_there_is_no_covariance() {
    assert_eq!(Ancestry::new(2).cross_terms(&HEAVY_FIRST), [0.0; LAGS]);
}

/// Kept in place (a(j) = j), the heavy particle turns light: (0.5·(−0.5) + (−0.5)·0.5)/4 = −1/8.
/// Both copies of the heavy one: (0.5·(−0.5) + 0.5·0.5)/4 = 0.
#[test]
fn lag_one_pairs_each_particle_with_its_parent() {
    let mut kept = Ancestry::new(2);
    kept.resampled(&[0, 1], &HEAVY_FIRST);
    let terms = kept.cross_terms(&HEAVY_SECOND);
    assert!((terms[0] + 0.125).abs() < 1e-12, "{terms:?}");
    assert!(terms[1..].iter().all(|t| *t == 0.0), "{terms:?}");
    let mut copied = Ancestry::new(2);
    copied.resampled(&[0, 0], &HEAVY_FIRST);
    assert!(copied.cross_terms(&HEAVY_SECOND)[0].abs() < 1e-12);
}

/// Two resamplings, the second swapping the particles: particle 0's parent had +0.5 and its
/// grandparent −0.5, particle 1's −0.5 and +0.5; this epoch's deviations +0.5, −0.5:
/// lag 1 (0.25 + 0.25)/4 = 1/8, lag 2 (−0.25 − 0.25)/4 = −1/8; the correction counts both twice.
#[test]
fn lag_two_reaches_the_grandparent() {
    let mut ancestry = Ancestry::new(2);
    ancestry.resampled(&[0, 1], &HEAVY_FIRST);
    ancestry.resampled(&[1, 0], &HEAVY_SECOND);
    let terms = ancestry.cross_terms(&HEAVY_FIRST);
    assert!((terms[0] - 0.125).abs() < 1e-12 && (terms[1] + 0.125).abs() < 1e-12, "{terms:?}");
    assert!((correction(&terms, 1) - 0.25).abs() < 1e-12);
    assert!(correction(&terms, 2).abs() < 1e-12);
}

/// Copies of one parent (stop 49): M = 4, particles 0 and 1 copies of parent 0, 2 and 3 of
/// parents 2 and 3; weights 2 : ½ : 1 : ½ normalise to W̃ = 2, ½, 1, ½ (mean 1), deviations
/// 1, −½, 0, −½. Only the pair (0, 1) shares a parent: 2·1·(−½)/16 = −1/16. Kept in place
/// (every particle its own family) there is no pair: 0; before any resampling: 0.
/// With `sibling_term`'s own-particle sum Σ u² not subtracted it reads −1/16 + 3/32 = 1/32 and fails.
#[test]
fn siblings_pair_only_distinct_copies_of_one_parent() {
    let log_w = [2f64.ln(), 0.5f64.ln(), 0.0, 0.5f64.ln()];
    assert_eq!(Ancestry::new(4).sibling_term(&log_w), 0.0);
    let mut families = Ancestry::new(4);
    families.resampled(&[0, 0, 2, 3], &[0.0; 4]);
    let term = families.sibling_term(&log_w);
    assert!((term + 1.0 / 16.0).abs() < 1e-12, "{term}");
    let mut kept = Ancestry::new(4);
    kept.resampled(&[0, 1, 2, 3], &[0.0; 4]);
    assert!(kept.sibling_term(&log_w).abs() < 1e-12);
}
