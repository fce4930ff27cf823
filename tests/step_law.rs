//! MALA's and HMC's step law (src/step_law.rs, docs/diagnostics.md §14; issue 21): a step too short
//! for the target's widest axis is a random walk, warned beside the slider that caused it, and the
//! warning is true where it fires.
//!
//! The oracles are independent of the code: the folded normal's mean and tail written out here for
//! one axis; an unadjusted leapfrog simulated here for the autocorrelation cos(Lθ); and, for the
//! chains, the closed-form truths written here — Neal's funnel v ~ N(0, σ²), x | v ~ N(0, e^v):
//! Cov = diag(σ², e^{σ²/2}); the Gaussian toy Σ = [[1, 0.9], [0.9, 1]] — with the failing share
//! counted by this file against E2 > 0.3 (tests/common/sweep.rs restates the claim).
//!
//! CI (≈ 3 s): the hand-worked law, the simulated autocorrelation, funnel × MALA at its derived
//! defaults over 40 seeds × 5,000 samples (warned in every run, failing in more than 10 % of runs,
//! the stated share not above the failing count), funnel × HMC at its defaults silent and within the
//! promise, and MALA's smallest and midpoint steps on the Gaussian toy warned truthfully.

#[path = "common/sweep.rs"]
mod sweep;

use nalgebra::DMatrix;
use sgviz::chain::ChainConfig;
use sgviz::diagnostics::Moments;
use sgviz::setting_warning::Failure;
use sgviz::step_law::StepLaw;
use sweep::{binomial_cdf, normal_cdf, judge, measure, E2_CLAIM, PROMISE_SHARE, SEEDS};


/// One axis worked by hand: v = 1, MALA step h = 0.2, so cos θ = 1 − h/(2v) = 0.9 = a. After
/// T = 200 samples T·Var(Ĉ) = 2v²(1 + a²)/(1 − a²) = 2·1.81/0.19, sd √(19.0526/200) = 0.30865, and
/// Ĉ's mean is low by Var(x̄) = v(1 + a)/(1 − a)/T = 19/200 = 0.095. E2 = |−0.095 + 0.30865 Z|: its
/// mean is the folded normal's, its share above 0.3 Φ((−0.3 + 0.095)/σ) + 1 − Φ((0.3 + 0.095)/σ).
#[test]
fn one_axis_matches_the_folded_normal_worked_by_hand() {
    let law = StepLaw::of_covariance(DMatrix::from_row_slice(1, 1, &[1.0]));
    assert!((law.autocorrelations(0.2, 1)[0] - 0.9).abs() < 1e-12);
    // HMC with one leapfrog step of size √h is the same chain.
    assert!((law.autocorrelations(0.2f64.sqrt().powi(2), 1)[0] - 0.9).abs() < 1e-12);
    let p = law.predict(0.2, 1, 200.0).unwrap();
    let (mu, sigma) = (-0.095, (2.0f64 * 1.81 / 0.19 / 200.0).sqrt());
    let mean = sigma * (2.0 / std::f64::consts::PI).sqrt() * (-mu * mu / (2.0 * sigma * sigma)).exp() + mu * (1.0 - 2.0 * normal_cdf(-mu / sigma));
    let share = normal_cdf((-0.3 - mu) / sigma) + 1.0 - normal_cdf((0.3 - mu) / sigma);
    let (mean_sd, share_sd) = (sigma / 2000f64.sqrt(), (share * (1.0 - share) / 2000.0).sqrt());
    assert!((p.mean_e2 - mean).abs() < 4.0 * mean_sd, "mean E2 {} against {mean}", p.mean_e2);
    assert!((p.share - share).abs() < 4.0 * share_sd, "share {} against {share}", p.share);
    // A trajectory past a quarter period is taken as mixing at once (towards silence).
    assert_eq!(law.autocorrelations(0.2, 20)[0], 0.0);
}

