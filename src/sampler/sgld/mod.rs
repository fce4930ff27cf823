//! Stochastic-gradient Langevin dynamics (Welling & Teh 2011, eq. 4; docs/sgld.md):
//! θ_{t+1} = θ_t + (ε_t/2) M ∇log π̂(θ_t) + η_t,  η_t ~ N(0, ε_t M).
//!
//! - Step sizes: constant ε, or the polynomial schedule ε_t = a (b + t)^(−γ) (paper §3, with
//!   γ ∈ (0.5, 1]); with the schedule every sample is weighted by ε_t (paper eq. 11's estimator
//!   Σ ε_t f(θ_t) / Σ ε_t) through [`Emitted::Sample`]'s weight.
//! - Preconditioner M (diagonal): identity; or RMSprop-style, as in preconditioned SGLD (Li, Chen,
//!   Carlson & Carin 2016, "Preconditioned SGLD for deep neural networks", Algorithm 1:
//!   V ← βV + (1−β) ḡ∘ḡ, M = diag(1/(λ + √V)), ḡ = ∇log π̂/N), dropping their Γ(θ) correction
//!   term as their practical algorithm does (so the stationary law is only approximately π while
//!   M keeps adapting); or a fixed diagonal set through [`Sgld::with_fixed_preconditioner`].
//! - Diagnostics (paper eq. 10 and Fig. 2): every `noise_diag_every` steps the step's own
//!   minibatch is evaluated as per-datum scores (same cost n, no extra gradients) to get V_s, the
//!   score covariance; then injected noise variance ε_t, stochastic-gradient noise variance
//!   (ε_t²/4)(N²/n)(1 − n/N) λ_max(M^{1/2} V_s M^{1/2}) (minibatches drawn without replacement:
//!   [`drawn_noise_covariance`]), and their ratio, the sampling threshold
//!   ε_t N²(1 − n/N)/(4n) λ_max(M^{1/2} V_s M^{1/2}). Steps in between use the fused minibatch gradient, so
//!   the plain step stays as fast as constant-step SGLD.

use super::fisher::largest_eigenvalue;
use super::gradient::score_mean_and_covariance;
use super::{exact_gradient, Diagnostic, Emitted, GradientOracle, Sampler, StepParts};
use crate::curvature::Curvature;
use crate::defaults;
use crate::readable::show;
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{DerivedParam, SamplerKind, SamplerSpec};
use crate::rng::{standard_normal, ChainRng};
use nalgebra::DMatrix;

mod schedule;
pub use schedule::{langevin_time, langevin_time_needed, slowest_direction, steps_to_cover};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::log("step_size", "Step size", "ε", "Langevin step ε (constant schedule): drift (ε/2)∇log π̂ plus N(0, εI) noise", 1e-14, 10.0, 0.05).primary().shown_when("sgld_schedule", &[0.0]),
    ParamSpec::integer("batch_size", "Minibatch size", "n", "Data per gradient estimate (clamped to N)", 1.0, 1e6, 10.0, true).primary(),
    ParamSpec::choice(
        "sgld_schedule",
        "Step-size schedule",
        "",
        "constant ε, or polynomial εₜ = a(b+t)^(−γ) (Welling & Teh §3); with the polynomial schedule samples are weighted by εₜ",
        &["constant", "polynomial"],
        0,
    ),
    ParamSpec::log("sgld_a", "Schedule scale", "a", "a in εₜ = a(b+t)^(−γ)", 1e-14, 1e4, 0.1).primary().shown_when("sgld_schedule", &[1.0]),
    ParamSpec::log("sgld_b", "Schedule offset", "b", "b in εₜ = a(b+t)^(−γ)", 1e-3, 1e9, 10.0).shown_when("sgld_schedule", &[1.0]),
    ParamSpec::linear("sgld_gamma", "Schedule decay", "γ", "γ in εₜ = a(b+t)^(−γ); the paper requires γ ∈ (0.5, 1] and uses 0.55", 0.5, 1.0, 0.55)
        .excluding_min()
        .shown_when("sgld_schedule", &[1.0]),
    ParamSpec::choice(
        "sgld_precond",
        "Preconditioner",
        "M",
        "Diagonal preconditioner: none (M = I), or RMSprop-style M = diag(1/(λ+√V)) of preconditioned SGLD (Li et al. 2016), without their Γ correction",
        &["none", "rmsprop"],
        0,
    ),
    ParamSpec::linear("rms_decay", "RMSprop decay", "β", "Decay β of the squared-gradient average V ← βV + (1−β)ḡ²", 0.0, 0.9999, 0.99).shown_when("sgld_precond", &[1.0]),
    ParamSpec::log("rms_floor", "RMSprop floor", "λ", "λ in M = 1/(λ + √V): bounds the preconditioner by 1/λ", 1e-10, 10.0, 1e-5).shown_when("sgld_precond", &[1.0]),
    ParamSpec::integer(
        "noise_diag_every",
        "Noise diagnostic interval",
        "",
        "Recompute the sampling threshold and the gradient-noise variance from the step's minibatch scores every this many steps (0 = never)",
        0.0,
        1e6,
        100.0,
        false,
    ),
];

