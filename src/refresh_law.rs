//! The refresh law of the bouncy samplers (issue 21; docs/diagnostics.md §13): a refresh rate
//! that turns the velocity over faster than the path crosses the target makes the path a random
//! walk, whose covariance error after 5,000 events is predicted here from the target's covariance,
//! the refresh rate and the path time per event, and warned beside the refresh-rate slider.
//!
//! A velocity refreshed at rate λ (its component along a unit direction e with second moment
//! m = E[(e·v)²]: 1/D for the unit sphere, 1 for v ~ N(0, I)) moves the position, over times much
//! longer than 1/λ, as a diffusion with coefficient D_e = m/λ (the telegraph process's limit,
//! (DIAG.11)). In the target's potential it is then an Ornstein–Uhlenbeck process, relaxing along
//! the principal axis k (variance v_k) in τ_k = v_k/D_e time units; where the refresh length √m/λ
//! is not below half the axis's sd (λ·σ_k/√m < [`DIFFUSIVE`]) the path crosses it ballistically
//! and the axis is taken as mixing at once (τ_k = 0). Over a path of time T, with Q the axes,
//! (DIAG.12)  T·Cov(Ĉ_ab, Ĉ_ce) = I_acbe + I_aebc,  I_acbe = Σ_kl Q_ak Q_ck v_k Q_bl Q_el v_l · 2τ_kτ_l/(τ_k + τ_l),
//! T·Var(x̄) = Q diag(2 v_k τ_k) Qᵀ (Isserlis, as (DIAG.7), with Γ(t) = Q diag(v_k e^{−|t|/τ_k}) Qᵀ),
//! and E2 after 5,000 events is drawn from that Gaussian error exactly as in §7 (src/promise.rs
//! [`draw_e2`]). Bounces, which turn the velocity further and slow the walk, are left out, so the
//! prediction errs towards silence. The path time per event is the chain's own (measured).

use crate::readable::percent_above;
use crate::defaults::{E2_CLAIM, REFERENCE_SAMPLES};
use crate::law::{is_round, GaussianSummary};
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::promise::{axis_law_e2, FAILURE_SHARE};
use crate::readable::show;
use crate::setting_warning::{Failure, SettingWarning};
use crate::spec::DerivedParam;
use nalgebra::DMatrix;

/// The samplers whose refresh law is known here: exact BPS (either refresh law), SBPS and lipSBPS
/// (unit sphere). pSBPS's refreshed velocity is preconditioned, not covered.
pub const SAMPLERS: [&str; 3] = ["bps", "sbps", "lipsbps"];
/// An axis is diffusive when its sd is at least this many refresh lengths √m/λ.
pub const DIFFUSIVE: f64 = 2.0;
/// Largest target dimension predicted (the error law is on D(D + 1)/2 entries).
pub const MAX_DIM: usize = 6;
/// Events since the slider move before the time per event is trusted.
pub const EARLY_EVENTS: u64 = 500;

/// The target's covariance in principal axes, for one bouncy sampler.
pub struct RefreshLaw {
    truth: DMatrix<f64>,
    variances: Vec<f64>,
    axes: DMatrix<f64>,
    /// The posterior is Gaussian ([`Model::gaussian_precision`]): the share printed is the law's.
    /// Elsewhere (the banana, Neal's funnel) the law's Gaussian summary leaves out the target's
    /// tails and curvature, which only slow the walk (funnel × SBPS at λ_ref = 2.5: law 26 %,
    /// measured 30/40 runs over 0.3), so the share is printed as a lower bound ("at least").
    gaussian: bool,
}

/// The predicted error after [`REFERENCE_SAMPLES`] events.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefreshPrediction {
    pub mean_e2: f64,
    pub share: f64,
    /// The slowest axis's relaxation time τ (0: no axis is diffusive).
    pub slowest_tau: f64,
}

impl RefreshLaw {
    /// None for other samplers and for targets without a Gaussian summary or above [`MAX_DIM`].
    pub fn new(sampler: &str, model: &dyn Model) -> Option<RefreshLaw> {
        if !SAMPLERS.contains(&sampler) || model.dim() > MAX_DIM {
            return None;
        }
        let truth = match model.exact_moments() {
            Some(m) => crate::linalg::rows_to_matrix(&m.cov),
            None => GaussianSummary::of(model).ok()?.precision.try_inverse()?,
        };
        let mut law = RefreshLaw::of_covariance(truth);
        law.gaussian = model.gaussian_precision().is_some();
        Some(law)
    }

