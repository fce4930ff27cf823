//! A 1-D evidence model scripted by hand for SGAIS's hand-worked tests (tests/sgais_run_by_hand.rs,
//! tests/sgais_lambda_snap.rs): prior N(0, 1), every datum's log-likelihood the same function of θ
//! (gradient 0), and the prior sampler handing out a scripted sequence of draws.

use sgviz::model::{Model, View};
use sgviz::rng::ChainRng;
use sgviz::sgais::models::EvidenceModel;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Scripted {
    pub n_data: usize,
    pub log_lik: fn(f64) -> f64,
    /// The k-th prior draw (k counts from 0 across all particles).
    pub draw: fn(usize) -> f64,
    pub next: AtomicUsize,
}

impl Scripted {
    pub fn new(n_data: usize, log_lik: fn(f64) -> f64, draw: fn(usize) -> f64) -> Scripted {
        Scripted { n_data, log_lik, draw, next: AtomicUsize::new(0) }
    }
}

/// The draws +1, −1, +1, … (half the particles on each side of 0).
pub fn alternating(k: usize) -> f64 {
    if k % 2 == 0 { 1.0 } else { -1.0 }
}

impl Model for Scripted {
    fn dim(&self) -> usize {
        1
    }
    fn n_data(&self) -> usize {
        self.n_data
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        -0.5 * theta[0] * theta[0]
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        out[0] -= theta[0];
    }
    fn log_lik(&self, _i: usize, theta: &[f64]) -> f64 {
        (self.log_lik)(theta[0])
    }
    fn add_grad_log_lik(&self, _i: usize, _theta: &[f64], _out: &mut [f64]) {}
    fn view(&self) -> View {
        View { x_min: -2.0, x_max: 2.0, y_min: -2.0, y_max: 2.0 }
    }
}

impl EvidenceModel for Scripted {
    fn sample_prior(&self, _rng: &mut ChainRng) -> Vec<f64> {
        vec![(self.draw)(self.next.fetch_add(1, Ordering::Relaxed))]
    }
}
