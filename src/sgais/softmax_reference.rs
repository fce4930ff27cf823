//! An independent reference log Z for softmax regression (docs/sgais.md §13), used by the tests
//! (tests/sgais_softmax.rs) and never by a run: the Laplace approximation at the posterior mode,
//! then importance sampling with a multivariate Student-t proposal centred there,
//!
//!   Ẑ = (1/S) Σ_s p(D | θ_s) p(θ_s) / q(θ_s),  θ_s ~ t_ν(θ̂, (−H)⁻¹),            (SGAIS.14)
//!
//! which is unbiased for Z whatever the Laplace error, with the delta-method standard error
//! sd(w)/(√S · mean w) on log Ẑ. The likelihood, its gradient and its Hessian are written here from
//! the features and labels alone (not through the model's `log_lik`, which SGAIS and NS share):
//!
//!   −∇² log p(θ | D) = I/σ_p² + Σ_i (diag p_i − p_i p_iᵀ) ⊗ x̃_i x̃_iᵀ,  x̃ = (x, 1).
//!
//! The posterior is log-concave (a concave log-likelihood plus a Gaussian prior), so Newton from
//! θ = 0 finds its only mode. The C-fold shift θ_k → θ_k + v that leaves every p(y | x, θ)
//! unchanged is fixed by the proper prior alone: along it the posterior is the prior's Gaussian,
//! which the Laplace approximation and the proposal carry exactly, so Z is finite.

use crate::model::softmax::SoftmaxRegression;
use crate::model::Model;
use crate::rng::{chain_rng, standard_normal};
use nalgebra::{DMatrix, DVector};

/// Index of parameter (class k, input j) in θ = [w_1..w_C, b_1..b_C]; j = d is the bias.
fn index(k: usize, j: usize, d: usize, classes: usize) -> usize {
    if j < d { k * d + j } else { classes * d + k }
}

/// Class probabilities p(· | x, θ) and log p(y | x, θ) for one datum, from the raw parameters.
fn probabilities(m: &SoftmaxRegression, x: &[f64], y: usize, theta: &[f64]) -> (Vec<f64>, f64) {
    let (d, c) = (m.n_features(), m.n_classes());
    let z: Vec<f64> = (0..c).map(|k| (0..=d).map(|j| theta[index(k, j, d, c)] * if j < d { x[j] } else { 1.0 }).sum()).collect();
    let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let norm: f64 = z.iter().map(|v| (v - max).exp()).sum();
    let p = z.iter().map(|v| (v - max).exp() / norm).collect();
    (p, z[y] - max - norm.ln())
}

/// log p(D | θ) + log p(θ), the prior N(0, σ_p² I) normalised.
pub fn log_joint(m: &SoftmaxRegression, theta: &[f64]) -> f64 {
    let s2 = m.prior_sd().powi(2);
    let prior = -0.5 * theta.iter().map(|t| t * t).sum::<f64>() / s2 - 0.5 * theta.len() as f64 * (2.0 * std::f64::consts::PI * s2).ln();
    (0..m.n_data()).map(|i| { let (x, y) = m.datum(i); probabilities(m, x, y, theta).1 }).sum::<f64>() + prior
}

/// ∇ log p(θ | D) and −∇² log p(θ | D).
fn gradient_and_negative_hessian(m: &SoftmaxRegression, theta: &[f64]) -> (DVector<f64>, DMatrix<f64>) {
    let (d, c, dim) = (m.n_features(), m.n_classes(), theta.len());
    let s2 = m.prior_sd().powi(2);
    let mut g = DVector::from_iterator(dim, theta.iter().map(|t| -t / s2));
    let mut h = DMatrix::<f64>::identity(dim, dim) / s2;
    for i in 0..m.n_data() {
        let (x, y) = m.datum(i);
        let (p, _) = probabilities(m, x, y, theta);
        let xt = |j: usize| if j < d { x[j] } else { 1.0 };
        for k in 0..c {
            let residual = if k == y { 1.0 } else { 0.0 } - p[k];
            for j in 0..=d {
                g[index(k, j, d, c)] += residual * xt(j);
            }
            for l in 0..c {
                let a = if k == l { p[k] } else { 0.0 } - p[k] * p[l];
                for j in 0..=d {
                    for r in 0..=d {
                        h[(index(k, j, d, c), index(l, r, d, c))] += a * xt(j) * xt(r);
                    }
                }
            }
        }
    }
    (g, h)
}