    /// The law for a target of covariance `truth`.
    pub fn of_covariance(truth: DMatrix<f64>) -> RefreshLaw {
        let (variances, axes) = crate::linalg::principal_axes(&truth);
        RefreshLaw { truth, variances, axes, gaussian: true }
    }

    /// m = E[(e·v)²] of a refreshed velocity: 1 for BPS's Gaussian law, 1/D on the unit sphere.
    pub fn velocity_square(sampler: &str, params: &ParamValues, dim: usize) -> f64 {
        let gaussian = sampler == "bps" && params.try_get("refresh_law").is_none_or(|i| i < 0.5);
        if gaussian {
            1.0
        } else {
            1.0 / dim as f64
        }
    }

    /// τ_k = v_k λ/m on the diffusive axes, 0 on the others (module docs).
    pub fn relaxation_times(&self, rate: f64, velocity_square: f64) -> Vec<f64> {
        let refresh_length = velocity_square.sqrt() / rate;
        self.variances.iter().map(|&v| if rate > 0.0 && v.sqrt() >= DIFFUSIVE * refresh_length { v * rate / velocity_square } else { 0.0 }).collect()
    }

    /// Mean E2 and share above [`E2_CLAIM`] after [`REFERENCE_SAMPLES`] events of `time_per_event`
    /// path time each, (DIAG.12).
    pub fn predict(&self, rate: f64, velocity_square: f64, time_per_event: f64) -> Option<RefreshPrediction> {
        let tau = self.relaxation_times(rate, velocity_square);
        let slowest_tau = tau.iter().copied().fold(0.0, f64::max);
        if slowest_tau == 0.0 {
            return Some(RefreshPrediction { mean_e2: 0.0, share: 0.0, slowest_tau });
        }
        let time = REFERENCE_SAMPLES * time_per_event;
        if !(time > 0.0 && time.is_finite()) {
            return None;
        }
        let v = &self.variances;
        let overlap = |k: usize, l: usize| if tau[k] > 0.0 && tau[l] > 0.0 { 2.0 * tau[k] * tau[l] / (tau[k] + tau[l]) } else { 0.0 };
        let (mean_e2, share) = axis_law_e2(&self.axes, v, &self.truth, overlap, |k| 2.0 * v[k] * tau[k], time).ok()?;
        Some(RefreshPrediction { mean_e2, share, slowest_tau })
    }

    /// Mean E2 and share above [`E2_CLAIM`] of a path of `time` time units that decorrelates each
    /// axis k in the time it takes to cross one sd of it at its rms speed, τ_k = σ_k/√m (DIAG.16),
    /// with the same Ornstein–Uhlenbeck error law as (DIAG.12): a floor on the error of a ballistic
    /// path (a real path needs several crossings to forget its start), so it errs towards silence.
    pub fn predict_crossing(&self, velocity_square: f64, time: f64) -> Option<(f64, f64)> {
        let v = &self.variances;
        let tau: Vec<f64> = v.iter().map(|v| v.sqrt() / velocity_square.sqrt()).collect();
        if !(time > 0.0 && time.is_finite()) || tau.iter().any(|t| !(*t > 0.0)) {
            return None;
        }
        let overlap = |k: usize, l: usize| 2.0 * tau[k] * tau[l] / (tau[k] + tau[l]);
        axis_law_e2(&self.axes, v, &self.truth, overlap, |k| 2.0 * v[k] * tau[k], time).ok()
    }

    /// The target's dimension.
    pub fn dim(&self) -> usize {
        self.variances.len()
    }

    /// The widest axis's sd.
    pub fn widest_sd(&self) -> f64 {
        self.variances.iter().copied().fold(0.0, f64::max).sqrt()
    }

