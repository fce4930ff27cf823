//! Unit tests of src/sgais/charts.rs (`sgais::charts::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::charts::*;

/// The full-data AIS point at n = N sits inside the frame with room for its marker (it was
/// cut in half at the right edge).
#[test]
fn the_ais_point_at_n_is_inside_the_frame() {
    let n = 1000;
    let spec = evidence_chart(&[], &[(n, -1400.0)], n, Vec::new());
    let (lo, hi) = spec.x_range.unwrap();
    let ais = spec.series.iter().find(|s| s.label.starts_with("AIS")).unwrap();
    assert_eq!(ais.points[0].0, n as f64);
    assert!(lo <= 0.0 && hi >= 1.03 * n as f64, "x range [{lo}, {hi}] leaves no room at N = {n}");
}
