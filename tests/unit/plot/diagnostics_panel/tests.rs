//! Unit tests of src/plot/diagnostics_panel.rs (`plot::diagnostics_panel::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::ring::RingBuffer;
use sgviz::plot::diagnostics_panel::*;

#[test]
fn trace_and_acf_cover_the_recent_window() {
    let mut ring = RingBuffer::new(2, 50);
    for k in 0..120 {
        ring.push(&[k as f64, (k % 2) as f64]);
    }
    let names = vec!["a".to_string(), "b".to_string()];
    let trace = trace_chart(&ring, &names, (0, 1), 30);
    assert_eq!(trace.series[0].points.len(), 30);
    assert_eq!(trace.series[0].points[0], (90.0, 90.0));
    assert_eq!(trace.series[0].points[29], (119.0, 119.0));
    let acf = autocorrelation_chart(&ring, &names, (0, 1), 50, 5);
    assert!((acf.series[1].points[1].1 + 0.98).abs() < 0.05, "alternating series has ρ(1) ≈ −1");
}

/// Issue 26: SGFS at n = N stands still, its samples one number up to rounding; the ACF of that
/// rounding noise drew a comb of spikes (here: two adjacent doubles alternating, ρ(1) = −1). A
/// chain whose coordinates do not move is named "constant", its ACF not drawn.
#[test]
fn the_acf_of_a_constant_chain_is_named_not_drawn() {
    let names = vec!["a".to_string(), "b".to_string()];
    let next_up = f64::from_bits(0.3f64.to_bits() + 1);
    let mut still = RingBuffer::new(2, 100);
    for k in 0..100 {
        still.push(&[if k % 2 == 0 { 0.3 } else { next_up }, 2.0]);
    }
    let acf = autocorrelation_chart(&still, &names, (0, 1), 100, 10);
    assert!(acf.series.is_empty(), "no curve for a chain that does not move");
    assert!(acf.title.contains("constant"), "the chart says why: {}", acf.title);
    // One coordinate moving: its curve drawn, the other named constant without a curve.
    let mut half = RingBuffer::new(2, 100);
    for k in 0..100 {
        half.push(&[(k % 2) as f64, 2.0]);
    }
    let acf = autocorrelation_chart(&half, &names, (0, 1), 100, 10);
    assert_eq!(acf.series[0].points.len(), 11);
    assert!(acf.series[1].points.is_empty() && acf.series[1].label.contains("constant"), "{}", acf.series[1].label);
}

/// Issue 26: OSGFS lesson step 3's trace reached back 240,000 samples to its burn-in marker at
/// sample 167 and drew the latest 2,000 in ≈ 10 px. A marker more than MARKER_REACH windows back
/// is not reached for; a recent one still is (worked by hand: 30,000 samples, windows of 100).
#[test]
fn the_trace_reaches_back_only_to_a_recent_marker() {
    let names = vec!["a".to_string(), "b".to_string()];
    let mut ring = RingBuffer::new(2, 30_000);
    for k in 0..30_000 {
        ring.push(&[k as f64, 0.0]);
    }
    let far = trace_chart_from(&ring, &names, (0, 1), 100, 167.0);
    assert_eq!(far.series[0].points[0].0, 29_900.0, "the latest 100 samples, not 0…30,000");
    let recent = trace_chart_from(&ring, &names, (0, 1), 100, 29_500.0);
    assert!(recent.series[0].points[0].0 <= 29_500.0, "a marker 500 samples back is kept in view");
}

/// Review s42: a chain that has kept no sample (OSGFS at c = 0.001 before its burn-in test
/// passes) drew its trace and autocorrelation as empty frames with degenerate axes (0…1,
/// −0.005…0.005). Each says in its title what will appear and when; no axes.
#[test]
fn charts_of_a_chain_without_samples_say_what_will_appear() {
    let names = vec!["a".to_string(), "b".to_string()];
    let empty = RingBuffer::new(2, 100);
    let trace = trace_chart(&empty, &names, (0, 1), 100);
    assert!(trace.series.is_empty() && trace.markers.is_empty(), "no axes for no samples");
    assert!(trace.title.contains("no sample kept yet") && trace.title.contains("first sample"), "{}", trace.title);
    let mut few = RingBuffer::new(2, 100);
    for k in 0..5 {
        few.push(&[k as f64, -(k as f64)]);
    }
    let acf = autocorrelation_chart(&few, &names, (0, 1), 100, 10);
    assert!(acf.series.is_empty(), "5 samples: no curve");
    assert!(acf.title.contains("(5 kept so far)"), "{}", acf.title);
}

/// Review s42: a frozen chain near 0 (SGHMC at κ = 0 moving by 10⁻¹⁵) is not constant relative
/// to its own size (≈ 10⁻¹⁵), so its rounding noise was drawn as a comb. Against the target's
/// scale (here 8, the plot's span) it has not moved; a chain moving 10⁻³ of it still has its
/// curve.
#[test]
fn a_chain_frozen_near_zero_is_named_against_the_targets_scale() {
    let names = vec!["a".to_string(), "b".to_string()];
    let mut frozen = RingBuffer::new(2, 100);
    let mut slow = RingBuffer::new(2, 100);
    for k in 0..100 {
        let wiggle = if k % 3 == 0 { 1e-15 } else { -2e-15 };
        frozen.push(&[wiggle, 2.0 * wiggle]);
        slow.push(&[8e-3 * (k as f64 / 7.0).sin(), 2.0]);
    }
    let acf = autocorrelation_chart_at_scale(&frozen, &names, (0, 1), 100, 10, 8.0);
    assert!(acf.series.is_empty() && acf.title.contains("constant"), "{}", acf.title);
    let moving = autocorrelation_chart_at_scale(&slow, &names, (0, 1), 100, 10, 8.0);
    assert_eq!(moving.series[0].points.len(), 11, "a slow chain keeps its curve");
    // Without a scale (the old check) the frozen one is drawn: the comb this guards against.
    assert!(!autocorrelation_chart(&frozen, &names, (0, 1), 100, 10).series.is_empty());
}
