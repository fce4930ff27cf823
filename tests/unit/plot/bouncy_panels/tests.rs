//! Unit tests of src/plot/bouncy_panels.rs: the SBPS "bias vs n" chart's missed-share line.

use sgviz::bouncy_sweep::{BouncyKnob, BouncyResult};
use sgviz::plot::bouncy_panels::bias_over_knob;

/// A finished sweep point at minibatch `n` with the band's missed share `missed` (E2 made up: this
/// test is about the missed-share series only).
fn point(n: f64, missed: f64) -> BouncyResult {
    BouncyResult { param: "batch_size".into(), value: n, events: 4_800, diverged: false, e2: 0.05, e2_mc: 0.01, violation_rate: 0.0, missed_share: missed, grads_per_event: n, ess_per_1000_events: 10.0 }
}

/// Stop 44's review: on the SBPS "bias vs n" chart the share-missed line stopped at n = 3 and the
/// chart did not say why. From n = 5 on the band missed nothing (a share of exactly 0), which a log y
/// axis cannot draw. Hand-made sweep: shares 0.2, 0.05, 0, 0, 0 at n = 1, 3, 5, 10, 30. The line
/// keeps its two positive points and its label names the three values where the share is 0.
#[test]
fn the_missed_share_line_names_the_minibatches_where_the_band_missed_nothing() {
    let values = vec![1.0, 3.0, 5.0, 10.0, 30.0];
    let knob = BouncyKnob { param: "batch_size", symbol: "n", values: values.clone(), current: 10.0, log_scale: true };
    let results: Vec<BouncyResult> = values.iter().zip([0.2, 0.05, 0.0, 0.0, 0.0]).map(|(&n, m)| point(n, m)).collect();
    let chart = bias_over_knob("SBPS", &knob, &results, 4_800, true);
    let missed = chart.series.iter().find(|s| s.label.starts_with("share of the bounce intensity the band missed")).expect("a missed-share series");
    assert_eq!(missed.points, vec![(1.0, 0.2), (3.0, 0.05)]);
    assert!(missed.label.ends_with("(none at n = 5, 10, 30: 0 is off a log axis)"), "{}", missed.label);
    // Every point with a share: the label says nothing more.
    let all: Vec<BouncyResult> = values.iter().map(|&n| point(n, 0.01)).collect();
    let chart = bias_over_knob("SBPS", &knob, &all, 4_800, true);
    assert_eq!(chart.series[1].label, "share of the bounce intensity the band missed");
    assert_eq!(chart.series[1].points.len(), 5);
}
