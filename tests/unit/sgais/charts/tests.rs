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

fn chunk(n: usize, log_z: f64, exact: f64) -> sgviz::sgais::run::ChunkRecord {
    sgviz::sgais::run::ChunkRecord { n, log_z, exact_log_z: Some(exact), annealing_steps: 4, ess: 40.0, min_step_ess: 30.0, datum_evals: 1, learning_rate: 1e-3, noise_ratio: 0.0, log_z_var: 0.0, boosted: false }
}

/// The tick labels an SVG rendering of `spec` prints left of the frame (its y axis).
fn y_tick_labels(spec: &sgviz::plot::chart::ChartSpec) -> Vec<String> {
    use plotters::prelude::*;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640, 400)).into_drawing_area();
        sgviz::plot::chart::draw_chart(&root, spec, 1.0).unwrap();
    }
    // Text elements anchored at their end are the y tick labels (plotters right-aligns them).
    svg.split("<text").filter(|t| t.contains("text-anchor=\"end\"")).filter_map(|t| t.split('>').nth(1)?.split('<').next().map(str::to_string)).collect()
}

/// Issue 26: after the first chunk (or a run of one chunk) the evidence chart drew a line through
/// one point (nothing) on an axis fitted to a 10⁻⁵ spread, ticks "-1.4252e0". Hand-made chunk:
/// log Ẑ/n = −1.4252 at n = 500 with the exact curve 10⁻⁵ below it; the run is drawn as a point,
/// and the y axis spans at least 0.1 nats per datum, labelled in plain decimals that differ.
#[test]
fn one_chunk_is_a_visible_point_on_a_readable_axis() {
    let records = [chunk(500, -1.4252 * 500.0, -1.42521 * 500.0)];
    let runs = [CurveRun { label: "SGAIS", colour: 0, dashed: false, records: &records }];
    let spec = evidence_chart(&runs, &[], 500, Vec::new());
    let run = spec.series.iter().find(|s| s.label == "SGAIS").unwrap();
    assert_eq!(run.style, sgviz::plot::chart::Style::Points, "a one-point run is drawn as a point");
    let (lo, hi) = spec.y_range.expect("the axis is widened");
    assert!(hi - lo >= 0.1 - 1e-12 && lo < -1.42521 && hi > -1.4252, "y range [{lo}, {hi}]");
    let ticks = y_tick_labels(&spec);
    assert!(ticks.len() >= 2, "ticks {ticks:?}");
    assert!(ticks.iter().all(|t| !t.contains('e')), "plain decimals: {ticks:?}");
    let distinct: std::collections::BTreeSet<_> = ticks.iter().collect();
    assert_eq!(distinct.len(), ticks.len(), "ticks differ: {ticks:?}");
}

/// Many chunks spanning more than the floor keep the fitted axis (the floor only widens).
#[test]
fn a_full_curve_keeps_its_fitted_axis() {
    let records: Vec<_> = (1..=10).map(|k| chunk(100 * k, -(1.0 + 1.0 / k as f64) * 100.0 * k as f64, -1.4 * 100.0 * k as f64)).collect();
    let runs = [CurveRun { label: "SGAIS", colour: 0, dashed: false, records: &records }];
    let spec = evidence_chart(&runs, &[], 1000, Vec::new());
    assert_eq!(spec.y_range, None);
    assert_eq!(spec.series[0].style, sgviz::plot::chart::Style::Line);
}

/// The annealing chart of one chunk: a point on an axis of at least 4 whole steps (it was ticked
/// 12.95, 13, 13.05 around a line through one point).
#[test]
fn one_chunk_annealing_is_a_point_on_whole_steps() {
    let records = [chunk(1000, -1425.0, -1425.2)];
    let runs = [CurveRun { label: "SGAIS", colour: 0, dashed: false, records: &records }];
    let spec = annealing_chart(&runs, 1000, Vec::new());
    assert_eq!(spec.series[0].style, sgviz::plot::chart::Style::Points);
    let (lo, hi) = spec.y_range.expect("the axis is widened");
    assert!(hi - lo >= 4.0 - 1e-12 && lo < 4.0 && hi > 4.0, "y range [{lo}, {hi}] around the chunk's 4 steps");
    let ticks = y_tick_labels(&spec);
    assert!(ticks.len() >= 2 && ticks.iter().all(|t| t.trim().parse::<f64>().is_ok_and(|v| v.fract() == 0.0)), "whole steps: {ticks:?}");
}

/// The annealing chart leaves room beyond N, like the evidence chart: a chunk ending at n = N is a
/// disc that must fit inside the frame to be drawn (a run of one chunk showed nothing).
#[test]
fn the_annealing_point_at_n_is_inside_the_frame() {
    let records = [chunk(1000, -1425.0, -1425.2)];
    let runs = [CurveRun { label: "SGAIS", colour: 0, dashed: false, records: &records }];
    let (lo, hi) = annealing_chart(&runs, 1000, Vec::new()).x_range.unwrap();
    assert!(lo <= 0.0 && hi >= 1.03 * 1000.0, "x range [{lo}, {hi}] leaves no room at N");
}
