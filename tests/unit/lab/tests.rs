//! Unit tests of the lab: density image, state, animation, bad input, truths and their hand-over.
//!
//! Unit tests of src/lab/mod.rs (`lab::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::chain::{Chain, ChainConfig};
use sgviz::truth::TruthSource;
use sgviz::lab::*;

fn lab(target: &str, sampler: &str) -> Lab {
    Lab::new(ChainConfig::new(target, sampler, 1), 400, 400, 1.0).unwrap()
}

#[test]
fn samples_land_in_the_density_image_and_marginals() {
    let mut lab = lab("gaussian", "sgld");
    lab.run(2_000);
    assert_eq!(lab.density().total_inside() + lab.density().outside(), 2_000);
    let m = lab.marginals();
    assert!(m["x"]["histogram"].as_array().unwrap().len() > 20);
    assert!(m["x"]["truth"].as_array().unwrap().len() > 20, "closed-form truth gives a marginal curve");
    let state = lab.state();
    assert!(state["e2"].as_f64().unwrap() < 1.0);
    assert_eq!(state["truth_source"], "closed_form");
}

#[test]
fn state_carries_the_predicted_law_or_why_there_is_none() {
    let gaussian = lab("gaussian", "sgld");
    let state = gaussian.state();
    assert_eq!(state["predicted"]["exact"], true);
    assert_eq!(state["predicted"]["cov"].as_array().unwrap().len(), 2);
    assert!(state["predicted_reason"].is_null());
    assert!(gaussian.predicted_ellipse().len() > 100, "a 2σ ellipse in pixels");
    let bouncy = lab("gaussian", "sbps");
    assert!(bouncy.state()["predicted"].is_null());
    assert!(bouncy.state()["predicted_reason"].as_str().unwrap().contains("no closed-form"));
    assert!(bouncy.predicted_ellipse().is_empty());
}

#[test]
fn exact_samplers_expose_their_last_proposal_for_animation() {
    let mut mala = lab("gaussian", "mala");
    mala.run(1);
    let p = &mala.path()["proposal"];
    assert_eq!(p["points"].as_array().unwrap().len(), 4, "from and to, in pixels");
    let mut hmc = Lab::new(ChainConfig::new("gaussian", "hmc", 1).with("leapfrog_steps", 7), 300, 300, 1.0).unwrap();
    hmc.run(3);
    let p = &hmc.path()["proposal"];
    assert_eq!(p["points"].as_array().unwrap().len(), 2 * 8, "start plus 7 leapfrog positions");
    assert!(p["accepted"].is_boolean());
    assert!(lab("gaussian", "sgld").path()["proposal"].is_null());
}

#[test]
fn bad_parameter_or_pair_changes_nothing() {
    let mut lab = lab("gaussian", "sgld");
    lab.run(100);
    assert!(lab.set_param("rho", 3.0).is_err());
    assert!(lab.set_param("step_size", f64::NAN).is_err());
    assert!(lab.set_pair(0, 0).is_err());
    assert!(lab.set_pair(0, 5).is_err());
    assert_eq!(lab.chain().steps(), 100);
    assert_eq!(lab.pair(), (0, 1));
}

#[test]
fn a_million_point_logistic_target_gets_a_labelled_laplace_truth_without_a_grid() {
    let config = ChainConfig::new("logreg", "sgld", 1).with("n_points", 1_000_000);
    let lab = Lab::new(config, 200, 200, 1.0).unwrap();
    assert_eq!(lab.truth().source, TruthSource::Laplace);
    assert!(lab.truth().error.contains("Laplace approximation"));
    assert!(lab.truth().moments.is_some());
}

#[test]
fn reference_run_provides_a_cached_truth_for_a_high_dimensional_target() {
    let config = ChainConfig::new("logreg", "sgld", 2).with("dataset", "breast_cancer").with("n_features", 3);
    let mut lab = Lab::new(config.clone(), 300, 300, 1.0).unwrap();
    assert_eq!(lab.truth().source, TruthSource::NeedsReferenceRun);
    assert!(lab.preset_pair("largest_difference").is_err(), "needs the truth");
    let mut rounds = 0;
    while lab.advance_truth(5_000)["running"] == true {
        rounds += 1;
        assert!(rounds < 100);
    }
    assert_eq!(lab.truth().source, TruthSource::ReferenceRun);
    assert!(lab.truth_pair_moments().is_some());
    lab.set_pair(1, 3).unwrap();
    lab.run(500);
    assert!(lab.preset_pair("most_correlated").is_ok());
    // A second lab on the same data gets the truth from the cache.
    let again = Lab::new(config, 300, 300, 1.0).unwrap();
    assert_eq!(again.truth().source, TruthSource::ReferenceRun);
}

#[test]
fn a_compared_lab_adopts_the_truth_the_main_lab_finished() {
    let config = ChainConfig::new("logreg", "sgld", 4).with("dataset", "breast_cancer").with("n_features", 2);
    let mut main = Lab::new(config.clone().with("step_size", 0.001), 300, 300, 1.0).unwrap();
    let mut compared = Lab::new(ChainConfig { sampler: "sghmc".into(), ..config }, 300, 300, 1.0).unwrap();
    assert_eq!(compared.truth().source, TruthSource::NeedsReferenceRun);
    assert_eq!(compared.advance_truth(0)["running"], true, "nothing to adopt yet");
    while main.advance_truth(20_000)["running"] == true {}
    assert_eq!(compared.advance_truth(0)["running"], false, "adopted without running");
    assert_eq!(compared.truth().moments, main.truth().moments);
    compared.run(200);
    assert!(compared.state()["e2"].is_number(), "errors against the shared truth");
}

