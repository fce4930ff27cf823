//! Hand-worked tests of src/heldout.rs and the logreg_heldout split (src/model/logreg_heldout.rs).
//!
//! Unit tests of src/heldout.rs (`heldout::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::model::test_set::TestSet;
use sgviz::heldout::*;
use sgviz::model::logistic::LogisticRegression;

/// Two training rows x = 1 (y = 1) and x = −1 (y = 0), prior sd 1; three test rows
/// x = 2, −3, 0.5 with labels 1, 1, 0.
fn tiny() -> (LogisticRegression, TestSet) {
    let model = LogisticRegression::new(1, vec![1.0, -1.0], vec![1.0, 0.0], 1.0, vec!["x".into(), "intercept".into()]).unwrap();
    let test = TestSet::with_intercept(1, &[2.0, -3.0, 0.5], vec![1.0, 1.0, 0.0]);
    (model.with_test_set(test.clone()), test)
}

fn sigma(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

#[test]
fn log_joint_per_datum_by_hand() {
    let (model, _) = tiny();
    // θ = (w, b) = (1, 0): z = ±1, each row's log-likelihood is log σ(1) = −0.3132616875…;
    // the prior −½‖θ‖² = −½; total −1.1265233750 over N = 2 rows.
    let by_hand = (-0.5 - 2.0 * 0.313_261_687_518_222_8) / 2.0;
    assert!((log_joint_per_datum(&model, &[1.0, 0.0]) - by_hand).abs() < 1e-12);
    // At θ = 0 every row has likelihood ½: log ½ per datum, no prior term.
    assert!((log_joint_per_datum(&model, &[0.0, 0.0]) - 0.5f64.ln()).abs() < 1e-15);
}

#[test]
fn accuracy_and_baseline_by_hand() {
    let (_, test) = tiny();
    // θ = (1, 0): p = σ(2) = 0.88 (label 1: right), σ(−3) = 0.05 (label 1: wrong), σ(0.5) = 0.62 (label 0: wrong).
    assert_eq!(test.accuracy(&test.probabilities(&[1.0, 0.0])), 1.0 / 3.0);
    // Two of three labels are 1.
    assert_eq!(test.majority_accuracy(), 2.0 / 3.0);
    // p = ½ exactly is no decision: wrong.
    assert_eq!(test.accuracy(&[0.5, 0.5, 0.5]), 0.0);
}

#[test]
fn accuracy_is_of_the_predictive_averaged_over_the_run() {
    let (model, test) = tiny();
    let mut tracker = HeldOut::of(&model, Some(1.0)).expect("the model has a test set");
    // N = 2, n = 1: 2 steps per sweep, a checkpoint every step (10 per sweep rounds up to 1 step).
    assert_eq!(tracker.next_step(), 0);
    tracker.observe(&model, &test, &[1.0, 0.0], 0);
    assert_eq!(tracker.next_step(), 1);
    tracker.observe(&model, &test, &[-4.0, 0.0], 1);
    // p̄ = (σ(2) + σ(−8))/2 = 0.44 (wrong), (σ(−3) + σ(12))/2 = 0.52 (right), (σ(0.5) + σ(−2))/2 = 0.37 (right).
    let p_bar = [(sigma(2.0) + sigma(-8.0)) / 2.0, (sigma(-3.0) + sigma(12.0)) / 2.0, (sigma(0.5) + sigma(-2.0)) / 2.0];
    assert!(p_bar[0] < 0.5 && p_bar[1] > 0.5 && p_bar[2] < 0.5, "hand-worked p̄ {p_bar:?}");
    let points = tracker.points();
    assert_eq!(points.len(), 2);
    assert_eq!((points[0].sweeps, points[1].sweeps), (0.0, 0.5));
    assert_eq!(points[0].accuracy, 1.0 / 3.0);
    assert_eq!(points[1].accuracy, 2.0 / 3.0);
    let s = tracker.summary();
    assert_eq!(s["baseline"], 2.0 / 3.0);
    assert!((s["log_joint_rise"].as_f64().unwrap() - (points[1].log_joint - points[0].log_joint)).abs() < 1e-15);
}

#[test]
fn long_runs_keep_at_most_max_points_by_thinning() {
    let (model, test) = tiny();
    let mut tracker = HeldOut::of(&model, Some(1.0)).unwrap();
    for _ in 0..=MAX_POINTS {
        let step = tracker.next_step();
        tracker.observe(&model, &test, &[0.1, 0.0], step);
    }
    // 1,001 checkpoints at steps 0…1,000: every other one kept (501), spacing now 2 steps.
    assert_eq!(tracker.points().len(), MAX_POINTS / 2 + 1);
    assert_eq!(tracker.next_step(), MAX_POINTS as u64 + 2);
    assert_eq!(tracker.points().last().unwrap().sweeps, MAX_POINTS as f64 / 2.0);
}

#[test]
fn breast_cancer_split_holds_out_every_fifth_row() {
    use sgviz::params::ParamValues;
    let spec = sgviz::registry::target("logreg_heldout").unwrap();
    let model = sgviz::model::logreg_heldout::from_params(&ParamValues::defaults(spec.params)).unwrap();
    let test = model.test_set().expect("a test set");
    // 569 = 5 · 113 + 4 rows: 113 held out (rows 4, 9, …, 564), 456 trained on.
    assert_eq!((model.n_data(), test.len(), test.dim), (456, 113, 11));
    let all = sgviz::data::builtin("breast_cancer").unwrap();
    let held: Vec<f64> = (0..569).filter(|i| i % 5 == 4).map(|i| all.responses[i]).collect();
    assert_eq!(test.labels, held);
}

#[test]
fn chart_is_over_sweeps_on_a_log_axis_without_the_start() {
    let (model, test) = tiny();
    let mut tracker = HeldOut::of(&model, Some(1.0)).unwrap();
    for step in 0..4 {
        tracker.observe(&model, &test, &[step as f64, 0.0], step);
    }
    let chart = tracker.chart();
    assert!(chart.log_x);
    // Checkpoints at 0, ½, 1, 1½ sweeps: the one at 0 cannot sit on a log axis.
    assert_eq!(chart.series[0].points.iter().map(|p| p.0).collect::<Vec<_>>(), vec![0.5, 1.0, 1.5]);
    assert_eq!(chart.series[2].points, vec![(0.5, 2.0 / 3.0), (5.0, 2.0 / 3.0)]);
}
