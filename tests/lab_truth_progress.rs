//! src/lab/truth.rs's progress line while the exact MALA reference runs (issue 23, twentieth
//! mutation pass: `Lab::advance_truth`'s fraction, `/` → `%` and `*`, survived the lab's truth
//! tests, which only wait for the run to end). The page prints it: "computing the exact MALA
//! reference: N %".

use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;
use sgviz::truth::TruthSource;

#[test]
fn the_reference_runs_progress_is_the_share_of_its_steps_done() {
    let config = ChainConfig::new("logreg", "sgld", 5).with("dataset", "breast_cancer").with("n_features", 3);
    let mut lab = Lab::new(config, 200, 200, 1.0).unwrap();
    assert_eq!(lab.truth().source, TruthSource::NeedsReferenceRun);
    let first = lab.advance_truth(500);
    let second = lab.advance_truth(500);
    let (f1, f2) = (first["fraction"].as_f64().unwrap(), second["fraction"].as_f64().unwrap());
    assert_eq!(first["running"], true);
    // A share of the run, and twice the steps are twice the share (the total is fixed).
    assert!(f1 > 0.0 && f1 < 0.5, "after 500 steps: {f1}");
    assert!((f2 - 2.0 * f1).abs() < 1e-12 * f2, "after 1,000 steps: {f2}, twice {f1}");
    assert_eq!(first["text"], format!("computing the exact MALA reference: {:.0} %", 100.0 * f1));
}
