//! Unit tests of src/sampler/bouncy.rs (`sampler::bouncy::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sampler::bouncy::*;

#[test]
fn reflection_negates_the_projection_and_keeps_the_speed() {
    let mut v = [0.3, -1.2, 0.5];
    let n = [1.0, 2.0, -0.5];
    let (before, speed) = (dot(&v, &n), dot(&v, &v));
    reflect(&mut v, &n);
    assert!((dot(&v, &n) + before).abs() < 1e-12);
    assert!((dot(&v, &v) - speed).abs() < 1e-12);
}

#[test]
fn affine_event_time_integrates_to_the_exponential_draw() {
    for &(a, b, e) in &[(2.0, 3.0, 0.7), (-1.5, 2.0, 0.4), (0.0, 1.0, 2.0), (1.3, 0.0, 0.9)] {
        let t: f64 = affine_event_time(a, b, e);
        // ∫₀ᵗ (a + b s)₊ ds.
        let zero: f64 = if a >= 0.0 { 0.0 } else { -a / b };
        let integral = if t > zero { a * (t - zero) + 0.5 * b * (t * t - zero * zero) } else { 0.0 };
        assert!((integral - e).abs() < 1e-12, "a={a} b={b}: {integral} vs {e}");
    }
    assert!(affine_event_time(-1.0, 0.0, 1.0).is_infinite());
}

#[test]
fn cells_handle_flat_rising_falling_and_sign_changing_pieces() {
    // Flat: rate 2 on width 1, target 0.5 → 0.25.
    assert!((first_event_in_cell(2.0, 2.0, 1.0, 0.5).unwrap() - 0.25).abs() < 1e-15);
    // Sign change −1 → 1 over width 2: positive from 1, mass 0.5; target 0.125 → 1 + √(0.25) = 1.5.
    assert_eq!(first_event_in_cell(-1.0, 1.0, 2.0, 1.0), Err(0.5));
    assert!((first_event_in_cell(-1.0, 1.0, 2.0, 0.125).unwrap() - 1.5).abs() < 1e-12);
    // Falling through zero: 1 → −1 over width 2: mass 0.5, all on [0, 1].
    assert_eq!(first_event_in_cell(1.0, -1.0, 2.0, 1.0), Err(0.5));
    let l = first_event_in_cell(1.0, -1.0, 2.0, 0.375).unwrap(); // ℓ − ℓ²/2 = 0.375 → ℓ = 0.5
    assert!((l - 0.5).abs() < 1e-12);
    assert_eq!(first_event_in_cell(-1.0, -0.5, 1.0, 0.1), Err(0.0));
}

#[test]
fn an_empty_band_reaches_the_horizon() {
    assert_eq!(sample_piecewise_linear(|_| -1.0, 0.01, 2.0, 0.1), ProposalTime::Horizon);
}
