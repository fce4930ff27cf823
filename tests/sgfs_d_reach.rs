//! SGFS-d at its derived defaults on the correlated Gaussian toy (issue 21): no setting of SGFS-d
//! keeps the promise there, the warning says so and names SGFS-f, and both statements are measured.
//!
//! The oracle, worked here by hand from docs/sgfs-osgfs.md (SGFS.4) (not read from the code): on the
//! toy (ρ = 0.9, unit variances, N = 100) the empirical Fisher is the precision P, SGFS-d
//! preconditions with D = diag(P) = I/(1 − ρ²), and a minibatch of n adds gradient noise
//! (γ − 2)P, γ = (n + N)/n. D⁻¹P has eigenvalues λ = 1 − ρ (long axis u = (1, 1)/√2, variance
//! v = 1 + ρ) and 1 + ρ (short axis, variance 1 − ρ); with K = (1 + α²)γ and h = 2/K the law is
//! v·r(λ) along each axis,
//!   r(λ) = ((γ − 2)λ + K − γ)/(K − λ)              (SGFS.8)
//! (r = 1 at K → ∞: the truth; SGFS-f's (K − 2)/(K − 1) at λ = 1). The covariance error of
//! diag(x, y) in the axes' basis is E2 = 4·max(|x|, |y|)/(2 + 2ρ) with x, y half the axes'
//! variance errors, so E2 = max(|r_long − 1|, (1 − ρ)/(1 + ρ)·|r_short − 1|). The bias promise
//! E2 ≤ 0.1 thus needs (0.9γ + 0.1)/(K − 0.1) ≤ 0.1 on the long axis, which grows with γ: its most
//! favourable setting is the full batch (γ = 2), K ≥ 19.1, α ≥ 2.92, and there the long axis's
//! autocorrelation is 1 − hλ = 1 − 0.2/K ≥ 0.9895: ≈ 95 samples per independent one, too few in
//! 5,000 for every run within E2 0.3 (a larger α only mixes slower, a smaller one is biased).
//!
//! Measured (40 seeds × 5,000 samples, E2 computed here against the closed-form truth): at the
//! defaults and at that most favourable setting the warning is present, names SGFS-f and is true
//! (its stated share not refuted; the pooled bias within 0.1 at the favourable setting, as the
//! closed form says); SGFS-f at its own defaults is silent and within the promise. The soak
//! (`SGVIZ_SLIDER_SWEEP=soak`) runs the favourable setting over 200 seeds and requires more than
//! 10 % of runs over 0.3 (one-sided binomial, P < 10⁻⁴): the "no setting" claim itself.

#[path = "common/sweep.rs"]
mod sweep;
mod common;

use sgviz::chain::{Chain, ChainConfig};
use sgviz::diagnostics::Moments;
use sgviz::setting_warning::Failure;
use sweep::{binomial_cdf, e2, judge, measure, ALPHA, E2_CLAIM, PROMISE_SHARE};

const RHO: f64 = 0.9;
const N: f64 = 100.0;

fn truth() -> Moments {
    Moments { mean: vec![0.0, 0.0], cov: vec![vec![1.0, RHO], vec![RHO, 1.0]] }
}

/// E2 of SGFS-d's stationary law against the truth at (α, γ) by (SGFS.8) (module docs).
fn closed_form_bias(alpha: f64, gamma: f64) -> f64 {
    let k = (1.0 + alpha * alpha) * gamma;
    let r = |lambda: f64| ((gamma - 2.0) * lambda + k - gamma) / (k - lambda);
    (r(1.0 - RHO) - 1.0).abs().max((1.0 - RHO) / (1.0 + RHO) * (r(1.0 + RHO) - 1.0).abs())
}

/// The smallest α whose law keeps E2 ≤ 0.1 at the full batch (γ = 2), by bisection on the closed form.
fn boundary_alpha() -> f64 {
    let (mut lo, mut hi) = (0.5, 20.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if closed_form_bias(mid, 2.0) > 0.1 { lo = mid } else { hi = mid }
    }
    hi
}

fn sgfs_d(settings: &[(&str, f64)]) -> ChainConfig {
    settings.iter().fold(ChainConfig::new("gaussian", "sgfs_d", 1), |c, (n, v)| c.with(n, v))
}

#[test]
fn closed_form_matches_hand_values() {
    // γ = 2, α = 3: K = 20, r_long = 18/19.9, E2 = 1.9/19.9 = 0.09548; the boundary K = 19.1.
    assert!((closed_form_bias(3.0, 2.0) - 1.9 / 19.9).abs() < 1e-12);
    assert!(((1.0 + boundary_alpha().powi(2)) * 2.0 - 19.1).abs() < 1e-9);
}

