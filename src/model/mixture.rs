//! Welling & Teh (2011) §5.1 tied-means mixture (docs/sgld.md §5): θ₁ ~ N(0, 10), θ₂ ~ N(0, 1)
//! (variances), x_i ~ ½N(θ₁, σ_x²) + ½N(θ₁ + θ₂, σ_x²) with σ_x² = 2, N = 100 points drawn with
//! θ = (0, 1). The posterior is bimodal, with modes near (0, 1) and (1, −1) (the labels of the two
//! components can swap: (θ₁, θ₂) ↔ (θ₁ + θ₂, −θ₂)). Minibatch noise is real: ℓ_i is one datum.
//! Per-datum score, with responsibilities r_k = N(x_i; μ_k, σ_x²) / Σ_k N(x_i; μ_k, σ_x²),
//! μ₁ = θ₁, μ₂ = θ₁ + θ₂: ∂ℓ_i/∂θ₁ = Σ_k r_k (x_i − μ_k)/σ_x², ∂ℓ_i/∂θ₂ = r₂ (x_i − μ₂)/σ_x².

use super::{Model, View};
use crate::params::ParamSpec;
use crate::spec::{TargetKind, TargetSpec};
use crate::rng::{chain_rng, standard_normal, uniform};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::integer("n_points", "Data points", "N", "Number of data drawn from the mixture", 10.0, 1e5, 100.0, true).primary(),
    ParamSpec::log("mix_var", "Component variance", "σ_x²", "Variance of each mixture component", 0.1, 10.0, 2.0),
    // Default seed 5: its 100 points reproduce the paper's bimodal picture (θ₂ marginal peaks near
    // ±1.3); about half of the seeds give a unimodal posterior, which is itself worth showing.
    ParamSpec::integer("data_seed", "Data seed", "", "Seed of the data generator", 0.0, 1e9, 5.0, false),
];

pub const SPEC: TargetSpec = TargetSpec {
    name: "mixture",
    label: "Tied-means mixture (Welling–Teh)",
    description: "Welling & Teh 2011 §5.1: x ~ ½N(θ₁, 2) + ½N(θ₁+θ₂, 2), 100 points; bimodal posterior, real minibatch noise",
    kind: TargetKind::Toy,
    params: PARAMS,
    build: |values, data| {
        crate::spec::refuse_data("mixture", data)?;
        Ok(Box::new(TiedMixture::generate(
            values.get_usize("n_points"),
            [0.0, 1.0],
            values.get("mix_var"),
            values.get("data_seed") as u64,
        )))
    },
};

/// Prior variances of θ₁ and θ₂ (Welling & Teh 2011 §5.1).
pub const PRIOR_VARIANCES: [f64; 2] = [10.0, 1.0];

#[derive(Clone, Debug)]
pub struct TiedMixture {
    data: Vec<f64>,
    component_var: f64,
    truth: [f64; 2],
}

impl TiedMixture {
    /// Data x_i drawn from the mixture at θ = `truth`.
    pub fn generate(n: usize, truth: [f64; 2], component_var: f64, seed: u64) -> Self {
        let mut rng = chain_rng(seed);
        let sd = component_var.sqrt();
        let data = (0..n)
            .map(|_| {
                let centre = if uniform(&mut rng) < 0.5 { truth[0] } else { truth[0] + truth[1] };
                centre + sd * standard_normal(&mut rng)
            })
            .collect();
        TiedMixture { data, component_var, truth }
    }

    pub fn data(&self) -> &[f64] {
        &self.data
    }

    /// Log component densities (up to the shared constant) at datum x: −(x − μ_k)²/(2σ_x²).
    fn log_components(&self, x: f64, theta: &[f64]) -> [f64; 2] {
        let v = self.component_var;
        let d1 = x - theta[0];
        let d2 = x - theta[0] - theta[1];
        [-0.5 * d1 * d1 / v, -0.5 * d2 * d2 / v]
    }
}

impl Model for TiedMixture {
    fn dim(&self) -> usize {
        2
    }
    fn n_data(&self) -> usize {
        self.data.len()
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        -0.5 * theta[0] * theta[0] / PRIOR_VARIANCES[0] - 0.5 * theta[1] * theta[1] / PRIOR_VARIANCES[1]
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        out[0] -= theta[0] / PRIOR_VARIANCES[0];
        out[1] -= theta[1] / PRIOR_VARIANCES[1];
    }
    /// log(½N(x; μ₁, σ_x²) + ½N(x; μ₂, σ_x²)) up to a constant, by log-sum-exp.
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        let [a, b] = self.log_components(self.data[i], theta);
        let m = a.max(b);
        m + ((a - m).exp() + (b - m).exp()).ln()
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        let x = self.data[i];
        let [a, b] = self.log_components(x, theta);
        // Responsibility of the second component, r₂ = 1/(1 + e^{a − b}), stable.
        let r2 = crate::model::logistic::sigmoid(b - a);
        let v = self.component_var;
        let s1 = (x - theta[0]) / v;
        let s2 = (x - theta[0] - theta[1]) / v;
        out[0] += (1.0 - r2) * s1 + r2 * s2;
        out[1] += r2 * s2;
    }
    fn view(&self) -> View {
        let (a, g) = (self.truth[0], self.truth[1]);
        let spread = 2.0 * self.component_var.sqrt().max(1.0);
        View { x_min: a.min(a + g) - spread, x_max: a.max(a + g) + spread, y_min: -g.abs() - spread, y_max: g.abs() + spread }
    }
}
