//! Shared plumbing for data-free 2-D toy densities (correlated Gaussian, banana, funnel): log π is
//! split into [`PSEUDO_DATA`] pseudo-data terms with a real per-datum structure, so that minibatch
//! gradients and the empirical Fisher of SGFS/OSGFS mean what they mean on data; the synthetic
//! noise knob s (docs/README.md, (N.2)) adds on top.
//!
//! Construction [DERIVED]: write log π(θ) = −½‖r(θ)‖² + c(θ) with a residual map r: R² → R² (the
//! Gaussian's whitened deviation, the banana's two Gaussian factors, the funnel's v/σ_v and
//! x e^{−v/2}), and fix N pseudo-observations y_i ∈ R² with Σ y_i = 0 and Σ y_i y_iᵀ/(N − 1) = N·I
//! exactly (equally spaced on a circle of radius √(2(N − 1))). Then
//!   ℓ_i(θ) = log π(θ)/N + y_iᵀ r(θ)/N,   g_i = ∇log π(θ)/N + J(θ)ᵀ y_i/N   (J = ∂r/∂θ)
//! sums to log π exactly (Σ y_i = 0), and the scores' sample covariance (divisor N − 1) is JᵀJ/N:
//! the empirical Fisher N·Cov(g_i) is the Gauss–Newton matrix JᵀJ — for the Gaussian exactly the
//! posterior precision P, as for N observations x_i ~ N(θ, NΣ) with sample mean μ and sample
//! covariance NΣ under a flat prior. A minibatch of n (without replacement) carries gradient noise
//! of covariance (N/n − 1)·JᵀJ, zero at n = N (full batch: docs/sgld.md (SGLD.7) unchanged).

use super::{Model, View};
use crate::diagnostics::Moments;

/// Number of pseudo-data a toy log density is split into.
pub const PSEUDO_DATA: usize = 100;

/// The pseudo-observation y_i (i < [`PSEUDO_DATA`]): N points equally spaced on a circle of radius
/// √(2(N − 1)), so Σ y_i = 0 and Σ y_i y_iᵀ = (N − 1)·N·I (up to rounding).
pub fn pseudo_observation(i: usize) -> [f64; 2] {
    let n = PSEUDO_DATA as f64;
    let radius = (2.0 * (n - 1.0)).sqrt();
    let angle = 2.0 * std::f64::consts::PI * i as f64 / n;
    [radius * angle.cos(), radius * angle.sin()]
}

/// Σ_{i∈batch} y_i.
fn pseudo_observation_sum(batch: &[usize]) -> [f64; 2] {
    batch.iter().fold([0.0, 0.0], |acc, &i| {
        let y = pseudo_observation(i);
        [acc[0] + y[0], acc[1] + y[1]]
    })
}

/// out += share·∇log π + Jᵀ y / N: the pseudo-data scores of a batch whose observations sum to `y`
/// and whose size is `share`·N (one datum: share = 1/N, y = y_i).
pub fn add_pseudo_scores(grad_log_pi: [f64; 2], jacobian: [[f64; 2]; 2], y: [f64; 2], share: f64, out: &mut [f64]) {
    let n = PSEUDO_DATA as f64;
    for j in 0..2 {
        out[j] += share * grad_log_pi[j] + (jacobian[0][j] * y[0] + jacobian[1][j] * y[1]) / n;
    }
}

/// ℓ_i = log π/N + y_iᵀ r/N.
pub fn pseudo_log_lik(log_pi: f64, residuals: [f64; 2], i: usize) -> f64 {
    let y = pseudo_observation(i);
    (log_pi + y[0] * residuals[0] + y[1] * residuals[1]) / PSEUDO_DATA as f64
}

/// The batch form of [`add_pseudo_scores`]: share = n/N and y = Σ_{i∈batch} y_i.
pub fn add_pseudo_batch_scores(grad_log_pi: [f64; 2], jacobian: [[f64; 2]; 2], batch: &[usize], out: &mut [f64]) {
    let share = batch.len() as f64 / PSEUDO_DATA as f64;
    add_pseudo_scores(grad_log_pi, jacobian, pseudo_observation_sum(batch), share, out);
}

