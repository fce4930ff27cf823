//! Truths computed ahead and shipped with the page (docs/truth.md §7): the exact MALA reference of
//! the d = 20 logistic regression at its defaults, which four SBPS figures use, costs 4.8 CPU s in
//! the page's wasm, more than a slide's 20 s on a loaded machine. The stored run is a
//! [`ReferenceRun`] with a larger budget than the page's; it is used only for a model whose log
//! density at the stored mean is the stored value (same data, prior and code), else the page runs
//! its own reference as before.

use crate::model::Model;
use crate::truth::{ReferenceResult, ReferenceRun, Truth};
use serde::{Deserialize, Serialize};

/// The stored truths, one JSON object each.
const SHIPPED: &[&str] = &[include_str!("../data/truth_logreg_dd.json")];

/// Largest relative difference between the stored and today's log density at the stored mean
/// (wasm's and the native libm's exp/ln may differ in the last bit; any change of data or prior
/// moves it by far more).
const FINGERPRINT_TOLERANCE: f64 = 1e-9;

/// A reference run computed ahead, with its provenance.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShippedTruth {
    /// The page's truth key (src/lab/mod.rs `truth_key`) of the settings it was computed for.
    pub key: String,
    pub generator: String,
    pub seed: u64,
    pub warm_up: u64,
    pub samples: u64,
    pub commit: String,
    pub cpu_seconds: f64,
    /// log π at the stored mean, of the model the run sampled.
    pub log_density_at_mean: f64,
    pub result: ReferenceResult,
}

impl ShippedTruth {
    /// Whether `model` is the model this run sampled (its log density at the stored mean agrees).
    pub fn matches(&self, model: &dyn Model) -> bool {
        let today = model.log_density(&self.result.moments.mean);
        (today - self.log_density_at_mean).abs() <= FINGERPRINT_TOLERANCE * self.log_density_at_mean.abs().max(1.0)
    }

    /// The truth the page shows: the run's moments and errors, saying it was computed ahead.
    pub fn truth(&self) -> Truth {
        let mut truth = self.result.to_truth();
        truth.error = truth.error.replacen("MALA reference", "MALA reference computed ahead for these settings", 1);
        truth
    }
}

/// Every stored truth, parsed once: the page looks here at every truth-cache miss (src/lab/truth.rs
/// `refresh_truth`), most of them for other settings.
fn parsed() -> &'static [ShippedTruth] {
    static PARSED: std::sync::OnceLock<Vec<ShippedTruth>> = std::sync::OnceLock::new();
    PARSED.get_or_init(|| SHIPPED.iter().map(|text| serde_json::from_str(text).expect("data/truth_*.json parses")).collect())
}

/// Every stored truth.
pub fn all() -> Vec<ShippedTruth> {
    parsed().to_vec()
}

/// The stored truth for `key`, if one exists and was computed on `model`.
pub fn for_key(key: &str, model: &dyn Model) -> Option<Truth> {
    parsed().iter().find(|s| s.key == key && s.matches(model)).map(ShippedTruth::truth)
}

/// Run the reference a stored truth holds (the generator of data/truth_*.json, and the soak
/// test's recomputation of it).
pub fn generate(key: &str, model: Box<dyn Model>, seed: u64, warm_up: u64, samples: u64) -> ShippedTruth {
    let mut run = ReferenceRun::new(model, seed, warm_up, samples);
    while !run.advance(10_000).finished {}
    let result = run.result().expect("a finished run has batch means");
    ShippedTruth {
        key: key.into(),
        generator: "src/truth_shipped.rs generate: src/truth.rs ReferenceRun (preconditioned MALA, step and metric adapted in warm-up, then frozen)".into(),
        seed,
        warm_up,
        samples,
        commit: String::new(),
        cpu_seconds: 0.0,
        log_density_at_mean: run.model().log_density(&result.moments.mean),
        result,
    }
}
