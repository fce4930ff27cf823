//! SGHMC moves on the SGAIS minibatch potential (SGAIS paper eq. 3 and eq. 4; docs/sgais.md §3).
//!
//! Û(θ) = −λ log p(C | θ) − ((n − 1)/|B|) Σ_{y∈B} log p(y | θ) − log p(θ)   (eq. 4)
//! with C the current chunk, n − 1 the number of previous data and B drawn i.i.d. with replacement
//! from the history. Update (eq. 3, velocity first, then position with the new velocity):
//! v ← v − η ∇Û(θ) − α v + N(0, 2(α − β̂) η I);  θ ← θ + v.
//! With a matrix estimate B̂ = ηV/2 of the gradient noise (Chen, Fox, Guestrin 2014, eq. 9 and
//! §3.2) the injected noise is N(0, 2η(αI − B̂)), so that injected plus gradient noise is 2αηI.

use super::reservoir::History;
use crate::model::Model;
use crate::rng::{standard_normal, ChainRng};

/// Learning rate η, friction α and the injected noise of eq. 3.
#[derive(Clone, Debug, PartialEq)]
pub struct SghmcKernel {
    pub learning_rate: f64,
    pub friction: f64,
    pub noise: InjectedNoise,
}

/// The injected noise N(0, 2η(αI − B̂)) of eq. 3 (Chen et al. 2014, eq. 9 with B̂ = ηV̂/2).
#[derive(Clone, Debug, PartialEq)]
pub enum InjectedNoise {
    /// Scalar β̂: standard deviation √(2(α − β̂)η) in every coordinate.
    Isotropic { sd: f64 },
    /// Matrix B̂: the lower Cholesky factor L (row-major D × D) of 2η(αI − B̂).
    Correlated { cholesky: Vec<f64>, dim: usize },
}

impl SghmcKernel {
    /// Eq. 3 with a fixed scalar β̂ ≤ α (the paper's β̂ = 0).
    pub fn with_scalar_estimate(learning_rate: f64, friction: f64, noise_estimate: f64) -> Self {
        let sd = (2.0 * (friction - noise_estimate).max(0.0) * learning_rate).sqrt();
        SghmcKernel { learning_rate, friction, noise: InjectedNoise::Isotropic { sd } }
    }

    /// Eq. 3 with B̂ = η V/2, V the covariance of the stochastic gradient ∇Û (row-major D × D):
    /// the injected noise 2ηαI − η²V and the gradient noise η²V add up to SGHMC's 2αηI. Requires
    /// η λ_max(V)/2 < α (the caller caps η); returns None when 2η(αI − B̂) is not positive definite.
    pub fn with_gradient_noise(learning_rate: f64, friction: f64, gradient_cov: &[f64], dim: usize) -> Option<Self> {
        let mut cov = nalgebra::DMatrix::<f64>::from_row_slice(dim, dim, gradient_cov) * (-learning_rate * learning_rate);
        for j in 0..dim {
            cov[(j, j)] += 2.0 * friction * learning_rate;
        }
        let chol = cov.cholesky()?;
        let l = chol.l();
        let cholesky = (0..dim).flat_map(|i| (0..dim).map(move |j| (i, j))).map(|(i, j)| l[(i, j)]).collect();
        Some(SghmcKernel { learning_rate, friction, noise: InjectedNoise::Correlated { cholesky, dim } })
    }

    /// Standard deviation of the injected noise in coordinate j.
    pub fn injected_noise_sd(&self, j: usize) -> f64 {
        match &self.noise {
            InjectedNoise::Isotropic { sd } => *sd,
            InjectedNoise::Correlated { cholesky, dim } => cholesky[j * dim..j * dim + j + 1].iter().map(|l| l * l).sum::<f64>().sqrt(),
        }
    }

    /// out = one draw of the injected noise.
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub fn draw_noise(&self, out: &mut [f64], z: &mut [f64], rng: &mut ChainRng) {
        match &self.noise {
            InjectedNoise::Isotropic { sd } => out.iter_mut().for_each(|o| *o = sd * standard_normal(rng)),
            InjectedNoise::Correlated { cholesky, dim } => {
                z.iter_mut().for_each(|x| *x = standard_normal(rng));
                for (i, o) in out.iter_mut().enumerate() {
                    *o = cholesky[i * dim..i * dim + i + 1].iter().zip(&z[..=i]).map(|(l, x)| l * x).sum();
                }
            }
        }
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
    noise: Vec<f64>,
    normals: Vec<f64>,
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
    work.noise.resize(dim, 0.0);
    work.normals.resize(dim, 0.0);
    let mut evals = 0;
    for _ in 0..steps {
        evals += potential.grad_log_target(theta, &mut work.batch, &mut work.scratch, &mut work.grad, rng);
        kernel.draw_noise(&mut work.noise, &mut work.normals, rng);
        for j in 0..dim {
            velocity[j] += kernel.learning_rate * work.grad[j] - kernel.friction * velocity[j] + work.noise[j];
            theta[j] += velocity[j];
        }
    }
    evals
}
