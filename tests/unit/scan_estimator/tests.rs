//! Unit tests of src/scan_estimator.rs (`scan_estimator::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::scan_estimator::*;

#[test]
fn one_piece_by_hand() {
    // x(s) = s on [0, π/2] with ℓ = 1, c = 0: (1/T)∫cos = sin(π/2)/(π/2) = 2/π; points at
    // s = 0, 0.5, 1, 1.5 (Δ = 0.5): the mean of their cosines.
    let mut e = CosineEstimator::new(0, 0.0, 1.0, 0.5);
    e.add_piece(&[0.0], &[1.0], std::f64::consts::FRAC_PI_2);
    assert!((e.continuous() - 2.0 / std::f64::consts::PI).abs() < 1e-12);
    let by_hand = (0.0f64.cos() + 0.5f64.cos() + 1.0f64.cos() + 1.5f64.cos()) / 4.0;
    assert!((e.discrete() - by_hand).abs() < 1e-12, "{} vs {by_hand}", e.discrete());
    // A standing piece, and the grid carried across pieces: next point at 2.0 (π/2 + 0.429).
    e.add_piece(&[3.0], &[0.0], 1.0);
    assert_eq!(e.discrete_count, 6);
    let total = std::f64::consts::FRAC_PI_2 + 1.0;
    assert!((e.continuous() - (1.0 + 3f64.cos()) / total).abs() < 1e-12);
}