/// The defaults' warning and the favourable setting's: present, the "no setting" sentence naming
/// SGFS-f, and true over 40 seeds.
#[test]
fn sgfs_d_says_no_setting_keeps_the_promise_and_is_right() {
    let alpha = boundary_alpha() * 1.001;
    let mut false_claims = Vec::new();
    for (label, config) in [("SGFS-d defaults", sgfs_d(&[])), ("SGFS-d full batch at the bias boundary", sgfs_d(&[("batch_size", N), ("sgfs_alpha", alpha)]))] {
        let warning = Chain::new(&config).unwrap().setting_warning();
        let Some(w) = warning.as_ref() else {
            false_claims.push(format!("{label}: silent"));
            continue;
        };
        eprintln!("{label}: {}\n  {}", w.text, w.detail);
        if w.failure != Failure::Mixing || !w.text.contains("nor any setting of SGFS-d") || !w.text.contains("switch to SGFS-f") {
            false_claims.push(format!("{label}: not the no-setting warning naming SGFS-f: {}", w.text));
        }
        let m = measure(&config, &truth());
        match judge(label, warning.as_ref(), &m) {
            Ok(row) => eprintln!("{row}"),
            Err(why) => false_claims.push(why),
        }
        if label.contains("boundary") && m.pooled_e2 > 0.1 + 3.0 * m.pooled_sd {
            false_claims.push(format!("{label}: pooled E2 {:.3} ± {:.3}, but the closed form puts it at 0.1", m.pooled_e2, m.pooled_sd));
        }
    }
    assert!(false_claims.is_empty(), "{}", false_claims.join("\n"));
}

/// The sampler the warning names keeps the promise at its own derived defaults.
#[test]
fn sgfs_f_which_the_warning_names_keeps_the_promise_at_its_defaults() {
    let config = ChainConfig::new("gaussian", "sgfs_f", 1);
    let warning = Chain::new(&config).unwrap().setting_warning();
    let m = measure(&config, &truth());
    let row = judge("SGFS-f defaults", warning.as_ref(), &m).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{row}");
    assert!(warning.is_none(), "SGFS-f warns at its defaults: {warning:?}");
}

/// The soak: at SGFS-d's most favourable setting more than 10 % of runs exceed E2 0.3 (200 seeds).
#[test]
fn sgfs_d_fails_the_promise_at_its_most_favourable_setting() {
    if std::env::var("SGVIZ_SLIDER_SWEEP").map_or(true, |v| v != "soak") {
        eprintln!("soak only (SGVIZ_SLIDER_SWEEP=soak)");
        return;
    }
    let seeds = 200u64;
    let config = sgfs_d(&[("batch_size", N), ("sgfs_alpha", boundary_alpha() * 1.001)]);
    let fails = (1..=seeds)
        .filter(|&seed| {
            let mut c = config.clone();
            c.seed = seed;
            let mut chain = Chain::new(&c).unwrap();
            while chain.promise_samples() < 5_000 {
                chain.run(5_000 - chain.promise_samples());
            }
            e2(&chain.moments().cov, &truth().cov) > E2_CLAIM
        })
        .count() as u64;
    let tail = 1.0 - binomial_cdf(fails.saturating_sub(1), seeds, PROMISE_SHARE);
    eprintln!("SGFS-d full batch at the bias boundary: {fails}/{seeds} over {E2_CLAIM} (P under 10 %: {tail:.1e})");
    assert!(tail < ALPHA, "{fails}/{seeds} runs over {E2_CLAIM}: not shown to break the promise");
}

/// The logistic regression's shipped data sets (issue 21 item 4; breast cancer d = 5, digits 7 vs 9
/// d = 6, `dataset` 1 and 2): SGFS-d at its derived defaults is warned that no single slider
/// keeps the promise, and the warning is true: its stated share of runs above 0.3 is not refuted
/// by 40 seeds × 5,000 samples against the reference exact-MALA run (tests/common/mod.rs, not the
/// law). Measured with fresh seeds 101–140 (examples run, the same verdict): breast cancer 40/40
/// over 0.3 (stated 100 %), median 0.916, pooled 0.617 ± 0.090; digits 27/40 (stated 40 %), median
/// 0.366, pooled 0.209 ± 0.052. A page silent here, or stating a share the runs refute, fails
/// (checked: with the joint-search warning dropped for SGFS both data sets are "silent").
#[test]
fn sgfs_d_on_the_shipped_data_sets_is_warned_truthfully_at_its_defaults() {
    let mut false_claims = Vec::new();
    // CI: digits (its stated share, 40 %, is the one 40 runs can refute); the soak adds breast cancer.
    let soak = std::env::var("SGVIZ_SLIDER_SWEEP").is_ok_and(|v| v == "soak");
    let cases: &[(&str, f64)] = if soak { &[("breast cancer", 1.0), ("digits 7 vs 9", 2.0)] } else { &[("digits 7 vs 9", 2.0)] };
    for &(label, dataset) in cases {
        let config = ChainConfig::new("logreg", "sgfs_d", 1).with("dataset", dataset);
        let truth = common::reference_with("logreg", &[("dataset", dataset)]).moments;
        let warning = Chain::new(&config).unwrap().setting_warning();
        let Some(w) = warning.as_ref() else {
            false_claims.push(format!("{label}: silent"));
            continue;
        };
        eprintln!("{label}: {}", w.text);
        if w.failure != Failure::Mixing || !w.text.starts_with("No single slider keeps the promise here") {
            false_claims.push(format!("{label}: not the joint-search warning: {}", w.text));
        }
        match judge(label, warning.as_ref(), &measure(&config, &truth)) {
            Ok(row) => eprintln!("{row}"),
            Err(why) => false_claims.push(why),
        }
    }
    assert!(false_claims.is_empty(), "{}", false_claims.join("\n"));
}

