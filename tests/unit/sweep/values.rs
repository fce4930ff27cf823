//! The bias–mixing sweep's bookkeeping pinned by value (src/sweep.rs; issue 23, mutation testing):
//! the round-robin order of 64-step slices, the shared budget, the warm-up (statistics cleared once
//! a chain has spent a tenth of its budget), the progress fraction, and every number a finished or
//! running point reports (E1/E2, the measured error and its MCSE, ESS per 1,000 gradients),
//! compared with the same seeded chains driven by hand in this file. The hand driver is the
//! oracle for the bookkeeping; the estimators it calls (diagnostics.rs, error_split.rs) are tested
//! in their own modules. Nothing is read from sweep.rs's constants.
//!
//! Unit tests of src/sweep.rs (`sweep::values`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::chain::{Chain, ChainConfig};
use sgviz::diagnostics::{effective_sample_size, relative_errors, Moments};
use sgviz::error_split::measured_error;
use sgviz::sweep::*;
use sgviz::model::gaussian::CorrelatedGaussian;

/// The budget in every test: 30 slices of 64 SGLD steps at minibatch 10 (640 gradient
/// evaluations a slice), so the warm-up threshold 0.1 · 19,200 = 1,920 falls exactly at the end of
/// the third slice and the budget exactly at the end of the thirtieth.
const BUDGET: u64 = 19_200;

fn base() -> ChainConfig {
    ChainConfig::new("gaussian", "sgld", 3).with("rho", 0.5).with("grad_noise", 0.0)
}

fn truth() -> Moments {
    CorrelatedGaussian::new(1.0, 1.0, 0.5, 0.0).exact_moments().unwrap()
}

fn sweep_over(values: Vec<f64>) -> Sweep {
    let curve = SweepCurve { sampler: "sgld".into(), param: "step_size".into(), values, settings: vec![("batch_size".into(), "10".into())], whole_run: false };
    Sweep::new(&base(), None, vec![curve], BUDGET, truth()).unwrap()
}

/// The chain of one sweep point, driven by hand: `slices` slices of 64 steps, its statistics
/// cleared at the end of the first slice that reaches 1,920 gradient evaluations.
fn by_hand(step: f64, slices: usize) -> Chain {
    let mut config = base().with("batch_size", 10).with("step_size", step);
    config.capacity = 20_000;
    let mut chain = Chain::new(&config).unwrap();
    let mut warmed = false;
    for _ in 0..slices {
        chain.run(64);
        if !warmed && chain.grad_evals() >= 1_920 {
            chain.clear_statistics();
            warmed = true;
        }
    }
    chain
}

/// ESS per 1,000 gradients of a hand-driven chain: the smaller ESS of the two coordinates over
/// the retained samples (fewer than 20,000 here: no thinning), times 1,000, over the gradients
/// those samples cost (DIAG.2).
fn ess_per_1000_by_hand(chain: &Chain) -> f64 {
    let ring = chain.samples();
    let ess = effective_sample_size(&ring.coordinate(0)).min(effective_sample_size(&ring.coordinate(1)));
    1000.0 * ess / (ring.len() as f64 * chain.grad_evals_per_sample())
}

fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

#[test]
fn slices_go_round_robin_and_progress_is_the_spent_share_of_the_total_budget() {
    let mut sweep = sweep_over(vec![0.05, 0.3]);
    assert_eq!(sweep.budget(), BUDGET);
    assert_eq!(sweep.truth(), &truth());
    assert_eq!(sweep.curves().iter().map(|c| (c.param.as_str(), c.values.clone())).collect::<Vec<_>>(), vec![("step_size", vec![0.05, 0.3])]);
    let evals = |s: &Sweep| s.results().iter().map(|r| r.grad_evals).collect::<Vec<u64>>();
    assert_eq!((evals(&sweep), sweep.progress(), sweep.is_done()), (vec![0, 0], 0.0, false));
    // Nothing run: no estimate at all.
    assert!(sweep.results().iter().all(|r| r.e1.is_nan() && r.e2.is_nan() && r.error.is_nan() && r.ess_per_1000_grads.is_nan() && !r.diverged));
    // At most 1 gradient: the first point runs one slice of 64 steps. Before its warm-up a
    // point reports no error (its samples still include the start).
    assert!(!sweep.advance(1));
    assert_eq!(evals(&sweep), vec![640, 0]);
    assert!((sweep.progress() - 640.0 / 38_400.0).abs() < 1e-15, "{}", sweep.progress());
    assert!(sweep.results()[0].e1.is_nan() && sweep.results()[0].e2.is_nan(), "{:?}", sweep.results()[0]);
    // Exactly 640: one slice, the second point's (the call stops once it has spent its share).
    sweep.advance(640);
    assert_eq!(evals(&sweep), vec![640, 640]);
    // 1,281: the first point's slice (640), the second's (1,280 < 1,281), the first's again.
    sweep.advance(1_281);
    assert_eq!(evals(&sweep), vec![1_920, 1_280]);
    assert!((sweep.progress() - 3_200.0 / 38_400.0).abs() < 1e-15, "{}", sweep.progress());
    assert!(sweep.results()[1].e1.is_nan(), "not warmed up: {:?}", sweep.results()[1]);
    // The sampler parameters of the curve are its first chain's.
    assert_eq!(sweep.curve_params(0).map(|p| p.get("step_size")), Some(0.05));
    assert!(sweep.curve_params(1).is_none());
}

