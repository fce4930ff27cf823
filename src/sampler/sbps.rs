//! Stochastic bouncy particle sampler (Pakman, Gilboa, Carlson & Paninski 2017), rebuilt from the
//! authors' code as specified in ALGORITHMS.md §7.1–§7.9, with the listed fixes:
//!
//! - each iteration observes one minibatch: G̃ = u·∇Ũ(w) with u the direction of motion and
//!   ∇Ũ = −∇log p − (N/n) Σ_{i∈S} ∇ℓ_i, and its noise sd σ from the per-datum projections (§7.3);
//! - G̃ is regressed on the time since the last bounce, with a flat intercept prior and a slope
//!   prior N(μ_β, σ_β²) whose mean is learned as the mean of all past slopes (§7.4);
//! - the proposal intensity is the upper band Ĝ(t) + k·√(φᵀΣφ + σ_last²) (§7.5), clipped at 0 and
//!   linearly interpolated on a grid of resolution dt, whose first event is drawn exactly
//!   (flat and sign-changing cells included: fixes (a), (b));
//! - proposals are thinned with probability G̃/λ̄ (§7.6); G̃/λ̄ > 1 is a bound violation, the
//!   sampler's bias diagnostic; accepted proposals reflect u with the same minibatch gradient;
//! - refreshes (rate λ_ref) draw a velocity uniform on the sphere and seed the new regression with
//!   +G̃ for the new velocity (§7.7, sign fixed);
//! - when no proposal arrives before the horizon the particle travels there and re-plans without
//!   an accept test (fix (c)).
//!
//! With a preconditioner ([`Sbps::preconditioned`], pSBPS, §7.10) the motion is A v with
//! A = diag(a) from an exponential moving average of squared mean gradients.

use super::bouncy::{dot, reflect, refresh_time, sample_piecewise_linear, ProposalTime, RefreshLaw};
use super::{Diagnostic, Emitted, GradientOracle, Sampler};
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{SamplerKind, SamplerSpec};
use crate::rng::{standard_exponential, uniform, ChainRng};

/// Slope prior variance σ_β² (`prior_var`, §7.9).
pub const SLOPE_PRIOR_VARIANCE: f64 = 1e5;
/// Floor of the per-datum projected-score variance (`min_var`, §7.3). Applied after the
/// finite-population factor, so that n = N (σ = 0 otherwise) keeps finite regression weights.
pub const MIN_SCORE_VARIANCE: f64 = 1e-15;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::linear("band_k", "Confidence multiple", "k", "Upper band = fitted projected gradient + k predictive standard deviations", 0.0, 10.0, 3.0).primary(),
    ParamSpec::integer("batch_size", "Minibatch size", "n", "Data per projected-gradient observation (clamped to N)", 1.0, 1e6, 100.0, true).primary(),
    ParamSpec::log("band_dt", "Band resolution", "dt", "Grid spacing of the piecewise-linear proposal intensity", 1e-4, 1.0, 0.01),
    ParamSpec::linear("refresh_rate", "Refresh rate", "λ_ref", "Rate per unit time of velocity refreshes (uniform on the sphere)", 0.0, 5.0, 0.05),
    ParamSpec::log("horizon", "Proposal horizon", "max_rt", "Longest travel without an observation; reaching it re-plans without an accept test", 0.01, 1e3, 50.0),
];

pub const SPEC: SamplerSpec = SamplerSpec {
    name: "sbps",
    label: "SBPS",
    description: "Stochastic bouncy particle sampler: minibatch thinning against a regression upper band (Pakman et al. 2017)",
    kind: SamplerKind::Bouncy,
    params: PARAMS,
    build: |values, model, start| Box::new(Sbps::new(model, start.to_vec(), values, false)),
    derive: crate::spec::no_derived_defaults,
};

/// Weighted Bayesian linear regression G = β₀ + β₁ t + ε, ε ~ N(0, σ_j²), flat prior on β₀ and
/// N(μ_β, σ_β²) on β₁ (ALGORITHMS.md §7.4), kept as weighted Welford sums so that the 2 × 2
/// posterior is solved in centred, well-conditioned form:
/// β̂₁ = (C_tG + μ_β/σ_β²)/(C_tt + 1/σ_β²), Ĝ(t) = Ḡ + β̂₁ (t − t̄), φᵀΣφ = 1/W + (t − t̄)²/(C_tt + 1/σ_β²).
#[derive(Clone, Debug, Default)]
pub struct SlopeRegression {
    weight_sum: f64,
    t_mean: f64,
    g_mean: f64,
    c_tt: f64,
    c_tg: f64,
    last_sd: f64,
}

