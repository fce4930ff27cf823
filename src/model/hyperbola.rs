//! Hyperbola ridge "after SBPS App. D" — a placeholder, not the paper's example (docs/bouncy.md §12
//! [GUESS]: the appendix's formulas are lost). y_i ~ N(w₁w₂, σ_y²), i = 1..N, prior w ~ N(0, σ_p² I):
//! log π(w) = −Σ_i (y_i − w₁w₂)²/(2σ_y²) − ‖w‖²/(2σ_p²). Only the product w₁w₂ is identified, so the
//! mass lies along the hyperbola w₁w₂ ≈ ȳ (two branches when ȳ ≠ 0). Per-datum score:
//! ∇ℓ_i = (y_i − w₁w₂)/σ_y² · (w₂, w₁). Minibatch noise is real.

use super::{Model, View};
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{TargetKind, TargetSpec};
use crate::rng::{chain_rng, standard_normal};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::integer("n_points", "Data points", "N", "Number of observations y_i", 1.0, 1e5, 20.0, true).primary(),
    ParamSpec::linear("true_product", "True product", "w₁w₂", "Data drawn with mean w₁w₂ equal to this", -5.0, 5.0, 1.0),
    ParamSpec::log("ridge_noise", "Observation noise", "σ_y", "Std. dev. of each y_i around w₁w₂", 0.05, 10.0, 1.0),
    ParamSpec::log("prior_sd", "Prior scale", "σ_p", "Std. dev. of the N(0, σ_p²) prior on w₁ and w₂", 0.1, 100.0, 2.0),
    ParamSpec::integer("data_seed", "Data seed", "", "Seed of the data generator", 0.0, 1e9, 1.0, false),
];

pub const SPEC: TargetSpec = TargetSpec {
    name: "hyperbola",
    label: "Hyperbola ridge (after SBPS App. D)",
    description: "Placeholder for SBPS App. D (formulas lost): y ~ N(w₁w₂, σ_y²); mass along w₁w₂ ≈ ȳ",
    kind: TargetKind::Toy,
    params: PARAMS,
    build: |values, data| {
        crate::spec::refuse_data("hyperbola", data)?;
        Ok(Box::new(HyperbolaRidge::from_params(values)))
    },
};

#[derive(Clone, Debug)]
pub struct HyperbolaRidge {
    data: Vec<f64>,
    noise_sd: f64,
    prior_sd: f64,
    /// Σ y_i and Σ y_i²: the full log density in O(1).
    sum: f64,
    sum_sq: f64,
}

impl HyperbolaRidge {
    pub fn new(data: Vec<f64>, noise_sd: f64, prior_sd: f64) -> Self {
        let sum = data.iter().sum();
        let sum_sq = data.iter().map(|y| y * y).sum();
        HyperbolaRidge { data, noise_sd, prior_sd, sum, sum_sq }
    }

    pub fn from_params(values: &ParamValues) -> Self {
        let mut rng = chain_rng(values.get("data_seed") as u64);
        let (mean, sd) = (values.get("true_product"), values.get("ridge_noise"));
        let data = (0..values.get_usize("n_points")).map(|_| mean + sd * standard_normal(&mut rng)).collect();
        Self::new(data, sd, values.get("prior_sd"))
    }
}

impl Model for HyperbolaRidge {
    fn dim(&self) -> usize {
        2
    }
    fn n_data(&self) -> usize {
        self.data.len()
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        -0.5 * (theta[0] * theta[0] + theta[1] * theta[1]) / (self.prior_sd * self.prior_sd)
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        super::add_isotropic_normal_gradient(theta, self.prior_sd, out);
    }
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        let r = self.data[i] - theta[0] * theta[1];
        -0.5 * r * r / (self.noise_sd * self.noise_sd)
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        let r = (self.data[i] - theta[0] * theta[1]) / (self.noise_sd * self.noise_sd);
        out[0] += r * theta[1];
        out[1] += r * theta[0];
    }
    /// Σ_i (y_i − p)² = Σy² − 2pΣy + Np², p = w₁w₂.
    fn log_density(&self, theta: &[f64]) -> f64 {
        let p = theta[0] * theta[1];
        let n = self.data.len() as f64;
        let squares = self.sum_sq - 2.0 * p * self.sum + n * p * p;
        self.log_prior(theta) - 0.5 * squares / (self.noise_sd * self.noise_sd)
    }
    fn grad_log_density(&self, theta: &[f64], out: &mut [f64]) {
        let p = theta[0] * theta[1];
        let r = (self.sum - self.data.len() as f64 * p) / (self.noise_sd * self.noise_sd);
        out[0] = r * theta[1];
        out[1] = r * theta[0];
        self.add_grad_log_prior(theta, out);
    }
    fn density_cost(&self) -> usize {
        1
    }
    fn initial_point(&self) -> Vec<f64> {
        // Off the saddle at the origin, where the gradient vanishes.
        vec![1.0, 1.0]
    }
    fn view(&self) -> View {
        let h = (3.0 * self.prior_sd).min(6.0).max(2.0);
        View::centred(0.0, 0.0, h, h)
    }
    fn coordinate_names(&self) -> Vec<String> {
        vec!["w1".into(), "w2".into()]
    }
}
