//! A panel's state as JSON (counters, moments, errors against the truth, status, diagnostics,
//! parameters, the predicted law), cheap enough for every frame, and the predicted law it reads.

use super::Lab;
use crate::chain::ChainStatus;
use crate::diagnostics::{relative_errors, Moments};
use crate::law::Law;
use crate::promise::drawn_law;
use serde_json::{json, Value};

impl Lab {
    /// Counters, moments, errors against the truth, status, diagnostics and parameters (cheap:
    /// fine to call every frame).
    pub fn state(&self) -> Value {
        let chain = &self.chain;
        let m = chain.moments();
        let ring = chain.samples();
        let diagnostics: Vec<Value> =
            chain.diagnostics().iter().map(|d| json!({"name": d.name, "label": d.label, "value": finite(d.value), "help": crate::diagnostic_help::help(d.name)})).collect();
        let errors = self.truth.moments.as_ref().filter(|_| chain.n_recorded() > 1).map(|t| relative_errors(&m, t));
        json!({
            "steps": chain.steps(),
            "n_samples": chain.samples_since_clear(),
            // What the 5,000-sample promise counts since the last slider move: samples, or events
            // for the bouncy family (src/chain/promise_count.rs); the page's quick counter shows it.
            "promise_count": chain.promise_samples(),
            "promise_unit": if chain.sampler_spec().kind == crate::registry::SamplerKind::Bouncy { "events" } else { "samples" },
            "n_recorded": chain.n_recorded(),
            "retained": ring.len(),
            "grad_evals": chain.grad_evals(),
            "mean": m.mean.iter().map(|x| finite(*x)).collect::<Vec<_>>(),
            "cov": m.cov.iter().map(|r| r.iter().map(|x| finite(*x)).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "position": chain.position().iter().map(|x| finite(*x)).collect::<Vec<_>>(),
            "diverged": match chain.status() { ChainStatus::Running => Value::Null, ChainStatus::Diverged(msg) => json!(msg) },
            "runaway": chain.runaway(),
            "diagnostics": diagnostics,
            "truth": self.truth.moments,
            "truth_source": self.truth.source,
            "truth_error": self.truth.error,
            "truth_pending": self.reference.is_some() || self.awaiting_truth,
            "e1": errors.map(|e| finite(e.0)),
            "e2": errors.map(|e| finite(e.1)),
            "e1_in_sd": self.truth.moments.as_ref().is_some_and(crate::diagnostics::e1_in_posterior_sd),
            "pair": [self.pair.0, self.pair.1],
            "start": chain.start().iter().map(|x| finite(*x)).collect::<Vec<_>>(),
            "restarts": chain.restarts(),
            "dim": chain.model().dim(),
            "names": chain.model().coordinate_names(),
            "n_data": chain.model().n_data(),
            "has_data": self.config.data.is_some(),
            "outside": self.density.outside(),
            "target_params": chain.target_params().to_json(),
            "sampler_params": chain.sampler_params().to_json(),
            "derived": chain.derived().iter().map(|d| (d.name.to_string(), json!(d))).collect::<serde_json::Map<_, _>>(),
            "warning": chain.warning(),
            "setting_warning": chain.setting_warning(),
            "predicted": self.with_law(|law| law.map_or(Value::Null, |l| l.to_json())),
            "predicted_reason": self.with_law(|law| law.err().cloned()),
            "heldout": self.heldout.as_ref().map_or(Value::Null, |h| h.summary()),
        })
    }

    /// The sampler's predicted law at the current settings (computed once per setting and target).
    pub fn with_law<T>(&self, f: impl FnOnce(Result<&Law, &String>) -> T) -> T {
        let key = format!("{}|{}|{}", self.chain.sampler_spec().name, self.chain.sampler_params().to_json(), self.chain.target_params().to_json());
        let mut cache = self.law.borrow_mut();
        if cache.as_ref().is_none_or(|(k, _)| *k != key) {
            let law = drawn_law(self.chain.sampler_spec().name, self.chain.sampler_params(), self.chain.model());
            *cache = Some((key, law));
        }
        f(cache.as_ref().map(|(_, l)| l.as_ref()).expect("just filled"))
    }
}

/// A law's mean and covariance as [`Moments`].
pub(super) fn law_moments(law: &Law) -> Moments {
    let d = law.cov.nrows();
    Moments { mean: law.mean.clone(), cov: (0..d).map(|a| (0..d).map(|b| law.cov[(a, b)]).collect()).collect() }
}

pub(super) fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}
