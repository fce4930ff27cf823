//! Unit tests of src/runaway.rs (`runaway::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::diagnostics::Moments;
use sgviz::runaway::*;
use sgviz::model::gaussian::CorrelatedGaussian;

#[test]
fn distance_is_mahalanobis_in_truth_sds() {
    let truth = Moments { mean: vec![1.0, -1.0], cov: vec![vec![4.0, 1.2], vec![1.2, 1.0]] };
    let mut watch = RunawayWatch::new(&truth).unwrap();
    let x = [3.0, 0.5];
    let (dx, dy): (f64, f64) = (2.0, 1.5);
    let det: f64 = 4.0 - 1.44;
    let expected = ((1.0 * dx * dx - 2.0 * 1.2 * dx * dy + 4.0 * dy * dy) / det).sqrt();
    assert!((watch.distance(&x) - expected).abs() < 1e-12);
    // A point whose first whitened coordinate is not ±1 (at (3, 0.5) it is 1, where L₂₁·w₁ and
    // L₂₁/w₁ agree): (5, 0.5), d² = (16 − 2.4·4·1.5 + 4·2.25)/2.56 = 10.6/2.56 = 4.140625
    // (by hand; L = [[2, 0], [0.6, 0.8]], w = (2, (1.5 − 0.6·2)/0.8) = (2, 0.375)).
    assert!((watch.distance(&[5.0, 0.5]) - 4.140625f64.sqrt()).abs() < 1e-12);
    assert_eq!(watch.distance(&[f64::NAN, 0.0]), f64::INFINITY);
}

#[test]
fn radii_grow_with_the_dimension_only_when_the_typical_set_does() {
    assert_eq!(outer_radius(2), 8.0);
    assert_eq!(outer_radius(4), 8.0);
    assert!((outer_radius(65) - (65f64.sqrt() + 6.0)).abs() < 1e-12);
    assert!((inner_radius(2) - (2f64.sqrt() + 3.0)).abs() < 1e-12);
    assert!(inner_radius(65) < outer_radius(65));
}

#[test]
fn log_density_test_confirms_a_gaussian_at_the_outer_radius() {
    // N(0, I₂): log π drops by r²/2 at radius r, so 8 sd (drop 32) is far below, 5 sd (12.5) is not.
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.0, 0.0);
    let mut watch = RunawayWatch::new(&model.exact_moments().unwrap()).unwrap();
    assert!(watch.far_below_the_mass(&model, &[8.0, 0.0]));
    assert!(!watch.far_below_the_mass(&model, &[5.0, 0.0]));
}

/// Review s52, F10: "8941 truth standard deviations" lacked the thousands separator every other
/// number on the page has (the step beside it read "12,345").
#[test]
fn the_runaway_message_groups_the_digits_of_its_distance_and_step() {
    let text = runaway_message("mala", None, 12_345, 8_941.4);
    assert!(text.contains("from step 12,345 "), "{text}");
    assert!(text.contains("it reached 8,941 truth standard deviations"), "{text}");
}
