//! The exact samplers' step law (issue 21; docs/diagnostics.md §14): MALA's single Langevin step
//! and HMC's leapfrog trajectory, unadjusted, are linear maps on the target's Gaussian summary, so
//! their mixing after 5,000 samples is predicted from the step, as the refresh law
//! (src/refresh_law.rs) predicts the bouncy samplers'; more than 10 % of runs above E2 = 0.3 is a
//! mixing warning beside the slider that caused it.
//!
//! Along the principal axis k of the target's covariance (variance v_k), one leapfrog step of size
//! ε with momentum p ~ N(0, 1) is the rotation-like map of trace 2 − ε²/v_k, of phase θ_k with
//! (DIAG.14)  cos θ_k = 1 − h/(2 v_k),   a_k = cos(L θ_k),
//! h = ε² for HMC (L leapfrog steps: the position part of the map's L-th power is cos(Lθ_k), and the
//! fresh momentum makes x' = a_k x + noise an AR(1) series), h = ε and L = 1 for MALA (its proposal
//! θ + (ε/2)∇log π + √ε ξ is one leapfrog step of size √ε). The error of the covariance after T
//! samples follows by Isserlis' theorem as in (DIAG.7), the sums over lags in closed form:
//! (DIAG.15)  T·Cov(Ĉ_ab, Ĉ_ce) = J_acbe + J_aebc,   J_acbe = Σ_kl Q_ak Q_ck v_k Q_bl Q_el v_l (1 + a_k a_l)/(1 − a_k a_l),
//!            T·Var(x̄) = Q diag(v_k (1 + a_k)/(1 − a_k)) Qᵀ,
//! and E2 is drawn from that Gaussian error as in §7 (src/promise.rs [`draw_e2`]). Errs towards
//! silence by construction: the Metropolis–Hastings rejections that slow the chain further are left
//! out; an axis whose trajectory passes a quarter period (Lθ_k > π/2, where the unadjusted map turns
//! back or resonates) or whose step is beyond the leapfrog's stability (|cos θ_k| > 1) is taken as
//! mixing at once (a_k = 0); and the target's own tails (Neal's funnel: Var(x²) 3.6 × a Gaussian's
//! of the same variance) only widen the real error.
//!
//! Scope: targets whose covariance is known in closed form (the Gaussian toy, the banana, Neal's
//! funnel, linear regression), up to [`MAX_DIM`] parameters. On the tied-means mixture, whose
//! covariance is a grid quadrature's, the relaxation along its widest axis is faster than a
//! Gaussian of that variance gives (two narrower modes): measured, MALA at its defaults was
//! predicted 18 % failing with 1 of 40 runs over 0.3, so the law is not used there (§8's measured
//! signal is).

use crate::defaults::{E2_CLAIM, REFERENCE_SAMPLES};
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::promise::{axis_law_e2, FAILURE_SHARE};
use crate::readable::show;
use crate::setting_warning::{Failure, SettingWarning};
use crate::spec::DerivedParam;
use nalgebra::DMatrix;
use std::f64::consts::FRAC_PI_2;

/// The samplers whose step law is known here.
pub const SAMPLERS: [&str; 2] = ["mala", "hmc"];
/// Largest target dimension predicted (the error law is on D(D + 1)/2 entries).
pub const MAX_DIM: usize = 6;

/// The target's covariance in principal axes, for MALA or HMC.
pub struct StepLaw {
    truth: DMatrix<f64>,
    variances: Vec<f64>,
    axes: DMatrix<f64>,
    /// The last setting's prediction and sample count, keyed by (h, L): the page reads the warning
    /// with every numbers update (5 Hz), and the sample count's bisection is 41 predictions
    /// (≈ 50 ms native on the funnel), so it is computed once per setting.
    memo: std::sync::Mutex<Option<Memo>>,
    /// The posterior is Gaussian ([`Model::gaussian_precision`]): the law is exact but for the
    /// rejections, so the sample count it asks for is a remedy. On other targets (the banana, the
    /// funnel) it is only a lower bound (module docs, "Scope").
    gaussian: bool,
    /// Where the law is a lower bound: the label of the other exact sampler whose derived defaults
    /// keep the promise by its law on this target ([`other_that_keeps`]), the remedy named instead
    /// of a count.
    other: Option<&'static str>,
}