/// The autocorrelation cos(Lθ) of (DIAG.14) against an unadjusted leapfrog simulated here on
/// N(0, v = 2): ε = 0.3, L = 3, 200,000 proposals, lag-one autocorrelation of the positions
/// (standard error ≈ √((1 − a²)/n) < 0.003; tolerance 0.015).
#[test]
fn leapfrog_autocorrelation_matches_a_simulation() {
    let (v, eps, l) = (2.0f64, 0.3f64, 3usize);
    let law = StepLaw::of_covariance(DMatrix::from_row_slice(1, 1, &[v]));
    let predicted = law.autocorrelations(eps * eps, l)[0];
    let mut rng = sgviz::rng::chain_rng(7);
    let (mut x, n) = (0.0f64, 200_000usize);
    let mut xs = Vec::with_capacity(n);
    for _ in 0..n {
        let mut p = sgviz::rng::standard_normal(&mut rng);
        for _ in 0..l {
            p -= 0.5 * eps * x / v;
            x += eps * p;
            p -= 0.5 * eps * x / v;
        }
        xs.push(x);
    }
    let m = xs.iter().sum::<f64>() / n as f64;
    let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / n as f64;
    let lag1 = xs.windows(2).map(|w| (w[0] - m) * (w[1] - m)).sum::<f64>() / (n - 1) as f64 / var;
    assert!((lag1 - predicted).abs() < 0.015, "simulated {lag1}, law {predicted}");
}

fn funnel_truth() -> Moments {
    Moments { mean: vec![0.0, 0.0], cov: vec![vec![1.0, 0.0], vec![0.0, 0.5f64.exp()]] }
}

fn gaussian_truth() -> Moments {
    Moments { mean: vec![0.0, 0.0], cov: vec![vec![1.0, 0.9], vec![0.9, 1.0]] }
}

/// Warned by the step law in every run beside `param`, failing in more than 10 % of runs (binomial
/// tail against 10 % below 0.01), the stated share not above the failing count (sweep `judge`).
fn warned_truthfully(config: ChainConfig, truth: &Moments, param: &str) {
    let m = measure(&config, truth);
    let label = format!("{} × {}", config.target, config.sampler);
    for w in &m.warnings {
        let w = w.as_ref().unwrap_or_else(|| panic!("{label}: a run without a warning"));
        assert!(w.failure == Failure::Mixing && w.param == param && w.detail.contains("step law"), "{label}: {w:?}");
    }
    let fails = m.e2.iter().filter(|e| **e > E2_CLAIM).count() as u64;
    let tail = 1.0 - binomial_cdf(fails.saturating_sub(1), SEEDS, PROMISE_SHARE);
    assert!(tail < 0.01, "{label}: warned, but only {fails}/{SEEDS} runs over {E2_CLAIM}");
    judge(&label, m.warnings[0].as_ref(), &m).unwrap();
}

#[test]
fn funnel_mala_at_its_defaults_is_warned_and_fails() {
    warned_truthfully(ChainConfig::new("funnel", "mala", 1), &funnel_truth(), "mala_step");
}

#[test]
fn funnel_hmc_at_its_defaults_is_silent_and_keeps_the_promise() {
    let m = measure(&ChainConfig::new("funnel", "hmc", 1), &funnel_truth());
    assert!(m.warnings.iter().all(Option::is_none), "{:?}", m.warnings.iter().flatten().next());
    judge("funnel × hmc", None, &m).unwrap();
}

/// MALA's smallest step and the midpoint of its slider (log scale) on the Gaussian toy, where the
/// law is exact but for the rejections: warned beside the step slider, truthfully.
#[test]
fn gaussian_mala_short_steps_are_warned_truthfully() {
    let chain = sgviz::chain::Chain::new(&ChainConfig::new("gaussian", "mala", 1)).unwrap();
    let d = chain.derived().iter().find(|d| d.name == "mala_step").unwrap().clone();
    for step in [d.min, (d.min * d.max).sqrt()] {
        warned_truthfully(ChainConfig::new("gaussian", "mala", 1).with("mala_step", step), &gaussian_truth(), "mala_step");
    }
}