pub const SPEC: SamplerSpec = SamplerSpec {
    name: "sgld",
    label: "SGLD",
    description: "Stochastic-gradient Langevin dynamics (Welling & Teh 2011)",
    kind: SamplerKind::StochasticGradient,
    params: PARAMS,
    unread: &[],
    build: |values, model, start| {
        let sgld = Sgld::new(start.to_vec(), values);
        match Curvature::of(model) {
            Some(c) => Box::new(Sgld { slowest_direction: Some(schedule::slowest_direction(&c)), ..sgld.with_initial_mean_square(stationary_mean_square(&c, values.get("batch_size"))) }),
            None => Box::new(sgld),
        }
    },
    derive,
};

/// pSGLD's E[ḡ_j²] under the target, ḡ = ∇log π̂/N with minibatches of n: the full gradient's
/// E[(∂_j log π)²] = P_jj on a Gaussian with precision P, plus the gradient noise (N/n − 1)φP_jj + s²
/// ([`Curvature::gradient_noise`]), over N². Where RMSprop's average starts.
pub fn stationary_mean_square(c: &Curvature, batch: f64) -> Vec<f64> {
    let n2 = (c.n_data as f64).powi(2);
    (0..c.dim)
        .map(|j| {
            let p_jj: f64 = c.precisions.iter().enumerate().map(|(k, l)| c.directions[(j, k)].powi(2) * l).sum();
            (c.gradient_noise(p_jj, batch) + p_jj) / n2
        })
        .collect()
}

/// Stationary variance of constant-step SGLD along a direction of precision λ with gradient-noise
/// variance q: θ' = (1 − ελ/2)θ + (ε/2)ξ + √ε z has v = (ε + ε²q/4)/(1 − (1 − ελ/2)²)
/// = (1 + εq/4)/(λ(1 − ελ/4)) — docs/sgld.md (SGLD.8) in the eigenbasis, plus the gradient noise;
/// infinite at and beyond the stability limit ε = 4/λ.
pub fn langevin_variance(step: f64, precision: f64, noise: f64) -> f64 {
    let denominator = precision * (1.0 - step * precision / 4.0);
    if denominator <= 0.0 {
        return f64::INFINITY;
    }
    (1.0 + step * noise / 4.0) / denominator
}

/// SGLD's derived step and minibatch on a target (the criteria of [`crate::defaults`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgldPlan {
    pub step: f64,
    pub batch: usize,
    /// Predicted E2 bound after [`defaults::REFERENCE_SAMPLES`] at this plan.
    pub e2_bound: f64,
    /// Samples after which the predicted E2 bound meets [`defaults::E2_CLAIM`].
    pub samples_needed: f64,
    /// Lower bound on the expected E2 after [`defaults::REFERENCE_SAMPLES`] (drives the warning).
    pub e2_expected_at_least: f64,
}

