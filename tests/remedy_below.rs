//! The warning's remedy (src/promise.rs `nearest_fix`, docs/diagnostics.md §7) where the fix lies
//! on the other side from tests/remedy_by_hand.rs: a slider searched second whose fix is below its
//! current value, its nearer refined fix against the first slider's (issue 23, twenty-first
//! mutation pass: the skip bound of `nearest_fix_among`, whose every earlier test had the second
//! slider's fix above), and a linear slider whose range starts above 0 with its boundary just
//! above a grid point. Boundaries worked by hand on the line target of tests/remedy_by_hand.rs.
//!
//! **SGFS-f** in full batch (n = N: γ = 2, Σ_ξ = 0) on identical data (F = 0), flat prior: the
//! Fisher estimate is the ridge alone, K = λ_r, and with u = P/K, h = 2/((1 + α²)γ) = 1/(1 + α²)
//! (Ahn et al. 2012 Algorithm 1, the law of src/law.rs's module docs) the chain is the AR(1)
//! A = 1 − hu, Q = h²α²γ/K, so
//!     P·Var = Q·P/(1 − A²) = 2hα²/(2 − hu) = 2α²/(2(1 + α²) − u),
//! and the bias |P·Var − 1| is at most 0.1 for u in [2(1 + α²) − 2α²/0.9, 2(1 + α²) − 2α²/1.1]:
//! at α² = 1/2, u ∈ [17/9, 23/11], K ∈ [11P/23, 9P/17]: a kept band 0.1 wide in ln K, below and
//! above which the bias is too large (at u → 0 it tends to 1/(1 + α²); at u ≥ 2(1 + α²) the chain
//! diverges). At fixed u < 2, P·Var rises with α to 1 and reaches 0.9 at α² = 4.5(2 − u); at fixed
//! u > 2 it falls to 1 and reaches 1.1 at α² = 5.5(u − 2).
//! The mixing half, checked by hand so that these bias boundaries are the promise's: at the band's
//! ends A = 1 − u/1.5 ∈ [−0.39, −0.26] and at the α fixes below |A| ≤ 0.11, so the sample
//! variance's relative sd over 5,000 samples, √(2(1 + ρ²)/((1 − ρ²)T)), is at most 0.024: E2 > 0.3
//! needs z > 7.
//!
//! Slider units (docs/diagnostics.md §7): α linear over [0, 100]; the ridge log over [10⁻¹², 10⁶],
//! ln 10¹⁸ = 41.45 to the slider. The search's grid puts 24 points on a slider (1/23 = 0.0435
//! apart); P is chosen so that the ridge's 16th grid point, 10^(−12 + 18·15/23) = 0.548, is at
//! 0.5P, inside the kept band (whose width, 0.0025 of the slider, holds no other).

use crate::remedy_by_hand::{line_with_fisher, params_at, Line};
use sgviz::promise::{nearest_fix, Predictor};
use sgviz::spec::DerivedParam;

/// The ridge's grid point the kept band holds (module docs).
fn ridge_grid_point() -> f64 {
    1e-12 * 1e18f64.powf(15.0 / 23.0)
}

/// Identical data (F = 0), N = 100, precision P = 2 × the ridge's grid point (module docs).
fn sgfs_line() -> Line {
    Line::new(100, 100.0 / (2.0 * ridge_grid_point()), 0.0)
}

fn remedy(sampler: &str, model: &Line, settings: &[(&str, f64)], derived: &[DerivedParam]) -> (&'static str, f64) {
    let specs = sgviz::registry::sampler(sampler).unwrap().params;
    let predictor = Predictor::new(sampler, model).expect("a Gaussian target has a law");
    let (spec, value) = nearest_fix(&predictor, specs, &params_at(sampler, settings), derived).expect("one slider keeps the promise");
    (spec.name, value)
}

/// SGFS-f's remedy on [`sgfs_line`] at α² = 1/2 and ridge λ_r = P/u (module docs).
fn sgfs_remedy_at(u: f64, derived: &[DerivedParam]) -> (&'static str, f64) {
    let model = sgfs_line();
    let ridge = model.precision() / u;
    remedy("sgfs_f", &model, &[("sgfs_alpha", 0.5f64.sqrt()), ("sgfs_ridge", ridge)], derived)
}

fn assert_close(found: (&str, f64), expected: (&str, f64), what: &str) {
    assert_eq!(found.0, expected.0, "{what}: remedy {found:?}, by hand {expected:?}");
    assert!((found.1 / expected.1 - 1.0).abs() < 1e-5, "{what}: remedy {found:?}, by hand {expected:?}");
}

#[test]
fn a_ridge_above_its_band_is_sent_down_to_it_though_alpha_was_searched_first() {
    // α² = 1/2, K = P/1.85 (bias 1 − 1/1.15 = 0.130). By α alone: α² = 4.5 · 0.15 = 0.675,
    // (0.8216 − 0.7071)/100 = 0.00114 of its slider. By the ridge alone: down to K = 9P/17, at
    // ln((17/9)/1.85)/41.45 = 0.00050: the ridge is nearer. Its kept grid
    // point 0.5P is 0.0019 below the current value and its inner neighbour (6.06 × as large) above
    // it, so the point's refinement can be the nearest; its outer neighbour is 0.045 below, its own
    // distance 0.0019: a bound taken from either skips the only kept point and names α.
    let p = sgfs_line().precision();
    assert_close(sgfs_remedy_at(1.85, &[]), ("sgfs_ridge", 9.0 * p / 17.0), "ridge above its band");
}

