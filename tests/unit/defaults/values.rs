//! Unit tests that pin the numbers of src/defaults.rs by hand (issue 23, third pass): the E2 bound
//! and its lower bound, the samples a claim needs, the clamping of a derived slider, the Fisher
//! samplers' smallest minibatch, the curvature-spread refusal and the memo. Every expected value is
//! worked here from the definitions in docs/diagnostics.md §6 ((DIAG.5), the E2 of (DIAG.1)), on a hand-made diagonal
//! summary (identity eigen-directions), never read from the module's constants or functions.
//!
//! Unit tests of src/defaults.rs (`defaults::values`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::params::ParamSpec;
use sgviz::defaults::*;
use sgviz::curvature::{Curvature, CurvatureSource};
use nalgebra::DMatrix;

/// A hand-made summary: Σ = diag(4, 1) (eigen-directions the axes, flattest first) with `dim`
/// and `n_data` as given (only `fisher_minimum_batch` reads D alone; the E2 cases keep D = 2).
fn diagonal_summary(dim: usize, n_data: usize) -> Curvature {
    Curvature {
        dim,
        n_data,
        mean: vec![0.0, 0.0],
        cov: vec![vec![4.0, 0.0], vec![0.0, 1.0]],
        precisions: vec![0.25, 1.0],
        directions: DMatrix::identity(2, 2),
        lambda_max: 1.0,
        fisher_ratio: 1.0,
        synthetic_variance: 0.0,
        source: CurvatureSource::ClosedForm,
        modes: Vec::new(),
    }
}

/// A registered target at its default settings.
fn build(name: &str) -> Box<dyn Model> {
    let spec = sgviz::registry::target(name).unwrap();
    (spec.build)(&sgviz::params::ParamValues::defaults(spec.params), None).unwrap()
}

/// The chain of the hand case: variances 5 and 1 along the axes (the truth's are 4 and 1), lag-one
/// autocorrelations 0.5 and 0.
const VARIANCES: [f64; 2] = [5.0, 1.0];
const AR: [f64; 2] = [0.5, 0.0];

/// By hand: bias = (|5 − 4| + |1 − 1|)/(4 + 1) = 0.2. Monte-Carlo sds of the covariance entries
/// after T AR(1) samples (Var Ĉ_kk = 2v_k²(1 + a_k²)/((1 − a_k²)T), Var Ĉ_12 = v₁v₂(1 + a₁a₂)/
/// ((1 − a₁a₂)T)), summed over the four entries and divided by Σ|Σ_ab| = 5.
fn hand_bias_and_spread(samples: f64) -> (f64, f64) {
    let c11 = (2.0 * 25.0 * (1.25 / 0.75) / samples).sqrt();
    let c22 = (2.0 * 1.0 / samples).sqrt();
    let c12 = (5.0 / samples).sqrt();
    (0.2, (c11 + c22 + 2.0 * c12) / 5.0)
}

#[test]
fn the_e2_bound_is_the_bias_plus_twice_the_spread_of_the_hand_worked_case() {
    let c = diagonal_summary(2, 1000);
    let (bias, spread) = hand_bias_and_spread(100.0);
    // 0.2 + 2 × 0.300301 = 0.800602.
    assert!((spread - 0.300_301).abs() < 1e-6, "hand arithmetic: {spread}");
    let bound = e2_bound(&c, &VARIANCES, &AR, 100.0);
    assert!((bound - (bias + 2.0 * spread)).abs() < 1e-12, "{bound}");
}

#[test]
fn the_expected_e2_lower_bound_takes_the_larger_of_bias_and_mean_absolute_error() {
    let c = diagonal_summary(2, 1000);
    // T = 100: √(2/π) × 0.300301 = 0.239606 > 0.2, the Monte-Carlo term wins.
    let (_, spread) = hand_bias_and_spread(100.0);
    let at_100 = e2_expected_at_least(&c, &VARIANCES, &AR, 100.0);
    assert!((at_100 - (2.0 / std::f64::consts::PI).sqrt() * spread).abs() < 1e-12, "{at_100}");
    assert!((at_100 - 0.239_606).abs() < 1e-6, "{at_100}");
    // T = 10,000: the spread is ten times smaller (0.02396 < 0.2): the bias wins.
    let at_10k = e2_expected_at_least(&c, &VARIANCES, &AR, 10_000.0);
    assert!((at_10k - 0.2).abs() < 1e-12, "{at_10k}");
}

#[test]
fn the_samples_for_the_claim_solve_bias_plus_twice_the_spread_equals_three_tenths() {
    // The claim of issue 12 (docs/diagnostics.md §6): bias + 2·spread ≤ 0.3. The spread falls as 1/√T,
    // spread(T) = S₁/√T with S₁ = spread(1) = 3.00301, so 0.2 + 2S₁/√T = 0.3 at
    // T = (2S₁/0.1)² = 3,607.2.
    let c = diagonal_summary(2, 1000);
    let s1 = hand_bias_and_spread(1.0).1;
    let expected = (2.0 * s1 / (0.3 - 0.2)).powi(2);
    assert!((expected - 3_607.2).abs() < 0.1, "hand arithmetic: {expected}");
    let samples = samples_for_claim(&c, &VARIANCES, &AR);
    assert!((samples / expected - 1.0).abs() < 1e-9, "{samples} vs {expected}");
    // A bias of 0.4 (variance 6 instead of 4) is above the claim whatever the run length.
    assert_eq!(samples_for_claim(&c, &[6.0, 1.0], &AR), f64::INFINITY);
}

