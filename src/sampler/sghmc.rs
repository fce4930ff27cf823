//! Stochastic-gradient Hamiltonian Monte Carlo (Chen, Fox & Guestrin 2014, eq. 15), in the form of
//! the SGAIS paper's eq. 3 (ALGORITHMS.md §3):
//! v ← v + η ∇log π̂(θ) − α v + N(0, 2(α − β̂) η);  θ ← θ + v  (v first, then θ with the new v, as
//! in the authors' code tqchen/ML-SGHMC, matlab/figure3/sghmc.m).
//! η is the learning rate, α the friction (1 − α the momentum decay), β̂ ≤ α an estimate of the
//! gradient-noise term (β̂ = η V̂/2 for gradient-noise variance V̂). Optionally v ~ N(0, η I) is
//! redrawn at the start of every outer iteration of L steps. Stationary law ∝ exp(−U(θ) − |v|²/(2η)).

use super::{Diagnostic, Emitted, GradientOracle, Sampler};
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{SamplerKind, SamplerSpec};
use crate::rng::{standard_normal, ChainRng};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::log("sghmc_lr", "Learning rate", "η", "η: the gradient enters as η∇log π̂ and the momentum's stationary variance is η (SGAIS uses 0.1/N)", 1e-9, 1.0, 1e-3).primary(),
    ParamSpec::linear("friction", "Friction", "α", "α: momentum decays by (1 − α) per step; noise N(0, 2(α − β̂)η) is injected", 0.0, 1.0, 0.2).primary(),
    ParamSpec::linear("beta_hat", "Noise estimate", "β̂", "β̂ = ηV̂/2 for gradient-noise variance V̂; subtracted from the injected noise (clamped to ≤ α)", 0.0, 1.0, 0.0),
    ParamSpec::integer("resample_every", "Momentum resampling", "L", "Redraw v ~ N(0, ηI) every L steps (0 = never, as in SGAIS)", 0.0, 1e6, 0.0, false),
    ParamSpec::integer("batch_size", "Minibatch size", "n", "Data per gradient estimate (clamped to N)", 1.0, 1e6, 10.0, true),
];

pub const SPEC: SamplerSpec = SamplerSpec {
    name: "sghmc",
    label: "SGHMC",
    description: "Stochastic-gradient HMC with friction (Chen, Fox & Guestrin 2014)",
    kind: SamplerKind::StochasticGradient,
    params: PARAMS,
    build: |values, _model, start| Box::new(Sghmc::new(start.to_vec(), values)),
    derive: crate::spec::no_derived_defaults,
};

/// SGHMC state: position θ, momentum v, hyperparameters.
#[derive(Clone, Debug)]
pub struct Sghmc {
    theta: Vec<f64>,
    velocity: Vec<f64>,
    grad: Vec<f64>,
    learning_rate: f64,
    friction: f64,
    beta_hat: f64,
    resample_every: u64,
    t: u64,
}

impl Sghmc {
    /// Starts with v = 0 (redrawn at step 0 when momentum resampling is on).
    pub fn new(start: Vec<f64>, params: &ParamValues) -> Self {
        let dim = start.len();
        let mut s = Sghmc {
            theta: start,
            velocity: vec![0.0; dim],
            grad: vec![0.0; dim],
            learning_rate: 0.0,
            friction: 0.0,
            beta_hat: 0.0,
            resample_every: 0,
            t: 0,
        };
        s.update_params(params);
        s
    }

    pub fn velocity(&self) -> &[f64] {
        &self.velocity
    }

    /// Variance 2(α − β̂)η of the injected momentum noise (β̂ clamped to [0, α]).
    pub fn injected_noise_variance(&self) -> f64 {
        2.0 * (self.friction - self.beta_hat.min(self.friction)) * self.learning_rate
    }

    /// |v|²/(D η): 1 on average when the momentum is at its stationary temperature.
    pub fn kinetic_temperature(&self) -> f64 {
        let sq: f64 = self.velocity.iter().map(|v| v * v).sum();
        sq / (self.velocity.len() as f64 * self.learning_rate)
    }
}

impl Sampler for Sghmc {
    fn position(&self) -> &[f64] {
        &self.theta
    }

    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted {
        if self.resample_every > 0 && self.t.is_multiple_of(self.resample_every) {
            let sd = self.learning_rate.sqrt();
            self.velocity.iter_mut().for_each(|v| *v = sd * standard_normal(rng));
        }
        grads.stochastic_gradient(model, &self.theta, rng, &mut self.grad);
        let (eta, alpha) = (self.learning_rate, self.friction);
        let noise_sd = self.injected_noise_variance().sqrt();
        for ((theta, v), g) in self.theta.iter_mut().zip(self.velocity.iter_mut()).zip(&self.grad) {
            *v += eta * g - alpha * *v + noise_sd * standard_normal(rng);
            *theta += *v;
        }
        self.t += 1;
        Emitted::Sample { weight: 1.0 }
    }

    fn update_params(&mut self, params: &ParamValues) {
        self.learning_rate = params.get("sghmc_lr");
        self.friction = params.get("friction");
        self.beta_hat = params.get("beta_hat");
        self.resample_every = params.get_usize("resample_every") as u64;
    }

    fn diagnostics(&self) -> Vec<Diagnostic> {
        vec![
            Diagnostic { name: "injected_noise_variance", label: "injected noise variance 2(α−β̂)η", value: self.injected_noise_variance() },
            Diagnostic { name: "kinetic_temperature", label: "kinetic temperature |v|²/(Dη)", value: self.kinetic_temperature() },
        ]
    }
}
