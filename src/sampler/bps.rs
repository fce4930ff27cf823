//! Exact bouncy particle sampler (Bouchard-Côté, Vollmer & Doucet 2018; docs/bouncy.md §2):
//! x moves as x + v t; bounces arrive at rate λ(x, v) = [v·∇U(x)]₊ with U = −log π, and reflect
//! v in the hyperplane orthogonal to ∇U; at rate λ_ref the velocity is refreshed.
//!
//! Event times are exact. On Gaussian targets ([`Model::gaussian_precision`]) they are drawn in
//! closed form (docs/bouncy.md (BPS.3)). Elsewhere they come from thinning an affine bound built from the full-data
//! gradient: along the ray, v·∇U(x + v s) ≤ v·∇U(x) + M‖v‖² s with M ≥ sup λ_max(∇²U)
//! ([`Model::curvature_bound`]), so a proposal at τ is accepted with probability
//! [v·∇U(x + vτ)]₊ / (v·∇U(x) + M‖v‖²τ), a valid bound (docs/bouncy.md §2, the affine bound). Synthetic gradient
//! noise is ignored: this sampler is the exact reference of its family.

use super::bouncy::{affine_event_time, dot, refresh_time, RefreshLaw, ThinningCounts, REFRESH_LAWS};
use super::{Diagnostic, Emitted, GradientOracle, Sampler};
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{DerivedParam, SamplerKind, SamplerSpec};
use crate::rng::{standard_exponential, ChainRng};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::linear("refresh_rate", "Refresh rate", "λ_ref", "Rate per unit time of velocity refreshes (0 = never; BPS is then not ergodic on isotropic Gaussians)", 0.0, 20.0, 1.0).primary(),
    ParamSpec::choice("refresh_law", "Refresh law", "", "Law of a refreshed velocity: N(0, I) or uniform on the unit sphere", REFRESH_LAWS, 0),
];

pub const SPEC: SamplerSpec = SamplerSpec {
    name: "bps",
    label: "BPS (exact)",
    description: "Bouncy particle sampler with exact event times (closed form on Gaussians, thinning elsewhere); full-data gradients",
    kind: SamplerKind::Bouncy,
    params: PARAMS,
    unread: crate::spec::FULL_DATA_UNREAD,
    build: |values, model, start| Box::new(Bps::new(model, start.to_vec(), values)),
    derive: derive_defaults,
};

/// Target-derived refresh rate: one refresh per widest length scale travelled at unit speed,
/// λ_ref = 1/ℓ_max ([`super::bouncy::length_scales`]), instead of 1 per unit time whatever the
/// target's scale. Without enough refreshes BPS is not ergodic on (near-)isotropic Gaussians
/// (docs/bouncy.md §2), and a posterior of N = 10⁶ points is a thousand times narrower than one.
pub fn derive_defaults(model: &dyn Model, _values: &ParamValues) -> Vec<DerivedParam> {
    let Some((_, widest)) = super::bouncy::length_scales(model) else { return Vec::new() };
    let spec = &PARAMS[0];
    let default = (1.0 / widest).clamp(1e-3, spec.max);
    vec![DerivedParam { name: "refresh_rate", default, min: 0.0, max: (10.0 * default).min(spec.max), unstable_above: None }]
}

/// How bounce times are drawn.
#[derive(Clone, Debug)]
enum EventSource {
    /// U = ½(x − μ)ᵀP(x − μ): rate (a + b t)₊ with a = v·P(x − μ), b = vᵀPv (docs/bouncy.md (BPS.3)).
    Gaussian { mean: Vec<f64>, precision: Vec<f64> },
    /// Thinning of the affine bound with curvature bound M; `grad_u` is ∇U at the current x.
    Thinning { curvature: f64, grad_u: Vec<f64> },
    Unsupported(String),
}

/// Exact BPS state: position, velocity, event source, counters.
pub struct Bps {
    x: Vec<f64>,
    v: Vec<f64>,
    source: EventSource,
    refresh_rate: f64,
    refresh_law: RefreshLaw,
    started: bool,
    counts: ThinningCounts,
    refreshes: u64,
    total_time: f64,
}

impl Bps {
    pub fn new(model: &dyn Model, start: Vec<f64>, params: &ParamValues) -> Self {
        let dim = start.len();
        let source = match (model.gaussian_precision(), model.curvature_bound()) {
            (Some((mean, precision)), _) => EventSource::Gaussian { mean, precision },
            (None, Some(curvature)) => EventSource::Thinning { curvature, grad_u: vec![0.0; dim] },
            (None, None) => EventSource::Unsupported(
                "exact BPS needs a Gaussian target (closed-form event times) or a global bound on the curvature of −log π (thinning), as logistic regression has; this target has neither. Pick SBPS or pSBPS (with gradient noise s > 0 on data-free toys), or SGLD, MALA or HMC".into(),
            ),
        };
        Bps {
            x: start,
            v: vec![0.0; dim],
            source,
            refresh_rate: params.get("refresh_rate"),
            refresh_law: RefreshLaw::from_index(params.get_usize("refresh_law")),
            started: false,
            counts: ThinningCounts::default(),
            refreshes: 0,
            total_time: 0.0,
        }
    }

