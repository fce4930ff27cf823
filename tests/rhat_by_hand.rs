//! src/rhat.rs's Φ⁻¹ and ESS at their edges (issue 23, eighteenth pass, MUTANTS.md), against
//! numbers computed another way:
//! - Φ⁻¹ (`normal_quantile`, Acklam's approximation) against Wichura's AS241 (Python's
//!   `statistics.NormalDist().inv_cdf`, a different algorithm accurate to ~1e-16), within Acklam's
//!   published relative error 1.15·10⁻⁹, in both tails, the centre and on both seams;
//! - the ESS of eq. 10 on tiny integer chains whose Geyer sequences were worked out in exact
//!   fractions (the values below; the ρ̂ of the one-chain case by hand in its comment): one chain,
//!   five draws, a pair sequence still positive when the loop's reach (lag n − 2) ends it, and a
//!   pair sum of exactly 0 (0/1 indicator chains, as the tail ESS feeds it).

use sgviz::rhat::{convergence, ess, normal_quantile};

/// (p, Φ⁻¹(p)) from `statistics.NormalDist().inv_cdf(p)` (Wichura 1988, AS241).
const WICHURA: [(f64, f64); 21] = [
    (1e-300, -37.0470962993612),
    (1e-20, -9.262340089798405),
    (1e-10, -6.361340902404056),
    (1e-5, -4.2648907939228256),
    (0.001, -3.090232306167813),
    (0.01, -2.3263478740408408),
    (0.02, -2.0537489106318225),
    (0.02425, -1.9729610513118845),
    (0.03, -1.8807936081512509),
    (0.1, -1.2815515655446008),
    (0.25, -0.6744897501960817),
    (0.3, -0.5244005127080407),
    (0.5, 0.0),
    (0.6, 0.2533471031357998),
    (0.75, 0.6744897501960817),
    (0.9, 1.2815515655446008),
    (0.97, 1.8807936081512504),
    (0.97575, 1.9729610513118847),
    (0.98, 2.053748910631822),
    (0.99, 2.3263478740408408),
    (0.999, 3.090232306167813),
];

#[test]
fn normal_quantile_is_wichuras_within_acklams_published_error() {
    for (p, z) in WICHURA {
        let got = normal_quantile(p);
        assert!((got - z).abs() <= 1.15e-9 * z.abs(), "Φ⁻¹({p}) = {got}, AS241 {z}");
    }
    // The seams of the three pieces are 0.02425 and 1 − 0.02425 exactly.
    let seam = 1.0 - 0.02425;
    assert!((normal_quantile(seam) - 1.9729610513118847).abs() <= 1.15e-9 * 1.973, "{}", normal_quantile(seam));
}

#[test]
fn normal_quantile_is_infinite_at_and_beyond_zero_and_one() {
    for p in [0.0, -0.5] {
        assert_eq!(normal_quantile(p), f64::NEG_INFINITY, "p = {p}");
    }
    for p in [1.0, 1.5] {
        assert_eq!(normal_quantile(p), f64::INFINITY, "p = {p}");
    }
}

fn assert_ess(chains: &[Vec<f64>], expected: f64, what: &str) {
    let got = ess(chains);
    assert!((got - expected).abs() <= 1e-12 * expected, "{what}: ESS {got}, by hand {expected}");
}

#[test]
fn one_chain_of_six_draws_has_the_hand_worked_ess() {
    // x = 1, 1, 1, 2, 2, 2: W = 0.3, var⁺ = W·5/6 = 0.25 (one chain: no between-chain term),
    // biased autocovariances 0.25, 0.125, 0, −0.125, so ρ̂₁ = 1 − 0.175/0.25 = 0.3, ρ̂₂ = −0.2,
    // ρ̂₃ = −0.7: the pair (ρ̂₂, ρ̂₃) is negative, τ̂ = −1 + 2(1 + 0.3) = 1.6, ESS = 6/1.6.
    assert_ess(&[vec![1.0, 1.0, 1.0, 2.0, 2.0, 2.0]], 3.75, "one chain");
}

#[test]
fn five_draws_per_chain_have_an_ess_and_four_do_not() {
    // τ̂ = 2 exactly (fractions), S = 10.
    assert_ess(&[vec![0.0, 1.0, 3.0, 1.0, 1.0], vec![3.0, 3.0, 3.0, 1.0, 3.0]], 5.0, "n = 5");
    // Four draws leave no pair after Γ₀ (lags 2 and 3 need n > 4): "not yet", not a panic.
    assert!(ess(&[vec![0.0, 1.0, 3.0, 1.0], vec![3.0, 3.0, 1.0, 3.0]]).is_nan());
    // Chains of 8 draws split into halves of 4: the page's R̂ entry point must not panic there.
    let c = convergence(&[vec![0.0, 1.0, 3.0, 1.0, 2.0, 5.0, 1.0, 0.0], vec![3.0, 3.0, 1.0, 3.0, 0.5, 2.0, 4.0, 1.0]]);
    assert!(c.ess_bulk.is_nan() && c.ess_tail.is_nan() && c.rhat.is_finite(), "{c:?}");
}

#[test]
fn geyer_pairs_still_positive_at_the_loops_reach_keep_only_the_last_ones_even_term() {
    // 0/1 chains of 12: the pairs (ρ̂₂ + ρ̂₃, …) stay positive until the loop stops at lag 10;
    // the last pair computed counts by its even term only (ArviZ's "improve estimation"):
    // τ̂ = 1985/1188 (exact fractions), S = 24.
    let chains = [
        vec![0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        vec![0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0],
    ];
    assert_ess(&chains, 24.0 * 1188.0 / 1985.0, "positive to the reach");
}

#[test]
fn a_pair_sum_of_exactly_zero_ends_the_positive_sequence() {
    // ρ̂ = 1, −7/90, −17/90, 3/10, −7/90, 7/90, …: Γ₁ = 1/9 > 0, Γ₂ = 0 ends the initial positive
    // sequence (it is stored, so its even term −7/90 is the one added): τ̂ = 89/90, S = 18.
    let chains = [
        vec![0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0],
        vec![1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0],
    ];
    assert_ess(&chains, 18.0 * 90.0 / 89.0, "a zero pair");
}