impl SgldPlan {
    /// The largest ε whose exact stationary law (per eigen-direction of the target's Gaussian
    /// summary, and at the stiffest point of the typical set) meets the bias and stability
    /// criteria with minibatches of n; then the smallest n for which that ε meets the E2 claim after
    /// the reference sample count (the full batch when none does).
    pub fn for_target(c: &Curvature) -> SgldPlan {
        thread_local! {
            static PLANS: std::cell::RefCell<Vec<(Vec<u64>, SgldPlan)>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        defaults::memoised(&PLANS, c.key(), || Self::compute(c))
    }

    fn compute(c: &Curvature) -> SgldPlan {
        let plan = |batch: usize| {
            let step = largest_step(c, batch as f64);
            let (variances, ar) = langevin_law(c, step, batch as f64);
            SgldPlan {
                step,
                batch,
                e2_bound: defaults::e2_bound(c, &variances, &ar, defaults::REFERENCE_SAMPLES),
                samples_needed: defaults::samples_for_claim(c, &variances, &ar),
                e2_expected_at_least: defaults::e2_expected_at_least(c, &variances, &ar, defaults::REFERENCE_SAMPLES),
            }
        };
        let batch = defaults::smallest_batch_where(c.n_data, |n| plan(n).e2_bound <= defaults::E2_CLAIM).unwrap_or(c.n_data);
        plan(batch)
    }
}

/// Per eigen-direction of the summary: SGLD's stationary variance and lag-one autocorrelation
/// 1 − ελ_k/2 at step ε and batch n.
#[doc(hidden)] // pub for tests/unit (issue 23)
pub fn langevin_law(c: &Curvature, step: f64, batch: f64) -> (Vec<f64>, Vec<f64>) {
    let variances = c.precisions.iter().map(|&p| langevin_variance(step, p, c.gradient_noise(p, batch))).collect();
    let ar = c.precisions.iter().map(|&p| 1.0 - step * p / 2.0).collect();
    (variances, ar)
}

/// The largest ε meeting the bias criteria (E2 and per axis) and the stability margin at batch n.
fn largest_step(c: &Curvature, batch: f64) -> f64 {
    let limit = defaults::STABILITY_MARGIN * 4.0 / c.lambda_max;
    let within_bias = |step: f64| {
        let (variances, _) = langevin_law(c, step, batch);
        let stiffest = langevin_variance(step, c.lambda_max, c.gradient_noise(c.lambda_max, batch)) * c.lambda_max;
        let axes = variances.iter().zip(&c.precisions).map(|(v, p)| v * p).chain([stiffest]);
        axes.fold(0.0f64, |worst, r| worst.max((r - 1.0).abs())) <= defaults::AXIS_BIAS && c.e2_of_variances(&variances) <= defaults::BIAS_E2
    };
    defaults::largest_where(limit * 1e-12, limit, within_bias).unwrap_or(limit * 1e-12)
}

/// Derived defaults of SGLD: ε and n from [`SgldPlan`]; the step slider spans three decades below
/// the default up to ten times the stability limit 4/λ_max, shaded above it; the schedule's scale a
/// starts ε_0 = a·b^(−γ) at the stability margin 2/λ_max (its unstable region from 4/λ_max).
fn derive(model: &dyn Model, values: &ParamValues) -> Vec<DerivedParam> {
    let Some(c) = Curvature::of(model) else { return Vec::new() };
    let plan = SgldPlan::for_target(&c);
    // With RMSprop, the same effective step along the stiffest direction: ε·M_typ = ε_plain, M_typ
    // the preconditioner at the stationary mean square of that direction.
    let typical_m = match values.get_usize("sgld_precond") {
        1 => 1.0 / (values.get("rms_floor") + ((c.gradient_noise(c.lambda_max, plan.batch as f64) + c.lambda_max) / (c.n_data as f64).powi(2)).sqrt()),
        _ => 1.0,
    };
    let plan = SgldPlan { step: plan.step / typical_m, ..plan };
    let limit = 4.0 / (c.lambda_max * typical_m);
    let offset = values.get("sgld_b").powf(values.get("sgld_gamma"));
    vec![
        defaults::derived(defaults::spec(PARAMS, "step_size"), plan.step, plan.step / 1e3, 10.0 * limit, Some(limit)),
        defaults::derived(defaults::spec(PARAMS, "batch_size"), plan.batch as f64, 1.0, c.n_data as f64, None),
        defaults::derived(defaults::spec(PARAMS, "sgld_a"), 0.5 * limit * offset, 0.5e-3 * limit * offset, 10.0 * limit * offset, Some(limit * offset)),
    ]
}

/// Why SGLD at its derived defaults cannot meet the E2 claim in the reference sample count, when
/// it cannot (see [`crate::pairing::pairing_warning`]). On a Gaussian target the law is exact, and
/// the warning needs the expected E2 of the best plan above the claim: where only the 95 % bound
/// exceeds it (gradient noise s = 1: 1 of 40 runs above 0.3) it would be untrue. Elsewhere the law
/// is a Gaussian view of the target and the 95 % bound decides, as for the defaults.
pub fn warning(c: &Curvature) -> Option<String> {
    let plan = SgldPlan::for_target(c);
    let predicted = if c.source == crate::curvature::CurvatureSource::ClosedForm { plan.e2_expected_at_least } else { plan.e2_bound };
    if predicted <= defaults::E2_CLAIM {
        return None;
    }
    let spread = c.lambda_max / c.precisions.last().copied().unwrap_or(c.lambda_max);
    let why = if spread > 10.0 {
        format!("its curvature varies {}-fold over the typical set, so no single step size suits both its stiffest and its flattest parts", show(spread))
    } else if c.dim > 4 {
        format!("in {} dimensions E2 sums the errors of {} covariance entries, and the slowest direction mixes {} times slower than the fastest", c.dim, crate::sgais::format::group_digits((c.dim * c.dim) as f64, 0), show(c.condition_number()))
    } else {
        format!("its flattest direction mixes {} times slower than its stiffest", show(c.condition_number()))
    };
    Some(format!(
        "SGLD cannot reach a covariance error E2 ≤ {} within {} samples here at any step size: {why}. At the largest step that keeps the bias small (ε = {}, minibatch {}) it needs ≈ {} samples.",
        defaults::E2_CLAIM,
        show(defaults::REFERENCE_SAMPLES as f64),
        show(plan.step),
        crate::sgais::format::group_digits(plan.batch as f64, 0),
        show(plan.samples_needed)
    ))
}

/// The diagonal preconditioner M.
#[derive(Clone, Debug)]
enum Preconditioner {
    Identity,
    Fixed,
    /// V and its normaliser w (M uses V/w): V starts at a prior value V₀ with weight w₀ (the
    /// target's stationary E[ḡ²] with weight 1 when known, else 0 and 0 — then V/w is the
    /// bias-corrected average of Adam, Kingma & Ba 2015 §3); each step V ← βV + (1 − β)ḡ²,
    /// w ← βw + (1 − β).
    RmsProp { mean_square: Vec<f64>, weight: f64, decay: f64, floor: f64 },
}

/// The per-datum score covariance that, times N²/n, is the covariance of the minibatch gradient's
/// error as the oracle draws it: minibatches of n without replacement (src/sampler/gradient.rs),
/// so the scores' part carries the finite-population factor (1 − f), f = n/N — Var((N/n)Σ_S g_i)
/// = (N²/n)(1 − n/N)S² with S² the scores' covariance (divisor N − 1, which the minibatch's
/// divisor-(n − 1) covariance estimates without bias; Cochran 1977, Sampling Techniques, Thm 2.2)
/// — while the synthetic noise τ² added to each score (τ = s√n/N) is independent per draw:
/// E[V̂] = S² + τ²I, so (1 − f)V̂ + fτ²I has expectation (1 − f)S² + τ²I. n = N leaves only s².
pub fn drawn_noise_covariance(cov: &[f64], fraction: f64, per_datum_synthetic: f64) -> Vec<f64> {
    let dim = (cov.len() as f64).sqrt().round() as usize;
    let mut out: Vec<f64> = cov.iter().map(|c| (1.0 - fraction) * c).collect();
    for j in 0..dim {
        out[j * dim + j] += fraction * per_datum_synthetic;
    }
    out
}

/// The latest noise diagnostic (docs/sgld.md §3, paper eq. 10 and Fig. 2).
#[derive(Clone, Copy, Debug)]
struct NoiseDiagnostic {
    /// λ_max(M^{1/2} V_s M^{1/2}) at the last refresh, V_s the scores' covariance with the
    /// finite-population factor of [`drawn_noise_covariance`].
    score_cov_max_eigenvalue: f64,
    /// N²/n at the last refresh.
    n_squared_over_batch: f64,
    /// Step at which it was computed.
    step: u64,
}

/// SGLD state: the position, the schedule, the preconditioner and the diagnostics.
#[derive(Clone, Debug)]
pub struct Sgld {
    theta: Vec<f64>,
    grad: Vec<f64>,
    /// Diagonal of M.
    precond_diag: Vec<f64>,
    preconditioner: Preconditioner,
    constant_step: f64,
    polynomial: Option<(f64, f64, f64)>,
    /// Steps taken so far (t in the schedule, starting at 0).
    t: u64,
    current_step: f64,
    diag_every: u64,
    noise: Option<NoiseDiagnostic>,
    /// Sum and count of the thresholds read at each noise refresh since the parameters last changed.
    threshold_readings: (f64, u64),
    /// The first threshold read since the parameters last changed (NaN before it): what a lesson
    /// means by "the threshold at the start" of a decreasing schedule.
    first_threshold: f64,
    scores: Vec<f64>,
    /// Where a fresh RMSprop average starts (see [`Sgld::with_initial_mean_square`]).
    initial_mean_square: Option<Vec<f64>>,
    rms_decay: f64,
    rms_floor: f64,
    /// The latest step's parts, while recording them (slow motion).
    parts: Option<StepParts>,
    /// λ_min of the target's Gaussian summary and its weight in E2, and the schedule's Langevin time
    /// over the 5,000 samples from step `t_at_change` (the last parameter change): schedule.rs.
    slowest_direction: Option<(f64, f64)>,
    t_at_change: u64,
    langevin_time_ahead: Option<f64>,
}

impl Sgld {
    pub fn new(start: Vec<f64>, params: &ParamValues) -> Self {
        let dim = start.len();
        let mut sgld = Sgld {
            theta: start,
            grad: vec![0.0; dim],
            precond_diag: vec![1.0; dim],
            preconditioner: Preconditioner::Identity,
            constant_step: 0.0,
            polynomial: None,
            t: 0,
            current_step: 0.0,
            diag_every: 0,
            noise: None,
            threshold_readings: (0.0, 0),
            first_threshold: f64::NAN,
            scores: Vec::new(),
            initial_mean_square: None,
            rms_decay: 0.0,
            rms_floor: 0.0,
            parts: None,
            slowest_direction: None,
            t_at_change: 0,
            langevin_time_ahead: None,
        };
        sgld.update_params(params);
        sgld
    }

