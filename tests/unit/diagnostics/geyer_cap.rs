//! Issue 23, seventeenth pass (MUTANTS.md): Geyer's τ at its lag cap, the truncation flag, the
//! bounded ESS's thinning, on series whose Geyer sequence is still positive where the cap stops
//! it (docs/diagnostics.md §3). Every expected value is an exact fraction worked outside the code:
//! ρ(h) = Σ_t c_t c_{t+h} / Σ_t c_t² of the centred series, adjacent pairs ρ(2k) + ρ(2k + 1),
//! each capped by the one before (monotone), summed while the pair's lags stay below the cap and
//! below n/2, τ = −1 + 2 Σ pairs (at least 1).
//!
//! A ramp 1, 2, …, n is affine in t, so ρ depends on n only, and a ramp thinned by 2 is a ramp
//! of half the length. Its first autocorrelations (exact, by the formula above):
//!   n = 6:  1, 1/2                            pair₀ = 3/2
//!   n = 8:  1, 5/8, 23/84, −5/168             pairs 13/8, 41/168
//!   n = 12: 1, 3/4, 145/286, 159/572          pairs 7/4, 449/572
//!   n = 14: 1, 11/14, 262/455, 341/910, 17/91, 3/182     pairs 25/14, 173/182, 37/182
//!   n = 16: 1, 13/16, 427/680, 611/1360       pairs 29/16, 1465/1360
//!   n = 20: 1, 17/20, 933/1330, 1479/2660, 276/665, 149/532   pairs 37/20, 3345/2660, 1851/2660

use sgviz::diagnostics::*;

fn close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < 1e-12, "{what}: {got} (expected {want})");
}

fn ramp(n: usize) -> Vec<f64> {
    (1..=n).map(|t| t as f64).collect()
}

/// A ramp of 14 at the cap n/2 = 7 (an odd number of lags): three pairs (lags 0–5) are summed,
/// τ = −1 + 2(25/14 + 173/182 + 37/182) = 444/91, and the flag says the cap n/2 was reached:
/// there is nothing more to read, so τ is not a lower bound (true). The same from the
/// full-series estimate, whose cap is n/2.
#[test]
fn at_the_cap_of_half_the_series_geyer_stops_and_says_so() {
    let (tau, truncated) = autocorrelation_time_within(&ramp(14), 7);
    close(tau, 444.0 / 91.0, "τ of a ramp of 14 at cap 7");
    assert!(truncated, "a sum that reached n/2 is complete (flag {truncated})");
    close(integrated_autocorrelation_time(&ramp(14)), 444.0 / 91.0, "τ of a ramp of 14");
}

/// A ramp of 20 under a cap of 5 lags (odd, below n/2 = 10): two pairs (lags 0–3) fit, the third
/// (lags 4, 5) does not: τ = −1 + 2(37/20 + 3345/2660) = 3468/665, and the sequence was still
/// positive at the cap, so the flag is false (τ is a lower bound).
#[test]
fn under_an_odd_cap_only_pairs_whose_lags_lie_below_it_are_summed() {
    let (tau, truncated) = autocorrelation_time_within(&ramp(20), 5);
    close(tau, 3468.0 / 665.0, "τ of a ramp of 20 at cap 5");
    assert!(!truncated, "the Geyer sequence is positive at the cap: τ is a lower bound");
}

/// A series whose Geyer pairs stay positive past n/2 (found by a search, checked by hand): x =
/// (4, 4, 3, 5, 0, 4, 1, 5, 1, 2, 0, 0), pairs 1027/1236, 1063/6180, 153/2060, 91/1236, −23/60.
/// A cap beyond the series (12 lags) still reads lags below n/2 = 6 only: τ = −1 + 2(1027/1236 +
/// 1063/6180 + 153/2060) = 1189/1030 (not 2011/1545, which adds the pair at lags 6 and 7).
#[test]
fn a_cap_beyond_the_series_reads_lags_below_half_its_length_only() {
    let x = [4.0, 4.0, 3.0, 5.0, 0.0, 4.0, 1.0, 5.0, 1.0, 2.0, 0.0, 0.0];
    let (tau, truncated) = autocorrelation_time_within(&x, 12);
    close(tau, 1189.0 / 1030.0, "τ at cap 12 on 12 values");
    assert!(truncated);
    close(integrated_autocorrelation_time(&x), 1189.0 / 1030.0, "τ of the same series");
}

/// The bounded ESS thins by 2 while the sequence is positive at the cap and the series has at
/// least 4·max(cap, 4) values. Cap 4 (lags 0–3, two pairs):
/// - a ramp of 12 (< 16 values) is not thinned although its τ = −1 + 2(7/4 + 449/572) = 582/143
///   is a lower bound (two pairs end at lag 3 < 6): ESS = 12·143/582;
/// - a ramp of 32 is thinned to 16 values (16 is not < 16, its τ is still a lower bound), then to
///   8, where the cap reaches n/2 (flag true): the pairs of a ramp of 8 are 13/8 and 23/84 − 5/168
///   = 41/168, τ = −1 + 2(13/8 + 41/168) = 115/42, ESS = 8·42/115.
#[test]
fn the_bounded_ess_thins_a_slow_series_until_the_cap_covers_it() {
    close(effective_sample_size_bounded(&ramp(12), 4), 12.0 * 143.0 / 582.0, "ramp of 12, cap 4");
    close(effective_sample_size_bounded(&ramp(32), 4), 8.0 * 42.0 / 115.0, "ramp of 32, cap 4");
}
