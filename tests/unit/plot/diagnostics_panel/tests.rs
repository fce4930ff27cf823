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