    /// SGLD with a fixed diagonal preconditioner M = diag(`m`) (e.g. the inverse per-coordinate
    /// posterior precisions). Ignores `sgld_precond`, also on later parameter updates.
    pub fn with_fixed_preconditioner(start: Vec<f64>, params: &ParamValues, m: Vec<f64>) -> Self {
        let mut sgld = Self::new(start, params);
        assert_eq!(m.len(), sgld.theta.len(), "preconditioner length must equal the dimension");
        sgld.precond_diag = m;
        sgld.preconditioner = Preconditioner::Fixed;
        sgld
    }

    /// Start the RMSprop average at `mean_square` (per coordinate, weight 1) instead of at 0: see
    /// [`stationary_mean_square`]. Kept when the preconditioner is switched on later.
    pub fn with_initial_mean_square(mut self, mean_square: Vec<f64>) -> Self {
        assert_eq!(mean_square.len(), self.theta.len(), "one value per coordinate");
        self.initial_mean_square = Some(mean_square);
        if let Preconditioner::RmsProp { .. } = self.preconditioner {
            self.preconditioner = self.fresh_rmsprop(self.rms_decay, self.rms_floor);
        }
        self
    }

    fn fresh_rmsprop(&self, decay: f64, floor: f64) -> Preconditioner {
        match &self.initial_mean_square {
            Some(v) => Preconditioner::RmsProp { mean_square: v.clone(), weight: 1.0, decay, floor },
            None => Preconditioner::RmsProp { mean_square: vec![0.0; self.theta.len()], weight: 0.0, decay, floor },
        }
    }

