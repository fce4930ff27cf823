//! Stochastic-gradient Langevin dynamics (Welling & Teh 2011, eq. 4; ALGORITHMS.md §1):
//! θ_{t+1} = θ_t + (ε/2) ∇log π̂(θ_t) + η_t,  η_t ~ N(0, ε I).

use super::{Diagnostic, Emitted, GradientOracle, Sampler};
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::registry::{SamplerKind, SamplerSpec};
use crate::rng::{standard_normal, ChainRng};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::log("step_size", "Step size", "ε", "Langevin step ε: drift (ε/2)∇log π̂ plus N(0, εI) noise", 1e-6, 10.0, 0.05),
    ParamSpec::integer("batch_size", "Minibatch size", "n", "Data per gradient estimate (clamped to N)", 1.0, 1e6, 10.0, true),
];

pub const SPEC: SamplerSpec = SamplerSpec {
    name: "sgld",
    label: "SGLD",
    description: "Stochastic-gradient Langevin dynamics (Welling & Teh 2011)",
    kind: SamplerKind::StochasticGradient,
    params: PARAMS,
    build: |values, _model, start| Box::new(Sgld::new(start.to_vec(), values)),
};

/// SGLD state: the position, the step size, and a gradient buffer.
#[derive(Clone, Debug)]
pub struct Sgld {
    theta: Vec<f64>,
    step_size: f64,
    grad: Vec<f64>,
}

impl Sgld {
    pub fn new(start: Vec<f64>, params: &ParamValues) -> Self {
        let dim = start.len();
        Sgld { theta: start, step_size: params.get("step_size"), grad: vec![0.0; dim] }
    }

    pub fn step_size(&self) -> f64 {
        self.step_size
    }
}

impl Sampler for Sgld {
    fn position(&self) -> &[f64] {
        &self.theta
    }

    /// Welling & Teh 2011 eq. 4 with constant ε.
    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted {
        grads.stochastic_gradient(model, &self.theta, rng, &mut self.grad);
        let noise_sd = self.step_size.sqrt();
        for (theta, g) in self.theta.iter_mut().zip(&self.grad) {
            *theta += 0.5 * self.step_size * g + noise_sd * standard_normal(rng);
        }
        Emitted::Sample { weight: 1.0 }
    }

    fn update_params(&mut self, params: &ParamValues) {
        self.step_size = params.get("step_size");
    }

    fn diagnostics(&self) -> Vec<Diagnostic> {
        vec![
            Diagnostic { name: "step_size", label: "step size ε", value: self.step_size },
            Diagnostic { name: "injected_noise_variance", label: "injected noise variance ε", value: self.step_size },
        ]
    }
}
