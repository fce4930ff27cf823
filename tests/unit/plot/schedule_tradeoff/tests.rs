//! Unit tests of src/plot/schedule_tradeoff.rs (`plot::schedule_tradeoff::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::plot::schedule_tradeoff::*;

#[test]
fn runs_are_sorted_by_a_labelled_and_the_current_one_highlighted() {
    let run = |a: f64, ess: f64, error: f64| ScheduleRun { a, ess_per_1000_grads: ess, error, mcse: 0.01 };
    let spec = schedule_tradeoff_chart(&[run(1.0, 0.2, 0.07), run(0.1, 0.03, 0.4), run(0.3, 0.06, 0.03)], 0.3, 200_000);
    assert_eq!(spec.series[0].points, vec![(0.03, 0.4), (0.06, 0.03), (0.2, 0.07)]);
    assert_eq!(spec.series[0].point_labels, vec!["a = 0.1", "a = 0.3", "a = 1"]);
    assert_eq!(spec.series[1].points, vec![(0.06, 0.03)]);
    assert!(spec.series[1].label.starts_with("current a = 0.3"), "{}", spec.series[1].label);
}

/// Issue 26: at 1920×1080 the chart's plot area was ≈ 70 px tall (a 524 × 262 canvas: title and
/// legend took the rest) and its y label was dropped. At the canvas sizes and text scales the
/// page gives it (CSS px and `drawingScale`, measured in the browser and checked there by
/// tests/e2e/tradeoff-geometry.test.mjs: 1920×1080 → 524 × 524 at 4/3, 1400×900 → 1022 × 511
/// at 1.70, phone 390×844 → 364 × 455 at 4/3), a Fig. 1-preset-like sweep of five a values
/// leaves a plot area at least 200 px tall and wider than tall, and both axis labels are drawn
/// whole (the y label no longer than the plot is tall).
#[test]
fn the_chart_leaves_a_readable_plot_area_at_the_page_sizes() {
    use sgviz::plot::chart::draw_chart_layout;
    use crate::unit::plot::svg_probe::elements;
    use plotters::prelude::{IntoDrawingArea, SVGBackend};
    let run = |a: f64, ess: f64, error: f64| ScheduleRun { a, ess_per_1000_grads: ess, error, mcse: 0.1 * error };
    let runs = [run(0.0808, 0.011, 0.41), run(0.162, 0.024, 0.19), run(0.323, 0.052, 0.083), run(0.646, 0.11, 0.071), run(1.29, 0.2, 0.12)];
    let spec = schedule_tradeoff_chart(&runs, 0.323, 2_400_000);
    // 1878 × 648 at scale 2: the chart-led layout of stop 45 at 1920×1080 (the note and its chart
    // across the width, the chart at most 60vh; www/format.js's largest text factor, 2).
    for (width, height, scale) in [(524u32, 524u32, 4.0 / 3.0), (1878, 648, 2.0), (1022, 511, 1.7033), (364, 455, 4.0 / 3.0)] {
        let mut svg = String::new();
        let layout = {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            draw_chart_layout(&root, &spec, scale).unwrap()
        };
        let (l, t, r, b) = layout.plot;
        assert!(b - t >= 200, "{width}×{height}: plot area {}×{} px", r - l, b - t);
        let texts: Vec<String> = elements(&svg).into_iter().filter(|e| e.tag == "text").map(|e| e.text).collect();
        for label in [&spec.x_label, &spec.y_label] {
            assert!(texts.iter().any(|t| t == label), "{width}×{height}: axis label {label:?} not drawn: {texts:?}");
        }
        // The y label runs along the plot's height (0.58 em per character, the chart's own estimate).
        let y_label_px = spec.y_label.chars().count() as f64 * 0.58 * 12.0 * scale;
        assert!(y_label_px <= (b - t) as f64, "{width}×{height}: y label {y_label_px:.0} px along a {} px plot", b - t);
    }
}
