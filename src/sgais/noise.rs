//! The covariance of SGAIS's stochastic gradient, for SGHMC's noise correction B̂ = ηV̂/2
//! (SGAIS paper eq. 3 and §4; Chen, Fox, Guestrin 2014, §3.2; docs/sgais.md §3).
//!
//! In eq. 4 only the history term is stochastic: ((n−1)/|B|) Σ_{y∈B} ∇log p(y | θ) with B drawn
//! i.i.d. with replacement from the n − 1 previous data, so its covariance is
//! V(θ) = ((n−1)²/|B|) · S(θ), S(θ) = covariance of the per-datum score ∇ℓ_k(θ) over the history.
//! We estimate S at the particles (they follow p(θ | y_<n) when a chunk starts) by the
//! within-particle sample covariance of scores of history data drawn uniformly, averaged over the
//! particles.

use super::reservoir::History;
use crate::model::Model;
use crate::rng::ChainRng;
use nalgebra::DMatrix;

/// Per-datum scores used for one estimate, spread evenly over the particles (at least 2 each).
/// With 2,000 scores the relative standard error of a variance is about √(2/2,000) ≈ 3 %.
pub const NOISE_SAMPLES: usize = 2_000;

/// An estimate of the covariance V of the history part of ∇Û (row-major D × D) and its largest
/// eigenvalue.
#[derive(Clone, Debug, PartialEq)]
pub struct GradientNoise {
    pub cov: Vec<f64>,
    pub dim: usize,
    pub largest_eigenvalue: f64,
}

impl GradientNoise {
    /// Ratio of the largest gradient-noise variance η²λ_max(V) to SGHMC's noise 2αη per step:
    /// ηλ_max(V)/(2α). SGHMC with β̂ = 0 samples at a temperature inflated by about this factor in
    /// the worst direction; with B̂ = ηV/2 this is the share of the noise the gradient supplies.
    pub fn noise_ratio(&self, learning_rate: f64, friction: f64) -> f64 {
        learning_rate * self.largest_eigenvalue / (2.0 * friction)
    }

    /// The largest η with ηλ_max(V)/(2α) ≤ κ.
    pub fn learning_rate_cap(&self, friction: f64, max_share: f64) -> f64 {
        if self.largest_eigenvalue > 0.0 {
            2.0 * max_share * friction / self.largest_eigenvalue
        } else {
            f64::INFINITY
        }
    }
}

/// Estimate V = ((n−1)²/|B|) S at the particles; None without history (then ∇Û is exact).
/// Returns the estimate and the number of per-datum gradient evaluations spent.
pub fn estimate_gradient_noise(model: &dyn Model, particles: &[Vec<f64>], history: &History, batch_size: usize, rng: &mut ChainRng) -> (Option<GradientNoise>, u64) {
    let dim = model.dim();
    if particles.is_empty() || history.true_count() == 0 || batch_size == 0 {
        return (None, 0);
    }
    let per_particle = NOISE_SAMPLES.div_ceil(particles.len()).max(2);
    let mut pooled = DMatrix::<f64>::zeros(dim, dim);
    let (mut batch, mut score) = (Vec::new(), vec![0.0; dim]);
    let mut evals = 0;
    for theta in particles {
        history.draw_batch(per_particle, &mut batch, rng);
        if batch.len() < 2 {
            return (None, evals);
        }
        let mut scores = DMatrix::<f64>::zeros(batch.len(), dim);
        for (r, &k) in batch.iter().enumerate() {
            score.fill(0.0);
            model.add_grad_log_lik(k, theta, &mut score);
            scores.row_mut(r).copy_from_slice(&score);
        }
        evals += batch.len() as u64;
        let mean = scores.row_mean();
        for mut row in scores.row_iter_mut() {
            row -= &mean;
        }
        pooled += scores.transpose() * &scores / (batch.len() - 1) as f64;
    }
    let n_prev = history.true_count() as f64;
    let cov = pooled * (n_prev * n_prev / (batch_size as f64 * particles.len() as f64));
    if cov.iter().any(|v| !v.is_finite()) {
        return (None, evals);
    }
    let largest_eigenvalue = crate::linalg::largest_symmetric_eigenvalue(&cov).max(0.0);
    let cov_rows = (0..dim).flat_map(|i| (0..dim).map(move |j| (i, j))).map(|(i, j)| cov[(i, j)]).collect();
    (Some(GradientNoise { cov: cov_rows, dim, largest_eigenvalue }), evals)
}