/// One setting's prediction at [`REFERENCE_SAMPLES`] and, where it fails, the samples it needs.
type Memo = ((u64, usize), Option<(StepPrediction, f64)>);

/// The predicted error after [`REFERENCE_SAMPLES`] samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepPrediction {
    pub mean_e2: f64,
    pub share: f64,
    /// The slowest axis's integrated autocorrelation time (1 + a)/(1 − a), in samples.
    pub slowest_time: f64,
}

impl StepLaw {
    /// None for other samplers, above [`MAX_DIM`], and for targets whose covariance is not known in
    /// closed form (module docs, "Scope": on the mixture's grid-quadrature covariance the law
    /// overstates the failure, measured).
    pub fn new(sampler: &str, model: &dyn Model) -> Option<StepLaw> {
        if !SAMPLERS.contains(&sampler) || model.dim() > MAX_DIM {
            return None;
        }
        let mut law = StepLaw::of_covariance(crate::linalg::rows_to_matrix(&model.exact_moments()?.cov));
        law.gaussian = model.gaussian_precision().is_some();
        if !law.gaussian {
            law.other = other_that_keeps(sampler, model);
        }
        Some(law)
    }

    /// The law for a target of covariance `truth`.
    pub fn of_covariance(truth: DMatrix<f64>) -> StepLaw {
        let (variances, axes) = crate::linalg::principal_axes(&truth);
        StepLaw { truth, variances, axes, memo: std::sync::Mutex::new(None), gaussian: true, other: None }
    }

    /// (h, L) of the sampler's current setting: (ε, 1) for MALA, (ε², L) for HMC.
    pub fn step_of(sampler: &str, params: &ParamValues) -> Option<(f64, usize)> {
        match sampler {
            "mala" => Some((params.try_get("mala_step")?, 1)),
            "hmc" => Some((params.try_get("hmc_step")?.powi(2), params.try_get("leapfrog_steps")?.round().max(1.0) as usize)),
            _ => None,
        }
    }

    /// a_k = cos(Lθ_k) with cos θ_k = 1 − h/(2v_k), (DIAG.14); 0 where Lθ_k > π/2 or the leapfrog
    /// is unstable on the axis (module docs).
    pub fn autocorrelations(&self, h: f64, leapfrog: usize) -> Vec<f64> {
        self.variances
            .iter()
            .map(|&v| {
                let c = 1.0 - h / (2.0 * v);
                if !(v > 0.0 && h > 0.0 && c.abs() <= 1.0) {
                    return 0.0;
                }
                let phase = leapfrog as f64 * c.acos();
                if phase > FRAC_PI_2 { 0.0 } else { phase.cos() }
            })
            .collect()
    }

    /// Mean E2 and share above [`E2_CLAIM`] after `samples` samples, (DIAG.15).
    pub fn predict(&self, h: f64, leapfrog: usize, samples: f64) -> Option<StepPrediction> {
        let a = self.autocorrelations(h, leapfrog);
        let v = &self.variances;
        if a.iter().any(|x| !(x.abs() < 1.0)) || !(samples > 0.0) {
            return None;
        }
        let sum_over_lags = |k: usize, l: usize| (1.0 + a[k] * a[l]) / (1.0 - a[k] * a[l]);
        let slowest_time = a.iter().map(|x| (1.0 + x) / (1.0 - x)).fold(1.0, f64::max);
        let (mean_e2, share) = axis_law_e2(&self.axes, v, &self.truth, sum_over_lags, |k| v[k] * (1.0 + a[k]) / (1.0 - a[k]), samples).ok()?;
        Some(StepPrediction { mean_e2, share, slowest_time })
    }

    /// The sample count at which the prediction first keeps the promise (bisection on a log scale;
    /// the error only falls with more samples), at most 10⁹.
    pub fn samples_keeping(&self, h: f64, leapfrog: usize) -> f64 {
        let keeps = |t: f64| self.predict(h, leapfrog, t).is_some_and(|p| p.share <= FAILURE_SHARE);
        crate::defaults::smallest_where(REFERENCE_SAMPLES, 1e9, keeps).unwrap_or(1e9)
    }

