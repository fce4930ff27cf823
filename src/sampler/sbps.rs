//! Stochastic bouncy particle sampler (Pakman, Gilboa, Carlson & Paninski 2017), rebuilt from the
//! authors' code as specified in ALGORITHMS.md §7.1–§7.9, with the listed fixes:
//!
//! - each iteration observes one minibatch: G̃ = u·∇Ũ(w) with u the direction of motion and
//!   ∇Ũ = −∇log p − (N/n) Σ_{i∈S} ∇ℓ_i − ξ, and its noise sd σ from the per-datum projections,
//!   σ² = N²(1 − n/N)s²_pop/n, plus s²‖u‖² for the synthetic noise ξ ~ N(0, s²I) of data-free toys,
//!   which is fresh at every step and so carries no finite-population factor (§7.3, corrected);
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
//!   an accept test (fix (c)). The horizon is a travel distance, derived from the target's
//!   stiffest length scale ([`derive_defaults`]): with the code's 50 an under-covering band (a
//!   strongly negative fitted slope) sends the particle tens of posterior sds away with no
//!   observation until a refresh, the excursions of issue 11;
//! - when the band's slope far ahead β̂₁ + k√Σ₁₁ is negative, up to `aux_points` auxiliary
//!   observations are made ahead on the ray with the last minibatch before proposing (paper App. E).
//!
//! With a preconditioner ([`Sbps::preconditioned`], pSBPS, §7.10) the motion is A v with
//! A = diag(a) from an exponential moving average of squared mean gradients. The average is
//! updated every iteration, but the A used for motion and observation switches only at a
//! regression restart (bounce or refresh), since the regression assumes one straight ray
//! w + A v t (§7.10, corrected), and only during the first `adapt_iterations` iterations: a
//! preconditioner that keeps following where the particle has been makes the sampler's
//! stationary law depend on it (measured: covariance error E2 0.62 adapting forever, 0.19 frozen,
//! on the 21-D SGFS logistic target).

use super::bouncy::{dot, reflect, refresh_time, sample_piecewise_linear, ProposalTime, RefreshLaw};
use super::{Diagnostic, Emitted, GradientOracle, Sampler};
use super::band_check::BandCheck;
use crate::setting_warning::SettingWarning;
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{DerivedParam, SamplerKind, SamplerSpec};
use crate::rng::{standard_exponential, uniform, ChainRng};

/// Most grid cells of the band walked for one proposal: a coarser dt beyond (the band is a
/// heuristic; a horizon of 10³ with dt = 10⁻⁵ would otherwise cost 10⁸ band evaluations).
const MAX_BAND_CELLS: f64 = 10_000.0;

/// The grid spacing actually walked: dt, coarsened to at most [`MAX_BAND_CELLS`] cells up to the
/// horizon.
fn band_resolution(dt: f64, horizon: f64) -> f64 {
    dt.max(horizon / MAX_BAND_CELLS)
}

/// Slope prior variance σ_β² (`prior_var`, §7.9).
pub const SLOPE_PRIOR_VARIANCE: f64 = 1e5;
/// Floor of the per-datum projected-score variance (`min_var`, §7.3). Applied after the
/// finite-population factor, so that n = N (σ = 0 otherwise) keeps finite regression weights.
pub const MIN_SCORE_VARIANCE: f64 = 1e-15;

const BAND_K: ParamSpec = ParamSpec::linear("band_k", "Confidence multiple", "k", "Upper band = fitted projected gradient + k predictive standard deviations", 0.0, 10.0, 3.0).primary();
const BATCH_SIZE: ParamSpec = ParamSpec::integer("batch_size", "Minibatch size", "n", "Data per projected-gradient observation (clamped to N; at n = N the band has no noise margin)", 1.0, 1e6, 100.0, true).primary();
const BAND_DT: ParamSpec = ParamSpec::log("band_dt", "Band resolution", "dt", "Grid spacing of the piecewise-linear proposal intensity", 1e-5, 1.0, 0.01);
const REFRESH_RATE: ParamSpec = ParamSpec::linear("refresh_rate", "Refresh rate", "λ_ref", "Rate per unit time of velocity refreshes (uniform on the sphere)", 0.0, 5.0, 0.05);
const HORIZON: ParamSpec = ParamSpec::log("horizon", "Proposal horizon", "max_rt", "Longest distance travelled without an observation; reaching it re-plans without an accept test", 1e-4, 1e3, 50.0);
const AUX_POINTS: ParamSpec = ParamSpec::integer("aux_points", "Auxiliary observations", "m", "Paper App. E: when the band's slope turns negative, observe up to m times ahead on the ray (last minibatch) before proposing; 0 = off", 0.0, 20.0, 1.0, false);