#[test]
fn a_running_point_reports_its_chain_since_the_warm_up_and_no_measured_error_until_its_budget_is_spent() {
    let mut sweep = sweep_over(vec![0.05, 0.3]);
    for _ in 0..8 {
        sweep.advance(1);
    }
    // Four slices each: both cleared at 1,920 (end of slice 3), 64 samples since.
    let results = sweep.results();
    for (r, step) in results.iter().zip([0.05, 0.3]) {
        let chain = by_hand(step, 4);
        assert_eq!((r.grad_evals, chain.grad_evals(), chain.samples().len()), (2_560, 2_560, 64));
        let (e1, e2) = relative_errors(&chain.moments(), &truth());
        assert!(same(r.e1, e1) && same(r.e2, e2) && e1.is_finite(), "ε = {step}: {r:?} vs ({e1}, {e2})");
        assert!(same(r.ess_per_1000_grads, ess_per_1000_by_hand(&chain)), "ε = {step}: {r:?}");
        assert!(r.error.is_nan() && r.error_mcse.is_nan(), "measured only once the budget is spent: {r:?}");
        assert_eq!((r.value, r.sampler.as_str(), r.param.as_str(), r.diverged), (step, "sgld", "step_size", false));
    }
}

#[test]
fn a_finished_point_reports_its_chain_run_to_exactly_the_budget() {
    let mut sweep = sweep_over(vec![0.05, 0.3]);
    let mut calls = 0;
    while !sweep.advance(5_000) {
        calls += 1;
        assert!(calls < 100, "30 slices of each point at 5,000 gradients a call: 8 calls");
    }
    assert!(sweep.is_done());
    assert_eq!(sweep.progress(), 1.0);
    for (r, step) in sweep.results().iter().zip([0.05, 0.3]) {
        let chain = by_hand(step, 30);
        assert_eq!((r.grad_evals, chain.grad_evals()), (BUDGET, BUDGET), "stops at the budget, not one slice past it");
        let (e1, e2) = relative_errors(&chain.moments(), &truth());
        assert!(same(r.e1, e1) && same(r.e2, e2), "ε = {step}: {r:?} vs ({e1}, {e2})");
        let (error, mcse) = measured_error(&chain.moments(), chain.samples(), chain.samples_since_clear() as f64, &truth()).unwrap();
        assert!(same(r.error, error) && same(r.error_mcse, mcse), "ε = {step}: {r:?} vs ({error}, {mcse})");
        assert!(same(r.ess_per_1000_grads, ess_per_1000_by_hand(&chain)) && r.ess_per_1000_grads > 0.0, "ε = {step}: {r:?}");
    }
    // A further call spends nothing and returns at once.
    assert!(sweep.advance(5_000));
    assert!(sweep.results().iter().all(|r| r.grad_evals == BUDGET));
}

#[test]
fn a_diverged_point_stops_counts_as_done_and_reports_no_estimate() {
    // ε = 10 (the slider's end) on the ρ = 0.5 Gaussian (stable only below 4/λ_max = 4/2 = 2) explodes at once.
    let mut sweep = sweep_over(vec![0.05, 10.0]);
    let mut calls = 0;
    while !sweep.advance(100_000) {
        calls += 1;
        assert!(calls < 10, "19,200 gradients of the stable point at 100,000 a call: one call");
    }
    let results = sweep.results();
    let (fine, diverged) = (&results[0], &results[1]);
    assert!(diverged.diverged && diverged.grad_evals < BUDGET, "{diverged:?}");
    assert!(diverged.e1.is_nan() && diverged.e2.is_nan() && diverged.error.is_nan() && diverged.ess_per_1000_grads.is_nan(), "{diverged:?}");
    assert!(!fine.diverged && fine.grad_evals == BUDGET && fine.error.is_finite(), "{fine:?}");
    // The stopped point counts its whole budget as done.
    assert_eq!(sweep.progress(), 1.0);
}

/// A finished point's result is computed once (its chain no longer changes) and is the same number
/// as the hand-driven chain's; a running point's is computed afresh on every call.
#[test]
fn a_finished_points_result_is_computed_once_and_a_running_points_on_every_call() {
    let mut sweep = sweep_over(vec![0.05, 0.3]);
    for _ in 0..8 {
        sweep.advance(1);
    }
    let running = sweep.results();
    assert_eq!(sweep.ess_computations(), 2, "both points running, 64 samples each: one ESS each");
    sweep.advance(1);
    let later = sweep.results();
    assert_eq!(sweep.ess_computations(), 4, "running points are computed again");
    assert_ne!(running[0].grad_evals, later[0].grad_evals, "the first point ran one more slice");
    while !sweep.advance(5_000) {}
    let first = sweep.results();
    let after_first = sweep.ess_computations();
    assert_eq!(after_first, 6, "each finished point computed once");
    for _ in 0..3 {
        let again = sweep.results();
        assert_eq!(sweep.ess_computations(), after_first, "a finished point is not recomputed");
        for (a, b) in first.iter().zip(&again) {
            assert!(same(a.e1, b.e1) && same(a.e2, b.e2) && same(a.ess_per_1000_grads, b.ess_per_1000_grads) && same(a.error, b.error) && same(a.error_mcse, b.error_mcse), "{a:?} vs {b:?}");
            assert_eq!((a.grad_evals, a.value, a.diverged), (b.grad_evals, b.value, b.diverged));
        }
    }
    for (r, step) in first.iter().zip([0.05, 0.3]) {
        assert!(same(r.ess_per_1000_grads, ess_per_1000_by_hand(&by_hand(step, 30))), "ε = {step}: {r:?}");
    }
}
