//! One seeded random-number generator per chain (docs/README.md, Notation): a (seed, settings) pair
//! replays exactly, natively and in the browser.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};
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

/// A uniform index in `0..n` (n > 0). Bit-identical to `rng.random_range(0..n)` (rand 0.10's
/// single-sample Canon/Lemire method on 32 bits: the high word of u·n for a 32-bit draw u, and a
/// second draw only when the low word falls in the top n of 2³², which can carry one into the
/// result), written out here so the minibatch loop inlines it instead of calling into rand.
/// Ranges beyond 32 bits go to rand.
#[inline(always)]
pub fn index_below(rng: &mut ChainRng, n: usize) -> usize {
    let Ok(range) = u32::try_from(n) else {
        return index_below_wide(rng, n);
    };
    assert!(range > 0, "index_below needs n > 0");
    let product = u64::from(rng.next_u32()) * u64::from(range);
    let (mut index, low) = ((product >> 32) as u32, product as u32);
    if low > range.wrapping_neg() {
        let carry_in = ((u64::from(rng.next_u32()) * u64::from(range)) >> 32) as u32;
        index += u32::from(low.checked_add(carry_in).is_none());
    }
    index as usize
}

/// [`index_below`] for n ≥ 2³² (64-bit targets only).
#[cold]
#[inline(never)]
fn index_below_wide(rng: &mut ChainRng, n: usize) -> usize {
    rng.random_range(0..n)
}

/// Fill `out` with independent N(0, 1) draws.
pub fn fill_standard_normal(rng: &mut ChainRng, out: &mut [f64]) {
    for x in out.iter_mut() {
        *x = standard_normal(rng);
    }
}