pub const PARAMS: &[ParamSpec] = &[BAND_K, BATCH_SIZE, BAND_DT, REFRESH_RATE, HORIZON, AUX_POINTS];

/// pSBPS: SBPS's parameters and how long the preconditioner adapts.
pub const PSBPS_PARAMS: &[ParamSpec] = &[
    BAND_K,
    BATCH_SIZE,
    BAND_DT,
    REFRESH_RATE,
    HORIZON,
    AUX_POINTS,
    ParamSpec::integer("adapt_iterations", "Preconditioner adaptation", "", "Iterations during which A follows the running average of squared gradients, then frozen (the paper adapts forever, which biases: A depends on where the particle was)", 1.0, 1e9, 10_000.0, true),
];

pub const SPEC: SamplerSpec = SamplerSpec {
    name: "sbps",
    label: "SBPS",
    description: "Stochastic bouncy particle sampler: minibatch thinning against a regression upper band (Pakman et al. 2017)",
    kind: SamplerKind::Bouncy,
    params: PARAMS,
    build: |values, model, start| Box::new(Sbps::new(model, start.to_vec(), values, false)),
    derive: derive_defaults,
};

/// Derived horizon, in units of the target's stiffest length scale
/// ([`super::bouncy::length_scales`]).
pub const HORIZON_IN_LENGTH_SCALES: f64 = 3.0;
/// Derived minibatch size: half the data, at most the notebook's 100, so that the
/// finite-population factor 1 − n/N leaves the band a margin (at n = N it is 0). Smaller
/// minibatches make the per-minibatch noise estimate heavier-tailed and raise the violation rate.
const BATCH_FRACTION: f64 = 0.5;
/// Derived band resolution: at most the code's 0.01 and 1/30 of the horizon.
const HORIZON_CELLS: f64 = 30.0;

