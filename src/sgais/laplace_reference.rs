//! An independent reference log Z for the paper's Gaussian mixture (docs/sgais.md §10), used by the
//! tests (tests/sgais_mixture.rs) and the diagnostic example (examples/gmm_modes.rs), never by a
//! run: the Laplace approximation at the posterior mode plus log K! for the K! label-switched
//! copies of the mode, written from the model's gradient alone (damped Newton with backtracking
//! from the generating parameters, Hessian by central differences of the analytic gradient):
//!
//!   log Z ≈ log p(D | θ̂) + log p(θ̂) + (d/2) log 2π − ½ log det(−H(θ̂)) + log K!.
//!
//! The K! copies are disjoint only when the fitted components sit on well-separated clusters (the
//! generated data of `model::gmm`); for K = 1 the formula is checked against the closed-form
//! evidence (docs/sgais.md §8).

use crate::model::gmm::{GaussianMixture, CLUSTERS};
use crate::model::Model;
use nalgebra::{DMatrix, DVector};

/// ∇ log p(θ | D) up to the constant: the prior's gradient plus every datum's.
pub fn grad_log_posterior(m: &GaussianMixture, theta: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; theta.len()];
    m.add_grad_log_prior(theta, &mut g);
    let all: Vec<usize> = (0..m.n_data()).collect();
    m.add_grad_log_lik_batch(&all, theta, &mut g);
    g
}

/// −∇² log p(θ | D) by central differences (h = 10⁻⁵) of the analytic gradient, symmetrised.
pub fn negative_hessian(m: &GaussianMixture, theta: &[f64]) -> DMatrix<f64> {
    let (d, h) = (theta.len(), 1e-5);
    let mut hm = DMatrix::<f64>::zeros(d, d);
    for j in 0..d {
        let (mut a, mut b) = (theta.to_vec(), theta.to_vec());
        a[j] += h;
        b[j] -= h;
        let (ga, gb) = (grad_log_posterior(m, &a), grad_log_posterior(m, &b));
        for i in 0..d {
            hm[(i, j)] = -(ga[i] - gb[i]) / (2.0 * h);
        }
    }
    (&hm + hm.transpose()) * 0.5
}

/// The generating parameters of the first K clusters in the model's coordinates (docs/sgais.md
/// (SGAIS.8)–(SGAIS.9)): z = 0 (equal weights), μ = the cluster centres, ρ = log σ².
fn generating_parameters(k: usize) -> Vec<f64> {
    let mut theta = vec![0.0; k - 1];
    theta.extend((0..k).flat_map(|c| CLUSTERS[c].0));
    theta.extend((0..k).flat_map(|c| [2.0 * CLUSTERS[c].1.ln(); 2]));
    theta
}

/// log p(D | θ) + log p(θ).
fn log_posterior(m: &GaussianMixture, theta: &[f64]) -> f64 {
    (0..m.n_data()).map(|i| m.log_lik(i, theta)).sum::<f64>() + m.log_prior(theta)
}

/// A Newton step (−H + μI)⁻¹ g, with the smallest damping μ ∈ {0, 10⁻³·max|H_ii|·2^j} that makes
/// the matrix positive definite (far from the mode −H need not be).
fn damped_newton_step(m: &GaussianMixture, theta: &[f64]) -> DVector<f64> {
    let g = DVector::from_vec(grad_log_posterior(m, theta));
    let h = negative_hessian(m, theta);
    let scale = h.diagonal().iter().fold(1.0_f64, |a, v| a.max(v.abs()));
    let mut damping = 0.0;
    loop {
        let shifted = &h + DMatrix::<f64>::identity(h.nrows(), h.ncols()) * damping;
        if let Some(chol) = shifted.cholesky() {
            return chol.solve(&g);
        }
        damping = if damping == 0.0 { 1e-3 * scale } else { 2.0 * damping };
    }
}

/// The posterior mode by damped Newton with backtracking (each accepted step raises the log
/// posterior) from the generating parameters of the first K clusters.
pub fn posterior_mode(m: &GaussianMixture) -> Vec<f64> {
    let mut theta = generating_parameters(m.n_components());
    let mut current = log_posterior(m, &theta);
    for _ in 0..200 {
        let step = damped_newton_step(m, &theta);
        let mut fraction = 1.0;
        let accepted = loop {
            let trial: Vec<f64> = theta.iter().zip(step.iter()).map(|(t, s)| t + fraction * s).collect();
            let value = log_posterior(m, &trial);
            if value.is_finite() && value >= current - 1e-9 * current.abs() {
                break Some((trial, value));
            }
            fraction *= 0.5;
            if fraction < 1e-10 {
                break None;
            }
        };
        let Some((trial, value)) = accepted else { break };
        theta = trial;
        current = value;
        if fraction * step.norm() < 1e-9 {
            break;
        }
    }
    theta
}

/// log p(D | θ̂) + log p(θ̂) + (d/2) log 2π − ½ log det(−H) + log K!, K = the model's components.
pub fn laplace_log_evidence(m: &GaussianMixture) -> f64 {
    let theta = posterior_mode(m);
    let chol = negative_hessian(m, &theta).cholesky().expect("−H is SPD at the mode");
    let log_det: f64 = chol.l().diagonal().iter().map(|l| 2.0 * l.ln()).sum();
    let log_lik: f64 = (0..m.n_data()).map(|i| m.log_lik(i, &theta)).sum();
    let log_k_factorial: f64 = (1..=m.n_components()).map(|i| (i as f64).ln()).sum();
    log_lik + m.log_prior(&theta) + 0.5 * theta.len() as f64 * (2.0 * std::f64::consts::PI).ln() - 0.5 * log_det + log_k_factorial
}
