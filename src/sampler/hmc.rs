//! Hamiltonian Monte Carlo on the full data (Duane et al. 1987; Neal 2011, "MCMC using Hamiltonian
//! dynamics", §5.3.2), an exact reference of docs/truth.md §4: momentum p ~ N(0, I), L leapfrog
//! steps of size ε on H(θ, p) = −log π(θ) + |p|²/2, then a Metropolis–Hastings test
//! min{1, exp(H(θ, p) − H(θ', p'))}. Each leapfrog step costs one full gradient (N evaluations).

use super::{Diagnostic, Emitted, GradientOracle, Proposal, Sampler};
use crate::curvature::Curvature;
use crate::defaults;
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{DerivedParam, SamplerKind, SamplerSpec};
use crate::rng::{standard_normal, uniform, ChainRng};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::log("hmc_step", "Leapfrog step", "ε", "Leapfrog step size ε; the trajectory is corrected by a full-data Metropolis–Hastings test", 1e-10, 10.0, 0.05).primary(),
    ParamSpec::integer("leapfrog_steps", "Leapfrog steps", "L", "Leapfrog steps per proposal (N gradient evaluations each)", 1.0, 1000.0, 10.0, false).primary(),
];

pub const SPEC: SamplerSpec = SamplerSpec {
    name: "hmc",
    label: "HMC (exact)",
    description: "Hamiltonian Monte Carlo on the full data: exact reference, L·N gradients per step",
    kind: SamplerKind::Exact,
    params: PARAMS,
    unread: crate::spec::FULL_DATA_UNREAD,
    build: |values, model, start| Box::new(Hmc::new(model, start.to_vec(), values)),
    derive,
};

/// Largest number of leapfrog steps a derived default uses (each costs a full-data gradient).
const MAX_DERIVED_LEAPFROG: f64 = 100.0;

/// Leapfrog step ε = D^(−1/4)/√λ_max (Beskos, Pillai, Roberts, Sanz-Serna & Stuart 2013: ε ∝ D^(−1/4)
/// keeps acceptance ≈ 0.65), at most half the leapfrog stability limit 2/√λ_max (shaded beyond);
/// L = ⌈(π/2)/(ε√λ_min)⌉ steps, a quarter period of the flattest direction, so successive states are
/// nearly uncorrelated along it (at most 100).
fn derive(model: &dyn Model, _values: &ParamValues) -> Vec<DerivedParam> {
    let Some(c) = Curvature::of(model) else { return Vec::new() };
    let limit = 2.0 / c.lambda_max.sqrt();
    let step = (c.dim as f64).powf(-0.25).min(1.0) * defaults::STABILITY_MARGIN * limit;
    let steps = (std::f64::consts::FRAC_PI_2 / (step * c.lambda_min().sqrt())).ceil().clamp(1.0, MAX_DERIVED_LEAPFROG);
    vec![
        defaults::derived(defaults::spec(PARAMS, "hmc_step"), step, step / 1e3, 10.0 * limit, Some(limit)),
        defaults::derived(defaults::spec(PARAMS, "leapfrog_steps"), steps, 1.0, (4.0 * steps).max(10.0), None),
    ]
}

pub struct Hmc {
    theta: Vec<f64>,
    log_density: f64,
    grad: Vec<f64>,
    step_size: f64,
    leapfrog_steps: usize,
    proposal: Vec<f64>,
    proposal_grad: Vec<f64>,
    momentum: Vec<f64>,
    accepted: u64,
    proposed: u64,
    last_accept_probability: f64,
    trajectory: Proposal,
}

impl Hmc {
    /// The starting gradient is computed here without being counted (it is a one-off).
    pub fn new(model: &dyn Model, start: Vec<f64>, params: &ParamValues) -> Self {
        let dim = start.len();
        let mut grad = vec![0.0; dim];
        model.grad_log_density(&start, &mut grad);
        Hmc {
            log_density: model.log_density(&start),
            theta: start,
            grad,
            step_size: params.get("hmc_step"),
            leapfrog_steps: params.get_usize("leapfrog_steps").max(1),
            proposal: vec![0.0; dim],
            proposal_grad: vec![0.0; dim],
            momentum: vec![0.0; dim],
            accepted: 0,
            proposed: 0,
            last_accept_probability: f64::NAN,
            trajectory: Proposal::default(),
        }
    }

    pub fn acceptance_rate(&self) -> f64 {
        if self.proposed == 0 {
            f64::NAN
        } else {
            self.accepted as f64 / self.proposed as f64
        }
    }

    /// L leapfrog steps from (θ, p) into (proposal, momentum); returns false if it went non-finite.
    fn leapfrog(&mut self, model: &dyn Model, grads: &mut GradientOracle) -> bool {
        let e = self.step_size;
        self.proposal.copy_from_slice(&self.theta);
        self.proposal_grad.copy_from_slice(&self.grad);
        for _ in 0..self.leapfrog_steps {
            for ((p, x), g) in self.momentum.iter_mut().zip(self.proposal.iter_mut()).zip(&self.proposal_grad) {
                *p += 0.5 * e * g;
                *x += e * *p;
            }
            grads.full_gradient(model, &self.proposal, &mut self.proposal_grad);
            for (p, g) in self.momentum.iter_mut().zip(&self.proposal_grad) {
                *p += 0.5 * e * g;
            }
            self.trajectory.push(&self.proposal);
            if self.proposal.iter().any(|x| !x.is_finite()) {
                return false;
            }
        }
        true
    }
}

impl Sampler for Hmc {
    fn position(&self) -> &[f64] {
        &self.theta
    }

    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted {
        self.momentum.iter_mut().for_each(|p| *p = standard_normal(rng));
        let kinetic_before: f64 = 0.5 * self.momentum.iter().map(|p| p * p).sum::<f64>();
        self.trajectory.restart(&self.theta);
        let finite = self.leapfrog(model, grads);
        let proposal_log_density = if finite { model.log_density(&self.proposal) } else { f64::NEG_INFINITY };
        let kinetic_after: f64 = 0.5 * self.momentum.iter().map(|p| p * p).sum::<f64>();
        let log_ratio = proposal_log_density - kinetic_after - self.log_density + kinetic_before;
        self.proposed += 1;
        self.last_accept_probability = if log_ratio.is_nan() { 0.0 } else { log_ratio.min(0.0).exp() };
        if proposal_log_density.is_finite() && uniform(rng).ln() < log_ratio {
            std::mem::swap(&mut self.theta, &mut self.proposal);
            std::mem::swap(&mut self.grad, &mut self.proposal_grad);
            self.log_density = proposal_log_density;
            self.accepted += 1;
            self.trajectory.accepted = true;
        }
        Emitted::Sample { weight: 1.0 }
    }

    fn last_proposal(&self) -> Option<&Proposal> {
        Some(&self.trajectory)
    }

    fn update_params(&mut self, params: &ParamValues) {
        self.step_size = params.get("hmc_step");
        self.leapfrog_steps = params.get_usize("leapfrog_steps").max(1);
    }

    fn diagnostics(&self) -> Vec<Diagnostic> {
        vec![
            Diagnostic { name: "acceptance_rate", label: "acceptance rate", value: self.acceptance_rate() },
            Diagnostic { name: "accept_probability", label: "last acceptance probability", value: self.last_accept_probability },
        ]
    }
}
