//! The bouncy samplers' refresh law (src/refresh_law.rs, docs/diagnostics.md §13; issue 21): a
//! refresh rate that makes the path a random walk is warned beside the refresh-rate slider, the
//! warning is true where it fires, and the law itself matches a case worked by hand.
//!
//! The oracles are independent of the code: the folded normal's mean and tail written out here
//! for one diffusive axis, and, for the chains, the closed-form truth of the Gaussian toy
//! (Σ = [[1, 0.9], [0.9, 1]]) and grid quadrature for the mixture (tests/common/mod.rs), the
//! failing share counted by this file against E2 > 0.3 (tests/common/sweep.rs restates the claim).
//!
//! CI: the hand-worked law, and SBPS at refresh rate 5 on the Gaussian toy (40 seeds × 5,000
//! events: warned in every run, failing in more than 10 % of runs, the stated share consistent with
//! the failing count), with exact BPS at the same rate (its Gaussian velocity law diffuses twice as
//! fast: within the promise) silent. `SGVIZ_SLIDER_SWEEP=soak` (make soak) adds the midpoint 2.5
//! and the mixture.

#[path = "common/sweep.rs"]
mod sweep;
mod common;

use nalgebra::DMatrix;
use sgviz::chain::ChainConfig;
use sgviz::refresh_law::RefreshLaw;
use sweep::{binomial_cdf, normal_cdf, judge, measure, stated_share, E2_CLAIM, PROMISE_SHARE, SEEDS};

fn soak() -> bool {
    std::env::var("SGVIZ_SLIDER_SWEEP").is_ok_and(|v| v == "soak")
}

/// One diffusive axis worked by hand. Σ = diag(1, 10⁻⁴), velocity on the unit circle (m = 1/2),
/// λ = 5: the refresh length √m/λ = 0.1414; axis 1 (sd 1) is diffusive, axis 2 (sd 0.01) is not.
/// τ₁ = v₁λ/m = 10. At 0.05 time units per event, 5,000 events are T = 250: T·Var(Ĉ₁₁) = 2v₁²τ₁ = 20,
/// so Ĉ₁₁'s error has sd √(20/250) = 0.28284 and mean −Var(x̄₁) = −2v₁τ₁/T = −0.08; the other
/// entries do not err. E2 = |−0.08 + 0.28284 Z|/1.0001: its mean is the folded normal's,
/// σ√(2/π)e^{−μ²/2σ²} + μ(1 − 2Φ(−μ/σ)), and its share above 0.3 is
/// Φ((−0.30003 + 0.08)/σ) + 1 − Φ((0.30003 + 0.08)/σ) ≈ 0.308.
#[test]
fn one_diffusive_axis_matches_the_folded_normal_worked_by_hand() {
    let law = RefreshLaw::of_covariance(DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, 1e-4]));
    let mut tau = law.relaxation_times(5.0, 0.5);
    tau.sort_by(f64::total_cmp);
    assert!(tau[0] == 0.0 && (tau[1] - 10.0).abs() < 1e-9, "{tau:?}");
    let p = law.predict(5.0, 0.5, 0.05).unwrap();
    let (mu, sigma, scale) = (-0.08, (20.0f64 / 250.0).sqrt(), 1.0001);
    let mean = (sigma * (2.0 / std::f64::consts::PI).sqrt() * (-mu * mu / (2.0 * sigma * sigma)).exp() + mu * (1.0 - 2.0 * normal_cdf(-mu / sigma))) / scale;
    let share = normal_cdf((-0.3 * scale - mu) / sigma) + 1.0 - normal_cdf((0.3 * scale - mu) / sigma);
    // 2,000 draws: 4 Monte-Carlo sd of each.
    let mean_sd = sigma / scale / 2000f64.sqrt();
    let share_sd = (share * (1.0 - share) / 2000.0).sqrt();
    assert!((p.mean_e2 - mean).abs() < 4.0 * mean_sd, "mean E2 {} against {mean}", p.mean_e2);
    assert!((p.share - share).abs() < 4.0 * share_sd, "share {} against {share}", p.share);
    // Below λ = 2·√m/sd₁ = 1.414 no axis is diffusive: nothing predicted to fail.
    assert_eq!(law.predict(1.4, 0.5, 0.05).unwrap().share, 0.0);
}

fn config(target: &str, sampler: &str, rate: f64) -> ChainConfig {
    ChainConfig::new(target, sampler, 1).with("refresh_rate", rate)
}

