//! The "noise vs step size" phase picture (Welling & Teh 2011, §4 and Fig. 2): as functions of the
//! step size ε, the injected-noise variance ε against the stochastic-gradient-noise variance
//! (ε²/4)(N²/n) λ_max(V_s) (their crossing is the sampling threshold of eq. 10), and the
//! rejection probability a full-data Metropolis–Hastings correction of the Langevin proposal
//! would have at that ε (Fig. 2, right).

use crate::model::Model;
use crate::rng::{index_below, standard_normal, ChainRng};
use nalgebra::DMatrix;

/// Per-coordinate variance scales of the two noises, for a model at given points.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct NoiseScale {
    /// (N²/n)((N − n)/(N − 1)) λ_max(V_s) + s² (V_s with divisor N; minibatches drawn without
    /// replacement): multiply by ε²/4 for the gradient-noise variance.
    pub gradient_noise_scale: f64,
    pub batch_size: usize,
    pub n_data: usize,
}

impl NoiseScale {
    /// Variance of the injected noise at step ε (M = I).
    pub fn injected(&self, step: f64) -> f64 {
        step
    }
    /// Variance of the stochastic-gradient noise in one update at step ε.
    pub fn gradient_noise(&self, step: f64) -> f64 {
        step * step / 4.0 * self.gradient_noise_scale
    }
    /// Welling & Teh eq. 10 threshold at step ε: gradient-noise over injected variance.
    pub fn threshold(&self, step: f64) -> f64 {
        self.gradient_noise(step) / self.injected(step)
    }
    /// The step size at which both variances are equal (threshold = 1).
    pub fn crossing(&self) -> Option<f64> {
        (self.gradient_noise_scale > 0.0).then(|| 4.0 / self.gradient_noise_scale)
    }
}

/// Largest eigenvalue of the covariance of per-datum scores (docs/sgld.md §3's V_s), averaged
/// over `points`, using at most `max_data` data chosen at random; plus the synthetic noise.
pub fn noise_scale(model: &dyn Model, points: &[Vec<f64>], batch_size: usize, max_data: usize, rng: &mut ChainRng) -> NoiseScale {
    let n_data = model.n_data();
    let batch_size = batch_size.clamp(1, n_data);
    let dim = model.dim();
    let use_all = n_data <= max_data;
    let count = if use_all { n_data } else { max_data };
    let mut lambda_sum = 0.0;
    for theta in points {
        let mut scores = DMatrix::<f64>::zeros(count, dim);
        let mut row = vec![0.0; dim];
        for k in 0..count {
            let i = if use_all { k } else { index_below(rng, n_data) };
            row.fill(0.0);
            model.add_grad_log_lik(i, theta, &mut row);
            for j in 0..dim {
                scores[(k, j)] = row[j];
            }
        }
        let means = scores.row_mean();
        for k in 0..count {
            for j in 0..dim {
                scores[(k, j)] -= means[j];
            }
        }
        let covariance = scores.transpose() * &scores / count as f64;
        let lambda = crate::linalg::largest_symmetric_eigenvalue(&covariance);
        // Identical scores (pseudo-data) leave only rounding noise: treat it as exactly zero.
        let size = means.iter().map(|m| m * m).sum::<f64>();
        // A NaN λ (non-finite scores) stays NaN rather than reading as no noise.
        lambda_sum += if lambda.is_nan() || lambda > 1e-20 * (1.0 + size) { lambda } else { 0.0 };
    }
    let lambda = if points.is_empty() { 0.0 } else { lambda_sum / points.len() as f64 };
    // Minibatches are drawn without replacement: the divisor-N score variance λ carries the
    // finite-population factor (N − n)/(N − 1) (Cochran 1977, Thm 2.2); n = N has no gradient noise.
    let finite_population = (n_data - batch_size) as f64 / (n_data.max(2) - 1) as f64;
    let scale = (n_data as f64).powi(2) / batch_size as f64 * finite_population * lambda + model.synthetic_noise_sd().powi(2);
    NoiseScale { gradient_noise_scale: scale, batch_size, n_data }
}

/// Mean rejection probability 1 − min(1, r) of one full-data Langevin (MALA) proposal at step ε
/// from each of `points`, with one proposal per point.
pub fn mh_rejection_probability(model: &dyn Model, points: &[Vec<f64>], step: f64, rng: &mut ChainRng) -> f64 {
    let dim = model.dim();
    let mut grad = vec![0.0; dim];
    let mut proposal_grad = vec![0.0; dim];
    let mut total = 0.0;
    for theta in points {
        model.grad_log_density(theta, &mut grad);
        let proposal: Vec<f64> = (0..dim).map(|j| theta[j] + 0.5 * step * grad[j] + step.sqrt() * standard_normal(rng)).collect();
        model.grad_log_density(&proposal, &mut proposal_grad);
        let log_q = |to: &[f64], from: &[f64], g: &[f64]| -> f64 {
            -to.iter().zip(from).zip(g).map(|((t, f), g)| (t - f - 0.5 * step * g).powi(2)).sum::<f64>() / (2.0 * step)
        };
        let log_ratio = model.log_density(&proposal) - model.log_density(theta) + log_q(theta, &proposal, &proposal_grad)
            - log_q(&proposal, theta, &grad);
        let accept = if log_ratio.is_nan() { 0.0 } else { log_ratio.min(0.0).exp() };
        total += 1.0 - accept;
    }
    if points.is_empty() {
        f64::NAN
    } else {
        total / points.len() as f64
    }
}

/// `count` step sizes evenly spaced in log between `lo` and `hi`.
pub fn log_grid(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    (0..count).map(|k| (lo.ln() + (hi.ln() - lo.ln()) * k as f64 / (count - 1).max(1) as f64).exp()).collect()
}