#[test]
fn a_ridge_below_its_band_is_sent_up_to_it_though_alpha_was_searched_first() {
    // The mirror: K = P/2.12 (bias 1/0.88 − 1 = 0.136). By α alone: α² = 5.5 · 0.12 = 0.66,
    // (0.8124 − 0.7071)/100 = 0.00105. By the ridge alone: up to K = 11P/23, at
    // ln(2.12 · 11/23)/41.45 = 0.00033. The kept grid point 0.5P is 0.0014 above, its inner
    // neighbour below the current value, its outer 0.045 above; the top of the range (K = 10⁶,
    // bias 1/(1 + α²) = 0.67) does not keep the promise, so a skipped point is not found again
    // from the range's end.
    let p = sgfs_line().precision();
    assert_close(sgfs_remedy_at(2.12, &[]), ("sgfs_ridge", 11.0 * p / 23.0), "ridge below its band");
}

#[test]
fn a_value_above_the_sliders_searched_span_is_searched_from_the_spans_top() {
    // As the first test (α² = 1/2, K = P/1.85), with the ridge's span cut at 0.5P (a derived range,
    // as the page cuts a slider at its stability limit): the current value lies above every grid
    // point. The span's top keeps the promise; bisection between it and the clamped current
    // position stays there, 0.5P, at ln(2/1.85)/ln(0.5P/10⁻¹²) = 0.0029 of the span,
    // farther than α's 0.00114: the remedy is α² = 0.675.
    let span = DerivedParam { name: "sgfs_ridge", default: 1e-6, min: 1e-12, max: 0.5 * sgfs_line().precision(), unstable_above: None };
    assert_close(sgfs_remedy_at(1.85, &[span]), ("sgfs_alpha", 0.675f64.sqrt()), "current ridge above its span");
}

/// OSGFS (corrected) in full batch, flat prior, F = λ/r: k = c, D = c/(2F), A = 1 − cr/2, injected
/// noise 2D − 2D²F (El hanchi 2018 eq. 8–10, 16, the law of src/law.rs's module docs), so
/// λ·Var = (2 − c)/(2 − cr/2) and the bias (c/2)(2 − r)/(2 − cr/2) is 0.1 at c = 0.2/(1 − 0.45r).
/// ρ = 1 − cr/2 ≈ 0.84 there: the mixing half as in tests/remedy_by_hand.rs's module docs.
fn osgfs_boundary(fisher: f64) -> f64 {
    0.2 / (1.0 - 0.45 / fisher)
}

#[test]
fn osgfs_c_is_sent_to_a_boundary_just_above_a_grid_point() {
    // λ = 1, F = 1.069: c* = 0.345396, 0.000396 above the grid point 0.001 + 8 · 0.989/23 = 0.345
    // (the range starts above 0, so a position or value computed from x + lo, or over hi + lo,
    // starts the bisection at 0.347 or 0.3457, past the boundary). From c = 0.6 (bias 0.23).
    let boundary = osgfs_boundary(1.069);
    assert!(boundary > 0.345 && boundary < 0.3455, "the hand-worked boundary {boundary} lies just above the grid point 0.345");
    let found = remedy("osgfs", &line_with_fisher(1.069), &[("osgfs_c", 0.6), ("osgfs_variant", 0.0)], &[]);
    assert_close(found, ("osgfs_c", boundary), "OSGFS c");
}

#[test]
fn osgfs_minibatch_below_wins_a_near_tie_with_c_in_slider_units() {
    // N = 1000, n = N (k = c), F = 1.069 as above: c* = 0.345396. The minibatch alone, below
    // the current value: k = 4n/(N + n) ≤ c* ⇔ n ≤ c*N/(4 − c*) = 94.5, so n = 94, at
    // ln(1000/94)/ln(5·10⁵) = 0.180186 of its slider, below the current value (the grid points 61
    // and 109 keep and break it). c from c* + 0.989 · 0.180366: 0.180366 of its slider, 0.1 % farther:
    // the minibatch wins only if each slider's unit is its own (a linear fraction over hi − lo).
    let fisher = 1.069f64;
    let (n, noise_var) = (1000.0f64, 1000.0f64);
    let model = Line::new(1000, noise_var, (fisher * noise_var * noise_var * (n - 1.0) / (n * n)).sqrt());
    let boundary = osgfs_boundary(fisher);
    let by_batch = (n / 94.0).ln() / 5e5f64.ln();
    let c = boundary + 0.989 * by_batch * 1.001;
    assert!(4.0 * 94.0 / 1094.0 < boundary && 4.0 * 95.0 / 1095.0 > boundary, "94 is the largest minibatch keeping k at most c*");
    let found = remedy("osgfs", &model, &[("osgfs_c", c), ("osgfs_variant", 0.0), ("batch_size", n)], &[]);
    assert_eq!(found, ("batch_size", 94.0), "c at {c}: {:.6} of its slider, the minibatch at {by_batch:.6}", (c - boundary) / 0.989);
}