/// The sampler the digits warning names, read from its text ("switch to …"), at its own derived
/// defaults on digits: silent and within the promise (40 seeds × 5,000 samples against the
/// reference MALA run; the sweeps' verdict). Before (issue 21), the warning named a joint setting of
/// SGFS-d instead ("set together α = 3.35, n = 359"), which fails silently (below); with that
/// naming restored this test fails ("no sampler named"). Measured (seeds 101–140): SGFS-f 5/40
/// runs over 0.3, silent in 40/40.
#[test]
fn the_sampler_named_on_digits_keeps_the_promise_at_its_defaults() {
    let base = ChainConfig::new("logreg", "sgfs_d", 1).with("dataset", 2.0);
    let text = Chain::new(&base).unwrap().setting_warning().expect("digits × SGFS-d at its defaults is warned").text;
    assert!(!text.contains("set together"), "a joint setting is named on an approximate law: {text}");
    let named = text.split("switch to ").nth(1).unwrap_or_else(|| panic!("no sampler named: {text}"));
    let label = named.split([':', ',', ' ']).next().unwrap();
    let sampler = sgviz::registry::SAMPLERS.iter().find(|s| s.label == label).unwrap_or_else(|| panic!("no sampler labelled {label}"));
    let config = ChainConfig::new("logreg", sampler.name, 1).with("dataset", 2.0);
    let truth = common::reference_with("logreg", &[("dataset", 2.0)]).moments;
    let warning = Chain::new(&config).unwrap().setting_warning();
    let row = judge(&format!("digits × {label} at its defaults"), warning.as_ref(), &measure(&config, &truth)).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{row}");
    assert!(warning.is_none(), "the named sampler is itself warned: {warning:?}");
}

/// Whether the joint setting the law favours on digits (α = 3.35 at the full batch n = 359, which
/// the warning named before; no longer named) breaks the promise silently, as measured (the
/// KNOWN_SILENT_FAILURES rule of tests/toy_sweep.rs: the soak fails when this stops being true, so
/// fixing it means flipping it). 40 seeds × 5,000 samples against the reference MALA run: seeds
/// 1–40 14/40 over 0.3 (P(Bin(40, 0.1) ≥ 14) = 2·10⁻⁵), median 0.255, pooled 0.108 ± 0.042; fresh
/// seeds 101–140 12/40, median 0.237, pooled 0.080 ± 0.048. The law (a Gaussian view of the
/// posterior) predicts at most 10 %: it understates the failing share on this non-Gaussian,
/// 6-parameter target (docs/diagnostics.md §15).
const JOINT_SETTING_ON_DIGITS_FAILS: bool = true;

/// The soak: at α = 3.35, n = 359 on digits the chain is silent, and the sweeps' verdict on it
/// (tests/common/sweep.rs: at most 10 % of runs over 0.3 not refuted at P < 10⁻⁴, pooled bias
/// within 0.1) is as [`JOINT_SETTING_ON_DIGITS_FAILS`] records; the warning at the defaults does
/// not lead there.
#[test]
fn the_joint_setting_the_law_favours_on_digits_is_as_measured() {
    if std::env::var("SGVIZ_SLIDER_SWEEP").map_or(true, |v| v != "soak") {
        eprintln!("soak only (SGVIZ_SLIDER_SWEEP=soak)");
        return;
    }
    let base = ChainConfig::new("logreg", "sgfs_d", 1).with("dataset", 2.0);
    let text = Chain::new(&base).unwrap().setting_warning().expect("digits × SGFS-d at its defaults is warned").text;
    assert!(!text.contains("set together"), "the defaults' warning names a joint setting: {text}");
    let config = base.with("sgfs_alpha", 3.35).with("batch_size", 359.0);
    let truth = common::reference_with("logreg", &[("dataset", 2.0)]).moments;
    let warning = Chain::new(&config).unwrap().setting_warning();
    assert!(warning.is_none(), "the joint setting is itself warned: {warning:?}");
    let verdict = judge("digits × SGFS-d at α = 3.35, n = 359", None, &measure(&config, &truth));
    eprintln!("{verdict:?}");
    assert_eq!(verdict.is_err(), JOINT_SETTING_ON_DIGITS_FAILS, "the list of known failures is out of date: {verdict:?}");
}
