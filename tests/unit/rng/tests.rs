//! Unit tests of src/rng.rs (`rng::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use rand::{Rng, RngExt};
use sgviz::rng::*;

#[test]
fn index_below_replays_rand_random_range_exactly() {
    // Small and large ranges, including ones near 2³² where the second draw is frequent.
    let ranges = [1usize, 2, 3, 7, 32, 1000, 9_973, 1 << 20, 1_000_000, (1 << 31) + 1, 3_000_000_000, u32::MAX as usize];
    for (seed, &n) in ranges.iter().enumerate() {
        let (mut ours, mut theirs) = (chain_rng(seed as u64), chain_rng(seed as u64));
        for _ in 0..20_000 {
            assert_eq!(index_below(&mut ours, n), theirs.random_range(0..n), "n = {n}");
        }
        assert_eq!(ours.next_u64(), theirs.next_u64(), "same number of draws consumed, n = {n}");
    }
}
