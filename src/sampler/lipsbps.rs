//! lipSBPS (Pakman et al. 2017, `lipschitzSBPS` in the authors' code; docs/bouncy.md §9): SBPS
//! with exact thinning against a global bound, so minibatch noise costs no bias.
//!
//! For unit v and any minibatch S, G̃ = v·∇Ũ = −v·∇log p(w + v t) − (N/n) Σ_{i∈S} v·∇ℓ_i
//! ≤ −v·∇log p(w) + M_p t + N L, with L ≥ |v·∇ℓ_i| ([`Model::score_projection_bound`], max_i ‖x̃_i‖
//! for logistic regression) and M_p the prior's curvature bound ([`Model::prior_curvature_bound`],
//! 1/σ_p² for a N(0, σ_p² I) prior, 0 for a flat one). Proposals therefore come from the affine
//! rate (a + M_p t)₊, a = N L − v·∇log p(w), drawn in closed form (docs/bouncy.md (BPS.3)), and are accepted with
//! probability G̃₊/λ̄: there are never violations (they are counted to prove it). Unlike the
//! reference class, the velocity is refreshed (uniform on the sphere) at rate λ_ref, 0 allowed.

use super::bouncy::{affine_event_time, dot, refresh_time, RefreshLaw, ThinningCounts};
use super::{Diagnostic, Emitted, GradientOracle, Sampler};
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{DerivedParam, SamplerKind, SamplerSpec};
use crate::rng::{standard_exponential, ChainRng};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::integer("batch_size", "Minibatch size", "n", "Data per accept test (clamped to N)", 1.0, 1e6, 10.0, true).primary(),
    ParamSpec::linear("refresh_rate", "Refresh rate", "λ_ref", "Rate per unit time of velocity refreshes (uniform on the sphere)", 0.0, 5.0, 0.05).primary(),
];

pub const SPEC: SamplerSpec = SamplerSpec {
    name: "lipsbps",
    label: "lipSBPS (exact thinning)",
    description: "Bouncy particle sampler thinning minibatch rates against a global bound N·L: exact, no violations",
    kind: SamplerKind::Bouncy,
    params: PARAMS,
    unread: &[],
    build: |values, model, start| Box::new(LipSbps::new(model, start.to_vec(), values)),
    derive: derive_defaults,
};

/// The minibatch slider's range on a target: n from 1 to N (larger n is clamped to N and changes
/// nothing), its default the spec's 10 or N when there are fewer data.
pub fn derive_defaults(model: &dyn Model, _values: &ParamValues) -> Vec<DerivedParam> {
    let b = crate::defaults::spec(PARAMS, "batch_size");
    let n = (model.n_data() as f64).max(1.0).min(b.max);
    vec![crate::defaults::derived(b, b.default.min(n), 1.0, n, None)]
}

/// lipSBPS state.
pub struct LipSbps {
    w: Vec<f64>,
    v: Vec<f64>,
    /// N · L, or None when the target has no global bound.
    likelihood_bound: Option<f64>,
    prior_curvature: f64,
    refresh_rate: f64,
    grad: Vec<f64>,
    started: bool,
    counts: ThinningCounts,
    refreshes: u64,
    total_time: f64,
}

impl LipSbps {
    pub fn new(model: &dyn Model, start: Vec<f64>, params: &ParamValues) -> Self {
        let dim = start.len();
        let noiseless = model.synthetic_noise_sd() == 0.0;
        let likelihood_bound = model.score_projection_bound().filter(|_| noiseless).map(|l| model.n_data() as f64 * l);
        LipSbps {
            w: start,
            v: vec![0.0; dim],
            likelihood_bound,
            prior_curvature: model.prior_curvature_bound().unwrap_or(f64::NAN),
            refresh_rate: params.get("refresh_rate"),
            grad: vec![0.0; dim],
            started: false,
            counts: ThinningCounts::default(),
            refreshes: 0,
            total_time: 0.0,
        }
    }

    pub fn violations(&self) -> u64 {
        self.counts.violations
    }

    fn advance(&mut self, tau: f64) {
        for (w, v) in self.w.iter_mut().zip(&self.v) {
            *w += v * tau;
        }
        self.total_time += tau;
    }

    /// Thinning at a proposal with bound λ̄ on a fresh minibatch; returns whether it bounced.
    fn accept_or_reject(&mut self, model: &dyn Model, grads: &mut GradientOracle, bound: f64, rng: &mut ChainRng) -> bool {
        grads.stochastic_gradient(model, &self.w, rng, &mut self.grad);
        self.grad.iter_mut().for_each(|g| *g = -*g);
        let rate = dot(&self.v, &self.grad);
        self.counts.thin(&mut self.v, &self.grad, rate, bound, false, rng)
    }
}

impl Sampler for LipSbps {
    fn position(&self) -> &[f64] {
        &self.w
    }

    /// One proposal or refresh.
    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted {
        let Some(likelihood_bound) = self.likelihood_bound.filter(|_| self.prior_curvature.is_finite()) else {
            return Emitted::Nothing;
        };
        if !self.started {
            RefreshLaw::Sphere.draw(rng, &mut self.v);
            self.started = true;
        }
        let mut prior_grad = vec![0.0; self.w.len()];
        model.add_grad_log_prior(&self.w, &mut prior_grad);
        let a = likelihood_bound - dot(&self.v, &prior_grad);
        let tau_bounce = affine_event_time(a, self.prior_curvature, standard_exponential(rng));
        let tau_refresh = refresh_time(self.refresh_rate, rng);
        let (start, velocity) = (self.w.clone(), self.v.clone());
        if tau_refresh < tau_bounce {
            self.advance(tau_refresh);
            RefreshLaw::Sphere.draw(rng, &mut self.v);
            self.refreshes += 1;
            return Emitted::Segment { start, velocity, duration: tau_refresh, bounce: false };
        }
        self.advance(tau_bounce);
        let bound = a + self.prior_curvature * tau_bounce;
        let bounce = self.accept_or_reject(model, grads, bound, rng);
        Emitted::Segment { start, velocity, duration: tau_bounce, bounce }
    }

    fn update_params(&mut self, params: &ParamValues) {
        self.refresh_rate = params.get("refresh_rate");
    }

    fn unsupported_reason(&self) -> Option<String> {
        if self.likelihood_bound.is_none() || !self.prior_curvature.is_finite() {
            Some("lipSBPS needs a global bound on every per-datum projected score and on the prior's curvature, and no synthetic gradient noise (unbounded); logistic regression has them, this target does not. Pick SBPS or pSBPS, or exact BPS on Gaussian targets".into())
        } else {
            None
        }
    }

    fn diagnostics(&self) -> Vec<Diagnostic> {
        let rate = self.counts.violations as f64 / self.counts.bounces as f64;
        vec![
            Diagnostic { name: "bounces", label: "bounces", value: self.counts.bounces as f64 },
            Diagnostic { name: "rejections", label: "thinning rejections", value: self.counts.rejections as f64 },
            Diagnostic { name: "refreshes", label: "refreshes", value: self.refreshes as f64 },
            Diagnostic { name: "violations", label: "bound violations", value: self.counts.violations as f64 },
            Diagnostic { name: "violation_rate", label: "violation rate (per bounce)", value: rate },
            Diagnostic { name: "total_time", label: "trajectory time T", value: self.total_time },
        ]
    }
}
