//! Unit tests of src/sgais/warning.rs (`sgais::warning::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::spread::Spread;
use sgviz::sgais::warning::*;

fn spread(values: &[f64]) -> Spread {
    Spread::of(values).unwrap()
}

#[test]
fn the_paper_settings_run_is_warned_about_and_a_healthy_one_is_not() {
    // The numbers: ESS 1 of 100 particles; four replicas with error ≈ −152 ± 49.
    let collapsed = spread(&[1.0, 1.2, 1.0, 1.1]);
    let biased = spread(&[-250.0, -54.0, -152.0, -152.0]); // mean −152, se = sd/2 ≈ 40
    let warning = reliability_warning(Some(&collapsed), 100, Some(&biased)).unwrap();
    assert!(warning.contains("ESS 1.0 of M = 100") && warning.contains("standard errors"), "{warning}");
    // Healthy: ESS 60 of 100, error within its standard error.
    assert!(reliability_warning(Some(&spread(&[60.0, 70.0])), 100, Some(&spread(&[-1.0, 1.5, 0.2]))).is_none());
    // One replica: no standard error, so only the ESS can warn.
    assert!(reliability_warning(Some(&spread(&[80.0])), 100, Some(&spread(&[-152.0]))).is_none());
}

/// Hand-made replica sets with exact standard errors (issue 23, twelfth pass): four values
/// m + (3, −1, −1, −1)·s/2 have mean m, sd s and se s/2 exactly.
fn error_of(mean: f64, se: f64) -> Spread {
    let s = spread(&[mean + 3.0 * se, mean - se, mean - se, mean - se]);
    assert_eq!((s.mean, s.se), (mean, Some(se)), "the hand-made spread");
    s
}

/// The ESS sign: below 5 % of M warns, 5 % itself does not ("below"); the floor of 2 for small M.
#[test]
fn ess_is_warned_about_strictly_below_five_percent_of_m() {
    let healthy_error = error_of(0.0, 1.0);
    assert!(reliability_warning(Some(&spread(&[5.0])), 100, Some(&healthy_error)).is_none(), "ESS 5 = 5 % of 100");
    let w = reliability_warning(Some(&spread(&[4.0])), 100, None).expect("ESS 4 < 5 % of 100");
    assert!(w.contains("ESS 4.0 of M = 100") && !w.contains("standard errors"), "{w}");
    assert!(reliability_warning(Some(&spread(&[1.5])), 10, None).is_some(), "5 % of 10 is 0.5, the floor is 2");
    assert!(reliability_warning(Some(&spread(&[2.0])), 10, None).is_none());
}

/// The bias sign: |mean error| > 3 se warns; exactly 3 se, 1 se, or se = 0 (identical replicas:
/// no spread to measure against) do not.
#[test]
fn error_is_warned_about_strictly_beyond_three_standard_errors() {
    let w = reliability_warning(None, 100, Some(&error_of(3.5, 1.0))).expect("3.5 se");
    assert!(w.contains("(+3.5 nats) is 3.5 standard errors") && !w.contains("ESS"), "{w}");
    assert!(reliability_warning(None, 100, Some(&error_of(-3.5, 1.0))).is_some(), "either sign");
    assert!(reliability_warning(None, 100, Some(&error_of(3.0, 1.0))).is_none(), "3 se is not beyond 3 se");
    assert!(reliability_warning(None, 100, Some(&error_of(2.0, 2.0))).is_none(), "1 se");
    assert!(reliability_warning(None, 100, Some(&spread(&[-5.0, -5.0]))).is_none(), "se = 0");
}
