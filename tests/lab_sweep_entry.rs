//! src/lab/analysis.rs's sweep entry points through `Lab`, as the page's worker calls them through
//! wasm: `start_analysis`, `advance_analysis`, `analysis_json` (issue 23, stop 49: seven mutants of
//! them survived the twentieth pass, since no native test went through `Lab`). Oracles by hand:
//! the page's bouncy sweep runs each point for the default speed, 20 events a frame, over a 20 s
//! slide of 1,200 frames (README: "its speed × 1,200 frames"), so 24,000 events a point; a gradient
//! sweep's progress is the share of its budget spent, so it starts above 0, rises and ends at 1,
//! where every point that did not diverge has spent its whole budget.

use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;

#[test]
fn a_bouncy_sweep_started_without_events_runs_twenty_events_a_frame_for_1200_frames() {
    let mut lab = Lab::new(ChainConfig::new("gaussian", "bps", 1), 200, 200, 1.0).unwrap();
    assert_eq!(lab.analysis_json(), serde_json::Value::Null, "no analysis before start");
    assert_eq!(lab.advance_analysis(1_000), None, "nothing to advance before start");
    lab.start_analysis(20_000).unwrap();
    let json = lab.analysis_json();
    assert_eq!(json["events"].as_u64(), Some(20 * 1_200), "{json}");
    lab.start_analysis_events(20_000, Some(500)).unwrap();
    assert_eq!(lab.analysis_json()["events"].as_u64(), Some(500));
}

#[test]
fn a_gradient_sweeps_progress_rises_from_above_zero_to_one_and_its_points_spend_the_budget() {
    let budget = 2_000;
    let mut lab = Lab::new(ChainConfig::new("gaussian", "sgld", 1), 200, 200, 1.0).unwrap();
    lab.start_analysis(budget).unwrap();
    let json = lab.analysis_json();
    assert_eq!(json["progress"].as_f64(), Some(0.0), "{json}");
    let mut progress = vec![];
    for _ in 0..10_000 {
        let p = lab.advance_analysis(500).expect("an analysis was started");
        assert_eq!(lab.analysis_json()["progress"].as_f64(), Some(p), "the JSON reports what advance returned");
        progress.push(p);
        if p >= 1.0 {
            break;
        }
    }
    assert!(progress[0] > 0.0 && progress[0] < 1.0, "a first slice of 500 gradients is part of the work: {progress:?}");
    assert!(progress.windows(2).all(|w| w[1] > w[0]), "each slice spends more: {progress:?}");
    assert_eq!(progress.last(), Some(&1.0), "{progress:?}");
    let results = lab.analysis_json()["results"].as_array().cloned().unwrap();
    assert!(results.len() >= 2, "a sweep over several settings: {results:?}");
    let finished = results.iter().filter(|r| r["diverged"] == false).collect::<Vec<_>>();
    assert!(finished.len() >= 2, "{results:?}");
    for r in finished {
        assert!(r["grad_evals"].as_u64().unwrap() >= budget, "a point that did not diverge spent its budget: {r}");
    }
}

/// The ESS panel's frozen-chain threshold (`Lab::mixing_window`'s resolution) is a billionth of the
/// plot's span (docs: "10⁻⁹, a millionth of a pixel"), the span the larger side of the view; the
/// twentieth pass's survivor divided by the span instead.
#[test]
fn the_frozen_chain_threshold_is_a_billionth_of_the_plots_larger_side() {
    let lab = Lab::new(ChainConfig::new("banana", "sgld", 1), 200, 200, 1.0).unwrap();
    let v = lab.chain().model().view();
    let larger_side = (v.x_max - v.x_min).max(v.y_max - v.y_min);
    assert!((larger_side - 1.0).abs() > 0.5, "a span that tells × from ÷: {larger_side}");
    let resolution = lab.mixing_window().resolution;
    assert!((resolution - 1e-9 * larger_side).abs() < 1e-12 * resolution, "{resolution} against 1e-9 × {larger_side}");
}

/// With no marker before the trace's window the trace's x axis is left to the chart's fit (the
/// samples' range and 5 % either side, src/plot/chart `fitted_range`), not pinned to the first
/// and last sample: the twentieth pass's survivor 60:56 `&&` → `||` pinned it, cutting the margin.
#[test]
fn a_trace_without_markers_leaves_its_x_axis_to_the_charts_fit() {
    let mut lab = Lab::new(ChainConfig::new("gaussian", "sgld", 1), 200, 200, 1.0).unwrap();
    lab.run(1_000);
    let spec = lab.chart("trace").unwrap();
    assert!(spec.markers.is_empty(), "a plain SGLD chain has no burn-in or restart marker");
    assert_eq!(spec.x_range, None);
}