    /// The prediction at (h, L) and the samples it needs, where more than [`FAILURE_SHARE`] of runs
    /// fail; memoised for the last setting (the struct's `memo`).
    pub fn failing_prediction(&self, h: f64, leapfrog: usize) -> Option<(StepPrediction, f64)> {
        let key = (h.to_bits(), leapfrog);
        let mut memo = self.memo.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((k, value)) = *memo {
            if k == key {
                return value;
            }
        }
        let value = self.predict(h, leapfrog, REFERENCE_SAMPLES).filter(|p| p.share > FAILURE_SHARE).map(|p| (p, self.samples_keeping(h, leapfrog)));
        *memo = Some((key, value));
        value
    }

    /// The warning when more than [`FAILURE_SHARE`] of runs are predicted above [`E2_CLAIM`] after
    /// 5,000 samples: beside the slider moved off its derived default (that default the remedy),
    /// else beside the step slider with the sample count the law asks for.
    pub fn warning(&self, sampler: &str, specs: &'static [ParamSpec], params: &ParamValues, derived: &[DerivedParam]) -> Option<SettingWarning> {
        let (h, leapfrog) = StepLaw::step_of(sampler, params)?;
        let (p, needed) = self.failing_prediction(h, leapfrog)?;
        let (spec, default) = crate::mixing_meter::culprit(specs, params, derived);
        let remedy = self.remedy(sampler, specs, params, spec, default, needed);
        let travel = h.sqrt() * leapfrog as f64;
        let widest = self.variances.iter().copied().fold(0.0, f64::max).sqrt();
        let text = format!(
            "{remedy}: {} against a widest sd of {}, predicted E2 above {E2_CLAIM} in {}{:.0} % of runs of 5,000 samples (at most {:.0} %).{}",
            move_in_slider_terms(sampler, params, travel),
            show(widest),
            if self.gaussian { "" } else { "at least " },
            100.0 * p.share,
            100.0 * FAILURE_SHARE,
            if self.gaussian { String::new() } else { format!(" The law does not see this target's tails: running longer needs more than {} samples.", show(needed)) }
        );
        let detail = format!(
            "Predicted by the step law (docs/diagnostics.md §14): each proposal moves the chain about {} (the unadjusted {} on the target's Gaussian summary), so it relaxes along its widest axis (sd {}) over about {} samples; the covariance error E2 after 5,000 samples is {} on average and above {E2_CLAIM} in {}{:.0} % of runs (the promise: at most {:.0} %). Metropolis–Hastings rejections and the target's own tails, left out, only slow it further: at this setting it needs at least {} samples{}.",
            show(travel),
            if sampler == "mala" { "Langevin step" } else { "leapfrog trajectory" },
            show(widest),
            show(p.slowest_time),
            show(p.mean_e2),
            if self.gaussian { "" } else { "at least " },
            100.0 * p.share,
            100.0 * FAILURE_SHARE,
            show(needed),
            if self.gaussian { "" } else { ", a lower bound only on this non-Gaussian target, whose tails the law's Gaussian summary leaves out" }
        );
        Some(SettingWarning { param: spec.name, failure: Failure::Mixing, text, detail })
    }
}

impl StepLaw {
    /// The remedy to name instead of "set back to the default" where the law predicts the slider's
    /// derived default itself fails (a set-back remedy must keep the promise): used for the step
    /// law's own warning and for §8's measured one on the same chain (src/chain/promise_count.rs).
    /// None where the culprit slider is at its default or its default keeps.
    pub fn remedy_instead_of_default(&self, sampler: &str, specs: &'static [ParamSpec], params: &ParamValues, derived: &[DerivedParam]) -> Option<String> {
        let (spec, default) = crate::mixing_meter::culprit(specs, params, derived);
        let v = default?;
        let needed = || StepLaw::step_of(sampler, params).map_or(1e9, |(h, l)| self.samples_keeping(h, l));
        (!self.keeps_at(sampler, specs, params, spec, v)).then(|| self.remedy(sampler, specs, params, spec, None, needed()))
    }

    /// The law keeps the promise with `spec` set to `v` and the other sliders as they are.
    fn keeps_at(&self, sampler: &str, specs: &'static [ParamSpec], params: &ParamValues, spec: &ParamSpec, v: f64) -> bool {
        let mut at = params.clone();
        at.set(specs, spec.name, v).is_ok() && StepLaw::step_of(sampler, &at).and_then(|(h, l)| self.predict(h, l, REFERENCE_SAMPLES)).is_some_and(|p| p.share <= FAILURE_SHARE)
    }

