//! Metropolis-adjusted Langevin algorithm on the full data (docs/truth.md §4): the exact but
//! expensive reference. Proposal θ' = θ + (ε/2)∇log π(θ) + √ε ξ, accepted with probability
//! min{1, π(θ') q(θ | θ') / (π(θ) q(θ' | θ))}, q the Gaussian proposal density (Roberts & Tweedie 1996).

use super::{Diagnostic, Emitted, GradientOracle, Proposal, Sampler};
use crate::curvature::Curvature;
use crate::defaults;
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{DerivedParam, SamplerKind, SamplerSpec};
use crate::rng::{standard_normal, uniform, ChainRng};

pub const PARAMS: &[ParamSpec] = &[ParamSpec::log(
    "mala_step",
    "Step size",
    "ε",
    "Langevin proposal step ε; every proposal is corrected by a full-data Metropolis–Hastings test",
    1e-14,
    10.0,
    0.1,
)
.primary()];

pub const SPEC: SamplerSpec = SamplerSpec {
    name: "mala",
    label: "MALA (exact)",
    description: "Metropolis-adjusted Langevin on the full data: exact reference, N gradients per step",
    kind: SamplerKind::Exact,
    params: PARAMS,
    unread: crate::spec::FULL_DATA_UNREAD,
    build: |values, model, start| Box::new(Mala::new(model, start.to_vec(), values)),
    derive,
};

/// Roberts & Rosenthal's (1998) optimal MALA scaling, ε = ℓ²D^(−1/3)/λ with ℓ = 1.65 (acceptance
/// ≈ 0.574 on a D-dimensional Gaussian, here scaled by the stiffest curvature λ_max), kept within
/// half the Langevin proposal's stability limit 4/λ_max, beyond which acceptance collapses (the
/// slider's shaded region).
fn derive(model: &dyn Model, _values: &ParamValues) -> Vec<DerivedParam> {
    let Some(c) = Curvature::of(model) else { return Vec::new() };
    let limit = 4.0 / c.lambda_max;
    let scaled = 1.65f64.powi(2) * (c.dim as f64).powf(-1.0 / 3.0) / c.lambda_max;
    let step = scaled.min(defaults::STABILITY_MARGIN * limit);
    vec![defaults::derived(defaults::spec(PARAMS, "mala_step"), step, step / 1e3, 10.0 * limit, Some(limit))]
}

pub struct Mala {
    theta: Vec<f64>,
    log_density: f64,
    grad: Vec<f64>,
    step_size: f64,
    proposal: Vec<f64>,
    proposal_grad: Vec<f64>,
    accepted: u64,
    proposed: u64,
    last: Proposal,
}

impl Mala {
    pub fn new(model: &dyn Model, start: Vec<f64>, params: &ParamValues) -> Self {
        let dim = start.len();
        let mut grad = vec![0.0; dim];
        model.grad_log_density(&start, &mut grad);
        Mala {
            log_density: model.log_density(&start),
            theta: start,
            grad,
            step_size: params.get("mala_step"),
            proposal: vec![0.0; dim],
            proposal_grad: vec![0.0; dim],
            accepted: 0,
            proposed: 0,
            last: Proposal::default(),
        }
    }

    /// Fraction of proposals accepted so far.
    pub fn acceptance_rate(&self) -> f64 {
        if self.proposed == 0 {
            f64::NAN
        } else {
            self.accepted as f64 / self.proposed as f64
        }
    }

    /// log q(to | from) up to a constant: −‖to − from − (ε/2)∇log π(from)‖² / (2ε).
    fn log_proposal_density(&self, to: &[f64], from: &[f64], grad_from: &[f64]) -> f64 {
        let e = self.step_size;
        -to.iter().zip(from).zip(grad_from).map(|((t, f), g)| (t - f - 0.5 * e * g).powi(2)).sum::<f64>() / (2.0 * e)
    }
}

impl Sampler for Mala {
    fn position(&self) -> &[f64] {
        &self.theta
    }

    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted {
        let e = self.step_size;
        for j in 0..self.theta.len() {
            self.proposal[j] = self.theta[j] + 0.5 * e * self.grad[j] + e.sqrt() * standard_normal(rng);
        }
        self.last.restart(&self.theta);
        self.last.push(&self.proposal);
        grads.full_gradient(model, &self.proposal, &mut self.proposal_grad);
        let proposal_log_density = model.log_density(&self.proposal);
        let log_ratio = proposal_log_density - self.log_density
            + self.log_proposal_density(&self.theta, &self.proposal, &self.proposal_grad)
            - self.log_proposal_density(&self.proposal, &self.theta, &self.grad);
        self.proposed += 1;
        if proposal_log_density.is_finite() && uniform(rng).ln() < log_ratio {
            std::mem::swap(&mut self.theta, &mut self.proposal);
            std::mem::swap(&mut self.grad, &mut self.proposal_grad);
            self.log_density = proposal_log_density;
            self.accepted += 1;
            self.last.accepted = true;
        }
        Emitted::Sample { weight: 1.0 }
    }

    fn last_proposal(&self) -> Option<&Proposal> {
        (self.proposed > 0).then_some(&self.last)
    }

    fn update_params(&mut self, params: &ParamValues) {
        self.step_size = params.get("mala_step");
    }

    fn diagnostics(&self) -> Vec<Diagnostic> {
        vec![Diagnostic { name: "acceptance_rate", label: "acceptance rate", value: self.acceptance_rate() }]
    }
}
