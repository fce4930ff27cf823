//! SGLD's polynomial schedule εₜ = a(b + t)^(−γ) (Welling & Teh 2011 §3): whether the 5,000
//! samples after a slider move travel far enough in Langevin time to measure the target's slowest
//! direction (issue 21, review finding F5; docs/diagnostics.md §18).
//!
//! SGLD is the Euler step of the Langevin diffusion dθ = ½∇log π(θ) dt + dW with dt = εₜ, and the
//! schedule's estimate weights each sample by εₜ (paper eq. 11): a time average over the Langevin
//! time τ = Σ_{t=t₀}^{t₀+m−1} εₜ that m samples from step t₀ cover. Along the flattest direction of
//! the target's Gaussian summary (precision λ_min, src/curvature.rs) the diffusion is an
//! Ornstein–Uhlenbeck process dθ = −(λ/2)θ dt + dW with variance v = 1/λ; (θ − μ)² has variance
//! 2v² and autocorrelation e^(−λs), integrated time 2/λ, so the time average's relative error
//! has sd 2/√(λτ) (docs/diagnostics.md §18, (SCH.1)). That error alone, an entry of weight
//! w = v/Σᵢⱼ|Σᵢⱼ| in E2 (SGFS eq. 14), puts E2 above 0.3 in more than 10 % of runs where
//! w·2/√(λτ) > 0.3/z, z = Φ⁻¹(0.95): where λτ < (2zw/0.3)² (SCH.2). The start, the other
//! directions and a non-Gaussian target (modes) only add error, so the bound is a floor and the
//! warning it gives is true. Its remedy is the sample count at which the schedule covers that time
//! (τ grows as m^(1−γ)); raising a, which scales τ, is named second, as it also raises the early
//! steps' bias (measured on the mixture, docs/diagnostics.md §18).

use crate::defaults::{E2_CLAIM, REFERENCE_SAMPLES};
use crate::promise::FAILURE_SHARE;
use crate::readable::show;
use crate::setting_warning::{Failure, SettingWarning};

/// τ = Σ_{t=t₀}^{t₀+m−1} a(b + t)^(−γ): the Langevin time m steps of the schedule cover from t₀.
pub fn langevin_time(a: f64, b: f64, gamma: f64, t0: u64, steps: u64) -> f64 {
    (t0..t0 + steps).map(|t| a * (b + t as f64).powf(-gamma)).sum()
}

/// Steps m from t₀ after which the schedule has covered Langevin time `time`: the integral
/// ∫_{t₀}^{t₀+m} a(b + t)^(−γ) dt = time solved for m (the sum over those steps is at least the
/// integral, εₜ falling in t, so m is enough).
pub fn steps_to_cover(a: f64, b: f64, gamma: f64, t0: u64, time: f64) -> f64 {
    let start = b + t0 as f64;
    let end = if gamma == 1.0 { start * (time / a).exp() } else { (start.powf(1.0 - gamma) + time * (1.0 - gamma) / a).powf(1.0 / (1.0 - gamma)) };
    (end - start).ceil()
}

/// The Langevin time below which (SCH.2) predicts E2 > 0.3 in more than 10 % of runs: λτ <
/// (2zw/0.3)², for the flattest direction's precision λ and its weight w in E2 (module docs).
pub fn langevin_time_needed(lambda_min: f64, weight: f64) -> f64 {
    let z = crate::rhat::normal_quantile(1.0 - FAILURE_SHARE / 2.0);
    (2.0 * z * weight / E2_CLAIM).powi(2) / lambda_min
}

/// λ_min of a Gaussian summary and the flattest direction's weight w = (1/λ_min)/Σᵢⱼ|Σᵢⱼ| in E2.
pub fn slowest_direction(c: &crate::curvature::Curvature) -> (f64, f64) {
    let total: f64 = c.cov.iter().flatten().map(|x| x.abs()).sum();
    (c.lambda_min(), (1.0 / c.lambda_min() / total).min(1.0))
}

/// The Langevin time the promise's 5,000 samples cover from the last slider move (`t_at_change`),
/// with the schedule `(a, b, γ)` on and M = I (`identity`); None otherwise (a constant step is the
/// law's, src/law.rs).
pub fn schedule_time(polynomial: Option<(f64, f64, f64)>, identity: bool, t_at_change: u64) -> Option<f64> {
    let (a, b, gamma) = polynomial?;
    identity.then(|| langevin_time(a, b, gamma, t_at_change, REFERENCE_SAMPLES as u64))
}

/// The schedule's state a warning reads: `(a, b, γ)`, the Langevin time ahead of the last slider
/// move, the slowest direction `(λ_min, w)`, the step t now and at the last slider move.
pub struct ScheduleState {
    pub polynomial: Option<(f64, f64, f64)>,
    pub time_ahead: Option<f64>,
    pub slowest: Option<(f64, f64)>,
    pub t: u64,
    pub t_at_change: u64,
}

/// "Let it run to about N samples … (or raise schedule scale a)" where the 5,000 samples after the
/// last slider move cover less Langevin time than (SCH.2) needs (module docs).
pub fn schedule_warning(s: &ScheduleState) -> Option<SettingWarning> {
    let (a, b, gamma) = s.polynomial?;
    let (tau, (lambda, weight)) = (s.time_ahead?, s.slowest?);
    let needed_time = langevin_time_needed(lambda, weight);
    if !(tau < needed_time) {
        return None;
    }
    // τ ∝ a: the a whose run covers the time needed, rounded up so the shown value does.
    let needed = round_up(a * needed_time / tau.max(f64::MIN_POSITIVE));
    // The samples after which the current schedule covers it (the remedy that keeps the
    // promise on the mixture at n = 1, where a raised a biases the early steps instead).
    let run_to = round_up(steps_to_cover(a, b, gamma, s.t_at_change, needed_time));
    // A run already past that count has covered the time: the warning was about runs of 5,000.
    if (s.t - s.t_at_change) as f64 >= run_to {
        return None;
    }
    let samples = show(REFERENCE_SAMPLES);
    let text = format!("Let it run to about {} samples: too slow: {samples} samples cover Langevin time {} of the {} the widest direction needs (or raise schedule scale a, now {}).", show(run_to), show(tau), show(needed_time), show(a));
    let detail = format!(
        "Predicted from the schedule (docs/diagnostics.md §18): the {samples} samples after the last slider move take steps εₜ = a(b + t)^(−γ) summing to the Langevin time τ = {}. Along the target's widest direction (precision λ_min = {}, relaxation time 2/λ_min = {}) the εₜ-weighted variance then has a relative error of sd 2/√(λ_min τ) = {}, and that error alone puts the covariance error E2 above {E2_CLAIM} in more than {:.0} % of runs of {samples} (the promise: at most that) unless τ ≥ {}. The start, the other directions and the target's modes only add to it. This schedule covers that time after about {} samples; at a = {} the {samples} samples cover it, but a larger a also takes larger early steps, whose bias with small minibatches can break the promise instead (measured on the tied-means mixture at n = 1, docs/diagnostics.md §18).",
        show(tau), show(lambda), show(2.0 / lambda), show(2.0 / (lambda * tau).sqrt()), 100.0 * FAILURE_SHARE, show(needed_time), show(run_to), show(needed)
    );
    Some(SettingWarning { param: "sgld_a", failure: Failure::Mixing, text, detail })
}

/// `x` rounded up at its third significant digit, so that the value shown is not below it.
fn round_up(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return x;
    }
    let scale = 10f64.powf(x.log10().floor() - 2.0);
    (x / scale).ceil() * scale
}