    /// What the warning opens with: the slider moved off its derived default, set back, where the
    /// law keeps the promise at that default; else, on a Gaussian posterior (the law exact but for
    /// the rejections), the sample count the law asks for; else (the count only a lower bound) the
    /// other exact sampler that keeps the promise at its defaults, or "more than" the count.
    fn remedy(&self, sampler: &str, specs: &'static [ParamSpec], params: &ParamValues, spec: &ParamSpec, default: Option<f64>, needed: f64) -> String {
        match default {
            Some(v) if self.keeps_at(sampler, specs, params, spec, v) => format!("Set {} {} back to {} (now {})", spec.label.to_lowercase(), spec.symbol, show(v), show(params.get(spec.name))),
            _ if self.gaussian => format!("Let it run to at least {} samples", show(needed)),
            _ => match self.other {
                Some(other) => format!("Choose {other} in the Sampler menu"),
                None => format!("Let it run to more than {} samples", show(needed)),
            },
        }
    }
}

/// The other exact sampler (in [`SAMPLERS`]) that runs on `model` without a pairing warning and
/// whose derived defaults keep the promise by its step law: the remedy named where the law's count
/// is only a lower bound, and by a stochastic-gradient sampler's measured warning on a target
/// without a Gaussian summary (src/chain/promise_count.rs). Its label, as the Sampler menu shows it.
pub fn other_that_keeps(own: &str, model: &dyn Model) -> Option<&'static str> {
    SAMPLERS.iter().filter(|s| **s != own).find_map(|name| {
        let spec = crate::registry::sampler(name).ok()?;
        if crate::pairing::pairing_warning(name, model).is_some() {
            return None;
        }
        let mut params = ParamValues::defaults(spec.params);
        for d in (spec.derive)(model, &params) {
            params.set(spec.params, d.name, d.default).ok()?;
        }
        let (h, leapfrog) = StepLaw::step_of(name, &params)?;
        let law = StepLaw::of_covariance(crate::linalg::rows_to_matrix(&model.exact_moments()?.cov));
        let keeps = law.predict(h, leapfrog, REFERENCE_SAMPLES).is_some_and(|p| p.share <= FAILURE_SHARE);
        let runs = (spec.build)(&params, model, &model.initial_point()).unsupported_reason().is_none();
        (keeps && runs).then_some(spec.label)
    })
}

/// The move of one proposal said in the step slider's own quantity (the slider reads ε, and MALA
/// moves √ε, HMC ε·L; (DIAG.14)): "ε = 0.0441 moves √ε = 0.21 a step" or "ε = 0.05 × L = 17 moves
/// ε·L = 0.85 a trajectory".
fn move_in_slider_terms(sampler: &str, params: &ParamValues, travel: f64) -> String {
    match (sampler, params.try_get("hmc_step"), params.try_get("leapfrog_steps")) {
        ("hmc", Some(eps), Some(l)) => format!("ε\u{a0}=\u{a0}{} × L\u{a0}=\u{a0}{} moves ε·L\u{a0}=\u{a0}{} a trajectory", show(eps), show(l.round().max(1.0)), show(travel)),
        _ => format!("ε\u{a0}=\u{a0}{} moves √ε\u{a0}=\u{a0}{} a step", show(params.try_get("mala_step").unwrap_or(travel * travel)), show(travel)),
    }
}

/// The exact sampler a stochastic-gradient sampler's measured warning names instead of a set-back
/// or a sample count, on a target without a Gaussian summary (the banana, Neal's funnel): no law
/// says that the slider's derived default, or any sample count the run measures, keeps the
/// promise there (banana × SGHMC: 35–40 of 40 runs over 0.3 at every minibatch size, the full
/// batch included, docs/diagnostics.md §8), while the exact sampler named keeps it at its defaults
/// by its step law ([`other_that_keeps`]; HMC measured on both: 2/40 and 0/40 runs
/// over 0.3, tests/toy_sweep.rs). None elsewhere.
pub fn exact_remedy(sampler: &crate::spec::SamplerSpec, model: &dyn crate::model::Model) -> Option<&'static str> {
    let applies = sampler.kind == crate::spec::SamplerKind::StochasticGradient && model.gaussian_precision().is_none();
    applies.then(|| other_that_keeps(sampler.name, model)).flatten()
}