/// Target-derived defaults of SBPS and pSBPS: the horizon (a travel distance) as
/// [`HORIZON_IN_LENGTH_SCALES`] stiffest length scales instead of the code's 50 (which lets an
/// under-covering band send the particle tens of posterior sds away unobserved), and the
/// minibatch size n = min(100, N/2), and the band resolution dt = min(0.01, horizon/30).
pub fn derive_defaults(model: &dyn Model, _values: &ParamValues) -> Vec<DerivedParam> {
    let mut derived = Vec::new();
    let spec = |name: &str| PARAMS.iter().find(|p| p.name == name).expect("SBPS parameter");
    if let Some((scale, _)) = super::bouncy::length_scales(model) {
        let h = spec("horizon");
        let clamp = |x: f64| x.clamp(h.min, h.max);
        let default = clamp(HORIZON_IN_LENGTH_SCALES * scale);
        derived.push(DerivedParam { name: "horizon", default, min: clamp(0.1 * default), max: clamp(10.0 * default), unstable_above: None });
        let dt = spec("band_dt");
        let resolution = (default / HORIZON_CELLS).clamp(dt.min, dt.default);
        derived.push(DerivedParam { name: "band_dt", default: resolution, min: (0.1 * resolution).max(dt.min), max: dt.default, unstable_above: None });
    }
    let n = model.n_data() as f64;
    let b = spec("batch_size");
    let default = (BATCH_FRACTION * n).round().clamp(1.0, b.default);
    derived.push(DerivedParam { name: "batch_size", default, min: 1.0, max: n.max(1.0).min(b.max), unstable_above: None });
    derived
}

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

    /// Slope of the upper band far ahead, β̂₁ + k√Σ₁₁ (paper eq. E.63): negative when the fitted
    /// slope is so strongly negative that the band eventually falls below 0 for good.
    pub fn asymptotic_band_slope(&self, k: f64, prior_mean: f64) -> f64 {
        self.slope(prior_mean) + k / (self.c_tt + 1.0 / SLOPE_PRIOR_VARIANCE).sqrt()
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

/// One minibatch observation at a point of the current ray.
#[derive(Clone, Debug, Default)]
struct Observation {
    /// Full-scale potential gradient ∇Ũ = −∇log p − (N/n) Σ_{i∈S} ∇ℓ_i − ξ.
    grad_u: Vec<f64>,
    /// Per-datum scores ∇ℓ_i (without synthetic noise), row-major n × D.
    scores: Vec<f64>,
    /// Synthetic gradient noise ξ ~ N(0, s² I) of data-free toys (zeros otherwise).
    noise: Vec<f64>,
    /// s².
    noise_var: f64,
}

/// (G̃, σ) of one observation along a direction, and whether σ² hit the floor.
struct Projected {
    g: f64,
    sd: f64,
    clamped: bool,
}

impl Observation {
    /// Draw a fresh minibatch at `w` (or, `reuse_batch`, evaluate the last one there: App. E).
    fn take(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng, w: &[f64], reuse_batch: bool) {
        let dim = w.len();
        self.noise.resize(dim, 0.0);
        let n = if reuse_batch {
            grads.current_batch_scores_and_noise(model, w, rng, &mut self.scores, &mut self.noise)
        } else {
            grads.minibatch_scores_and_noise(model, w, rng, &mut self.scores, &mut self.noise)
        };
        self.noise_var = model.synthetic_noise_sd().powi(2);
        let scale = grads.n_data() as f64 / n as f64;
        let mut grad_log = vec![0.0; dim];
        model.add_grad_log_prior(w, &mut grad_log);
        for row in self.scores.chunks(dim) {
            for (g, s) in grad_log.iter_mut().zip(row) {
                *g += scale * s;
            }
        }
        self.grad_u = grad_log.iter().zip(&self.noise).map(|(g, xi)| -(g + xi)).collect();
    }

    /// G̃ = u·∇Ũ and its noise sd σ along u (§7.3, corrected): with p_i = u·∇ℓ_i and s²_pop their
    /// population variance over the minibatch, σ² = N²(1 − n/N) s²_pop / n + s²‖u‖². Only the
    /// minibatch part is finite-population sampling; the synthetic noise is fresh at every step and
    /// is added without the factor. σ² is floored at N²·[`MIN_SCORE_VARIANCE`]/n.
    fn project(&self, u: &[f64], n_data: usize) -> Projected {
        let dim = u.len();
        let n = (self.scores.len() / dim) as f64;
        let mean = self.scores.chunks(dim).map(|row| dot(row, u)).sum::<f64>() / n;
        let pop_var = self.scores.chunks(dim).map(|row| (dot(row, u) - mean).powi(2)).sum::<f64>() / n;
        let n_data = n_data as f64;
        // Both parts in per-datum units (σ² = N² · per_datum / n).
        let synthetic = self.noise_var * dot(u, u) * n / (n_data * n_data);
        let per_datum = (1.0 - n / n_data) * pop_var + synthetic;
        let clamped = per_datum < MIN_SCORE_VARIANCE;
        let per_datum = per_datum.max(MIN_SCORE_VARIANCE);
        Projected { g: dot(u, &self.grad_u), sd: n_data * (per_datum / n).sqrt(), clamped }
    }
}

/// SBPS / pSBPS state.
pub struct Sbps {
    w: Vec<f64>,
    /// Unit direction v; the motion is A v (A = I without preconditioning).
    v: Vec<f64>,
    /// Diagonal of the A used for motion and observation in the current regression segment:
    /// switched to the preconditioner's latest value only at a restart (bounce or refresh).
    scaling: Vec<f64>,
    /// Velocity of the current segment, A v.
    motion: Vec<f64>,
    band_k: f64,
    band_dt: f64,
    refresh_rate: f64,
    horizon: f64,
    auxiliary_points: usize,
    /// pSBPS: iterations during which A may switch (then frozen).
    adapt_iterations: u64,
    preconditioner: Option<DiagonalPreconditioner>,
    regression: SlopeRegression,
    /// Time travelled since the last bounce or refresh.
    elapsed: f64,
    plan: Plan,
    flight: f64,
    obs: Observation,
    /// Scratch observation for App. E auxiliary points.
    auxiliary: Observation,
    slope_sum: f64,
    slope_count: u64,
    proposal_time_sum: f64,
    proposal_count: u64,
    started: bool,
    counters: Counters,
    /// Why this target cannot be sampled (see [`noise_free_and_not_gaussian`]).
    unsupported: Option<String>,
    /// The band's coverage since the last parameter change, and the minibatch size (clamped to N).
    band_check: BandCheck,
    batch: usize,
    n_data: usize,
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
    auxiliary_observations: u64,
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
            scaling: vec![1.0; dim],
            motion: vec![0.0; dim],
            band_k: params.get("band_k"),
            band_dt: params.get("band_dt"),
            refresh_rate: params.get("refresh_rate"),
            horizon: params.get("horizon"),
            auxiliary_points: params.get_usize("aux_points"),
            adapt_iterations: params.try_get("adapt_iterations").map_or(0, |v| v as u64),
            preconditioner: preconditioned.then(|| DiagonalPreconditioner::new(dim)),
            regression: SlopeRegression::default(),
            elapsed: 0.0,
            plan: Plan::Horizon,
            flight: 0.0,
            obs: Observation::default(),
            auxiliary: Observation::default(),
            slope_sum: 0.0,
            slope_count: 0,
            proposal_time_sum: 0.0,
            proposal_count: 0,
            started: false,
            counters: Counters::default(),
            band_check: BandCheck::default(),
            batch: params.get_usize("batch_size").min(model.n_data()),
            n_data: model.n_data(),
            unsupported: noise_free_and_not_gaussian(model, params.get_usize("batch_size")).then(|| {
                let name = if preconditioned { "pSBPS" } else { "SBPS" };
                format!(
                    "{name}'s upper band is the fitted projected gradient plus k noise standard deviations, and here the minibatch gradients carry no noise (full batches n ≥ N, no synthetic gradient noise): the band has no margin, is a bare straight-line extrapolation, and under-covers the curved gradient of a non-Gaussian target (about half the bounces would violate it). Pick a minibatch n < N, set the gradient noise s > 0 (on toys, e.g. s = 1), or pick BPS (exact), MALA or HMC"
                )
            }),
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
    /// The diagonal of A used in the current segment (all ones for SBPS).
    pub fn scaling(&self) -> &[f64] {
        &self.scaling
    }

    /// Learned slope-prior mean μ_β: mean of all past posterior slopes (0 before any).
    fn slope_prior_mean(&self) -> f64 {
        if self.slope_count == 0 {
            0.0
        } else {
            self.slope_sum / self.slope_count as f64
        }
    }

    /// Mean of all past proposal times (App. E's time scale t̄; dt before the first proposal).
    fn mean_proposal_time(&self) -> f64 {
        if self.proposal_count == 0 {
            self.band_dt
        } else {
            self.proposal_time_sum / self.proposal_count as f64
        }
    }

    /// Whether pSBPS's preconditioner still adapts (its first `adapt_iterations` iterations).
    fn adapting(&self) -> bool {
        self.counters.iterations < self.adapt_iterations
    }

    /// Draw a minibatch at w and, while adapting, update the preconditioner's running average
    /// (every iteration).
    fn observe(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) {
        self.obs.take(model, grads, rng, &self.w, false);
        let adapting = self.adapting();
        if let Some(p) = self.preconditioner.as_mut().filter(|_| adapting) {
            let n_data = grads.n_data() as f64;
            let mean_gradient: Vec<f64> = self.obs.grad_u.iter().map(|g| g / n_data).collect();
            p.update(&mean_gradient);
        }
    }

    /// (G̃, σ) of the current observation along the current motion A v.
    fn projected_observation(&mut self, n_data: usize) -> (f64, f64) {
        let p = self.obs.project(&self.motion, n_data);
        if p.clamped {
            self.counters.clamped_variances += 1;
        }
        (p.g, p.sd)
    }

    /// Regression restart after a bounce or refresh (§7.6–§7.7, §7.10 corrected): switch A to the
    /// preconditioner's latest value, set the motion A v, and seed the new regression at t = 0
    /// with the observation along it (for SBPS after a bounce that is −G̃ exactly).
    fn restart(&mut self, n_data: usize) {
        if let Some(p) = self.preconditioner.as_ref().filter(|_| self.adapting()) {
            self.scaling.copy_from_slice(&p.diagonal);
        }
        self.motion = self.v.iter().zip(&self.scaling).map(|(v, a)| v * a).collect();
        let (g, sd) = self.projected_observation(n_data);
        self.regression = SlopeRegression::seeded(0.0, g, sd);
        self.elapsed = 0.0;
    }

    /// First observation: a velocity uniform on the sphere and a regression seeded at t = 0.
    fn start(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) {
        RefreshLaw::Sphere.draw(rng, &mut self.v);
        self.observe(model, grads, rng);
        self.restart(grads.n_data());
        self.plan_flight(rng);
        self.started = true;
    }

    /// Thinning at a proposal with bound λ̄ (§7.6). On acceptance v is reflected on A∇Ũ with the
    /// A of the segment that ends here, then the regression restarts. Returns whether it bounced.
    fn accept_or_reject(&mut self, bound: f64, n_data: usize, rng: &mut ChainRng) -> bool {
        let (g, sd) = self.projected_observation(n_data);
        self.regression.add(self.elapsed, g, sd);
        let ratio = g / bound;
        let bounced = uniform(rng) < ratio;
        self.band_check.record(ratio, bounced);
        if bounced {
            if ratio > 1.0 {
                self.counters.violations += 1;
            }
            let normal: Vec<f64> = self.obs.grad_u.iter().zip(&self.scaling).map(|(g, a)| g * a).collect();
            reflect(&mut self.v, &normal);
            self.restart(n_data);
            self.counters.bounces += 1;
            true
        } else {
            self.counters.rejections += 1;
            false
        }
    }

    /// Refresh (§7.7, sign fixed): new unit v, regression seeded with +G̃ and σ for the new motion.
    fn refresh(&mut self, n_data: usize, rng: &mut ChainRng) {
        RefreshLaw::Sphere.draw(rng, &mut self.v);
        self.restart(n_data);
        self.counters.refreshes += 1;
    }

    /// Paper App. E: while the upper band's asymptotic slope β̂₁ + k√Σ₁₁ is negative (a strongly
    /// negative fitted slope: the band would fall below 0 and propose a very long flight with no
    /// observation), observe G̃ ahead on the current ray with the last minibatch, at t̄, 2t̄, 4t̄, …
    /// past the current point (t̄ the mean past proposal time), up to `aux_points` times.
    fn auxiliary_observations(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) {
        let mut lead = self.mean_proposal_time();
        for _ in 0..self.auxiliary_points {
            if self.regression.asymptotic_band_slope(self.band_k, self.slope_prior_mean()) >= 0.0 {
                break;
            }
            let point: Vec<f64> = self.w.iter().zip(&self.motion).map(|(w, m)| w + m * lead).collect();
            self.auxiliary.take(model, grads, rng, &point, true);
            let p = self.auxiliary.project(&self.motion, grads.n_data());
            self.regression.add(self.elapsed + lead, p.g, p.sd);
            self.counters.auxiliary_observations += 1;
            lead *= 2.0;
        }
    }

    /// Next flight: the band's first proposal (§7.5) or a refresh, whichever comes first.
    fn plan_flight(&mut self, rng: &mut ChainRng) {
        let (k, mu, t0) = (self.band_k, self.slope_prior_mean(), self.elapsed);
        let regression = &self.regression;
        // The horizon is a distance: the longest flight without an observation at speed ‖A v‖.
        let horizon = self.horizon / dot(&self.motion, &self.motion).sqrt().max(f64::MIN_POSITIVE);
        let dt = band_resolution(self.band_dt, horizon);
        let proposal = sample_piecewise_linear(|s| regression.upper_band(t0 + s, k, mu), dt, horizon, standard_exponential(rng));
        let (t_proposal, plan) = match proposal {
            ProposalTime::Event { time, bound } => {
                self.proposal_time_sum += time;
                self.proposal_count += 1;
                (time, Plan::Proposal { bound })
            }
            ProposalTime::Horizon => (horizon, Plan::Horizon),
        };
        let t_refresh = refresh_time(self.refresh_rate, rng);
        (self.flight, self.plan) = if t_refresh < t_proposal { (t_refresh, Plan::Refresh) } else { (t_proposal, plan) };
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

/// A run whose minibatch gradients carry no noise at all — no synthetic noise, and either full
/// batches (n ≥ N) or a data-free toy whose per-datum scores are all equal — on a target whose
/// projected gradient is not linear along rays (not Gaussian). SBPS's band then has no margin.
fn noise_free_and_not_gaussian(model: &dyn Model, batch: usize) -> bool {
    if model.synthetic_noise_sd() > 0.0 || model.gaussian_precision().is_some() {
        return false;
    }
    if batch >= model.n_data() {
        return true;
    }
    let start = model.initial_point();
    let score = |i: usize| {
        let mut g = vec![0.0; start.len()];
        model.add_grad_log_lik(i, &start, &mut g);
        g
    };
    let first = score(0);
    (1..model.n_data().min(16)).all(|i| score(i) == first)
}

impl Sampler for Sbps {
    fn position(&self) -> &[f64] {
        &self.w
    }

    /// One iteration (§7.8): fly the planned time, observe one minibatch, then thin, refresh or
    /// (at the horizon) only record the observation, add App. E auxiliary observations if the
    /// band turned down, and plan the next flight.
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
                let (g, sd) = self.projected_observation(n_data);
                self.regression.add(self.elapsed, g, sd);
                self.counters.horizon_hits += 1;
                false
            }
            Plan::Refresh => {
                self.refresh(n_data, rng);
                false
            }
        };
        self.auxiliary_observations(model, grads, rng);
        self.record_slope();
        self.plan_flight(rng);
        Emitted::Segment { start, velocity, duration, bounce }
    }

    fn update_params(&mut self, params: &ParamValues) {
        self.band_k = params.get("band_k");
        self.band_dt = params.get("band_dt");
        self.refresh_rate = params.get("refresh_rate");
        self.horizon = params.get("horizon");
        self.auxiliary_points = params.get_usize("aux_points");
        self.adapt_iterations = params.try_get("adapt_iterations").map_or(0, |v| v as u64);
        self.batch = params.get_usize("batch_size").min(self.n_data);
        self.band_check.reset();
    }

    fn setting_warning(&self) -> Option<SettingWarning> {
        self.band_check.warning(if self.preconditioner.is_some() { "pSBPS" } else { "SBPS" }, self.band_k, self.batch)
    }

    fn unsupported_reason(&self) -> Option<String> {
        self.unsupported.clone()
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
            Diagnostic { name: "missed_bounce_share", label: "share of bounce intensity missed by the band (since last change)", value: self.band_check.missed_share() },
            Diagnostic { name: "horizon_hits", label: "horizon reached", value: c.horizon_hits as f64 },
            Diagnostic { name: "negative_slope_fraction", label: "negative slope fraction", value: per_iteration(c.negative_slopes) },
            Diagnostic { name: "auxiliary_observations", label: "auxiliary observations (App. E)", value: c.auxiliary_observations as f64 },
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
    fn preconditioner_is_the_sbps_public_ema_with_epsilon_and_mean_one() {
        // ĝ² = β ĝ²_old + (1 − β) g⊙g from 0 with β = 0.99 (β multiplies the OLD average);
        // a_i ∝ 1/(√ĝ²_i + 10⁻⁴), normalised to mean 1 (ALGORITHMS.md §7.10).
        let mut p = DiagonalPreconditioner::new(2);
        let (g1, g2) = ([2.0, 1e-3], [4.0, 3e-3]);
        p.update(&g1);
        p.update(&g2);
        let average = |j: usize| 0.99 * (0.01 * g1[j] * g1[j]) + 0.01 * g2[j] * g2[j];
        let raw: Vec<f64> = (0..2).map(|j| 1.0 / (average(j).sqrt() + 1e-4)).collect();
        let mean = 0.5 * (raw[0] + raw[1]);
        for j in 0..2 {
            assert!((p.diagonal[j] - raw[j] / mean).abs() < 1e-12 * raw[j] / mean, "{:?}", p.diagonal);
        }
    }

    #[test]
    fn noise_sd_has_the_finite_population_factor_on_the_minibatch_part_only() {
        // σ² = N²(1 − n/N) s²_pop/n + s²‖u‖² (§7.3): scores of n = 4 data out of N = 10 in 2-D,
        // synthetic noise s = 3, direction u = (0.6, 0.8)·2.
        let obs = Observation {
            grad_u: vec![1.0, -2.0],
            scores: vec![1.0, 0.0, 0.0, 1.0, -1.0, 2.0, 3.0, -1.0],
            noise: vec![0.0, 0.0],
            noise_var: 9.0,
        };
        let u = [1.2, 1.6];
        let p: Vec<f64> = obs.scores.chunks(2).map(|r| dot(r, &u)).collect();
        let mean = p.iter().sum::<f64>() / 4.0;
        let pop_var = p.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 4.0;
        let expected = 100.0 * (1.0 - 0.4) * pop_var / 4.0 + 9.0 * dot(&u, &u);
        let projected = obs.project(&u, 10);
        assert!((projected.sd.powi(2) - expected).abs() < 1e-12 * expected);
        assert_eq!(projected.g, dot(&u, &obs.grad_u));
        assert!(!projected.clamped);
        // At n = N only the synthetic part is left, not the floor.
        let full = Observation { scores: obs.scores[..4].to_vec(), ..obs.clone() };
        assert!((full.project(&u, 2).sd.powi(2) - 9.0 * dot(&u, &u)).abs() < 1e-9);
    }

    #[test]
    fn band_slope_far_ahead_is_the_fitted_slope_plus_k_sds() {
        let mut r = SlopeRegression::seeded(0.0, 5.0, 1.0);
        r.add(0.5, 1.0, 1.0);
        r.add(1.0, -4.0, 1.0);
        let (k, mu) = (3.0, 2.0);
        let sd = (1.0 / (r.c_tt + 1.0 / SLOPE_PRIOR_VARIANCE)).sqrt();
        assert!((r.asymptotic_band_slope(k, mu) - (r.slope(mu) + k * sd)).abs() < 1e-12);
        // The band itself grows at that rate far ahead.
        let far = 1e6;
        let rate = r.upper_band(far + 1.0, k, mu) - r.upper_band(far, k, mu);
        assert!((rate - r.asymptotic_band_slope(k, mu)).abs() < 1e-6, "{rate}");
        assert!(r.asymptotic_band_slope(k, mu) < 0.0, "a strongly negative fit: G falls by 9 in 1 with σ = 1");
    }

    #[test]
    fn the_band_grid_has_at_most_ten_thousand_cells() {
        assert_eq!(band_resolution(0.01, 0.5), 0.01);
        assert!(1000.0 / band_resolution(1e-5, 1000.0) <= MAX_BAND_CELLS * (1.0 + 1e-12));
    }

    #[test]
    fn a_refresh_seeds_the_new_regression_with_plus_the_projected_gradient() {
        // §7.7: after a refresh the new segment's regression holds one observation at t = 0,
        // +G̃ = v_new·∇Ũ(w) (the reference code negates it, a bug). Full batch on the Gaussian
        // (exact ∇Ũ = −∇log π, computed here from the model, not from the sampler), no auxiliary
        // points, the largest refresh rate: every refresh step is checked.
        use crate::model::gaussian::CorrelatedGaussian;
        use crate::rng::chain_rng;
        let model = CorrelatedGaussian::new(1.0, 2.0, 0.6, 0.0);
        let mut values = ParamValues::defaults(PARAMS);
        for (name, value) in [("batch_size", 100.0), ("refresh_rate", 5.0), ("aux_points", 0.0)] {
            values.set(PARAMS, name, value).unwrap();
        }
        let mut sampler = Sbps::new(&model, vec![1.5, -2.0], &values, false);
        let mut oracle = GradientOracle::new(&model, 100);
        let mut rng = chain_rng(3);
        let mut checked = 0;
        for _ in 0..400 {
            let before = sampler.refreshes();
            sampler.step(&model, &mut oracle, &mut rng);
            if sampler.refreshes() == before {
                continue;
            }
            let mut grad = vec![0.0; 2];
            model.grad_log_density(&sampler.w, &mut grad);
            let expected = -dot(&sampler.v, &grad);
            let r = &sampler.regression;
            assert_eq!(r.t_mean, 0.0);
            assert!((r.g_mean - expected).abs() <= 1e-9 * (1.0 + expected.abs()), "seeded with {} after a refresh, expected +G̃ = {expected}", r.g_mean);
            checked += 1;
        }
        assert!(checked >= 20, "only {checked} refreshes");
    }

    #[test]
    fn psbps_switches_to_the_ema_of_every_observed_mean_gradient_at_each_restart() {
        // §7.10 through the sampler: every iteration's observation updates ĝ² ← βĝ² + (1 − β)ḡ²
        // with ḡ = ∇Ũ/N at the observed point (the start point first); A takes the normalised
        // 1/(√ĝ² + ε) only at a bounce or refresh. Full batch on a Gaussian with unequal scales:
        // ∇Ũ = −∇log π exactly, computed here from the model.
        use crate::model::gaussian::CorrelatedGaussian;
        use crate::rng::chain_rng;
        let model = CorrelatedGaussian::new(1.0, 3.0, 0.0, 0.0);
        let mut values = ParamValues::defaults(PSBPS_PARAMS);
        for (name, value) in [("batch_size", 100.0), ("refresh_rate", 1.0), ("aux_points", 0.0), ("adapt_iterations", 1e6)] {
            values.set(PSBPS_PARAMS, name, value).unwrap();
        }
        let start = vec![0.7, -2.0];
        let mut sampler = Sbps::preconditioned(&model, start.clone(), &values);
        let mut oracle = GradientOracle::new(&model, 100);
        let mut rng = chain_rng(5);
        let (beta, n) = (0.99, model.n_data() as f64);
        let mut average = [0.0f64; 2];
        let observe = |w: &[f64], average: &mut [f64; 2]| {
            let mut g = vec![0.0; 2];
            model.grad_log_density(w, &mut g);
            for j in 0..2 {
                average[j] = beta * average[j] + (1.0 - beta) * (g[j] / n).powi(2);
            }
            let raw: Vec<f64> = average.iter().map(|s| 1.0 / (s.sqrt() + 1e-4)).collect();
            let mean = 0.5 * (raw[0] + raw[1]);
            [raw[0] / mean, raw[1] / mean]
        };
        let mut expected = observe(&start, &mut average);
        let mut restarts = 0;
        for step in 0..300 {
            let before = sampler.bounces() + sampler.refreshes();
            sampler.step(&model, &mut oracle, &mut rng);
            let latest = observe(&sampler.w.clone(), &mut average);
            if sampler.bounces() + sampler.refreshes() > before {
                expected = latest;
                restarts += 1;
            }
            for j in 0..2 {
                assert!((sampler.scaling()[j] - expected[j]).abs() <= 1e-9 * expected[j], "step {step}: A = {:?}, expected {expected:?}", sampler.scaling());
            }
        }
        assert!(restarts >= 20, "only {restarts} restarts");
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