/// Warned in at least `warned_at_least` runs by the refresh law; true: more than 10 % of the runs
/// fail — proven by the binomial tail against 10 % (< 0.01) where `proven`, else at least not
/// within it (more than 4 of 40: the sweeps' line for an untrue warning, tests/common/grid.rs
/// `judge_measured`; 40 runs cannot prove a share of ≈ 20 % above 10 %); and the stated share
/// consistent with the failing count: not above it (tests/common/sweep.rs `judge`) and, where the
/// law is exact (`both_ways`: the Gaussian toy), not below it (upper binomial tail ≥ 10⁻³).
fn warned_truthfully(target: &str, sampler: &str, rate: f64, warned_at_least: usize, proven: bool, both_ways: bool) {
    let truth = common::reference(target).moments;
    let m = measure(&config(target, sampler, rate), &truth);
    let label = format!("{target} {sampler} refresh_rate={rate}");
    let by_law = m.warnings.iter().flatten().filter(|w| w.param == "refresh_rate" && w.detail.contains("refresh law")).count();
    let fails = m.e2.iter().filter(|e| **e > E2_CLAIM).count() as u64;
    eprintln!("{label}: {fails}/{SEEDS} over {E2_CLAIM}, warned by the refresh law in {by_law}/{SEEDS}");
    assert!(by_law >= warned_at_least, "{label}: warned by the refresh law in {by_law}/{SEEDS} runs");
    let tail = 1.0 - binomial_cdf(fails.saturating_sub(1), SEEDS, PROMISE_SHARE);
    assert!(!proven || tail < 0.01, "{label}: warned, but {fails}/{SEEDS} runs over {E2_CLAIM} is not more than {PROMISE_SHARE} (P = {tail:.2})");
    assert!(fails as f64 > PROMISE_SHARE * SEEDS as f64, "{label}: warned, but only {fails}/{SEEDS} runs over {E2_CLAIM}: untrue");
    let warning = m.warnings.iter().flatten().find(|w| w.param == "refresh_rate");
    judge(&label, warning, &m).unwrap();
    if both_ways {
        let stated: Vec<f64> = m.warnings.iter().flatten().filter(|w| w.param == "refresh_rate").map(stated_share).collect();
        let p = stated.iter().sum::<f64>() / stated.len() as f64;
        let upper = 1.0 - binomial_cdf(fails.saturating_sub(1), SEEDS, p);
        assert!(upper >= 1e-3, "{label}: states {:.0} % failing runs, measured {fails}/{SEEDS} (P = {upper:.1e}): the law understates", 100.0 * p);
    }
}

/// Silent by the refresh law and within the promise (tests/common/sweep.rs `judge` on silence).
fn silent_within_the_promise(target: &str, sampler: &str, rate: f64) {
    let truth = common::reference(target).moments;
    let m = measure(&config(target, sampler, rate), &truth);
    let label = format!("{target} {sampler} refresh_rate={rate}");
    let by_law = m.warnings.iter().flatten().filter(|w| w.detail.contains("refresh law")).count();
    assert_eq!(by_law, 0, "{label}: warned by the refresh law");
    let fails = m.e2.iter().filter(|e| **e > E2_CLAIM).count() as u64;
    eprintln!("{label}: {fails}/{SEEDS} over {E2_CLAIM}, silent");
    judge(&label, None, &m).unwrap();
}

#[test]
fn sbps_at_refresh_rate_5_on_the_gaussian_is_warned_and_fails() {
    warned_truthfully("gaussian", "sbps", 5.0, 36, true, true);
}

#[test]
fn exact_bps_at_refresh_rate_5_on_the_gaussian_is_silent_and_right() {
    silent_within_the_promise("gaussian", "bps", 5.0);
}

/// Soak: the slider's midpoint on the Gaussian toy (measured 9/40 and 11/40 failing on two seed
/// sets) and both points on the mixture (its summary's law is approximate there).
#[test]
fn the_refresh_law_on_the_midpoint_and_the_mixture() {
    if !soak() {
        return;
    }
    warned_truthfully("gaussian", "sbps", 2.5, 36, false, true);
    warned_truthfully("mixture", "sbps", 5.0, 36, false, false);
    warned_truthfully("mixture", "sbps", 2.5, 36, false, false);
    silent_within_the_promise("gaussian", "sbps", 0.05);
}

/// Issue 26, item 1: exact BPS without refreshes on the round Gaussian (ρ = 0) is not ergodic
/// (Bouchard-Côté et al. 2018: a bounce off a round target reflects the velocity about the
/// position's direction, which keeps x × v, so the path never leaves the line or ellipse of its
/// start). Oracle: the closed-form truth Σ = I and this file's count of E2 > 0.3 after 5,000
/// events — every run of 40 fails; the page must say so beside the refresh-rate slider in every
/// run, naming a rate that refreshes, and must not draw a "predicted" law equal to the truth.
#[test]
fn exact_bps_without_refresh_on_the_round_gaussian_is_warned_not_ergodic() {
    let config = ChainConfig::new("gaussian", "bps", 1).with("rho", 0.0).with("refresh_rate", 0.0);
    let truth = sgviz::chain::Chain::new(&config).unwrap().model().exact_moments().unwrap();
    assert_eq!(truth.cov, vec![vec![1.0, 0.0], vec![0.0, 1.0]], "the round Gaussian");
    let m = measure(&config, &truth);
    let fails = m.e2.iter().filter(|e| **e > E2_CLAIM).count() as u64;
    let warned: Vec<_> = m.warnings.iter().flatten().filter(|w| w.param == "refresh_rate" && w.text.contains("not ergodic")).collect();
    eprintln!("round gaussian bps refresh_rate=0: {fails}/{SEEDS} over {E2_CLAIM}, warned not ergodic in {}/{SEEDS}", warned.len());
    assert_eq!(fails, SEEDS, "without refreshes every run should fail E2 ≤ {E2_CLAIM}");
    assert_eq!(warned.len() as u64, SEEDS, "warned beside the refresh-rate slider in {}/{SEEDS} runs", warned.len());
    assert!(warned.iter().all(|w| w.text.starts_with("Set refresh rate λ_ref back to ") && !w.text.contains("back to 0 ")), "{:?}", warned[0].text);
    // On the correlated toy (ρ = 0.9) the bounces off an elongated target turn the velocity: 0/40
    // runs over 0.3 at λ_ref = 0 (measured, median E2 0.035), so nothing is said there.
    silent_within_the_promise("gaussian", "bps", 0.0);
    let chain = sgviz::chain::Chain::new(&config).unwrap();
    let law = sgviz::law::predicted_law("bps", chain.sampler_params(), chain.model());
    assert!(law.as_ref().is_err_and(|why| why.contains("not ergodic")), "a predicted law is drawn without refreshes: {:?}", law.map(|l| l.note));
}