/// A slider's static spec (what is allowed at all).
fn spec_of(min: f64, max: f64, default: f64, integer: bool) -> ParamSpec {
    ParamSpec { integer, ..ParamSpec::linear("x", "x", "x", "", min, max, default) }
}

#[test]
fn a_derived_slider_is_clamped_into_its_static_range_by_hand() {
    let s = spec_of(0.001, 1.0, 0.1, false);
    let d = derived(&s, 0.5, 0.01, 0.8, Some(2.0));
    assert_eq!((d.default, d.min, d.max, d.unstable_above), (0.5, 0.01, 0.8, Some(2.0)));
    // A range given upside down is turned round; beyond the static range it is cut to it.
    let d = derived(&s, 0.5, 3.0, 0.0001, None);
    assert_eq!((d.min, d.max), (0.001, 1.0));
    // A default outside the derived range goes to its nearer end.
    assert_eq!(derived(&s, 0.9, 0.01, 0.8, None).default, 0.8);
    assert_eq!(derived(&s, 0.002, 0.01, 0.8, None).default, 0.01);
    // A non-finite derivation falls back to the static default (0.1), itself kept in range.
    let d = derived(&s, f64::NAN, 0.01, f64::INFINITY, None);
    assert_eq!((d.default, d.min, d.max), (0.1, 0.01, 0.1));
    // Instability limits that say nothing are dropped.
    for u in [f64::INFINITY, f64::NAN, 0.0, -1.0] {
        assert_eq!(derived(&s, 0.5, 0.01, 0.8, Some(u)).unstable_above, None, "{u}");
    }
    assert_eq!(derived(&s, 0.5, 0.01, 0.8, Some(1e-3)).unstable_above, Some(1e-3));
}

#[test]
fn an_integer_slider_rounds_its_default_inside_the_whole_numbers_of_its_range() {
    let s = spec_of(1.0, 1000.0, 10.0, true);
    assert_eq!(derived(&s, 37.6, 10.2, 50.7, None).default, 38.0);
    assert_eq!(derived(&s, 37.4, 10.2, 50.7, None).default, 37.0);
    // 50.6 rounds to 51, above the range's largest whole number 50.
    assert_eq!(derived(&s, 50.6, 10.2, 50.7, None).default, 50.0);
    // 10.3 rounds to 10, below the smallest whole number 11.
    assert_eq!(derived(&s, 10.3, 10.2, 50.7, None).default, 11.0);
}

#[test]
fn spec_finds_a_parameter_by_name() {
    let specs = [spec_of(0.0, 1.0, 0.5, false), ParamSpec { name: "y", ..spec_of(2.0, 3.0, 2.5, false) }];
    assert_eq!(spec(&specs, "y").min, 2.0);
    assert_eq!(spec(&specs, "x").min, 0.0);
    assert!(std::panic::catch_unwind(|| spec(&specs, "z").min).is_err(), "an undeclared name is a programming error");
}

#[test]
fn the_fisher_samplers_start_from_fifty_scores_or_twice_d_plus_one_never_more_than_n() {
    assert_eq!(fisher_minimum_batch(&diagonal_summary(2, 1000)), 50);
    assert_eq!(fisher_minimum_batch(&diagonal_summary(30, 1000)), 62);
    assert_eq!(fisher_minimum_batch(&diagonal_summary(2, 30)), 30);
}

thread_local! {
    static MEMO: std::cell::RefCell<Vec<(Vec<u64>, f64)>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[test]
fn the_memo_computes_once_per_key_and_keeps_the_last_sixteen() {
    let computed = std::cell::Cell::new(0);
    let get = |k: u64| {
        memoised(&MEMO, vec![k], || {
            computed.set(computed.get() + 1);
            k as f64 * 10.0
        })
    };
    assert_eq!(get(1), 10.0);
    assert_eq!(get(1), 10.0);
    assert_eq!(computed.get(), 1, "a second call with the same key is a hit");
    for k in 2..=17 {
        assert_eq!(get(k), k as f64 * 10.0);
    }
    assert_eq!(computed.get(), 17);
    // 17 keys were asked for: the first (1) was dropped, 2 … 17 are kept.
    assert_eq!(get(2), 20.0);
    assert_eq!(computed.get(), 17);
    assert_eq!(get(1), 10.0);
    assert_eq!(computed.get(), 18, "key 1 was evicted and is computed again");
}

#[test]
fn the_fisher_premise_is_refused_only_above_the_curvature_spread_limit() {
    // The correlated Gaussian (σ = 1, ρ = 0.9): its curvature is the same everywhere, so λ_max is
    // its largest precision 1/(1 − 0.9) = 10 and the spread is 1.
    let gaussian = build("gaussian");
    let c = Curvature::of(gaussian.as_ref()).unwrap();
    let spread = c.lambda_max / c.precisions[1];
    assert!((spread - 1.0).abs() < 1e-9, "{spread}");
    let refused = fisher_premise_violation_above(gaussian.as_ref(), 0.5).expect("a spread of 1 is above 0.5");
    assert!(refused.contains("varies 1-fold") && refused.contains("Pick HMC for this target"), "{refused}");
    // "More than" the limit: a spread equal to it is accepted.
    assert_eq!(fisher_premise_violation_above(gaussian.as_ref(), spread), None);
    assert_eq!(fisher_premise_violation(gaussian.as_ref()), None);
    // The banana's curvature varies a few hundredfold (its arms): refused at the default limit.
    let banana = build("banana");
    assert!(fisher_premise_violation(banana.as_ref()).is_some());
}
