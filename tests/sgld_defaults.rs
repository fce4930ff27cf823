//! Issue 12's claim for SGLD at its target-derived defaults (src/sampler/sgld/mod.rs, criteria in
//! src/defaults.rs): after 5,000 samples from the target's default start — no burn-in, no
//! thinning — the covariance error E2 (SGFS eq. 14) is at most 0.3 and the chain does not diverge;
//! where the derivation says no step size can do that, the pairing carries a warning, and the
//! warning is true.
//!
//! The derivation bounds E2 with ≈ 95 % (bias + 2 × the summed Monte-Carlo standard deviations),
//! so the claim is tested as a rate over 40 seeds: at most 6 of 40 runs above 0.3 (a true rate of
//! 5 % exceeds 6/40 with probability 1.4 %). A warning is tested the other way: more than 2 of 40
//! runs above 0.3 (the 95 % claim indeed fails; a true rate of 5 % gives ≥ 3 with probability
//! 0.32, so this asserts the warning only where the failure is plain) — and never a divergence.

mod common;
use common::{reference, reference_with, soak};
use sgviz::chain::{Chain, ChainConfig, ChainStatus};

use sgviz::diagnostics::{relative_errors, Moments};

/// The promise README states for the derived defaults ("E2 ≤ 0.3 after 5,000 samples, or a
/// warning"), written here rather than read from src/defaults.rs, so that a change of the code's
/// constants cannot move the test with it.
const E2_CLAIM: f64 = 0.3;
const REFERENCE_SAMPLES: f64 = 5_000.0;

const SEEDS: u64 = 40;

/// E2 after the reference sample count for each seed; panics on a divergence.
fn e2_runs(target: &str, settings: &[(&str, f64)], truth: &Moments, seeds: u64) -> (Vec<f64>, Option<String>) {
    let mut warning = None;
    let e2 = (0..seeds)
        .map(|seed| {
            let mut config = ChainConfig::new(target, "sgld", 1000 + seed);
            for (name, value) in settings {
                config = config.with(name, value);
            }
            config.capacity = 1;
            let mut chain = Chain::new(&config).unwrap();
            // What the page warns: the pairing warning, or the setting warning beside a slider
            // (where the promise's law names a step one slider away, the pairing's "at any step
            // size" is not said beside it: src/chain/mod.rs `warning`, review s42).
            warning = chain.warning().map(str::to_string).or_else(|| chain.setting_warning().map(|w| w.text));
            chain.run(REFERENCE_SAMPLES as u64);
            if let ChainStatus::Diverged(message) = chain.status() {
                panic!("SGLD at its defaults diverged on {target} {settings:?}, seed {seed}: {message}");
            }
            relative_errors(&chain.moments(), truth).1
        })
        .collect();
    (e2, warning)
}

fn check(target: &str) {
    let truth = reference(target).moments;
    let (e2, warning) = e2_runs(target, &[], &truth, SEEDS);
    let above = e2.iter().filter(|e| **e > E2_CLAIM).count();
    let mut sorted = e2.clone();
    sorted.sort_by(f64::total_cmp);
    println!("{target:11} E2 median {:.3}, 90 % {:.3}, above {E2_CLAIM}: {above}/{SEEDS}{}", sorted[20], sorted[36], if warning.is_some() { " (warned)" } else { "" });
    match warning {
        None => assert!(above <= 6, "{target}: E2 > {E2_CLAIM} in {above} of {SEEDS} runs: {sorted:?}"),
        Some(text) => {
            assert!(text.contains("SGLD cannot reach") || text.contains("modes") || text.starts_with("Set step size ε to "), "{target}: {text}");
            assert!(above > 2, "{target} warns, but E2 > {E2_CLAIM} in only {above} of {SEEDS} runs: {text}");
        }
    }
}

#[test]
fn gaussian() {
    check("gaussian");
}
#[test]
fn mixture() {
    check("mixture");
}
#[test]
fn banana() {
    check("banana");
}
#[test]
fn hyperbola() {
    check("hyperbola");
}
#[test]
fn multimodal() {
    check("multimodal");
}
#[test]
fn funnel() {
    check("funnel");
}
#[test]
fn logreg() {
    check("logreg");
}
#[test]
fn logreg_dd() {
    check("logreg_dd");
}
#[test]
fn logreg_sgfs() {
    check("logreg_sgfs");
}
#[test]
fn linreg() {
    check("linreg");
}

#[test]
fn large_logistic_posteriors_keep_the_claim_up_to_a_million_data() {
    // The page offers N = 10² … 10⁶. `make test`: N = 10⁴ (3 seeds, each ≤ 0.3) and, at
    // N = 10⁶, the derived step within the stability margin and 100 steps without divergence;
    // `make soak`: N = 10⁵ and 10⁶, 3 seeds each, E2 ≤ 0.3 after 5,000 samples.
    let sizes: &[f64] = if soak() { &[1e4, 1e5, 1e6] } else { &[1e4] };
    for &n in sizes {
        let truth = reference_with("logreg", &[("n_points", n)]).moments;
        let (e2, warning) = e2_runs("logreg", &[("n_points", n)], &truth, 3);
        println!("logreg N = {n:e}: E2 {e2:?}");
        assert!(warning.is_none(), "N = {n}: {warning:?}");
        assert!(e2.iter().all(|e| *e <= E2_CLAIM), "N = {n}: E2 {e2:?}");
    }
    let mut chain = Chain::new(&ChainConfig::new("logreg", "sgld", 1).with("n_points", 1e6)).unwrap();
    let step = chain.sampler_params().get("step_size");
    let limit = chain.derived().iter().find(|d| d.name == "step_size").unwrap().unstable_above.unwrap();
    assert!(step <= 0.5 * limit && step > 1e-3 * limit, "ε = {step} vs stability limit {limit}");
    assert_eq!(chain.run(100), 100);
    assert_eq!(chain.status(), &ChainStatus::Running);
}

/// Issue 21: with gradient noise s = 1 the Gaussian's 95 % bound is just above 0.3 (≈ 5,900
/// samples needed) but runs stay below it (1 of 40 above): no warning, and the claim holds.
#[test]
fn gaussian_with_gradient_noise_is_not_warned_and_keeps_the_claim() {
    let settings = [("grad_noise", 1.0)];
    let truth = reference_with("gaussian", &settings).moments;
    let (e2, warning) = e2_runs("gaussian", &settings, &truth, SEEDS);
    let above = e2.iter().filter(|e| **e > E2_CLAIM).count();
    assert_eq!(warning, None, "untrue warning: E2 > {E2_CLAIM} in {above} of {SEEDS} runs");
    assert!(above <= 6, "E2 > {E2_CLAIM} in {above} of {SEEDS} runs");
}