/// The page reads the warning at 5 Hz, so the prediction is memoised per setting (src/step_law.rs
/// `memo`): a change of step or of L must be a new prediction, and going back must give the first
/// one again (a memo keyed on nothing, or on h alone, fails here).
#[test]
fn the_memoised_prediction_follows_the_setting() {
    let law = StepLaw::of_covariance(DMatrix::from_row_slice(1, 1, &[1.0]));
    let direct = |h: f64, l: usize| law.predict(h, l, 5000.0).filter(|p| p.share > 0.1).map(|p| (p, law.samples_keeping(h, l)));
    // A tiny step relaxes over ≈ 2/h samples: 20,000 ≫ 5,000 fails; h = 1 mixes (a = 0.5).
    let (slow, fast) = (1e-4, 1.0);
    let first = law.failing_prediction(slow, 1);
    assert!(first.is_some(), "a step of 1e-4 against unit variance must fail in 5,000 samples");
    assert_eq!(first, direct(slow, 1));
    assert_eq!(law.failing_prediction(fast, 1), None);
    // Same h, L leapfrog steps of √h ≈ 0.01 each: 40 of them still fail but less.
    assert_eq!(law.failing_prediction(slow, 40), direct(slow, 40));
    assert_ne!(law.failing_prediction(slow, 40), first);
    assert_eq!(law.failing_prediction(slow, 1), first);
}

/// The short text speaks in the step slider's own quantity (issue 21 item 6): the slider reads ε,
/// so the warning states ε at the slider's value, then the move it makes, √ε for MALA (one
/// Langevin step of variance ε) and ε·L for HMC — worked here from the slider's value, not read
/// from the law. A text that states only the move (0.21 beside a slider reading 0.0441) fails.
#[test]
fn the_warning_states_the_step_slider_value_and_the_move_it_makes() {
    let num = |text: &str, after: &str| -> f64 {
        let tail = text.split(after).nth(1).unwrap_or_else(|| panic!("no '{after}' in: {text}"));
        tail.split_whitespace().next().unwrap().trim_end_matches([',', ':']).replace(',', "").parse().unwrap_or_else(|_| panic!("no number after '{after}': {text}"))
    };
    let close = |a: f64, b: f64| (a - b).abs() <= 0.01 * b.abs();
    let chain = sgviz::chain::Chain::new(&ChainConfig::new("funnel", "mala", 1)).unwrap();
    let eps = chain.sampler_params().get("mala_step");
    let text = chain.setting_warning().expect("funnel × MALA at its defaults is warned").text;
    // Each "symbol = value" is held together by non-breaking spaces, so a line never breaks
    // between "√ε =" and its number (a plain " = " fails here).
    assert!(close(num(&text, "ε\u{a0}=\u{a0}"), eps), "ε stated {} against the slider's {eps}: {text}", num(&text, "ε\u{a0}=\u{a0}"));
    assert!(close(num(&text, "√ε\u{a0}=\u{a0}"), eps.sqrt()), "the move √ε: {text}");
    assert!(!text.contains(" = "), "a breakable ' = ' in: {text}");
    // HMC with one leapfrog step on the Gaussian toy's smallest step (warned: a random walk).
    let config = ChainConfig::new("gaussian", "hmc", 1).with("leapfrog_steps", 1.0);
    let chain = sgviz::chain::Chain::new(&config).unwrap();
    let d = chain.derived().iter().find(|d| d.name == "hmc_step").unwrap().min;
    let chain = sgviz::chain::Chain::new(&config.with("hmc_step", d)).unwrap();
    let (eps, l) = (chain.sampler_params().get("hmc_step"), chain.sampler_params().get("leapfrog_steps"));
    let text = chain.setting_warning().expect("HMC at its smallest step with L = 1 is warned").text;
    assert!(close(num(&text, "ε\u{a0}=\u{a0}"), eps) && close(num(&text, "L\u{a0}=\u{a0}"), l), "ε and L as the sliders read: {text}");
    assert!(close(num(&text, "ε·L\u{a0}=\u{a0}"), eps * l), "the move ε·L: {text}");
    assert!(!text.contains(" = "), "a breakable ' = ' in: {text}");
}