impl SlopeRegression {
    /// A regression holding one observation.
    pub fn seeded(t: f64, g: f64, sd: f64) -> Self {
        let mut r = SlopeRegression::default();
        r.add(t, g, sd);
        r
    }

    /// Add (t, G) with noise sd σ (weight 1/σ²).
    pub fn add(&mut self, t: f64, g: f64, sd: f64) {
        let w = 1.0 / (sd * sd);
        let total = self.weight_sum + w;
        let (dt, dg) = (t - self.t_mean, g - self.g_mean);
        self.t_mean += dt * w / total;
        self.g_mean += dg * w / total;
        self.c_tt += w * dt * (t - self.t_mean);
        self.c_tg += w * dt * (g - self.g_mean);
        self.weight_sum = total;
        self.last_sd = sd;
    }

    /// Posterior-mean slope β̂₁ under the slope prior N(μ_β, σ_β²).
    pub fn slope(&self, prior_mean: f64) -> f64 {
        let p = 1.0 / SLOPE_PRIOR_VARIANCE;
        (self.c_tg + prior_mean * p) / (self.c_tt + p)
    }

    /// Posterior mean of the line at t.
    pub fn mean_at(&self, t: f64, prior_mean: f64) -> f64 {
        self.g_mean + self.slope(prior_mean) * (t - self.t_mean)
    }

    /// φ(t)ᵀΣφ(t): posterior variance of the line at t.
    pub fn line_variance_at(&self, t: f64) -> f64 {
        let dt = t - self.t_mean;
        1.0 / self.weight_sum + dt * dt / (self.c_tt + 1.0 / SLOPE_PRIOR_VARIANCE)
    }

    /// Upper band λ⁺(t) = Ĝ(t) + k √(φᵀΣφ + σ_last²) (§7.5), a predictive band for a new observation.
    pub fn upper_band(&self, t: f64, k: f64, prior_mean: f64) -> f64 {
        self.mean_at(t, prior_mean) + k * (self.line_variance_at(t) + self.last_sd * self.last_sd).sqrt()
    }
}

/// What the current flight ends with.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Plan {
    Proposal { bound: f64 },
    Horizon,
    Refresh,
}

/// Diagonal preconditioner of pSBPS (§7.10): ĝ²_t = β ĝ²_{t−1} + (1 − β) ḡ⊙ḡ, a_i ∝ 1/(√ĝ²_i + ε),
/// normalised to mean 1.
#[derive(Clone, Debug)]
pub struct DiagonalPreconditioner {
    squared_average: Vec<f64>,
    pub diagonal: Vec<f64>,
}

/// EMA weight β of the old average (SBPS-public form, §7.10).
pub const PRECONDITIONER_BETA: f64 = 0.99;
/// ε added to √ĝ² (relative to the per-datum gradient scale).
pub const PRECONDITIONER_EPSILON: f64 = 1e-4;

impl DiagonalPreconditioner {
    pub fn new(dim: usize) -> Self {
        DiagonalPreconditioner { squared_average: vec![0.0; dim], diagonal: vec![1.0; dim] }
    }

    /// Update with the mean per-datum gradient ḡ of the latest minibatch.
    pub fn update(&mut self, mean_gradient: &[f64]) {
        for (s, g) in self.squared_average.iter_mut().zip(mean_gradient) {
            *s = PRECONDITIONER_BETA * *s + (1.0 - PRECONDITIONER_BETA) * g * g;
        }
        for (a, s) in self.diagonal.iter_mut().zip(&self.squared_average) {
            *a = 1.0 / (s.sqrt() + PRECONDITIONER_EPSILON);
        }
        let mean = self.diagonal.iter().sum::<f64>() / self.diagonal.len() as f64;
        self.diagonal.iter_mut().for_each(|a| *a /= mean);
    }
}

/// One minibatch observation at the current position.
#[derive(Clone, Debug, Default)]
struct Observation {
    /// Full-scale potential gradient ∇Ũ = −∇log p − (N/n) Σ ∇ℓ_i.
    grad_u: Vec<f64>,
    /// Per-datum scores ∇ℓ_i, row-major n × D.
    scores: Vec<f64>,
}

