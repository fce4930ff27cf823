//! A chain's live promise (issue 21): the predictor of its sampler on its target (src/promise.rs),
//! its derived defaults kept within the promise, and the setting warning at its current parameters,
//! recomputed when a slider moves; where no single slider can keep it, the joint search and the
//! sampler to switch to (src/promise_reach.rs). docs/diagnostics.md §7 and §15.

use crate::defaults::{BIAS_E2, E2_CLAIM, REFERENCE_SAMPLES};
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::promise::{keep_promise_at_defaults, nearest_fix, show, Prediction, Predictor, Validity, FAILURE_SHARE};
use crate::readable::percent_above;
use crate::setting_warning::{Failure, SettingWarning};
use crate::spec::DerivedParam;

/// A chain's promise: the predictor of its sampler on its target and the warning at its current
/// parameters, recomputed when a slider moves.
pub struct LivePromise {
    predictor: Option<Predictor>,
    warning: Option<SettingWarning>,
    measured: bool,
}

/// The Langevin-type sampler a "no setting keeps the promise" warning names (src/promise_reach.rs),
/// found only when a warning needs it (it may scan the target's curvature: 40–50 ms native on the
/// banana and the funnel, which a chain that never warns so should not pay on the page's main
/// thread) and memoised per sampler and target.
fn instead_of(predictor: &Predictor, sampler: &str, model: &dyn Model) -> Option<&'static str> {
    thread_local! {
        static INSTEAD: std::cell::RefCell<Vec<(Vec<u64>, Option<&'static str>)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    crate::defaults::memoised(&INSTEAD, predictor.key(), || crate::promise_reach::sampler_that_keeps(sampler, model))
}

/// The sampler's own derived defaults as a fresh chain starts them, where they keep the promise
/// (src/promise_reach.rs `defaults_that_keep`), memoised per sampler and target as [`instead_of`].
fn own_defaults(predictor: &Predictor, sampler: &str, model: &dyn Model) -> Option<ParamValues> {
    thread_local! {
        static OWN: std::cell::RefCell<Vec<(Vec<u64>, Option<ParamValues>)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    crate::defaults::memoised(&OWN, predictor.key(), || crate::promise_reach::defaults_that_keep(sampler, model))
}

impl LivePromise {
    /// The promise of a new chain. Derived defaults the user did not set (`explicit` false) that
    /// break the promise move to the nearest value that keeps it (one slider, [`nearest_fix`]): the
    /// derivations' own criteria (src/defaults.rs) use a per-direction view of the law and can land
    /// just outside it (SGLD and SGFS-f at E2 bias ≈ 0.10–0.12 on the Gaussian toy, SGFS-d at 0.21).
    pub fn new(sampler: &crate::spec::SamplerSpec, model: &dyn Model, params: &mut ParamValues, derived: &mut [DerivedParam], explicit: impl Fn(&str) -> bool) -> LivePromise {
        let predictor = Predictor::new(sampler.name, model);
        // Measured wherever no law predicts the error after 5,000 samples: samplers without a law
        // (MALA, HMC, the bouncy family) on every target, law samplers on targets without a
        // Gaussian summary or with a state too large for the error law (docs/diagnostics.md §8).
        let measured = predictor.as_ref().is_none_or(|p| !p.predicts_mixing());
        let mut live = LivePromise { predictor, warning: None, measured };
        let Some(predictor) = &live.predictor else { return live };
        let instead = || instead_of(predictor, sampler.name, model);
        let own = || own_defaults(predictor, sampler.name, model);
        // Chains of one setting on one target (seeds, compare mode, rebuilds) share the result; a
        // worker's result can be imported into the memo (src/promise_memo.rs).
        let mut key: Vec<u64> = predictor.key();
        key.extend(params.iter().map(|(_, v)| v.to_bits()));
        key.extend(derived.iter().flat_map(|d| [d.default.to_bits(), u64::from(explicit(d.name))]));
        let (fixed, defaults, warning) = crate::promise_memo::memoised(key, || {
            let (mut p, mut d) = (params.clone(), derived.to_vec());
            keep_promise_at_defaults(predictor, sampler, &mut p, &mut d, &explicit);
            let warning = setting_warning(predictor, sampler.params, &p, &d, &instead, &own);
            (p, d.iter().map(|d| d.default).collect(), warning)
        });
        *params = fixed;
        derived.iter_mut().zip(defaults).for_each(|(d, v)| d.default = v);
        live.warning = warning;
        live
    }

    /// The warning after a slider move; `estimate_kept`: the chain's Fisher estimate is already
    /// nonsingular (src/promise.rs `Predictor::keep_estimate`).
    pub fn update(&mut self, sampler: &crate::spec::SamplerSpec, model: &dyn Model, params: &ParamValues, derived: &[DerivedParam], estimate_kept: bool) {
        if let Some(p) = self.predictor.as_mut() {
            p.keep_estimate(estimate_kept);
        }
        self.warning = self.predictor.as_ref().and_then(|p| setting_warning(p, sampler.params, params, derived, &|| instead_of(p, sampler.name, model), &|| own_defaults(p, sampler.name, model)));
    }

    pub fn warning(&self) -> Option<&SettingWarning> {
        self.warning.as_ref()
    }

    /// Whether src/mixing_meter.rs measures this chain: no law predicts its error after 5,000
    /// samples (docs/diagnostics.md §8).
    pub fn measures(&self) -> bool {
        self.measured
    }

    /// Whether a law predicts this chain's bias (then src/noise_law.rs's measured law is not needed).
    pub fn predicts_bias(&self) -> bool {
        self.predictor.is_some()
    }
}


/// The setting warning of the promise at `params` (module docs), naming the slider to move; where
/// no single slider can, the sliders to set together or, if no setting can, `instead` (the
/// sampler to switch to, src/promise_reach.rs).
pub fn setting_warning(predictor: &Predictor, specs: &'static [ParamSpec], params: &ParamValues, derived: &[DerivedParam], instead: &dyn Fn() -> Option<&'static str>, own: &dyn Fn() -> Option<ParamValues>) -> Option<SettingWarning> {
    let (failure, what, reason) = match predictor.predict(params) {
        Err(why) if why.starts_with("unstable") || why == crate::law_validity::NOT_SAMPLING => (Failure::Bias, format!("the chain is {why}."), format!("the chain is {why}.")),
        Err(_) => return None,
        Ok(now) => (now.failure()?, failure_text(&now), short_reason(&now)),
    };
    let fix = nearest_fix(predictor, specs, params, derived);
    // A remedy that reads as the current value ("to 1.63 (now 1.63)") cannot be acted on: the
    // setting sits on the promise's boundary within the digits shown (issue 21/26, review s42).
    if fix.is_some_and(|(spec, value)| show(value) == show(params.get(spec.name))) {
        return None;
    }
    let basis = if predictor.exact() { "exact law on this Gaussian" } else { "law of the chain linearised on the target's Gaussian summary, approximate" };
    let (param, text, reach) = match fix {
        Some((spec, value)) => (spec.name, format!("Set {} {} to {} (now {}): {reason}", spec.label.to_lowercase(), spec.symbol, show(value), show(params.get(spec.name))), String::new()),
        None => {
            let joint = crate::promise_reach::no_single_slider(predictor, specs, params, derived, instead, own);
            let switch = joint.switch.unwrap_or_default();
            (joint.param.unwrap_or_else(|| first_primary(specs, params)), format!("{}: {reason}{switch}", joint.lead), joint.reach)
        }
    };
    Some(SettingWarning { param, failure, text, detail: format!("Predicted from the sampler's {basis}: {what}{reach}") })
}

/// The one short reason a warning gives after its remedy.
fn short_reason(now: &Prediction) -> String {
    if let Some(text) = not_reached(now) {
        return text;
    }
    match now.failure() {
        Some(Failure::Bias) if now.validity == Validity::OutsideSummary => format!("biased: however long it runs, E2 stays above the {BIAS_E2} allowed (by how much, no law here says: see E2 measured on screen)."),
        Some(Failure::Bias) => match shown_above(now.bias, BIAS_E2) {
            Some(bias) => format!("biased: however long it runs, E2 stays at {bias}, above the {BIAS_E2} allowed."),
            None => format!("biased: however long it runs, E2 stays just above the {BIAS_E2} allowed."),
        },
        _ => format!("E2 above {E2_CLAIM} in {} % of runs of {} samples (at most {:.0} %).", stated_share(now), show(REFERENCE_SAMPLES), 100.0 * FAILURE_SHARE),
    }
}

/// `value` (above `limit`) with the digits it takes to read as above it: a bias of 0.10004 is
/// "0.10004", not "0.1" beside "above the 0.1 allowed" (issue 26: "E2 = 0.1 … (at most 0.1 kept)");
/// None where even 7 significant digits round onto the limit.
fn shown_above(value: f64, limit: f64) -> Option<String> {
    let three = show(value);
    if !(value.is_finite() && value > limit && value < 1e3) || three.parse::<f64>().is_ok_and(|v| v > limit) {
        return Some(three);
    }
    let magnitude = value.abs().log10().floor() as i32;
    (4..=7)
        .map(|digits| {
            let text = format!("{value:.*}", (digits - 1 - magnitude).max(0) as usize);
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        })
        .find(|text| text.parse::<f64>().is_ok_and(|v| v > limit))
}

/// The share of failing runs a mixing warning states. Where the prediction is the lower end of a
/// bracket (src/promise.rs `predict`: F at the mean and averaged over the posterior), only that the
/// promise is broken: "more than 10". Both ends' shares overstate the runs' (mixture × SGLD at
/// ε = 0.0128, docs/diagnostics.md §7 s45 addendum), so no share of theirs is a bound.
fn stated_share(now: &Prediction) -> String {
    if now.lower_bound {
        format!("more than {:.0}", 100.0 * FAILURE_SHARE)
    } else {
        percent_above(now.failure_share, FAILURE_SHARE)
    }
}

/// The reason a setting fails when a run of 5,000 samples has not spread to the law (V2 of
/// src/law_validity.rs): no number of the law is what the screen shows, the relaxation time is.
fn not_reached(now: &Prediction) -> Option<String> {
    let Validity::NotReached { relaxation, .. } = now.validity else { return None };
    // An unbounded relaxation time (ρ at 1 within the radius's precision) has no number to show.
    let span = if relaxation.is_finite() { format!("it relaxes over about {} steps", show(relaxation.round())) } else { "its slowest direction does not relax at this setting".to_string() };
    (now.failure() == Some(Failure::Mixing)).then(|| format!("too slow: {span}, so {} samples show where it started, not its law.", show(REFERENCE_SAMPLES)))
}

/// What a broken promise means, in numbers.
fn failure_text(now: &Prediction) -> String {
    if let Some(text) = not_reached(now) {
        return format!("{text} From a start at the posterior mean its expected covariance after {} samples is off the truth by E2 ≈ {} (docs/diagnostics.md §7, V2).", show(REFERENCE_SAMPLES), match now.validity { Validity::NotReached { start_e2, .. } => show(start_e2), _ => String::new() });
    }
    match now.failure() {
        Some(Failure::Bias) if now.validity == Validity::OutsideSummary => format!(
            "the law of the chain linearised on the target's Gaussian summary puts its stationary covariance off the posterior by more than the {BIAS_E2} allowed, and that spread takes the chain where the summary does not describe the target (its gradient noise and curvature differ there), so the law's own figure ({}) is not a prediction (docs/diagnostics.md §7, V3).",
            show(now.bias)
        ),
        Some(Failure::Bias) => format!(
            "the sampler's stationary law is itself off the posterior (covariance error E2 = {} with unlimited samples, above the {BIAS_E2} the defaults keep): more samples will not help.",
            show(now.bias)
        ),
        _ if now.lower_bound => format!(
            "after {} samples the covariance error E2 is above {E2_CLAIM} in more than {:.0} % of runs (the promise's limit) at both ends of the law's bracket (the Fisher information taken at the posterior mean and averaged over the posterior, docs/diagnostics.md §7); how many more, neither end says: their shares overstate the runs'. The failure is Monte Carlo error that more samples reduce.",
            show(REFERENCE_SAMPLES),
            100.0 * FAILURE_SHARE
        ),
        _ => format!(
            "after {} samples the covariance error E2 is predicted at {} on average and above {E2_CLAIM} in {} % of runs (the promise: at most {:.0} %); its bias alone is {}, the rest is Monte Carlo error that more samples reduce.",
            show(REFERENCE_SAMPLES),
            show(now.mean_e2),
            percent_above(now.failure_share, FAILURE_SHARE),
            100.0 * FAILURE_SHARE,
            show(now.bias)
        ),
    }
}

fn first_primary(specs: &'static [ParamSpec], params: &ParamValues) -> &'static str {
    specs.iter().find(|s| s.primary && s.visible_if.is_none_or(|w| w.holds(params))).map_or(specs[0].name, |s| s.name)
}

