//! Stochastic-gradient Hamiltonian Monte Carlo (Chen, Fox & Guestrin 2014, eq. 15), in the form of
//! the SGAIS paper's eq. 3 (docs/sghmc.md):
//! v ← v + η ∇log π̂(θ) − α v + N(0, 2(α − β̂) η);  θ ← θ + v  (v first, then θ with the new v, as
//! in the authors' code tqchen/ML-SGHMC, matlab/figure3/sghmc.m).
//! η is the learning rate, α the friction (1 − α the momentum decay), β̂ ≤ α an estimate of the
//! gradient-noise term (β̂ = η V̂/2 for gradient-noise variance V̂). Optionally v ~ N(0, η I) is
//! redrawn at the start of every outer iteration of L steps. Stationary law ∝ exp(−U(θ) − |v|²/(2η)).

use super::{exact_gradient, Diagnostic, Emitted, GradientOracle, Sampler, StepParts};
use crate::curvature::Curvature;
use crate::defaults;
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{DerivedParam, SamplerKind, SamplerSpec};
use crate::rng::{standard_normal, ChainRng};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::log("sghmc_lr", "Learning rate", "η", "η: the gradient enters as η∇log π̂ and the momentum's stationary variance is η (SGAIS uses 0.1/N)", 1e-14, 1.0, 1e-3).primary(),
    ParamSpec::linear("friction", "Friction", "κ", "κ (α in Chen et al. 2014 eq. 15; κ here, since α is SGFS's noise level): momentum decays by (1 − κ) per step; noise N(0, 2(κ − β̂)η) is injected", 0.0, 1.0, 0.2).primary(),
    ParamSpec::linear("beta_hat", "Noise estimate", "β̂", "β̂ = ηV̂/2 for gradient-noise variance V̂; subtracted from the injected noise (clamped to ≤ κ)", 0.0, 1.0, 0.0),
    ParamSpec::integer("resample_every", "Momentum resampling", "L", "Redraw v ~ N(0, ηI) every L steps (0 = never, as in SGAIS)", 0.0, 1e6, 0.0, false),
    ParamSpec::integer("batch_size", "Minibatch size", "n", "Data per gradient estimate (clamped to N)", 1.0, 1e6, 10.0, true),
];

pub const SPEC: SamplerSpec = SamplerSpec {
    name: "sghmc",
    label: "SGHMC",
    description: "Stochastic-gradient HMC with friction (Chen, Fox & Guestrin 2014)",
    kind: SamplerKind::StochasticGradient,
    params: PARAMS,
    unread: &[],
    build: |values, _model, start| Box::new(Sghmc::new(start.to_vec(), values)),
    derive,
};

/// SGHMC along one direction of precision λ with gradient-noise variance q (β̂ = 0, no momentum
/// resampling): x = (θ, v), v' = (1 − α)v − ηλθ + w, θ' = θ + v', w ~ N(0, 2αη + η²q), i.e.
/// x' = A x + w(1, 1) with A = [[1 − ηλ, 1 − α], [−ηλ, 1 − α]]. Returns the stationary variance of θ
/// (the 2 × 2 discrete Lyapunov equation Σ = AΣAᵀ + Q in closed 3 × 3 form; infinite when
/// unstable) and the spectral radius of A (the decorrelation per step).
pub fn sghmc_law(eta: f64, friction: f64, precision: f64, noise: f64) -> (f64, f64) {
    let (a11, a12, a21, a22) = (1.0 - eta * precision, 1.0 - friction, -eta * precision, 1.0 - friction);
    let radius = spectral_radius(a11, a12, a21, a22);
    if radius >= 1.0 {
        return (f64::INFINITY, radius);
    }
    let q = 2.0 * friction * eta + eta * eta * noise;
    let system = nalgebra::Matrix3::new(
        1.0 - a11 * a11, -2.0 * a11 * a12, -a12 * a12,
        -a11 * a21, 1.0 - (a11 * a22 + a12 * a21), -a12 * a22,
        -a21 * a21, -2.0 * a21 * a22, 1.0 - a22 * a22,
    );
    let variance = system.lu().solve(&nalgebra::Vector3::new(q, q, q)).map_or(f64::INFINITY, |x| x[0]);
    (variance, radius)
}

