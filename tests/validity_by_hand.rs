//! src/law_validity.rs's V1/V2 arithmetic and the order of `validity`'s rules (docs/diagnostics.md
//! §7 addendum "where a law's number may be shown"), on scalars worked by hand (issue 23, twentieth
//! mutation pass: the 24 survivors the nineteenth pass left open in `expected_run_covariance`,
//! `e2`, `is_marginal` and `validity`'s guards). Kept apart from tests/law_validity.rs and
//! tests/law_validity_by_hand.rs, whose rules another change reworks.

use nalgebra::DMatrix;
use sgviz::law_validity::{e2, expected_run_covariance, is_marginal, schur_radius, validity, Validity};

fn scalar(x: f64) -> DMatrix<f64> {
    DMatrix::from_element(1, 1, x)
}

#[test]
fn a_run_from_the_mean_of_a_scalar_ar1_has_the_second_moment_summed_by_hand() {
    // x' = a·x + w, stationary variance v, x₀ = 0: E[x_t²] = v·(1 − a^{2t}), so the mean over
    // t = 1..T is v − v·Σ_{t=1..T} a^{2t}/T (the sum written out here, not the Lyapunov solve).
    for (a, v, steps) in [(0.5, 1.0, 4u32), (0.9, 2.5, 30), (-0.7, 0.4, 7)] {
        let by_hand = v - v * (1..=steps).map(|t| f64::powi(a * a, t as i32)).sum::<f64>() / f64::from(steps);
        let expected = expected_run_covariance(&scalar(a), 1, &scalar(v), f64::from(steps)).expect("a settling chain");
        assert_eq!(expected.shape(), (1, 1));
        assert!((expected[(0, 0)] - by_hand).abs() < 1e-12 * v, "a = {a}, v = {v}, T = {steps}: {} against {by_hand} by hand", expected[(0, 0)]);
    }
    // a = 0.5, v = 1, T = 4: 1 − (1/4 + 1/16 + 1/64 + 1/256)/4 = 1 − 85/1024 = 939/1024.
    let expected = expected_run_covariance(&scalar(0.5), 1, &scalar(1.0), 4.0).unwrap();
    assert!((expected[(0, 0)] - 939.0 / 1024.0).abs() < 1e-14);
}

#[test]
fn only_the_position_block_of_a_run_with_momentum_is_returned() {
    // A = diag(0.5, 0.8) with M = diag(1, 2): the position's run is the scalar case above,
    // whatever the momentum does.
    let transition = DMatrix::from_row_slice(2, 2, &[0.5, 0.0, 0.0, 0.8]);
    let full = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, 2.0]);
    let expected = expected_run_covariance(&transition, 1, &full, 4.0).unwrap();
    assert_eq!(expected.shape(), (1, 1));
    assert!((expected[(0, 0)] - 939.0 / 1024.0).abs() < 1e-14, "{}", expected[(0, 0)]);
}

#[test]
fn e2_is_the_absolute_error_over_the_reference_also_above_one() {
    // |3 − 1|/1 = 2; |[4, −1; −1, 2] − [1, 0; 0, 1]| = 3 + 1 + 1 + 1 = 6 over 2: 3.
    assert_eq!(e2(&scalar(3.0), &scalar(1.0)), 2.0);
    let estimate = DMatrix::from_row_slice(2, 2, &[4.0, -1.0, -1.0, 2.0]);
    assert_eq!(e2(&estimate, &DMatrix::identity(2, 2)), 3.0);
    assert_eq!(e2(&scalar(1.5), &scalar(2.0)), 0.25);
}

#[test]
fn a_unit_eigenvalue_is_marginal_even_where_the_norm_bound_is_exactly_one() {
    // diag(1, 0) and [[1]]: ‖A^k‖ = 1 for every k, ρ = 1: marginal (no law, V1). diag(1 − 10⁻⁵, 0):
    // ρ below 1 by far more than 10⁻¹²: not marginal; a rotation (ρ = 1, ‖A^k‖ = √2): marginal.
    assert!(is_marginal(&DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, 0.0])));
    assert!(is_marginal(&scalar(1.0)));
    assert!(is_marginal(&DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -1.0, 0.0])));
    assert!(!is_marginal(&DMatrix::from_row_slice(2, 2, &[1.0 - 1e-5, 0.0, 0.0, 0.0])));
    assert!(!is_marginal(&scalar(0.5)));
    assert!(!is_marginal(&scalar(1.5)), "ρ > 1 diverges, which is not marginal");
}

/// `validity` on a chain that forgets its start in one step (A = 0: a run's expected second
/// moment is M itself, exactly), so each E2 below is a ratio of small integers: 1/10 and 3/10
/// are the thresholds' own literals (division is correctly rounded).
fn judged(full: f64, law: f64, truth: f64, summary: Option<f64>) -> Validity {
    let summary = summary.map(scalar);
    validity(&scalar(0.0), 1, &scalar(full), &scalar(law), &scalar(truth), summary.as_ref(), 5000.0)
}

