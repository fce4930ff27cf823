//! A chain's divergence check after each step, and the advice it gives: what to change, naming
//! the sampler's own control (split from src/chain/mod.rs to keep that file within 600 lines).

use super::Chain;
use crate::registry::{SamplerKind, SamplerSpec};

impl Chain {
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
        let advice = self.sampler.divergence_advice().map_or_else(|| divergence_advice(self.sampler_spec, &self.sampler_params), str::to_string);
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
