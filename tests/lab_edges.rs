//! Two edges of `Lab` that the twentieth mutation pass left open (issue 23, stop 50), each worked
//! by hand:
//!
//! - src/lab/truth.rs `advance_truth`: a slice of the exact MALA reference run is heavy work, and
//!   the page's browser tests read it as one "truth" entry (src/entry_counts.rs: heavy work must
//!   run in a worker, never on the main thread); a poll of zero steps does no work and counts
//!   nothing.
//! - src/lab/analysis.rs, the trace's marker window: after "discard samples" the ring keeps its
//!   count of pushed samples, so one sample later the trace is a one-point window at sample 150
//!   while a restart dragged at sample 100 lies before it. The axis is fitted to the point and
//!   the marker (a window of one point has no width to keep), so the marker is drawn, and its
//!   legend names it plainly, not as "before this window".

use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;
use sgviz::truth::TruthSource;

fn truth_entries() -> u64 {
    sgviz::entry_counts::to_json()["truth"].as_u64().unwrap_or(0)
}

#[test]
fn a_reference_slice_counts_as_truth_work_and_a_poll_of_zero_steps_does_not() {
    let config = ChainConfig::new("logreg", "sgld", 5).with("dataset", "breast_cancer").with("n_features", 3);
    let mut lab = Lab::new(config, 200, 200, 1.0).unwrap();
    assert_eq!(lab.truth().source, TruthSource::NeedsReferenceRun);
    let before = truth_entries();
    assert_eq!(lab.advance_truth(0)["running"], true);
    assert_eq!(truth_entries(), before, "a poll of 0 steps");
    lab.advance_truth(200);
    assert_eq!(truth_entries(), before + 1, "one slice of 200 steps");
    lab.advance_truth(0);
    lab.advance_truth(200);
    assert_eq!(truth_entries(), before + 2, "two slices and two polls");
}

#[test]
fn a_one_sample_trace_after_a_discard_draws_an_earlier_restart_and_names_it_plainly() {
    let mut lab = Lab::new(ChainConfig::new("gaussian", "sgld", 1), 200, 200, 1.0).unwrap();
    lab.run(100);
    assert_eq!(lab.chain().samples().total_pushed(), 100, "SGLD keeps one sample a step");
    lab.restart_at(&[0.5, 0.5]).unwrap();
    lab.run(50);
    lab.discard_samples();
    lab.run(1);
    let spec = lab.chart("trace").unwrap();
    for s in &spec.series {
        assert_eq!(s.points.iter().map(|p| p.0).collect::<Vec<_>>(), [150.0], "{}: the one sample since the discard", s.label);
    }
    assert_eq!(spec.markers.iter().map(|m| (m.x, m.label.as_str())).collect::<Vec<_>>(), [(100.0, "restart (dragged)")]);
    assert_eq!(spec.x_range, None, "the axis is the chart's fit over the point and the marker");
}