fn start_e2(v: Validity) -> Option<f64> {
    match v {
        Validity::NotReached { start_e2, .. } => Some(start_e2),
        _ => None,
    }
}

#[test]
fn a_run_is_not_at_its_law_only_when_it_misses_it_by_more_than_the_bias_tolerance() {
    // E2(E[Ĉ_T] = 11, law 10) = 0.1: at the tolerance, not above it: valid.
    assert_eq!(judged(11.0, 10.0, 10.0, None), Validity::Valid);
    // 13 against 10: 0.3 > 0.1: not reached; against the truth 13 the run is right (E2 0).
    assert_eq!(start_e2(judged(13.0, 10.0, 13.0, None)), Some(0.0));
}

#[test]
fn a_mixing_failure_beyond_the_claim_outranks_leaving_the_summary_and_one_within_it_does_not() {
    // Law 10, run 13 (not reached), summary 20 (E2(10, 20) = 0.5: the law leaves it).
    // Truth 5: the run misses it by 8/5 = 1.6 > 0.3: the mixing failure is named.
    assert_eq!(start_e2(judged(13.0, 10.0, 5.0, Some(20.0))), Some(1.6));
    // Truth 10: 3/10 = 0.3, at the claim, not above: the summary rule decides.
    assert_eq!(judged(13.0, 10.0, 10.0, Some(20.0)), Validity::OutsideSummary);
    // Truth 12: 1/12 < 0.3: the summary rule decides.
    assert_eq!(judged(13.0, 10.0, 12.0, Some(20.0)), Validity::OutsideSummary);
    // Summary 10 (the law stays on it): not reached, within the claim: NotReached.
    assert_eq!(start_e2(judged(13.0, 10.0, 12.0, Some(10.0))), Some(1.0 / 12.0));
    // A law at the run and on its summary: valid.
    assert_eq!(judged(10.0, 10.0, 10.0, Some(10.0)), Validity::Valid);
}

#[test]
fn where_the_schur_iteration_fails_the_radius_is_gelfands_norm_of_the_1024th_power() {
    // P = [[1, 1, 0], [−1, 1, 1], [0, −1, 1]] (tridiagonal Toeplitz: eigenvalues 1 + 2i·cos(kπ/4),
    // k = 1..3, i.e. 1 ± i√2 and 1: ρ = √3), on which nalgebra's bounded Schur iteration does not
    // converge in 10,000 steps (a probe of this pass), so `schur_radius` stands in Gelfand's
    // ‖P^1024‖^{1/1024}: computed here as 2·‖(P/2)^1024‖^{1/1024} by ten squarings without
    // rescaling (halving is exact; (P/2)^1024's entries are near (√3/2)^1024 ≈ 10⁻⁶⁴).
    let p = DMatrix::from_row_slice(3, 3, &[1.0, 1.0, 0.0, -1.0, 1.0, 1.0, 0.0, -1.0, 1.0]);
    assert!(nalgebra::Schur::try_new(p.clone(), f64::EPSILON, 10_000).is_none(), "the case needs a Schur iteration that fails");
    let mut power: DMatrix<f64> = &p * 0.5;
    for _ in 0..10 {
        power = &power * &power;
    }
    let gelfand: f64 = 2.0 * power.norm().powf(1.0 / 1024.0);
    let radius = schur_radius(&p);
    assert!((radius - gelfand).abs() < 1e-12 * gelfand, "{radius} against ‖P^1024‖^(1/1024) = {gelfand}");
    assert!((radius / 3f64.sqrt() - 1.0).abs() < 2e-3, "{radius}: Gelfand's estimate of ρ = √3");
}

/// ρ(s·[[1, 2], [3, 4]]) = s·(5 + √33)/2 (the characteristic polynomial λ² − 5λ − 2, by hand) at
/// scales whose squares overflow: the mutants helper (stop 46) found the radius read 0 there.
#[test]
fn the_radius_of_a_huge_or_tiny_matrix_is_its_scale_times_the_small_ones() {
    let base = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
    let by_hand = (5.0 + 33f64.sqrt()) / 2.0;
    for s in [1.0, 1e154, 1e200, 1e-200] {
        let radius = schur_radius(&(&base * s));
        assert!((radius / s - by_hand).abs() <= 1e-9 * by_hand, "s = {s:e}: ρ = {radius:e}, by hand {:e}", by_hand * s);
    }
    assert_eq!(schur_radius(&DMatrix::from_element(1, 1, f64::INFINITY)), f64::INFINITY);
}
