//! One seeded random-number generator per chain (ALGORITHMS.md §0): a (seed, settings) pair
//! replays exactly, natively and in the browser.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Exp1, StandardNormal};

/// The generator every chain owns. Xoshiro256++ is fast, small and identical on wasm32.
pub type ChainRng = Xoshiro256PlusPlus;

/// A generator seeded from a user-visible 64-bit seed.
pub fn chain_rng(seed: u64) -> ChainRng {
    ChainRng::seed_from_u64(seed)
}

/// One draw from N(0, 1).
#[inline]
pub fn standard_normal(rng: &mut ChainRng) -> f64 {
    StandardNormal.sample(rng)
}

/// One draw from Exp(1).
#[inline]
pub fn standard_exponential(rng: &mut ChainRng) -> f64 {
    Exp1.sample(rng)
}

/// One draw from U(0, 1).
#[inline]
pub fn uniform(rng: &mut ChainRng) -> f64 {
    rng.random::<f64>()
}

/// A uniform index in `0..n` (n > 0).
#[inline]
pub fn index_below(rng: &mut ChainRng, n: usize) -> usize {
    rng.random_range(0..n)
}

/// Fill `out` with independent N(0, 1) draws.
pub fn fill_standard_normal(rng: &mut ChainRng, out: &mut [f64]) {
    for x in out.iter_mut() {
        *x = standard_normal(rng);
    }
}