/// A smooth 2-D log density with its gradient; [`PseudoData`] turns it into a [`Model`].
pub trait ToyDensity: Send + Sync {
    fn log_pdf(&self, theta: &[f64]) -> f64;
    fn grad_log_pdf(&self, theta: &[f64]) -> [f64; 2];
    /// The residual map r(θ) of log π = −½‖r‖² + c(θ) (see the module docs).
    fn residuals(&self, theta: &[f64]) -> [f64; 2];
    /// Its Jacobian J[k][j] = ∂r_k/∂θ_j.
    fn residual_jacobian(&self, theta: &[f64]) -> [[f64; 2]; 2];
    fn moments(&self) -> Option<Moments>;
    fn window(&self) -> View;
    fn marginal(&self, _coordinate: usize, _points: &[f64]) -> Option<Vec<f64>> {
        None
    }
    fn region(&self) -> Option<View> {
        None
    }
    fn start(&self) -> Vec<f64> {
        vec![0.0, 0.0]
    }
    fn names(&self) -> Vec<String> {
        vec!["θ1".into(), "θ2".into()]
    }
}

/// The N(mean, sd²) density at each point.
pub fn normal_density(mean: f64, sd: f64, points: &[f64]) -> Vec<f64> {
    let norm = 1.0 / (sd * (2.0 * std::f64::consts::PI).sqrt());
    points.iter().map(|x| norm * (-0.5 * ((x - mean) / sd).powi(2)).exp()).collect()
}

/// A toy density as a model with N pseudo-data and synthetic gradient noise s.
#[derive(Clone, Debug)]
pub struct PseudoData<D> {
    pub density: D,
    pub noise_sd: f64,
}

impl<D: ToyDensity> Model for PseudoData<D> {
    fn dim(&self) -> usize {
        2
    }
    fn n_data(&self) -> usize {
        PSEUDO_DATA
    }
    fn log_prior(&self, _theta: &[f64]) -> f64 {
        0.0
    }
    fn add_grad_log_prior(&self, _theta: &[f64], _out: &mut [f64]) {}
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        pseudo_log_lik(self.density.log_pdf(theta), self.density.residuals(theta), i)
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        let (g, j) = (self.density.grad_log_pdf(theta), self.density.residual_jacobian(theta));
        add_pseudo_scores(g, j, pseudo_observation(i), 1.0 / PSEUDO_DATA as f64, out);
    }
    fn add_grad_log_lik_batch(&self, batch: &[usize], theta: &[f64], out: &mut [f64]) {
        let (g, j) = (self.density.grad_log_pdf(theta), self.density.residual_jacobian(theta));
        add_pseudo_batch_scores(g, j, batch, out);
    }
    fn log_density(&self, theta: &[f64]) -> f64 {
        self.density.log_pdf(theta)
    }
    fn grad_log_density(&self, theta: &[f64], out: &mut [f64]) {
        out.copy_from_slice(&self.density.grad_log_pdf(theta));
    }
    fn exact_marginal(&self, coordinate: usize, points: &[f64]) -> Option<Vec<f64>> {
        self.density.marginal(coordinate, points)
    }
    fn density_cost(&self) -> usize {
        1
    }
    fn synthetic_noise_sd(&self) -> f64 {
        self.noise_sd
    }
    fn exact_moments(&self) -> Option<Moments> {
        self.density.moments()
    }
    fn initial_point(&self) -> Vec<f64> {
        self.density.start()
    }
    fn view(&self) -> View {
        self.density.window()
    }
    fn truth_region(&self) -> View {
        let v = self.view();
        self.density.region().unwrap_or_else(|| View::centred(0.5 * (v.x_min + v.x_max), 0.5 * (v.y_min + v.y_max), v.x_max - v.x_min, v.y_max - v.y_min))
    }
    fn coordinate_names(&self) -> Vec<String> {
        self.density.names()
    }
}