/// The posterior mode by Newton's method from θ = 0 (halving the step until the log posterior rises).
pub fn posterior_mode(m: &SoftmaxRegression) -> Vec<f64> {
    let mut theta = vec![0.0; m.dim()];
    let mut current = log_joint(m, &theta);
    for _ in 0..100 {
        let (g, h) = gradient_and_negative_hessian(m, &theta);
        let step = h.cholesky().expect("−H is SPD (log-concave posterior)").solve(&g);
        let mut fraction = 1.0;
        while fraction > 1e-10 {
            let trial: Vec<f64> = theta.iter().zip(step.iter()).map(|(t, s)| t + fraction * s).collect();
            let value = log_joint(m, &trial);
            if value >= current - 1e-12 * current.abs() {
                theta = trial;
                current = value;
                break;
            }
            fraction *= 0.5;
        }
        if fraction * step.norm() < 1e-10 {
            break;
        }
    }
    theta
}

/// The Laplace approximation log p(D, θ̂) + (d/2) log 2π − ½ log det(−H(θ̂)).
pub fn laplace_log_evidence(m: &SoftmaxRegression) -> f64 {
    let theta = posterior_mode(m);
    let (_, h) = gradient_and_negative_hessian(m, &theta);
    let log_det: f64 = h.cholesky().expect("SPD").l().diagonal().iter().map(|l| 2.0 * l.ln()).sum();
    log_joint(m, &theta) + 0.5 * theta.len() as f64 * (2.0 * std::f64::consts::PI).ln() - 0.5 * log_det
}

/// An importance-sampling estimate of log Z: the estimate, its standard error and the weights' ESS.
#[derive(Clone, Copy, Debug)]
pub struct ImportanceEstimate {
    pub log_z: f64,
    pub se: f64,
    pub ess: f64,
}

/// log Γ(k/2) for a positive integer k (Γ(1/2) = √π, Γ(x + 1) = x Γ(x)).
fn log_gamma_half(k: usize) -> f64 {
    let (mut x, mut value) = (if k % 2 == 0 { 1.0 } else { 0.5 }, if k % 2 == 0 { 0.0 } else { 0.5 * std::f64::consts::PI.ln() });
    while 2.0 * x < k as f64 {
        value += x.ln();
        x += 1.0;
    }
    value
}

/// (SGAIS.14) with `samples` draws from t_ν(θ̂, (−H)⁻¹), ν = `dof`, seeded.
pub fn importance_log_evidence(m: &SoftmaxRegression, samples: usize, dof: usize, seed: u64) -> ImportanceEstimate {
    let mode = DVector::from_vec(posterior_mode(m));
    let dim = mode.len();
    let (_, h) = gradient_and_negative_hessian(m, mode.as_slice());
    let precision_chol = h.cholesky().expect("SPD");
    let u = precision_chol.l().transpose(); // H = L Lᵀ: θ = θ̂ + U⁻¹ z has covariance H⁻¹ with U = Lᵀ.
    let log_det_cov: f64 = -precision_chol.l().diagonal().iter().map(|l| 2.0 * l.ln()).sum::<f64>();
    let nu = dof as f64;
    let log_norm = log_gamma_half(dof + dim) - log_gamma_half(dof) - 0.5 * dim as f64 * (nu * std::f64::consts::PI).ln() - 0.5 * log_det_cov;
    let mut rng = chain_rng(seed);
    let log_w: Vec<f64> = (0..samples)
        .map(|_| {
            let z = DVector::from_iterator(dim, (0..dim).map(|_| standard_normal(&mut rng)));
            let chi2: f64 = (0..dof).map(|_| standard_normal(&mut rng).powi(2)).sum();
            let scale = (nu / chi2).sqrt();
            let offset = u.solve_upper_triangular(&z).expect("triangular") * scale;
            let theta = &mode + &offset;
            let mahalanobis = z.norm_squared() * scale * scale;
            let log_q = log_norm - 0.5 * (nu + dim as f64) * (1.0 + mahalanobis / nu).ln();
            log_joint(m, theta.as_slice()) - log_q
        })
        .collect();
    let max = log_w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let w: Vec<f64> = log_w.iter().map(|l| (l - max).exp()).collect();
    let s = samples as f64;
    let mean = w.iter().sum::<f64>() / s;
    let var = w.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (s - 1.0);
    let ess = w.iter().sum::<f64>().powi(2) / w.iter().map(|v| v * v).sum::<f64>();
    ImportanceEstimate { log_z: max + mean.ln(), se: (var / s).sqrt() / mean, ess }
}