/// The remedy the warning names must keep the promise where it is followed (issue 21): on Neal's
/// funnel MALA's defaults fail (28/40 runs over 0.3), and the step law's sample count is only a
/// lower bound there (the law's Gaussian summary leaves out the funnel's tails: at the 6,100
/// samples it asked for, 28/40 runs still failed, seeds 101–140; 50,000 samples: 1/40). Whatever
/// the warning names is followed here over 40 seeds: a sampler in the Sampler menu at its derived
/// defaults must be silent and keep the promise (sweep `judge`); a sample count must leave no more
/// failing runs than the share the warning states (binomial tail). Under the count remedy this
/// failed: 6,100 samples, 16 % stated.
#[test]
fn funnel_mala_names_a_remedy_that_works() {
    let text = sgviz::chain::Chain::new(&ChainConfig::new("funnel", "mala", 1)).unwrap().setting_warning().expect("funnel × MALA at its defaults is warned").text;
    if let Some(label) = text.strip_prefix("Choose ").and_then(|t| t.split(" in the Sampler menu:").next()) {
        let other = sgviz::registry::SAMPLERS.iter().find(|s| s.label == label).unwrap_or_else(|| panic!("no sampler labelled {label}: {text}"));
        let m = measure(&ChainConfig::new("funnel", other.name, 1), &funnel_truth());
        assert!(m.warnings.iter().all(Option::is_none), "{label} named, but warned: {:?}", m.warnings.iter().flatten().next());
        judge(&format!("funnel × {label} (named)"), None, &m).unwrap();
        return;
    }
    let count: u64 = text.strip_prefix("Let it run to at least ").and_then(|t| t.split(" samples").next()).unwrap_or_else(|| panic!("no remedy: {text}")).replace(',', "").parse().unwrap();
    let stated = sweep::stated_share(&sgviz::chain::Chain::new(&ChainConfig::new("funnel", "mala", 1)).unwrap().setting_warning().unwrap());
    let mut fails = 0;
    for seed in 1..=SEEDS {
        let mut chain = sgviz::chain::Chain::new(&ChainConfig::new("funnel", "mala", seed)).unwrap();
        while chain.promise_samples() < count {
            chain.run(count - chain.promise_samples());
        }
        fails += (sweep::e2(&chain.moments().cov, &funnel_truth().cov) > E2_CLAIM) as u64;
    }
    let upper = 1.0 - binomial_cdf(fails.saturating_sub(1), SEEDS, stated.max(PROMISE_SHARE));
    assert!(upper >= sweep::ALPHA, "at the {count} samples named, {fails}/{SEEDS} runs over {E2_CLAIM} (P = {upper:.1e}): {text}");
}

/// A set-back remedy must keep the promise: on the funnel MALA's derived default fails too, so
/// a step moved off it (ε = 0.088, 23/40 runs over 0.3 at seeds 101–140, where the step law is
/// silent and §8's measured signal warns) must not be told to go back to it. Before the fix the
/// measured warning said "Set step size ε back to 0.0441" in about half the runs.
#[test]
fn funnel_mala_off_its_default_is_not_sent_back_to_a_failing_default() {
    let m = measure(&ChainConfig::new("funnel", "mala", 1).with("mala_step", 0.088), &funnel_truth());
    let back: Vec<_> = m.warnings.iter().flatten().filter(|w| w.text.contains("back to")).collect();
    assert!(back.is_empty(), "{} of {SEEDS} runs sent back to the failing default: {}", back.len(), back[0].text);
}
