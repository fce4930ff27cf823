//! Every share a warning prints is true (issue 21): "E2 above 0.3 in p % of runs" must be the
//! share of runs that fail within the binomial spread of 40 runs, both ways, or the text must say
//! it is a lower bound ("in at least p %"), and then no smaller share may be measured. The share
//! is printed by four rules — the step law (MALA, HMC; src/step_law.rs), the refresh law (the
//! bouncy family; src/refresh_law.rs), the stochastic-gradient samplers' law (src/promise_live.rs)
//! and the measured signal (src/mixing_meter.rs) — and each is met here at a setting that triggers
//! it, on a Gaussian target where a law is exact and on the banana or the funnel where it is not.
//!
//! Oracle: the share of this file's own 40 runs × 5,000 samples (events for the bouncy family)
//! over E2 0.3 against the closed-form or quadrature truth (tests/common), never the law's number;
//! tests/common/sweep.rs `judge` checks it two-sided at P < 10⁻⁴. Measured when this was written
//! (seeds 1–40): funnel × MALA at its defaults printed the law's 16 % and 30/40 runs failed;
//! funnel × SBPS at λ_ref = 2.5 printed 24–28 % and 30/40 failed; banana × SGHMC printed its
//! per-run estimate, 20–68 %, and 38/40 failed.
//!
//! The remedy is checked where the warning names another sampler: banana × SGHMC's measured
//! warning names HMC, which at its defaults must be silent and keep the promise (`judge`).

#[path = "common/sweep.rs"]
mod sweep;
mod common;

use sgviz::chain::{Chain, ChainConfig};
use sweep::{judge, measure, stated_share};

/// Every run's warning that prints a share is judged against the 40 runs' measured share.
fn shares_are_true(config: ChainConfig) -> Vec<String> {
    let truth = common::reference(&config.target).moments;
    let m = measure(&config, &truth);
    let label = format!("{} × {}", config.target, config.sampler);
    let with_share: Vec<_> = m.warnings.iter().flatten().filter(|w| w.text.contains("% of runs")).collect();
    assert!(!with_share.is_empty(), "{label}: no warning printing a share met here (the setting no longer triggers one)");
    let mut rows = Vec::new();
    for w in &with_share {
        rows.push(judge(&label, Some(w), &m).unwrap_or_else(|why| panic!("{why}")));
    }
    eprintln!("{} (shares {:?})", rows[0], with_share.iter().map(|w| (100.0 * stated_share(w)).round()).collect::<Vec<_>>());
    with_share.iter().map(|w| w.text.clone()).collect()
}

#[test]
fn the_step_law_share_is_true_on_the_gaussian_and_a_bound_on_the_funnel_and_the_banana() {
    let mid = ChainConfig::new("gaussian", "mala", 1).with("mala_step", 0.0283);
    shares_are_true(mid);
    let texts = shares_are_true(ChainConfig::new("funnel", "mala", 1));
    assert!(texts[0].contains("in at least "), "{}", texts[0]);
    shares_are_true(ChainConfig::new("banana", "hmc", 1).with("leapfrog_steps", 1.0));
}

#[test]
fn the_refresh_law_share_is_true_on_the_gaussian_and_a_bound_on_the_funnel() {
    shares_are_true(ChainConfig::new("gaussian", "sbps", 1).with("refresh_rate", 5.0));
    shares_are_true(ChainConfig::new("funnel", "sbps", 1).with("refresh_rate", 2.5));
}

#[test]
fn the_stochastic_gradient_law_share_is_true_on_the_gaussian() {
    shares_are_true(ChainConfig::new("gaussian", "sghmc", 1).with("friction", 0.5));
    shares_are_true(ChainConfig::new("gaussian", "sgld", 1).with("step_size", 0.0174));
}

/// Banana × SGHMC fails at every minibatch size (35–40/40 runs over 0.3, the full batch included):
/// its measured warning prints a bound, and names a sampler that keeps the promise there.
#[test]
fn the_measured_share_is_a_bound_and_banana_sghmc_names_a_remedy_that_works() {
    let texts = shares_are_true(ChainConfig::new("banana", "sghmc", 1));
    let label = texts[0].strip_prefix("Choose ").and_then(|t| t.split(" in the Sampler menu: ").next()).unwrap_or_else(|| panic!("names no sampler: {}", texts[0]));
    assert!(texts.iter().all(|t| t.starts_with(&format!("Choose {label} in the Sampler menu: "))), "{texts:?}");
    let other = sgviz::registry::SAMPLERS.iter().find(|s| s.label == label).unwrap_or_else(|| panic!("no sampler labelled {label}"));
    let m = measure(&ChainConfig::new("banana", other.name, 1), &common::reference("banana").moments);
    // The measured signal's own false alarms are allowed in at most 10 % of runs (README "What
    // the warnings promise"; seeds 1–40: one run warned at 12 %, 2/40 failing).
    let warned = m.warnings.iter().flatten().count();
    assert!(warned as f64 <= sweep::PROMISE_SHARE * sweep::SEEDS as f64, "{label} named, but warned in {warned}/40: {:?}", m.warnings.iter().flatten().next());
    judge(&format!("banana × {label} (named)"), None, &m).unwrap();
    // Moved off its default, the remedy is still the other sampler, not the failing default.
    // (η at its slider's log midpoint, 40/40 failing; n = 10 is the noise law's bias case instead.)
    let moved = Chain::new(&ChainConfig::new("banana", "sghmc", 1).with("sghmc_lr", 0.0047)).unwrap();
    assert!(moved.warning().is_none(), "no pairing warning on banana × SGHMC: the measured one is the page's");
    let texts = shares_are_true(ChainConfig::new("banana", "sghmc", 1).with("sghmc_lr", 0.0047));
    assert!(texts.iter().all(|t| !t.contains("back to")), "sent back to a default that fails too: {}", texts[0]);
}
