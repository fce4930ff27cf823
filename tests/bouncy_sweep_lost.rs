//! A bouncy-sweep point whose chain diverges is reported lost with the events it ran (issue 23,
//! stop 51: bouncy_sweep.rs 242:31, the deletion of `events` from `measure`'s lost result, open
//! since stop 50 because no sweep point in a test had diverged).
//!
//! The target: a standard bivariate normal (precision I, so BPS draws its event times exactly)
//! whose chains start at (10⁹, 0), with the view [−5, 5]², so a chain is declared diverged once a
//! coordinate leaves 10⁴ view widths = 10⁵ (src/chain/mod.rs). One BPS event from there moves the
//! particle by its travel time: outward a bounce within ≈ 10⁻⁹ (the intensity ⟨v, x⟩ ≈ 10⁹),
//! inward a refresh, at rate λ_ref ≤ 10 here, long before it covers 10⁹. So every point's chain
//! diverges at its first step: lost, with 1 event, not 0 — checked here against a chain run by hand.

use sgviz::bouncy_sweep::{BouncyKnob, BouncySweep};
use sgviz::chain::{Chain, ChainConfig, ChainStatus};
use sgviz::diagnostics::Moments;
use sgviz::model::{Model, View};
use std::sync::Arc;

/// N(0, I₂) started at (10⁹, 0) (module doc).
struct FarStart;

impl Model for FarStart {
    fn dim(&self) -> usize {
        2
    }
    fn n_data(&self) -> usize {
        1
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        -0.5 * (theta[0] * theta[0] + theta[1] * theta[1])
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        out[0] -= theta[0];
        out[1] -= theta[1];
    }
    fn log_lik(&self, _i: usize, _theta: &[f64]) -> f64 {
        0.0
    }
    fn add_grad_log_lik(&self, _i: usize, _theta: &[f64], _out: &mut [f64]) {}
    fn gaussian_precision(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        Some((vec![0.0, 0.0], vec![1.0, 0.0, 0.0, 1.0]))
    }
    fn exact_moments(&self) -> Option<Moments> {
        Some(truth())
    }
    fn initial_point(&self) -> Vec<f64> {
        vec![1e9, 0.0]
    }
    fn view(&self) -> View {
        View::centred(0.0, 0.0, 5.0, 5.0)
    }
}

fn truth() -> Moments {
    Moments { mean: vec![0.0, 0.0], cov: vec![vec![1.0, 0.0], vec![0.0, 1.0]] }
}

#[test]
fn a_point_whose_chain_diverges_is_lost_with_the_one_event_it_ran() {
    let model: Arc<dyn Model> = Arc::new(FarStart);
    let config = ChainConfig::new("gaussian", "bps", 1).with("refresh_rate", 1.0);
    // The oracle: the same chain by hand diverges at its first event.
    let mut by_hand = Chain::with_model(&config, model.clone()).unwrap();
    assert_eq!(by_hand.run(5), 1, "the chain run by hand stops after its first event");
    assert!(matches!(by_hand.status(), ChainStatus::Diverged(_)), "{:?}", by_hand.status());
    let chain = Chain::with_model(&config, model).unwrap();
    let events = 200;
    let knobs = BouncyKnob::of(&chain, events);
    let mut sweep = BouncySweep::new(&config, &chain, knobs, truth(), events);
    while !sweep.is_done() {
        sweep.advance(1_000);
    }
    let results = sweep.results();
    // λ_ref = 1: 0.1, 0.3162, 1, 3.162, 10 (five log-spaced over a factor 10 either side).
    assert_eq!(results.len(), 5, "{results:?}");
    for r in &results {
        assert!(r.diverged && r.e2.is_nan() && r.ess_per_1000_events.is_nan(), "{r:?}");
        assert_eq!(r.events, 1, "λ_ref = {}: a lost point's events are those its chain ran before it diverged", r.value);
    }
}