/// The held-out curves (src/lab/heldout.rs) on logreg_heldout with SGLD at n = 10 (456 training
/// rows: 45.6 steps per sweep, a checkpoint every 5 steps): splitting the run at checkpoints
/// leaves the trajectory as a plain chain run has it, and a rewind replays the same curve.
#[test]
fn held_out_curves_follow_the_run_and_replay_after_a_rewind() {
    let config = ChainConfig::new("logreg_heldout", "sgld", 1).with("batch_size", 10).with("step_size", 1e-3);
    let mut lab = Lab::new(config.clone(), 200, 200, 1.0).unwrap();
    lab.run(1_000);
    let mut plain = Chain::new(&config).unwrap();
    plain.run(1_000);
    assert_eq!(lab.chain().position(), plain.position());
    let points = lab.held_out().unwrap().points().to_vec();
    // Checkpoints at steps 0, 5, …, 1,000: 201 of them, the last at 1,000 / 45.6 sweeps.
    assert_eq!(points.len(), 201);
    assert!((points[200].sweeps - 1_000.0 / 45.6).abs() < 1e-9);
    let state = lab.state();
    println!("held-out after 1,000 steps: {}", state["heldout"]);
    assert_eq!(state["heldout"]["log_joint"], points[200].log_joint);
    lab.seek(400).unwrap();
    lab.seek(1_000).unwrap();
    assert_eq!(lab.held_out().unwrap().points(), &points[..]);
    assert!(lab.chart("heldout").unwrap().series.len() == 3);
    assert!(self::lab("gaussian", "sgld").chart("heldout").is_err());
}

/// Issue 26: a bouncy sampler's trace counted path samples (equal times along the path, many per
/// event) under the axis "sample", beside the page's "events" count: its axis says what it counts.
/// The count itself is checked against the chain: more path samples than events after a run.
#[test]
fn a_bouncy_trace_axis_names_path_samples_not_events() {
    let mut bps = lab("gaussian", "bps");
    bps.run(200);
    let state = bps.state();
    let (samples, events) = (state["n_samples"].as_f64().unwrap(), state["promise_count"].as_f64().unwrap());
    assert!(samples > 2.0 * events, "path samples {samples} outnumber events {events}: two counts, two names");
    let axis = bps.chart("trace").unwrap().x_label;
    assert!(axis.contains("path") && axis.contains("not events"), "bps trace axis: {axis:?}");
    let mut sgld = lab("gaussian", "sgld");
    sgld.run(200);
    assert_eq!(sgld.chart("trace").unwrap().x_label, "sample", "a step sampler's samples are its steps");
}

#[test]
fn one_run_longer_than_the_ring_bins_every_sample() {
    let mut config = ChainConfig::new("gaussian", "sgld", 1);
    config.capacity = 500;
    let mut lab = Lab::new(config, 400, 400, 1.0).unwrap();
    assert_eq!(lab.run(2_000), 2_000);
    assert_eq!(lab.density().total_inside() + lab.density().outside(), 2_000, "samples older than the ring's 500 count too");
    let mut pieces = 0;
    lab.run_segments(1_200, &mut |_, _, _| pieces += 1);
    assert_eq!(lab.density().total_inside() + lab.density().outside(), 3_200);
    // A bouncy path pushes several samples per event: every one is binned too.
    let mut config = ChainConfig::new("gaussian", "bps", 1);
    config.capacity = 500;
    let mut bouncy = Lab::new(config, 400, 400, 1.0).unwrap();
    bouncy.run(3_000);
    let pushed = bouncy.chain().samples().total_pushed();
    assert!(pushed > 1_000, "{pushed} path samples");
    assert_eq!(bouncy.density().total_inside() + bouncy.density().outside(), pushed);
}

/// The OSGFS burn-in marker on the trace sits at the trace position of the step eq. 17 fired at
/// (review s44, OSGFS lesson step 3: collecting only after eq. 17, the legend said "at sample 167"
/// while sample 0 was step 167). By hand: collecting after the criterion, the step that fires is the
/// first sample kept, position 0; collecting always from step 1, step F is position F − 1.
#[test]
fn the_osgfs_burn_in_marker_sits_at_the_step_that_fired() {
    for (collect, steps_before_first_sample) in [(0.0, None), (1.0, Some(1.0))] {
        let config = ChainConfig::new("logreg", "osgfs", 1).with("n_points", 10000).with("true_w", 2).with("true_b", -1).with("start_at", 1).with("batch_size", 100).with("osgfs_collect", collect);
        let mut lab = Lab::new(config, 300, 300, 1.0).unwrap();
        lab.run(600);
        let fired = lab.state()["diagnostics"].as_array().unwrap().iter().find(|d| d["name"] == "burn_in_over_step").and_then(|d| d["value"].as_f64()).expect("eq. 17 fires within 600 steps here");
        let chart = lab.chart("trace").unwrap();
        let marker = chart.markers.iter().find(|m| m.label.starts_with("burn-in over")).expect("a burn-in marker");
        let expected = steps_before_first_sample.map_or(0.0, |first: f64| fired - first);
        assert_eq!(marker.x, expected, "collect = {collect}, fired at step {fired}: {}", marker.label);
        assert!(marker.label.contains(&format!("at step {fired:.0}")), "{}", marker.label);
    }
}