    /// ε_t of the step about to be taken.
    pub fn step_size(&self) -> f64 {
        self.step_size_at(self.t)
    }

    fn step_size_at(&self, t: u64) -> f64 {
        match self.polynomial {
            Some((a, b, gamma)) => a * (b + t as f64).powf(-gamma),
            None => self.constant_step,
        }
    }

    /// The diagonal of the preconditioner M.
    pub fn preconditioner(&self) -> &[f64] {
        &self.precond_diag
    }

    /// Sampling threshold ε_t N²(1 − n/N)/(4n) λ_max(M^{1/2} V_s M^{1/2}) (paper eq. 10), with ε_t the step
    /// size of the latest step; NaN before the first refresh.
    pub fn sampling_threshold(&self) -> f64 {
        self.noise.map_or(f64::NAN, |n| self.current_step * n.n_squared_over_batch * n.score_cov_max_eigenvalue / 4.0)
    }

    /// (ε_t²/4)(N²/n)(1 − n/N) λ_max(M^{1/2} V_s M^{1/2}): variance of the stochastic-gradient noise in the
    /// update, in M's metric (paper Fig. 2, left); NaN before the first refresh.
    pub fn gradient_noise_variance(&self) -> f64 {
        let e = self.current_step;
        self.noise.map_or(f64::NAN, |n| e * e / 4.0 * n.n_squared_over_batch * n.score_cov_max_eigenvalue)
    }

