//! src/law_validity.rs's small rules on hand-worked matrices (issue 23, nineteenth mutation pass:
//! `relaxation_steps`, `is_noiseless`' scale and `leaves_summary`'s strict threshold survived the
//! validity, law-rule and promise tests). Kept apart from tests/law_validity.rs, whose rules
//! another change reworks.

use nalgebra::DMatrix;
use sgviz::law_validity::{is_noiseless, leaves_summary, relaxation_steps};

fn scalar(x: f64) -> DMatrix<f64> {
    DMatrix::from_element(1, 1, x)
}

#[test]
fn relaxation_is_minus_one_over_ln_rho_and_infinite_from_rho_one() {
    // ρ = 0.5 (either sign): −1/ln 0.5 = 1/ln 2 = 1.442695…; diag(0.5, −0.25): ρ = 0.5 too.
    for a in [scalar(0.5), scalar(-0.5), DMatrix::from_row_slice(2, 2, &[0.5, 0.0, 0.0, -0.25])] {
        let steps = relaxation_steps(&a);
        assert!((steps - std::f64::consts::LOG2_E).abs() < 1e-12, "ρ = 0.5: {steps} steps, by hand 1/ln 2");
    }
    assert_eq!(relaxation_steps(&scalar(1.0)), f64::INFINITY, "ρ = 1: never relaxes");
    assert_eq!(relaxation_steps(&scalar(1.5)), f64::INFINITY, "ρ > 1: never relaxes");
}

#[test]
fn noise_is_zero_within_ten_to_minus_thirty_of_the_largest_posterior_variance() {
    // Precision diag(0.5, 0.25): posterior scales 2 and 4, the largest 4: the bound is 4·10⁻³⁰.
    let precision = DMatrix::from_row_slice(2, 2, &[0.5, 0.0, 0.0, 0.25]);
    let noise = |q: f64| DMatrix::from_row_slice(2, 2, &[q, 0.0, 0.0, 0.0]);
    assert!(is_noiseless(&noise(3e-30), &precision), "3·10⁻³⁰ ≤ 4·10⁻³⁰: rounding, no noise");
    assert!(!is_noiseless(&noise(5e-30), &precision), "5·10⁻³⁰ > 4·10⁻³⁰: noise");
    assert!(is_noiseless(&noise(0.0), &precision));
}

#[test]
fn a_law_leaves_its_summary_only_above_e2_one_tenth() {
    // E2 = |11 − 10|/10 = 0.1 exactly (1/10 rounds to the literal 0.1): not above; 11.5: 0.15.
    assert!(!leaves_summary(&scalar(11.0), &scalar(10.0)), "E2 = 0.1 is at the tolerance, not above it");
    assert!(leaves_summary(&scalar(11.5), &scalar(10.0)));
    assert!(!leaves_summary(&scalar(9.5), &scalar(10.0)));
}