/// SBPS / pSBPS state.
pub struct Sbps {
    w: Vec<f64>,
    /// Unit direction v; the motion is A v (A = I without preconditioning).
    v: Vec<f64>,
    /// Velocity of the current flight (A v frozen when the flight was planned).
    motion: Vec<f64>,
    band_k: f64,
    band_dt: f64,
    refresh_rate: f64,
    horizon: f64,
    preconditioner: Option<DiagonalPreconditioner>,
    regression: SlopeRegression,
    /// Time travelled since the last bounce or refresh.
    elapsed: f64,
    plan: Plan,
    flight: f64,
    obs: Observation,
    slope_sum: f64,
    slope_count: u64,
    started: bool,
    counters: Counters,
}

/// Event counts reported in the diagnostics.
#[derive(Clone, Debug, Default)]
struct Counters {
    bounces: u64,
    rejections: u64,
    refreshes: u64,
    violations: u64,
    horizon_hits: u64,
    negative_slopes: u64,
    iterations: u64,
    clamped_variances: u64,
    total_time: f64,
}

impl Sbps {
    pub fn new(model: &dyn Model, start: Vec<f64>, params: &ParamValues, preconditioned: bool) -> Self {
        let dim = model.dim();
        Sbps {
            w: start,
            v: vec![0.0; dim],
            motion: vec![0.0; dim],
            band_k: params.get("band_k"),
            band_dt: params.get("band_dt"),
            refresh_rate: params.get("refresh_rate"),
            horizon: params.get("horizon"),
            preconditioner: preconditioned.then(|| DiagonalPreconditioner::new(dim)),
            regression: SlopeRegression::default(),
            elapsed: 0.0,
            plan: Plan::Horizon,
            flight: 0.0,
            obs: Observation::default(),
            slope_sum: 0.0,
            slope_count: 0,
            started: false,
            counters: Counters::default(),
        }
    }

    /// pSBPS (§7.10): SBPS with the adaptive diagonal preconditioner.
    pub fn preconditioned(model: &dyn Model, start: Vec<f64>, params: &ParamValues) -> Self {
        Self::new(model, start, params, true)
    }

    /// Fraction of accepted proposals whose acceptance ratio G̃/λ̄ exceeded 1 (the paper's bias
    /// diagnostic, ALGORITHMS.md §11). NaN before the first bounce.
    pub fn violation_rate(&self) -> f64 {
        self.counters.violations as f64 / self.counters.bounces as f64
    }
    pub fn bounces(&self) -> u64 {
        self.counters.bounces
    }
    pub fn rejections(&self) -> u64 {
        self.counters.rejections
    }
    pub fn refreshes(&self) -> u64 {
        self.counters.refreshes
    }

    /// Learned slope-prior mean μ_β: mean of all past posterior slopes (0 before any).
    fn slope_prior_mean(&self) -> f64 {
        if self.slope_count == 0 {
            0.0
        } else {
            self.slope_sum / self.slope_count as f64
        }
    }

    /// Direction of motion u = A v.
    fn direction(&self) -> Vec<f64> {
        match &self.preconditioner {
            Some(p) => self.v.iter().zip(&p.diagonal).map(|(v, a)| v * a).collect(),
            None => self.v.clone(),
        }
    }

    /// Draw a minibatch at w: ∇Ũ, the per-datum scores, and the preconditioner update.
    fn observe(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) {
        let dim = self.w.len();
        let n = grads.minibatch_scores(model, &self.w, rng, &mut self.obs.scores);
        let scale = grads.n_data() as f64 / n as f64;
        let mut grad_log = vec![0.0; dim];
        model.add_grad_log_prior(&self.w, &mut grad_log);
        for row in self.obs.scores.chunks(dim) {
            for (g, s) in grad_log.iter_mut().zip(row) {
                *g += scale * s;
            }
        }
        self.obs.grad_u = grad_log.iter().map(|g| -g).collect();
        if let Some(p) = &mut self.preconditioner {
            let n_data = grads.n_data() as f64;
            let mean_gradient: Vec<f64> = self.obs.grad_u.iter().map(|g| g / n_data).collect();
            p.update(&mean_gradient);
        }
    }