    /// Mean of the thresholds read at the noise refreshes since the parameters last changed; NaN
    /// before the first. One reading estimates V_s from one minibatch (n = 5 scores scatter its
    /// λ_max widely); the mean settles on E[ε N²λ_max(V_s)/(4n)], the number a lesson can quote.
    pub fn mean_sampling_threshold(&self) -> f64 {
        let (sum, count) = self.threshold_readings;
        if count == 0 {
            f64::NAN
        } else {
            sum / count as f64
        }
    }

    /// Add the threshold just read (at a noise refresh) to the running mean; NaN readings (one
    /// score, no spread) are left out.
    fn record_threshold_reading(&mut self) {
        let reading = self.sampling_threshold();
        if reading.is_finite() {
            if self.threshold_readings.1 == 0 {
                self.first_threshold = reading;
            }
            self.threshold_readings.0 += reading;
            self.threshold_readings.1 += 1;
        }
    }

    fn refresh_due(&self) -> bool {
        self.diag_every > 0 && self.t.is_multiple_of(self.diag_every)
    }

    /// The gradient estimate from per-datum scores on the step's minibatch, recording V_s.
    fn gradient_with_noise_diagnostic(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) {
        let dim = self.theta.len();
        let n = grads.minibatch_scores(model, &self.theta, rng, &mut self.scores);
        let big_n = grads.n_data() as f64;
        self.grad.fill(0.0);
        for row in self.scores.chunks(dim) {
            for (g, s) in self.grad.iter_mut().zip(row) {
                *g += s;
            }
        }
        let scale = big_n / n as f64;
        self.grad.iter_mut().for_each(|g| *g *= scale);
        model.add_grad_log_prior(&self.theta, &mut self.grad);
        // s_i = g_i + ∇log p/N differs from g_i by a constant, so V_s = cov(g_i).
        let (mean, cov) = score_mean_and_covariance(&self.scores, dim);
        let m = &self.precond_diag;
        let per_datum_synthetic = (model.synthetic_noise_sd() * (n as f64).sqrt() / big_n).powi(2);
        let noise = drawn_noise_covariance(&cov, n as f64 / big_n, per_datum_synthetic);
        let whitened = DMatrix::from_fn(dim, dim, |a, b| (m[a] * m[b]).sqrt() * noise[a * dim + b]);
        // One score has no spread to measure: report "unknown" (NaN) rather than zero noise.
        let eigenvalue = if n < 2 { f64::NAN } else { largest_eigenvalue(&whitened) };
        // Identical scores (pseudo-data without synthetic noise) leave only rounding error.
        let size = mean.iter().map(|m| m * m).sum::<f64>();
        let eigenvalue = if eigenvalue <= 1e-20 * (1.0 + size) { 0.0 } else { eigenvalue };
        self.noise = Some(NoiseDiagnostic {
            score_cov_max_eigenvalue: eigenvalue,
            n_squared_over_batch: big_n * big_n / n as f64,
            step: self.t,
        });
    }

