//! Unit tests of src/sweep.rs (`sweep::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::chain::ChainConfig;
use sgviz::sweep::*;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::model::Model;

#[test]
fn larger_steps_mix_faster_and_are_more_biased_at_equal_budget() {
    let truth = CorrelatedGaussian::new(1.0, 1.0, 0.5, 0.0).exact_moments().unwrap();
    let base = ChainConfig::new("gaussian", "sgld", 3).with("rho", 0.5).with("grad_noise", 0.0);
    let curve = SweepCurve { sampler: "sgld".into(), param: "step_size".into(), values: vec![0.01, 0.8], settings: vec![("batch_size".into(), "10".into())], whole_run: false };
    let budget = 400_000;
    let mut sweep = Sweep::new(&base, None, vec![curve], budget, truth).unwrap();
    let mut slices = 0;
    while !sweep.advance(10_000) {
        slices += 1;
        assert!(slices < 1000, "sweep must finish");
    }
    assert!((sweep.progress() - 1.0).abs() < 1e-12);
    let r = sweep.results();
    assert!(r.iter().all(|p| p.grad_evals >= budget && p.grad_evals < budget + 64 * 10 + 1));
    assert!(r[1].ess_per_1000_grads > 5.0 * r[0].ess_per_1000_grads, "{r:?}");
    // ε = 0.8 inflates the smaller-variance direction by 1/(1 − εp/4) with p = 2: ~ +25 % E2.
    assert!(r[1].e2 > 0.15, "{r:?}");
}