    /// The current velocity.
    pub fn velocity(&self) -> &[f64] {
        &self.v
    }

    /// ∇U(x) for the current x: from the precision on Gaussians, the cached full gradient otherwise.
    fn potential_gradient(&self) -> Vec<f64> {
        match &self.source {
            EventSource::Gaussian { mean, precision } => {
                let d = self.x.len();
                let centred: Vec<f64> = self.x.iter().zip(mean).map(|(x, m)| x - m).collect();
                (0..d).map(|a| dot(&precision[a * d..(a + 1) * d], &centred)).collect()
            }
            EventSource::Thinning { grad_u, .. } => grad_u.clone(),
            EventSource::Unsupported(_) => vec![0.0; self.x.len()],
        }
    }

    /// Coefficients (a, b) of the affine rate (bound) a + b t along the current ray.
    fn rate_coefficients(&self) -> (f64, f64) {
        let a = dot(&self.v, &self.potential_gradient());
        let b = match &self.source {
            EventSource::Gaussian { precision, .. } => {
                let d = self.v.len();
                (0..d).map(|i| self.v[i] * dot(&precision[i * d..(i + 1) * d], &self.v)).sum()
            }
            EventSource::Thinning { curvature, .. } => curvature * dot(&self.v, &self.v),
            EventSource::Unsupported(_) => 0.0,
        };
        (a, b)
    }

    /// ∇U at the current x, which the next event time needs: computed into the thinning cache,
    /// or on Gaussians computed from the precision when used (P(x − μ) is a full gradient all the
    /// same). Either way N per-datum gradient evaluations are counted, at the start, at every
    /// proposal and after every refresh (the new velocity needs v·∇U(x)), so that ESS per 1,000
    /// gradients is honest.
    fn observe_gradient(&mut self, model: &dyn Model, grads: &mut GradientOracle) {
        match &mut self.source {
            EventSource::Thinning { grad_u, .. } => {
                grads.full_gradient(model, &self.x, grad_u);
                grad_u.iter_mut().for_each(|g| *g = -*g);
            }
            EventSource::Gaussian { .. } => grads.count(model.n_data() as u64),
            EventSource::Unsupported(_) => {}
        }
    }

    fn advance(&mut self, tau: f64) {
        for (x, v) in self.x.iter_mut().zip(&self.v) {
            *x += v * tau;
        }
        self.total_time += tau;
    }

    /// At a proposed bounce: accept with probability [v·∇U]₊/λ̄ (always on Gaussians), reflect.
    fn try_bounce(&mut self, model: &dyn Model, grads: &mut GradientOracle, bound: f64, rng: &mut ChainRng) -> bool {
        self.observe_gradient(model, grads);
        let grad_u = self.potential_gradient();
        let rate = dot(&self.v, &grad_u).max(0.0);
        let exact = matches!(self.source, EventSource::Gaussian { .. });
        self.counts.thin(&mut self.v, &grad_u, rate, bound, exact, rng)
    }
}

impl Sampler for Bps {
    fn position(&self) -> &[f64] {
        &self.x
    }

    /// One event: a bounce, a rejected thinning proposal, or a refresh (docs/bouncy.md §2).
    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted {
        if matches!(self.source, EventSource::Unsupported(_)) {
            return Emitted::Nothing;
        }
        if !self.started {
            self.refresh_law.draw(rng, &mut self.v);
            self.observe_gradient(model, grads);
            self.started = true;
        }
        let (a, b) = self.rate_coefficients();
        let tau_bounce = affine_event_time(a, b, standard_exponential(rng));
        let tau_refresh = refresh_time(self.refresh_rate, rng);
        let (start, velocity) = (self.x.clone(), self.v.clone());
        if tau_refresh < tau_bounce {
            self.advance(tau_refresh);
            self.refresh_law.draw(rng, &mut self.v);
            self.refreshes += 1;
            self.observe_gradient(model, grads);
            return Emitted::Segment { start, velocity, duration: tau_refresh, bounce: false };
        }
        if !tau_bounce.is_finite() {
            // Zero rate forever and no refresh: the particle would leave for good.
            return Emitted::Nothing;
        }
        self.advance(tau_bounce);
        let bounce = self.try_bounce(model, grads, a + b * tau_bounce, rng);
        Emitted::Segment { start, velocity, duration: tau_bounce, bounce }
    }

    fn update_params(&mut self, params: &ParamValues) {
        self.refresh_rate = params.get("refresh_rate");
        self.refresh_law = RefreshLaw::from_index(params.get_usize("refresh_law"));
    }

    fn unsupported_reason(&self) -> Option<String> {
        match &self.source {
            EventSource::Unsupported(reason) => Some(reason.clone()),
            _ => None,
        }
    }

    fn diagnostics(&self) -> Vec<Diagnostic> {
        vec![
            Diagnostic { name: "bounces", label: "bounces", value: self.counts.bounces as f64 },
            Diagnostic { name: "rejections", label: "thinning rejections", value: self.counts.rejections as f64 },
            Diagnostic { name: "refreshes", label: "refreshes", value: self.refreshes as f64 },
            Diagnostic { name: "violations", label: "bound violations", value: self.counts.violations as f64 },
            Diagnostic { name: "total_time", label: "trajectory time T", value: self.total_time },
        ]
    }
}