    /// The largest refresh rate at most `rate` whose predicted share keeps the promise (bisection;
    /// the walk only slows as λ grows).
    pub fn largest_keeping(&self, rate: f64, velocity_square: f64, time_per_event: f64) -> f64 {
        let keeps = |r: f64| self.predict(r, velocity_square, time_per_event).is_some_and(|p| p.share <= FAILURE_SHARE);
        let (mut lo, mut hi) = (0.0, rate);
        for _ in 0..30 {
            let mid = 0.5 * (lo + hi);
            if keeps(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The warning beside the refresh-rate slider when more than [`FAILURE_SHARE`] of runs are
    /// predicted above [`E2_CLAIM`] after 5,000 events; None before [`EARLY_EVENTS`] events.
    pub fn warning(&self, sampler: &str, specs: &'static [ParamSpec], params: &ParamValues, derived: &[DerivedParam], events: u64, path_time: f64) -> Option<SettingWarning> {
        let spec = specs.iter().find(|s| s.name == "refresh_rate")?;
        if events < EARLY_EVENTS && (params.try_get("refresh_rate").is_none_or(|r| r > 0.0) || !self.gaussian || !is_round(&self.variances)) {
            return None;
        }
        let (rate, dim) = (params.try_get("refresh_rate")?, self.variances.len());
        if self.gaussian && is_round(&self.variances) {
            if let Some(w) = never_refreshed(sampler, spec, derived, rate) {
                return Some(w);
            }
        }
        let m = RefreshLaw::velocity_square(sampler, params, dim);
        let time_per_event = path_time / events as f64;
        let p = self.predict(rate, m, time_per_event)?;
        if p.share <= FAILURE_SHARE {
            return None;
        }
        let fix = self.largest_keeping(rate, m, time_per_event);
        // The slider's (derived) default: BPS derives its rate from the target's widest sd.
        let default = derived.iter().find(|d| d.name == spec.name).map_or(spec.default, |d| d.default);
        let widest = self.variances.iter().copied().fold(0.0, f64::max).sqrt();
        // The remedy is the slider's default (silent within the promise in the sweeps); the law's
        // own limit, computed at this setting's time per event, is in the detail.
        let text = format!(
            "Set {} {} back to {} (now {}): predicted E2 above {E2_CLAIM} in {}{} % of runs (at most {:.0} %).",
            spec.label.to_lowercase(),
            spec.symbol,
            show(default),
            show(rate),
            if self.gaussian { "" } else { "at least " },
            percent_above(p.share, FAILURE_SHARE),
            100.0 * FAILURE_SHARE
        );
        let detail = format!(
            "Predicted by the refresh law (docs/diagnostics.md §13): refreshed every {} time units, the velocity turns over long before the path crosses the target (widest sd {}), so the path diffuses with D = {}/λ_ref and relaxes along its widest axis in τ = {} time units; 5,000 events cover {} time units here ({} per event, measured), so the covariance error E2 after 5,000 events is {} on average and above {E2_CLAIM} in {:.0} % of runs (the promise: at most {:.0} %). Bounces, which slow the walk further, are left out. The prediction keeps the promise at λ_ref ≤ {}.",
            show(1.0 / rate),
            show(widest),
            show(m),
            show(p.slowest_tau),
            show(REFERENCE_SAMPLES * time_per_event),
            show(time_per_event),
            show(p.mean_e2),
            100.0 * p.share,
            100.0 * FAILURE_SHARE,
            show(fix)
        );
        Some(SettingWarning { param: spec.name, failure: Failure::Mixing, text, detail })
    }
}

/// Exact BPS at λ_ref = 0 on a round Gaussian (issue 26): without refreshes it is not ergodic (docs/diagnostics.md
/// §13; Bouchard-Côté et al. 2018: a bounce reflects the velocity about the
/// position's direction, which keeps x × v, so the path never leaves the curve of its start),
/// whatever the path's length: the warning fires from the first event. On an elongated Gaussian the
/// bounces turn the velocity (ρ = 0.9: 0/40 runs over 0.3 at 5,000 events): silent. SBPS and lipSBPS bounce on
/// noisy or thinned minibatch gradients, which turn the velocity (SBPS §3): not warned here.
fn never_refreshed(sampler: &str, spec: &ParamSpec, derived: &[DerivedParam], rate: f64) -> Option<SettingWarning> {
    if sampler != "bps" || rate > 0.0 {
        return None;
    }
    let default = derived.iter().find(|d| d.name == spec.name).map_or(spec.default, |d| d.default);
    let text = format!("Set {} {} back to {} (now 0): without refreshes BPS is not ergodic here, E2 does not fall.", spec.label.to_lowercase(), spec.symbol, show(default));
    let detail = "Predicted by the refresh law (docs/diagnostics.md §13): exact BPS never refreshed is not ergodic on a round Gaussian (Bouchard-Côté et al. 2018): each bounce reflects the velocity about the position's direction and keeps x × v, so the path stays on the line or ellipse it started on. Any refresh rate above 0 restores ergodicity; the slider's default mixes within the promise.".to_string();
    Some(SettingWarning { param: spec.name, failure: Failure::Mixing, text, detail })
}
