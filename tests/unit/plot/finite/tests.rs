//! Unit tests of src/plot/finite.rs (`plot::finite::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::plot::chart::{ChartSpec, Marker, Series};
use sgviz::plot::chart::{Style, PALETTE};

/// A spec with NaN and ∞ everywhere a number goes must survive the JSON round trip the page
/// does (worker → main thread), keeping every finite point with its label and error bar.
#[test]
fn non_finite_numbers_do_not_reach_the_json_and_the_spec_parses_back() {
    let series = Series::new("s", vec![(1.0, 2.0), (f64::NAN, 1.0), (3.0, f64::INFINITY), (4.0, 5.0)], PALETTE[0], Style::Points)
        .labelled(vec!["a".into(), "b".into(), "c".into(), "d".into()])
        .with_error_bars(vec![0.1, 0.2, 0.3, f64::NAN]);
    let spec = ChartSpec {
        title: "t".into(),
        series: vec![series],
        markers: vec![Marker { x: f64::NAN, label: "gone".into(), colour: PALETTE[1] }, Marker { x: 2.0, label: "kept".into(), colour: PALETTE[1] }],
        x_range: Some((0.0, f64::INFINITY)),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    let json = serde_json::to_string(&spec).unwrap();
    assert!(!json.replace("\"x_range\":null", "").contains("null"), "only an absent range is null: {json}");
    let back: ChartSpec = serde_json::from_str(&json).unwrap();
    let s = &back.series[0];
    assert_eq!(s.points, vec![(1.0, 2.0), (4.0, 5.0)]);
    assert_eq!(s.point_labels, vec!["a", "d"]);
    assert_eq!(s.error_bars, vec![0.1, 0.0]);
    assert_eq!(back.markers.len(), 1);
    assert_eq!(back.markers[0].label, "kept");
    assert_eq!((back.x_range, back.y_range), (None, Some((0.0, 1.0))));
}