    /// (G̃, σ) for direction u (§7.3): G̃ = u·∇Ũ; σ² = N² max((1 − n/N) s², floor)/n with s² the
    /// population variance of the per-datum projections u·∇ℓ_i.
    fn projected_observation(&mut self, u: &[f64], n_data: usize) -> (f64, f64) {
        let dim = u.len();
        let projections: Vec<f64> = self.obs.scores.chunks(dim).map(|row| dot(row, u)).collect();
        let n = projections.len() as f64;
        let mean = projections.iter().sum::<f64>() / n;
        let pop_var = projections.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / n;
        let n_data = n_data as f64;
        let mut per_datum = (1.0 - n / n_data) * pop_var;
        if per_datum < MIN_SCORE_VARIANCE {
            per_datum = MIN_SCORE_VARIANCE;
            self.counters.clamped_variances += 1;
        }
        (dot(u, &self.obs.grad_u), n_data * (per_datum / n).sqrt())
    }

    /// First observation: a velocity uniform on the sphere and a regression seeded at t = 0.
    fn start(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) {
        RefreshLaw::Sphere.draw(rng, &mut self.v);
        self.observe(model, grads, rng);
        let (g, sd) = self.projected_observation(&self.direction(), grads.n_data());
        self.regression = SlopeRegression::seeded(0.0, g, sd);
        self.plan_flight(rng);
        self.started = true;
    }

    /// Thinning at a proposal with bound λ̄ (§7.6). Returns whether the particle bounced.
    fn accept_or_reject(&mut self, bound: f64, n_data: usize, rng: &mut ChainRng) -> bool {
        let u = self.direction();
        let (g, sd) = self.projected_observation(&u, n_data);
        self.regression.add(self.elapsed, g, sd);
        let ratio = g / bound;
        if uniform(rng) < ratio {
            if ratio > 1.0 {
                self.counters.violations += 1;
            }
            let normal: Vec<f64> = match &self.preconditioner {
                Some(p) => self.obs.grad_u.iter().zip(&p.diagonal).map(|(g, a)| g * a).collect(),
                None => self.obs.grad_u.clone(),
            };
            reflect(&mut self.v, &normal);
            self.regression = SlopeRegression::seeded(0.0, -g, sd);
            self.elapsed = 0.0;
            self.counters.bounces += 1;
            true
        } else {
            self.counters.rejections += 1;
            false
        }
    }

    /// Refresh (§7.7, sign fixed): new unit v, regression seeded with +G̃ and σ for the new v.
    fn refresh(&mut self, n_data: usize, rng: &mut ChainRng) {
        let mut v = std::mem::take(&mut self.v);
        RefreshLaw::Sphere.draw(rng, &mut v);
        self.v = v;
        let (g, sd) = self.projected_observation(&self.direction(), n_data);
        self.regression = SlopeRegression::seeded(0.0, g, sd);
        self.elapsed = 0.0;
        self.counters.refreshes += 1;
    }

    /// Next flight: the band's first proposal (§7.5) or a refresh, whichever comes first.
    fn plan_flight(&mut self, rng: &mut ChainRng) {
        let (k, mu, t0) = (self.band_k, self.slope_prior_mean(), self.elapsed);
        let regression = &self.regression;
        let proposal = sample_piecewise_linear(|s| regression.upper_band(t0 + s, k, mu), self.band_dt, self.horizon, standard_exponential(rng));
        let (t_proposal, plan) = match proposal {
            ProposalTime::Event { time, bound } => (time, Plan::Proposal { bound }),
            ProposalTime::Horizon => (self.horizon, Plan::Horizon),
        };
        let t_refresh = refresh_time(self.refresh_rate, rng);
        (self.flight, self.plan) = if t_refresh < t_proposal { (t_refresh, Plan::Refresh) } else { (t_proposal, plan) };
        self.motion = self.direction();
    }

    /// Record β̂₁ for the learned slope-prior mean (every iteration, as the reference code).
    fn record_slope(&mut self) {
        let slope = self.regression.slope(self.slope_prior_mean());
        if slope < 0.0 {
            self.counters.negative_slopes += 1;
        }
        self.slope_sum += slope;
        self.slope_count += 1;
    }
}

impl Sampler for Sbps {
    fn position(&self) -> &[f64] {
        &self.w
    }