/// Largest |eigenvalue| of [[a11, a12], [a21, a22]].
fn spectral_radius(a11: f64, a12: f64, a21: f64, a22: f64) -> f64 {
    let (trace, det) = (a11 + a22, a11 * a22 - a12 * a21);
    let disc = trace * trace / 4.0 - det;
    if disc < 0.0 {
        det.sqrt()
    } else {
        (trace / 2.0).abs() + disc.sqrt()
    }
}

/// The friction that damps the flattest direction (precision λ_min) critically: the eigenvalues of
/// A coincide when (2 − α − ηλ_min)² = 4(1 − α), i.e. α = 2√h − h with h = ηλ_min (capped at 1) —
/// the fastest decorrelation a damped oscillator allows along the direction that mixes slowest.
pub fn critical_friction(eta: f64, lambda_min: f64) -> f64 {
    let h = (eta * lambda_min).min(1.0);
    2.0 * h.sqrt() - h
}

/// SGHMC's derived learning rate, friction and minibatch on a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SghmcPlan {
    pub eta: f64,
    pub friction: f64,
    pub batch: usize,
    pub e2_bound: f64,
}

impl SghmcPlan {
    /// Friction at critical damping of the flattest direction; the largest η whose exact law
    /// meets the bias criteria and stays within half the stability limit η < (4 − 2α)/λ_max; the
    /// smallest minibatch meeting the E2 claim (criteria of [`crate::defaults`]).
    pub fn for_target(c: &Curvature) -> SghmcPlan {
        let plan = |batch: usize| {
            let eta = largest_eta(c, batch as f64);
            let friction = critical_friction(eta, c.lambda_min());
            let (variances, radii) = per_direction(c, eta, friction, batch as f64);
            SghmcPlan { eta, friction, batch, e2_bound: defaults::e2_bound(c, &variances, &radii, defaults::REFERENCE_SAMPLES) }
        };
        plan(defaults::smallest_batch_where(c.n_data, |n| plan(n).e2_bound <= defaults::E2_CLAIM).unwrap_or(c.n_data))
    }
}

fn per_direction(c: &Curvature, eta: f64, friction: f64, batch: f64) -> (Vec<f64>, Vec<f64>) {
    c.precisions.iter().map(|&p| sghmc_law(eta, friction, p, c.gradient_noise(p, batch))).unzip()
}

fn largest_eta(c: &Curvature, batch: f64) -> f64 {
    // Half the stability limit at the largest friction the rule can give (α ≤ 1): η ≤ 1/λ_max.
    let limit = defaults::STABILITY_MARGIN * 2.0 / c.lambda_max;
    let ok = |eta: f64| {
        let friction = critical_friction(eta, c.lambda_min());
        if eta > defaults::STABILITY_MARGIN * (4.0 - 2.0 * friction) / c.lambda_max {
            return false;
        }
        let (variances, _) = per_direction(c, eta, friction, batch);
        let stiffest = sghmc_law(eta, friction, c.lambda_max, c.gradient_noise(c.lambda_max, batch)).0 * c.lambda_max;
        let axes = variances.iter().zip(&c.precisions).map(|(v, p)| v * p).chain([stiffest]);
        axes.fold(0.0f64, |worst, r| worst.max((r - 1.0).abs())) <= defaults::AXIS_BIAS && c.e2_of_variances(&variances) <= defaults::BIAS_E2
    };
    defaults::largest_where(limit * 1e-12, limit, ok).unwrap_or(limit * 1e-12)
}

