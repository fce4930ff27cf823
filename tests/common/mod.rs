//! Shared by the statistical tests of the derived defaults (tests/pairings.rs,
//! tests/sgld_defaults.rs): the truth of a target at its default settings, and the switch to the
//! long runs of `make soak`.

#![allow(dead_code)]

use sgviz::diagnostics::Moments;
use sgviz::registry;
use sgviz::truth::{truth_for, ReferenceRun};

/// Whether this is the long run of `make soak` (`SGVIZ_PAIRINGS=soak`).
pub fn soak() -> bool {
    std::env::var("SGVIZ_PAIRINGS").is_ok_and(|v| v == "soak")
}

/// The truth and its own error bound per mean and covariance entry.
pub struct Reference {
    pub moments: Moments,
    pub mean_error: Vec<f64>,
    pub cov_error: Vec<Vec<f64>>,
}

impl Reference {
    /// A truth with the same error bound on every entry (closed form: 0; grid: its h/2h bound).
    pub fn uniform(moments: Moments, error: f64) -> Reference {
        let d = moments.mean.len();
        Reference { moments, mean_error: vec![error; d], cov_error: vec![vec![error; d]; d] }
    }
}

/// The truth of `target` at its default settings (src/truth.rs's sources, cheapest first).
pub fn reference(target: &str) -> Reference {
    reference_with(target, &[])
}

/// The truth of `target` with some of its parameters set.
pub fn reference_with(target: &str, settings: &[(&str, f64)]) -> Reference {
    let spec = registry::target(target).unwrap();
    let mut values = sgviz::params::ParamValues::defaults(spec.params);
    for (name, value) in settings {
        values.set(spec.params, name, *value).unwrap();
    }
    let model = (spec.build)(&values, None).unwrap();
    let truth = truth_for(model.as_ref());
    if let Some(moments) = truth.moments {
        return Reference::uniform(moments, truth.error_bound);
    }
    // D > 2 without a closed form: a preconditioned exact MALA run (src/truth.rs); its error is
    // twice its Monte-Carlo standard errors (for a covariance entry, of the two variances'
    // geometric mean).
    let samples = if soak() { 400_000 } else { 100_000 };
    let mut run = ReferenceRun::new(model, 7, 20_000, samples);
    run.advance(u64::MAX);
    let r = run.result().expect("the reference run records samples");
    let cov_error = r.variance_mcse.iter().map(|a| r.variance_mcse.iter().map(|b| 2.0 * (a * b).sqrt()).collect()).collect();
    Reference { mean_error: r.mean_mcse.iter().map(|e| 2.0 * e).collect(), cov_error, moments: r.moments }
}

