//! What the promise's "5,000 samples" counts on a chain, and the chain's setting warning that reads
//! it (issue 21; split from src/chain/mod.rs to keep that file within 600 lines).
//!
//! For a discrete-time sampler a sample is a recorded step, the page's "samples" counter. For the
//! bouncy family (BPS, SBPS, pSBPS, lipSBPS) it is an event: one step of the sampler, one
//! (minibatch) gradient evaluation, the page's "steps" counter since the last slider move. Their
//! recorded points are the path drawn at equal times (about 16 per event on the Gaussian toy at
//! the default spacing, fewer than one per event on the logistic regression at k = 10): a drawing
//! resolution, not a count of draws. docs/diagnostics.md §17 and
//! docs/diagnostics.md §8 say the same.

use super::Chain;
use crate::registry::SamplerKind;

impl Chain {
    /// Steps since the statistics were last cleared (0 during burn-in).
    pub fn steps_since_clear(&self) -> u64 {
        self.steps.saturating_sub(self.steps_at_clear)
    }

    /// What the promise counts since the last slider move: recorded samples for a discrete-time
    /// sampler, events (steps) for the bouncy family (module doc).
    pub fn promise_samples(&self) -> u64 {
        if self.sampler_spec.kind == SamplerKind::Bouncy {
            self.steps_since_clear()
        } else {
            self.samples_since_clear()
        }
    }

    /// Promise units per recorded point since the last clear: 1 for a discrete-time sampler,
    /// events per path point for the bouncy family.
    fn promise_units_per_point(&self) -> f64 {
        if self.sampler_spec.kind == SamplerKind::Bouncy {
            self.steps_since_clear() as f64 / self.samples_since_clear().max(1) as f64
        } else {
            1.0
        }
    }

    /// What fails at the current setting, with the slider that causes it (issue 21).
    pub fn setting_warning(&self) -> Option<crate::setting_warning::SettingWarning> {
        let (n, p, specs) = (self.samples_since_clear(), &self.sampler_params, self.sampler_spec.params);
        let noise_law = || if self.promise.predicts_bias() { None } else { crate::noise_law::noise_warning(&self.samples, n, self.model.as_ref(), specs, p, &self.derived) };
        let units = self.promise_units_per_point();
        // A set-back remedy must keep the promise: where the step law predicts the slider's
        // derived default fails too (MALA on the funnel), the measured warning names the step
        // law's remedy instead (src/step_law.rs `remedy_instead_of_default`).
        // On a target without a Gaussian summary no law vouches for a stochastic-gradient
        // sampler's default or sample count: its measured warning names the exact sampler that
        // keeps the promise there at its defaults (src/step_law.rs `exact_remedy`).
        let instead = || self.step_law.as_ref().and_then(|law| law.remedy_instead_of_default(self.sampler_spec.name, specs, p, &self.derived)).or_else(|| self.exact_remedy.map(|label| format!("Choose {label} in the Sampler menu")));
        let measured = || noise_law().or_else(|| crate::mixing_meter::measured_warning(&self.samples, n, units, specs, p, &self.derived, instead()));
        let refresh = || self.refresh_law.as_ref().and_then(|law| law.warning(self.sampler_spec.name, specs, p, &self.derived, self.steps_since_clear(), n as f64 * self.sample_spacing));
        let step = || self.step_law.as_ref().and_then(|law| law.warning(self.sampler_spec.name, specs, p, &self.derived));
        // Where the sampler's own pairing law already warns that the path is too short (lipSBPS's
        // bound law, src/bound_law.rs; any sampler whose own pairing law fires, not the separated
        // modes' warning, which speaks of the target), the measured signal's "let it run to about
        // N" is not shown: it reads a path too short to see its own slowness (lipSBPS at its
        // defaults on the logistic regression: it asks for 8,400–25,100 events; 20,000 fail in
        // 37/40 runs, docs/diagnostics.md §16).
        let measures = self.promise.measures() && !self.own_pairing_law;
        self.sampler.setting_warning().or_else(|| self.promise.warning().cloned()).or_else(refresh).or_else(step).or_else(|| if measures { measured() } else { None })
    }
}