/// Derived defaults of SGHMC ([`SghmcPlan`]); η's slider reaches ten times its stability limit
/// (4 − 2α)/λ_max, shaded above it.
fn derive(model: &dyn Model, _values: &ParamValues) -> Vec<DerivedParam> {
    let Some(c) = Curvature::of(model) else { return Vec::new() };
    let plan = SghmcPlan::for_target(&c);
    let limit = (4.0 - 2.0 * plan.friction) / c.lambda_max;
    vec![
        defaults::derived(defaults::spec(PARAMS, "sghmc_lr"), plan.eta, plan.eta / 1e3, 10.0 * limit, Some(limit)),
        defaults::derived(defaults::spec(PARAMS, "friction"), plan.friction, 0.0, 1.0, None),
        defaults::derived(defaults::spec(PARAMS, "batch_size"), plan.batch as f64, 1.0, c.n_data as f64, None),
    ]
}

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
    /// The latest step's parts, while recording them (slow motion).
    parts: Option<StepParts>,
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
            parts: None,
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

impl Sghmc {
    /// The update of [`Sampler::step`] with the same draws, recording the position change
    /// v' = (1 − α)v + η∇log π + η(∇log π̂ − ∇log π) + N(0, 2(α − β̂)η) as its four parts
    /// (Chen, Fox & Guestrin 2014, eq. 15 in the η, α, β̂ parametrisation).
    fn recorded_update(&mut self, model: &dyn Model, rng: &mut ChainRng) {
        let (eta, alpha) = (self.learning_rate, self.friction);
        let noise_sd = self.injected_noise_variance().sqrt();
        let full = exact_gradient(model, &self.theta);
        let mut parts = self.parts.take().unwrap_or_default();
        parts.restart(&self.theta);
        let (mut momentum, mut drift, mut minibatch, mut injected) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for j in 0..self.theta.len() {
            let v = self.velocity[j];
            let noise = noise_sd * standard_normal(rng);
            momentum.push(v - alpha * v);
            drift.push(eta * full[j]);
            minibatch.push(eta * (self.grad[j] - full[j]));
            injected.push(noise);
            self.velocity[j] += eta * self.grad[j] - alpha * v + noise;
            self.theta[j] += self.velocity[j];
        }
        parts.push("momentum", "momentum carried over (1 − α)v", momentum);
        parts.push("drift", "gradient drift η∇log π", drift);
        parts.push("minibatch_noise", "minibatch noise η(∇log π̂ − ∇log π)", minibatch);
        parts.push("injected_noise", "injected noise N(0, 2(κ − β̂)η)", injected);
        self.parts = Some(parts);
    }
}

impl Sampler for Sghmc {
    fn position(&self) -> &[f64] {
        &self.theta
    }

    fn record_parts(&mut self, on: bool) {
        self.parts = on.then(|| self.parts.take().unwrap_or_default());
    }

    fn last_parts(&self) -> Option<&StepParts> {
        self.parts.as_ref().filter(|p| !p.parts.is_empty())
    }

    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted {
        if self.resample_every > 0 && self.t.is_multiple_of(self.resample_every) {
            let sd = self.learning_rate.sqrt();
            self.velocity.iter_mut().for_each(|v| *v = sd * standard_normal(rng));
        }
        grads.stochastic_gradient(model, &self.theta, rng, &mut self.grad);
        if self.parts.is_some() {
            self.recorded_update(model, rng);
        } else {
            let (eta, alpha) = (self.learning_rate, self.friction);
            let noise_sd = self.injected_noise_variance().sqrt();
            for ((theta, v), g) in self.theta.iter_mut().zip(self.velocity.iter_mut()).zip(&self.grad) {
                *v += eta * g - alpha * *v + noise_sd * standard_normal(rng);
                *theta += *v;
            }
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
            Diagnostic { name: "injected_noise_variance", label: "injected noise variance 2(κ−β̂)η", value: self.injected_noise_variance() },
            Diagnostic { name: "kinetic_temperature", label: "kinetic temperature |v|²/(Dη)", value: self.kinetic_temperature() },
        ]
    }
}