    /// pSGLD's V ← βV + (1−β) ḡ², M = 1/(λ + √(V/w)) with ḡ = ∇log π̂ / N (Li et al. 2016,
    /// Algorithm 1, which starts V at 0: at a start with zero gradient — a mode, full batch or a
    /// noise-free toy — that made M = 1/λ and the first noise sd √(ε/λ) ≈ 70). V starts at the
    /// stationary value [`Sgld::with_initial_mean_square`] or, without one, is bias-corrected by w.
    fn adapt_preconditioner(&mut self, n_data: usize) {
        if let Preconditioner::RmsProp { mean_square, weight, decay, floor } = &mut self.preconditioner {
            *weight = *decay * *weight + (1.0 - *decay);
            for ((v, m), g) in mean_square.iter_mut().zip(self.precond_diag.iter_mut()).zip(&self.grad) {
                let per_datum = g / n_data as f64;
                *v = *decay * *v + (1.0 - *decay) * per_datum * per_datum;
                *m = 1.0 / (*floor + (*v / *weight).sqrt());
            }
        }
    }
}

impl Sgld {
    /// θ ← θ + (ε/2) M ĝ + N(0, εM) (Welling & Teh 2011 eq. 4).
    fn update(&mut self, e: f64, rng: &mut ChainRng) {
        match self.preconditioner {
            Preconditioner::Identity => {
                let noise_sd = e.sqrt();
                for (theta, g) in self.theta.iter_mut().zip(&self.grad) {
                    *theta += 0.5 * e * g + noise_sd * standard_normal(rng);
                }
            }
            _ => {
                for ((theta, g), m) in self.theta.iter_mut().zip(&self.grad).zip(&self.precond_diag) {
                    *theta += 0.5 * e * m * g + (e * m).sqrt() * standard_normal(rng);
                }
            }
        }
    }

    /// [`Sgld::update`] with the same draws, recording its parts: the drift (ε/2) M ∇log π with
    /// the full-data gradient, the minibatch noise (ε/2) M (ĝ − ∇log π), and the injected noise.
    fn recorded_update(&mut self, model: &dyn Model, e: f64, rng: &mut ChainRng) {
        let full = exact_gradient(model, &self.theta);
        let mut parts = self.parts.take().unwrap_or_default();
        parts.restart(&self.theta);
        let (mut drift, mut minibatch, mut injected) = (Vec::new(), Vec::new(), Vec::new());
        for j in 0..self.theta.len() {
            let m = self.precond_diag[j];
            let noise = (e * m).sqrt() * standard_normal(rng);
            drift.push(0.5 * e * m * full[j]);
            minibatch.push(0.5 * e * m * (self.grad[j] - full[j]));
            injected.push(noise);
            self.theta[j] += 0.5 * e * m * self.grad[j] + noise;
        }
        parts.push("drift", "gradient drift (ε/2)∇log π", drift);
        parts.push("minibatch_noise", "minibatch noise (ε/2)(∇log π̂ − ∇log π)", minibatch);
        parts.push("injected_noise", "injected noise N(0, ε)", injected);
        self.parts = Some(parts);
    }
}

impl Sampler for Sgld {
    fn record_parts(&mut self, on: bool) {
        self.parts = on.then(|| self.parts.take().unwrap_or_default());
    }

    fn last_parts(&self) -> Option<&StepParts> {
        self.parts.as_ref().filter(|p| !p.parts.is_empty())
    }

    fn position(&self) -> &[f64] {
        &self.theta
    }

