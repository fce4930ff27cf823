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