    /// One iteration (§7.8): fly the planned time, observe one minibatch, then thin, refresh or
    /// (at the horizon) only record the observation, and plan the next flight.
    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted {
        if !self.started {
            self.start(model, grads, rng);
        }
        let (start, velocity, duration) = (self.w.clone(), self.motion.clone(), self.flight);
        for (w, m) in self.w.iter_mut().zip(&self.motion) {
            *w += m * duration;
        }
        self.elapsed += duration;
        self.counters.total_time += duration;
        self.counters.iterations += 1;
        self.observe(model, grads, rng);
        let n_data = grads.n_data();
        let bounce = match self.plan {
            Plan::Proposal { bound } => self.accept_or_reject(bound, n_data, rng),
            Plan::Horizon => {
                let (g, sd) = self.projected_observation(&self.direction(), n_data);
                self.regression.add(self.elapsed, g, sd);
                self.counters.horizon_hits += 1;
                false
            }
            Plan::Refresh => {
                self.refresh(n_data, rng);
                false
            }
        };
        self.record_slope();
        self.plan_flight(rng);
        Emitted::Segment { start, velocity, duration, bounce }
    }

    fn update_params(&mut self, params: &ParamValues) {
        self.band_k = params.get("band_k");
        self.band_dt = params.get("band_dt");
        self.refresh_rate = params.get("refresh_rate");
        self.horizon = params.get("horizon");
    }

    fn diagnostics(&self) -> Vec<Diagnostic> {
        let c = &self.counters;
        let per_iteration = |x: u64| x as f64 / (c.iterations.max(1)) as f64;
        vec![
            Diagnostic { name: "bounces", label: "bounces", value: c.bounces as f64 },
            Diagnostic { name: "rejections", label: "thinning rejections", value: c.rejections as f64 },
            Diagnostic { name: "refreshes", label: "refreshes", value: c.refreshes as f64 },
            Diagnostic { name: "violations", label: "bound violations (G̃/λ̄ > 1)", value: c.violations as f64 },
            Diagnostic { name: "violation_rate", label: "violation rate (per bounce)", value: self.violation_rate() },
            Diagnostic { name: "horizon_hits", label: "horizon reached", value: c.horizon_hits as f64 },
            Diagnostic { name: "negative_slope_fraction", label: "negative slope fraction", value: per_iteration(c.negative_slopes) },
            Diagnostic { name: "clamped_variances", label: "noise variance clamped", value: c.clamped_variances as f64 },
            Diagnostic { name: "total_time", label: "trajectory time T", value: c.total_time },
            Diagnostic { name: "slope_prior_mean", label: "learned slope prior mean μ_β", value: self.slope_prior_mean() },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_matches_the_reference_normal_equations() {
        // §7.4 in the code's uncentred form: P = Σ w φφᵀ + diag(0, 1/σ_β²), β̂ = P⁻¹ (Σ wG, Σ wGt + μ/σ_β²).
        let data = [(0.0, -2.0, 1.0), (0.3, 0.5, 2.0), (0.7, 1.9, 0.5), (1.2, 4.0, 1.5)];
        let mu = 0.8;
        let mut r = SlopeRegression::default();
        let (mut p00, mut p01, mut p11, mut r0, mut r1) = (0.0, 0.0, 1.0 / SLOPE_PRIOR_VARIANCE, 0.0, mu / SLOPE_PRIOR_VARIANCE);
        for &(t, g, sd) in &data {
            r.add(t, g, sd);
            let w = 1.0 / (sd * sd);
            p00 += w;
            p01 += w * t;
            p11 += w * t * t;
            r0 += w * g;
            r1 += w * g * t;
        }
        let det = p00 * p11 - p01 * p01;
        let (s00, s01, s11) = (p11 / det, -p01 / det, p00 / det);
        let (b0, b1) = (s00 * r0 + s01 * r1, s01 * r0 + s11 * r1);
        assert!((r.slope(mu) - b1).abs() < 1e-9 * b1.abs());
        let t = 2.0;
        assert!((r.mean_at(t, mu) - (b0 + b1 * t)).abs() < 1e-9);
        let var = s00 + 2.0 * s01 * t + s11 * t * t;
        assert!((r.line_variance_at(t) - var).abs() < 1e-9 * var);
        assert!((r.upper_band(t, 3.0, mu) - (b0 + b1 * t + 3.0 * (var + 1.5f64.powi(2)).sqrt())).abs() < 1e-9);
    }

    #[test]
    fn preconditioner_is_normalised_and_favours_small_gradients() {
        let mut p = DiagonalPreconditioner::new(2);
        for _ in 0..50 {
            p.update(&[10.0, 0.1]);
        }
        assert!((p.diagonal.iter().sum::<f64>() / 2.0 - 1.0).abs() < 1e-12);
        assert!(p.diagonal[1] / p.diagonal[0] > 90.0);
    }
}
