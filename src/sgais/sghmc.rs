//! SGHMC moves on the SGAIS minibatch potential (SGAIS paper eq. 3 and eq. 4; ALGORITHMS.md §3).
//!
//! Û(θ) = −λ log p(C | θ) − ((n − 1)/|B|) Σ_{y∈B} log p(y | θ) − log p(θ)   (eq. 4)
//! with C the current chunk, n − 1 the number of previous data and B drawn i.i.d. with replacement
//! from the history. Update (eq. 3, velocity first, then position with the new velocity):
//! v ← v − η ∇Û(θ) − α v + N(0, 2(α − β̂) η I);  θ ← θ + v.

use super::reservoir::History;
use crate::model::Model;
use crate::rng::{standard_normal, ChainRng};

/// Learning rate η, friction α and gradient-noise estimate β̂ ≤ α of eq. 3.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SghmcKernel {
    pub learning_rate: f64,
    pub friction: f64,
    pub noise_estimate: f64,
}

impl SghmcKernel {
    /// Standard deviation of the injected noise, √(2(α − β̂)η).
    pub fn injected_noise_sd(&self) -> f64 {
        (2.0 * (self.friction - self.noise_estimate).max(0.0) * self.learning_rate).sqrt()
    }
}

/// The annealed, minibatched target of one intermediate distribution f_n^(λ) (eq. 2 and eq. 4).
pub struct Potential<'a> {
    pub model: &'a dyn Model,
    /// Data indices of the chunk being annealed in.
    pub chunk: std::ops::Range<usize>,
    /// Current inverse temperature λ of the chunk.
    pub lambda: f64,
    pub history: &'a History,
    /// |B|.
    pub batch_size: usize,
}

impl Potential<'_> {
    /// out = −∇Û(θ) = ∇log p(θ) + λ Σ_{i∈C} ∇ℓ_i(θ) + ((n−1)/|B|) Σ_{b∈B} ∇ℓ_b(θ), with a fresh B.
    /// Returns the number of per-datum gradient evaluations.
    pub fn grad_log_target(&self, theta: &[f64], batch: &mut Vec<usize>, scratch: &mut [f64], out: &mut [f64], rng: &mut ChainRng) -> u64 {
        out.fill(0.0);
        self.model.add_grad_log_prior(theta, out);
        scratch.fill(0.0);
        batch.clear();
        batch.extend(self.chunk.clone());
        self.model.add_grad_log_lik_batch(batch, theta, scratch);
        for (o, s) in out.iter_mut().zip(scratch.iter()) {
            *o += self.lambda * s;
        }
        self.history.draw_batch(self.batch_size, batch, rng);
        if batch.is_empty() {
            return self.chunk.len() as u64;
        }
        scratch.fill(0.0);
        self.model.add_grad_log_lik_batch(batch, theta, scratch);
        let scale = self.history.true_count() as f64 / batch.len() as f64;
        for (o, s) in out.iter_mut().zip(scratch.iter()) {
            *o += scale * s;
        }
        (self.chunk.len() + batch.len()) as u64
    }
}

/// Reusable buffers for [`sghmc_steps`].
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    grad: Vec<f64>,
    scratch: Vec<f64>,
    batch: Vec<usize>,
}

/// K SGHMC steps of one particle (θ, v) on the potential. Returns per-datum gradient evaluations.
pub fn sghmc_steps(
    kernel: &SghmcKernel,
    potential: &Potential,
    steps: usize,
    theta: &mut [f64],
    velocity: &mut [f64],
    work: &mut Workspace,
    rng: &mut ChainRng,
) -> u64 {
    let dim = theta.len();
    work.grad.resize(dim, 0.0);
    work.scratch.resize(dim, 0.0);
    let noise_sd = kernel.injected_noise_sd();
    let mut evals = 0;
    for _ in 0..steps {
        evals += potential.grad_log_target(theta, &mut work.batch, &mut work.scratch, &mut work.grad, rng);
        for j in 0..dim {
            velocity[j] += kernel.learning_rate * work.grad[j] - kernel.friction * velocity[j] + noise_sd * standard_normal(rng);
            theta[j] += velocity[j];
        }
    }
    evals
}
