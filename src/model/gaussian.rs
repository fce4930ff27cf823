//! 2-D correlated Gaussian: the target with closed-form everything.
//!
//! π(θ) = N(θ; μ, Σ) with Σ = [[σ₁², ρσ₁σ₂], [ρσ₁σ₂, σ₂²]]. It has no data, so log π is split into
//! N pseudo-data terms with a real per-datum structure (toy.rs): exactly the posterior of N
//! observations x_i ~ N(θ, NΣ) with sample mean μ and sample covariance NΣ under a flat prior, whose
//! empirical Fisher N·Cov(g_i) is Σ⁻¹. A minibatch of n carries gradient noise (N/n − 1)Σ⁻¹,
//! independent of θ, and the synthetic knob s adds N(0, s²I) (docs/README.md, Notation). Discretised
//! Langevin dynamics on it has the exact stationary covariance of docs/sgld.md §4 (plus
//! (ε²/4)× the gradient-noise covariance with minibatches), which is what the tests pin.

use super::toy::{add_pseudo_batch_scores, add_pseudo_scores, pseudo_log_lik, pseudo_observation};
use super::{Model, View};
use crate::diagnostics::Moments;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{TargetKind, TargetSpec};

/// Number of pseudo-data the log density is split into (sets the scale of per-datum scores).
pub use super::toy::PSEUDO_DATA;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::log("sd1", "Scale of θ₁", "σ₁", "Marginal standard deviation of θ₁", 0.05, 20.0, 1.0),
    ParamSpec::log("sd2", "Scale of θ₂", "σ₂", "Marginal standard deviation of θ₂", 0.05, 20.0, 1.0),
    ParamSpec::linear("rho", "Correlation", "ρ", "Correlation between θ₁ and θ₂", -0.99, 0.99, 0.9).primary(),
    super::GRAD_NOISE.primary(),
];

pub const SPEC: TargetSpec = TargetSpec {
    name: "gaussian",
    label: "Correlated Gaussian",
    description: "2-D Gaussian with correlation ρ and scales σ₁, σ₂; closed-form truth and SGLD bias law",
    kind: TargetKind::Toy,
    params: PARAMS,
    build: |values, data| {
        crate::spec::refuse_data("gaussian", data)?;
        Ok(Box::new(CorrelatedGaussian::from_params(values)))
    },
};

/// N(μ, Σ) in two dimensions with synthetic gradient noise.
#[derive(Clone, Debug)]
pub struct CorrelatedGaussian {
    mean: [f64; 2],
    cov: [[f64; 2]; 2],
    precision: [[f64; 2]; 2],
    /// Lᵀ for the Cholesky factor P = LLᵀ: the residual map r(θ) = Lᵀ(θ − μ) of the pseudo-data.
    whitening: [[f64; 2]; 2],
    log_norm: f64,
    noise_sd: f64,
}

impl CorrelatedGaussian {
    pub fn new(sd1: f64, sd2: f64, rho: f64, noise_sd: f64) -> Self {
        let c12 = rho * sd1 * sd2;
        let cov = [[sd1 * sd1, c12], [c12, sd2 * sd2]];
        let det = cov[0][0] * cov[1][1] - c12 * c12;
        let precision = [[cov[1][1] / det, -c12 / det], [-c12 / det, cov[0][0] / det]];
        let log_norm = -(2.0 * std::f64::consts::PI).ln() - 0.5 * det.ln();
        let l00 = precision[0][0].sqrt();
        let l10 = precision[1][0] / l00;
        let whitening = [[l00, l10], [0.0, (precision[1][1] - l10 * l10).sqrt()]];
        CorrelatedGaussian { mean: [0.0, 0.0], cov, precision, whitening, log_norm, noise_sd }
    }

    /// N(mean, cov) for a 2 × 2 covariance (e.g. a Laplace approximation drawn as contours).
    pub fn from_moments(mean: [f64; 2], cov: [[f64; 2]; 2]) -> Self {
        let (sd1, sd2) = (cov[0][0].sqrt(), cov[1][1].sqrt());
        let mut g = Self::new(sd1, sd2, (cov[0][1] / (sd1 * sd2)).clamp(-0.999, 0.999), 0.0);
        g.mean = mean;
        g
    }

    pub fn from_params(values: &ParamValues) -> Self {
        Self::new(values.get("sd1"), values.get("sd2"), values.get("rho"), values.get("grad_noise"))
    }

    /// The precision matrix P = Σ⁻¹.
    pub fn precision(&self) -> [[f64; 2]; 2] {
        self.precision
    }

    /// r(θ) = Lᵀ(θ − μ), so that −½‖r‖² = −½(θ − μ)ᵀP(θ − μ).
    fn residuals(&self, theta: &[f64]) -> [f64; 2] {
        let d = [theta[0] - self.mean[0], theta[1] - self.mean[1]];
        let w = &self.whitening;
        [w[0][0] * d[0] + w[0][1] * d[1], w[1][1] * d[1]]
    }

    /// ∇ log π(θ) = −P (θ − μ).
    fn grad(&self, theta: &[f64]) -> [f64; 2] {
        let d = [theta[0] - self.mean[0], theta[1] - self.mean[1]];
        let p = &self.precision;
        [-(p[0][0] * d[0] + p[0][1] * d[1]), -(p[1][0] * d[0] + p[1][1] * d[1])]
    }
}

impl Model for CorrelatedGaussian {
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
        pseudo_log_lik(self.log_density(theta), self.residuals(theta), i)
    }

    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        add_pseudo_scores(self.grad(theta), self.whitening, pseudo_observation(i), 1.0 / PSEUDO_DATA as f64, out);
    }

    fn add_grad_log_lik_batch(&self, batch: &[usize], theta: &[f64], out: &mut [f64]) {
        add_pseudo_batch_scores(self.grad(theta), self.whitening, batch, out);
    }

    fn log_density(&self, theta: &[f64]) -> f64 {
        let d = [theta[0] - self.mean[0], theta[1] - self.mean[1]];
        let p = &self.precision;
        let quad = p[0][0] * d[0] * d[0] + 2.0 * p[0][1] * d[0] * d[1] + p[1][1] * d[1] * d[1];
        self.log_norm - 0.5 * quad
    }

    fn grad_log_density(&self, theta: &[f64], out: &mut [f64]) {
        out.copy_from_slice(&self.grad(theta));
    }

    fn exact_marginal(&self, coordinate: usize, points: &[f64]) -> Option<Vec<f64>> {
        Some(super::toy::normal_density(self.mean[coordinate], self.cov[coordinate][coordinate].sqrt(), points))
    }

    fn density_cost(&self) -> usize {
        1
    }

    fn synthetic_noise_sd(&self) -> f64 {
        self.noise_sd
    }

    fn gaussian_precision(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        let p = &self.precision;
        Some((self.mean.to_vec(), vec![p[0][0], p[0][1], p[1][0], p[1][1]]))
    }

    fn exact_moments(&self) -> Option<Moments> {
        Some(Moments { mean: self.mean.to_vec(), cov: self.cov.iter().map(|r| r.to_vec()).collect() })
    }

    fn initial_point(&self) -> Vec<f64> {
        self.mean.to_vec()
    }

    fn view(&self) -> View {
        let hx = 3.5 * self.cov[0][0].sqrt();
        let hy = 3.5 * self.cov[1][1].sqrt();
        View::centred(self.mean[0], self.mean[1], hx, hy)
    }
}
