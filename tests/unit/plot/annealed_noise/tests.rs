//! Unit tests of src/plot/annealed_noise.rs (`plot::annealed_noise::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::phase::NoiseScale;
use sgviz::plot::chart::{ChartSpec, Marker};
use sgviz::plot::annealed_noise::*;

fn scale(s: f64) -> NoiseScale {
    NoiseScale { gradient_noise_scale: s, batch_size: 1, n_data: 100 }
}

/// A hand-worked case: a = 1, b = 1, γ = 1/2, so ε_t = 1/√(1 + t), ε_0 = 1, and ε_t = 0.01 at
/// t = 9,999 (the span end). With S = 40 the variances ε and ε²/4·40 = 10ε² are equal at
/// ε = 0.1, i.e. at t = 99.
#[test]
fn hand_worked_schedule_span_and_crossing() {
    let schedule = Schedule { a: 1.0, b: 1.0, gamma: 0.5 };
    assert!((schedule.step(3.0) - 0.5).abs() < 1e-15);
    assert!((schedule.span_end() - 9_999.0).abs() < 1e-9);
    assert!((schedule.iteration_at(0.1) - 99.0).abs() < 1e-9);
    let chart = annealed_noise_chart(&scale(40.0), &schedule, 0.0);
    assert_eq!(chart.markers.len(), 1);
    assert!((chart.markers[0].x - 99.0).abs() < 1e-9, "crossing at {}", chart.markers[0].x);
    assert!(chart.markers[0].label.contains("t ≈ 99"), "{}", chart.markers[0].label);
    let (injected, gradient) = (&chart.series[0].points, &chart.series[1].points);
    assert_eq!(injected.first().unwrap().0, 1.0);
    assert!((injected.last().unwrap().0 - 9_999.0).abs() < 1e-6);
    for (&(t, inj), &(t2, grad)) in injected.iter().zip(gradient) {
        assert_eq!(t, t2);
        let eps = 1.0 / (1.0 + t).sqrt();
        assert!((inj - eps).abs() < 1e-12 * eps, "injected at t = {t}");
        assert!((grad - 10.0 * eps * eps).abs() < 1e-12 * eps, "gradient noise at t = {t}");
        // Gradient noise dominates before the crossing, injected noise after it.
        assert_eq!(grad > inj, t < 99.0, "phase at t = {t}");
    }
}

/// The Fig. 1 preset's schedule (www/figures/sgld.js): a = 0.323, b = 554.5, γ = 0.55 falls
/// from 0.01 to 10⁻⁴ over b(100^(1/0.55) − 1) ≈ 2.4·10⁶ iterations.
#[test]
fn the_preset_schedule_spans_class_time() {
    let schedule = Schedule { a: 0.323, b: 554.5, gamma: 0.55 };
    let end = schedule.span_end();
    assert!((end - 2.4e6).abs() < 0.01 * 2.4e6, "span end {end}");
    assert!((schedule.step(end) / schedule.step(0.0) - 0.01).abs() < 1e-12);
}

/// Hand-worked: with S = 400 the variances ε and 100ε² are equal at ε = 0.01, which
/// ε_t = 1/√(1 + t) reaches at t = 9,999: the marker reads as the page writes numbers
/// ("10,000", three figures with a thousands separator), not "10000".
#[test]
fn the_crossing_marker_reads_as_the_page_writes_numbers() {
    let chart = annealed_noise_chart(&scale(400.0), &Schedule { a: 1.0, b: 1.0, gamma: 0.5 }, 0.0);
    assert_eq!(chart.markers.len(), 1);
    assert!((chart.markers[0].x - 9_999.0).abs() < 1e-6, "{}", chart.markers[0].x);
    assert_eq!(chart.markers[0].label, "threshold = 1 at t ≈ 10,000");
}

#[test]
fn a_longer_run_widens_the_chart_and_no_crossing_outside_is_marked() {
    let schedule = Schedule { a: 1.0, b: 1.0, gamma: 0.5 };
    let chart = annealed_noise_chart(&scale(4.0), &schedule, 1e6);
    assert!((chart.series[0].points.last().unwrap().0 - 1e6).abs() < 1e-3);
    // S = 4: the crossing is at ε = 1, t = 0, before the first iteration drawn.
    assert!(chart.markers.is_empty());
    // No gradient noise: no dashed curve points and no crossing.
    let none = annealed_noise_chart(&scale(0.0), &schedule, 0.0);
    assert!(none.series[1].points.is_empty() && none.markers.is_empty());
}

/// Hand-worked: a = 1, b = 1, γ = 1/2 starts at ε_0 = 1 and reaches 0.01 at the span end
/// t = 9,999; a run of 10⁶ iterations ends at 1/√(1 + 10⁶) ≈ 0.001. The markers move there and
/// the chart's range grows to hold them.
#[test]
fn follow_schedule_marks_the_span_the_run_sweeps() {
    let schedule = Schedule { a: 1.0, b: 1.0, gamma: 0.5 };
    let mut chart = ChartSpec { x_range: Some((0.05, 0.5)), markers: vec![Marker { x: 0.2, label: "current ε".into(), colour: GREY }], ..Default::default() };
    follow_schedule(&mut chart, &schedule, 0.0, GREY);
    assert_eq!(chart.markers.len(), 2);
    assert!((chart.markers[0].x - 1.0).abs() < 1e-12 && (chart.markers[1].x - 0.01).abs() < 1e-12, "{:?}", chart.markers);
    assert!(chart.markers.iter().all(|m| !m.label.contains("current")));
    let (lo, hi) = chart.x_range.unwrap();
    assert!(lo < 0.01 && hi > 1.0, "range {lo}..{hi}");
    follow_schedule(&mut chart, &schedule, 1e6, GREY);
    assert!((chart.markers[1].x - 1.0 / (1.0 + 1e6f64).sqrt()).abs() < 1e-12);
    assert_eq!(chart.markers[1].label, "εₜ = 0.001 at t = 1,000,000");
    assert_eq!(chart.markers[0].label, "ε₀ = a·b⁻ᵞ = 1 (schedule start)");
    assert_eq!([three_figures(1e-4 - 1e-20), three_figures(0.0123456), three_figures(990.0), three_figures(2.4e6)], ["0.0001", "0.0123", "990", "2,400,000"]);
}
