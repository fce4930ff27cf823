//! A chain's divergence check after each step, and the advice it gives: what to change, naming
//! the sampler's own control; and its runaway watch against the truth (src/runaway.rs), which
//! since issue 21's s49 pass also watches the stochastic-gradient samplers (split from
//! src/chain/mod.rs to keep that file within 600 lines).

use super::{Chain, Runaway};
use crate::diagnostics::Moments;
use crate::registry::{SamplerKind, SamplerSpec};
use crate::runaway::{inner_radius, runaway_message, RunawayWatch, STOCHASTIC_GRADIENT_CONFIRM_SD};

impl Chain {
    /// Watch for runaways against the truth's moments (no-op for the exact samplers, MALA and
    /// HMC, or when the truth's covariance is singular). Forgets a current excursion.
    ///
    /// A stochastic-gradient chain can settle far outside the truth's mass and never come back
    /// (SGHMC at η's max on logreg_sgfs: E2 ≈ 4·10⁴, finite, below the divergence bound; issue 21,
    /// docs/diagnostics.md §7 "s49"), so its watch is armed at once when its start lies inside
    /// the bulk: leaving from there is an excursion, not the way in from a distant start.
    pub fn watch_for_runaway(&mut self, truth: &Moments) {
        if self.sampler_spec.kind == SamplerKind::Exact || truth.mean.len() != self.model.dim() {
            return;
        }
        self.watch = RunawayWatch::new(truth);
        self.excursion = None;
        if let (Some(watch), SamplerKind::StochasticGradient) = (self.watch.as_mut(), self.sampler_spec.kind) {
            watch.armed = watch.distance(&self.start) <= inner_radius(self.model.dim());
            watch.confirm_radius = watch.confirm_radius.max(STOCHASTIC_GRADIENT_CONFIRM_SD);
        }
    }

    /// The confirmed runaway, if any: when it began, how far it went, what to do. A
    /// stochastic-gradient chain that then diverged shows its divergence alone (the same advice).
    pub fn runaway(&self) -> Option<Runaway> {
        let e = self.excursion.as_ref().filter(|e| e.confirmed)?;
        let stochastic = self.sampler_spec.kind == SamplerKind::StochasticGradient;
        if stochastic && self.status != super::ChainStatus::Running {
            return None;
        }
        let advice = stochastic.then(|| self.divergence_advice());
        Some(Runaway { since_step: e.since_step, distance_sd: e.distance, message: runaway_message(self.sampler_spec.name, advice.as_deref(), e.since_step, e.distance) })
    }

    /// What to change after a divergence or a stochastic-gradient runaway: the sampler's own
    /// advice, else its main control named.
    fn divergence_advice(&self) -> String {
        self.sampler.divergence_advice().map_or_else(|| divergence_advice(self.sampler_spec, &self.sampler_params), str::to_string)
    }
    pub(super) fn check_divergence(&self) -> Result<(), String> {
        let theta = self.sampler.position();
        // Fast path (one pass, no formatting): a NaN fails the comparison and takes the slow path.
        if theta.iter().all(|x| x.abs() <= self.divergence_bound) {
            return Ok(());
        }
        let what = if theta.iter().any(|x| !x.is_finite()) {
            "the state became non-finite".to_string()
        } else if theta.iter().any(|x| x.abs() > self.divergence_bound) {
            format!("the state ran away beyond {}", crate::promise::show(self.divergence_bound))
        } else {
            return Ok(());
        };
        let advice = self.divergence_advice();
        Err(format!("diverged at step {}: {what}. {advice}", crate::sgais::format::group_digits(self.steps as f64, 0)))
    }
}

/// What to change after a divergence, naming the sampler's own control (registry: its main
/// knob, e.g. SGHMC's learning rate η, not SGLD's ε), the first one shown at these settings
/// (issue 26: a decreasing-step SGLD run names the schedule scale a; ε's slider is hidden then).
fn divergence_advice(spec: &SamplerSpec, values: &crate::params::ParamValues) -> String {
    let shown = spec.params.iter().find(|p| p.name != "batch_size" && p.choices.is_empty() && p.visible_if.as_ref().is_none_or(|w| w.holds(values)));
    match (spec.kind, shown.or_else(|| crate::params::main_knob(spec.params))) {
        (SamplerKind::Bouncy, _) => "The event-time bound is too loose for this target — raise the band multiple k or the minibatch size, and press Reset.".into(),
        (_, Some(knob)) => format!("The {} is too large for this target — reduce {} (the “{}” slider) and press Reset.", knob.label.to_lowercase(), knob.symbol, knob.label),
        (_, None) => "The step is too large for this target — reduce it and press Reset.".into(),
    }
}