    /// Welling & Teh 2011 eq. 4 with step ε_t and diagonal preconditioner M.
    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted {
        let refreshed = self.refresh_due();
        if refreshed {
            self.gradient_with_noise_diagnostic(model, grads, rng);
        } else {
            grads.stochastic_gradient(model, &self.theta, rng, &mut self.grad);
        }
        self.adapt_preconditioner(grads.n_data());
        let e = self.step_size_at(self.t);
        self.current_step = e;
        if refreshed {
            self.record_threshold_reading();
        }
        if self.parts.is_some() {
            self.recorded_update(model, e, rng);
        } else {
            self.update(e, rng);
        }
        self.t += 1;
        let weight = if self.polynomial.is_some() { e } else { 1.0 };
        Emitted::Sample { weight }
    }

    fn update_params(&mut self, params: &ParamValues) {
        self.constant_step = params.get("step_size");
        self.polynomial = match params.get_usize("sgld_schedule") {
            1 => Some((params.get("sgld_a"), params.get("sgld_b"), params.get("sgld_gamma"))),
            _ => None,
        };
        self.diag_every = params.get_usize("noise_diag_every") as u64;
        self.threshold_readings = (0.0, 0);
        self.first_threshold = f64::NAN;
        if self.current_step == 0.0 {
            self.current_step = self.step_size_at(self.t);
        }
        let dim = self.theta.len();
        let (decay, floor) = (params.get("rms_decay"), params.get("rms_floor"));
        (self.rms_decay, self.rms_floor) = (decay, floor);
        self.preconditioner = match (&self.preconditioner, params.get_usize("sgld_precond")) {
            (Preconditioner::Fixed, _) => Preconditioner::Fixed,
            (Preconditioner::RmsProp { mean_square, weight, .. }, 1) => Preconditioner::RmsProp { mean_square: mean_square.clone(), weight: *weight, decay, floor },
            (_, 1) => self.fresh_rmsprop(decay, floor),
            _ => {
                self.precond_diag = vec![1.0; dim];
                Preconditioner::Identity
            }
        };
        self.t_at_change = self.t;
        self.langevin_time_ahead = schedule::schedule_time(self.polynomial, matches!(self.preconditioner, Preconditioner::Identity), self.t_at_change);
    }

    fn setting_warning(&self) -> Option<crate::setting_warning::SettingWarning> {
        let (polynomial, time_ahead, slowest, t, t_at_change) = (self.polynomial, self.langevin_time_ahead, self.slowest_direction, self.t, self.t_at_change);
        schedule::schedule_warning(&schedule::ScheduleState { polynomial, time_ahead, slowest, t, t_at_change })
    }

    fn diagnostics(&self) -> Vec<Diagnostic> {
        let e = self.current_step;
        let refreshed = self.noise.map_or(f64::NAN, |n| n.step as f64);
        let m = &self.precond_diag;
        vec![
            Diagnostic { name: "step_size", label: "step size εₜ", value: e },
            Diagnostic { name: "injected_noise_variance", label: "injected noise variance εₜ", value: e },
            Diagnostic { name: "gradient_noise_variance", label: "gradient noise variance (εₜ²/4)(N²/n)(1 − n/N)λmax(Vₛ)", value: self.gradient_noise_variance() },
            Diagnostic { name: "sampling_threshold", label: "sampling threshold, latest reading (one minibatch) εₜ N²(1 − n/N)λmax(Vₛ)/(4n)", value: self.sampling_threshold() },
            Diagnostic { name: "sampling_threshold_mean", label: "sampling threshold, mean of the readings since the last change", value: self.mean_sampling_threshold() },
            Diagnostic { name: "sampling_threshold_first", label: "sampling threshold, first reading since the last change", value: self.first_threshold },
            Diagnostic { name: "noise_diag_step", label: "step of the last noise estimate", value: refreshed },
            Diagnostic { name: "precond_min", label: "smallest preconditioner entry", value: m.iter().copied().fold(f64::INFINITY, f64::min) },
            Diagnostic { name: "precond_max", label: "largest preconditioner entry", value: m.iter().copied().fold(f64::NEG_INFINITY, f64::max) },
        ]
    }
}
