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
