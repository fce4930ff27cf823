//! SGHMC's noise law where no Gaussian law exists (issue 21; docs/sghmc.md §4, docs/diagnostics.md
//! §11): on the banana and Neal's funnel, a setting whose injected noise does not match the
//! gradient noise (a small minibatch with β̂ = 0, or β̂ > 0 on full-batch gradients) is warned of
//! bias beside the slider that caused it, the bias is real, and the matched settings are silent.
//! 40 seeds × 5,000 samples per setting (tests/common/sweep.rs); the truths are the closed form
//! (banana) and separate grid quadrature (funnel) of tests/common, not the law under test. The
//! thresholds are the README's promise (E2 ≤ 0.1 for the bias, at most 10 % of runs warned of a
//! failure they do not have), restated in tests/common/sweep.rs.

#[path = "common/sweep.rs"]
mod sweep;
mod common;

use sgviz::chain::ChainConfig;
use sgviz::setting_warning::Failure;
use sweep::{measure, Measured, BIAS_E2, PROMISE_SHARE, SEEDS};

fn run(target: &str, settings: &[(&str, f64)]) -> Measured {
    let truth = common::reference(target).moments;
    let config = settings.iter().fold(ChainConfig::new(target, "sghmc", 1), |c, (p, v)| c.with(p, v));
    measure(&config, &truth)
}

/// Runs warned of bias beside `param`.
fn bias_warned(m: &Measured, param: &str) -> usize {
    m.warnings.iter().filter(|w| w.as_ref().is_some_and(|w| w.failure == Failure::Bias && w.param == param)).count()
}

fn row(label: &str, m: &Measured, param: &str) -> String {
    let fails = m.e2.iter().filter(|e| **e > sweep::E2_CLAIM).count();
    let text = m.warnings.iter().flatten().find(|w| w.failure == Failure::Bias).map_or(String::new(), |w| w.text.clone());
    format!("{label}: pooled E2 {:.3} ± {:.3}, {fails}/{SEEDS} over 0.3, warned of bias ({param}) in {}/{SEEDS}; {text}", m.pooled_e2, m.pooled_sd, bias_warned(m, param))
}

/// The three settings tests/toy_sweep.rs listed as silent biases: warned of bias in at least half
/// the runs, beside the slider that causes it, and biased beyond the promise (pooled E2 above 0.1
/// by 3 standard errors).
#[test]
fn unmatched_noise_is_warned_of_bias_where_the_bias_is_measured() {
    for (target, param, value) in [("banana", "batch_size", 10.0), ("funnel", "beta_hat", 0.5), ("funnel", "beta_hat", 1.0)] {
        let m = run(target, &[(param, value)]);
        let label = format!("{target} sghmc {param}={value}");
        eprintln!("{}", row(&label, &m, param));
        assert!(m.pooled_e2 > BIAS_E2 + 3.0 * m.pooled_sd, "{label}: the bias is not measured: {}", row(&label, &m, param));
        assert!(2 * bias_warned(&m, param) >= SEEDS as usize, "{label}: silent bias: {}", row(&label, &m, param));
    }
}

/// The defaults (full batch on the banana, n = 75 on the funnel, β̂ = 0): the noise law stays
/// silent (at most 10 % of runs warned of bias) and the pooled covariance is within the promise.
#[test]
fn matched_noise_is_not_warned_of_bias() {
    for target in ["banana", "funnel"] {
        let m = run(target, &[]);
        let label = format!("{target} sghmc defaults");
        eprintln!("{}", row(&label, &m, "batch_size"));
        let warned = m.warnings.iter().flatten().filter(|w| w.failure == Failure::Bias).count();
        assert!(warned as f64 <= PROMISE_SHARE * SEEDS as f64, "{label}: untrue bias warning in {warned}/{SEEDS}: {}", row(&label, &m, "batch_size"));
        assert!(m.pooled_e2 <= BIAS_E2 + 3.0 * m.pooled_sd, "{label}: biased at the defaults: {}", row(&label, &m, "batch_size"));
    }
}

/// The remedy the banana's n = 10 warning names (a larger minibatch) removes the bias: at that
/// minibatch the pooled covariance is within the promise and at most 10 % of runs are warned of bias.
#[test]
fn the_minibatch_the_warning_names_removes_the_bias() {
    let m = run("banana", &[("batch_size", 10.0)]);
    let text = m.warnings.iter().flatten().find(|w| w.failure == Failure::Bias).expect("warned").text.clone();
    let n: f64 = text.split("Set minibatch size n to ").nth(1).and_then(|t| t.split(' ').next()).and_then(|v| v.replace(',', "").parse().ok()).unwrap_or_else(|| panic!("no minibatch named: {text}"));
    assert!(n > 10.0 && n <= 100.0, "{n}");
    let fixed = run("banana", &[("batch_size", n)]);
    let label = format!("banana sghmc batch_size={n} (the remedy)");
    eprintln!("{}", row(&label, &fixed, "batch_size"));
    assert!(fixed.pooled_e2 <= BIAS_E2 + 3.0 * fixed.pooled_sd, "{label}: still biased: {}", row(&label, &fixed, "batch_size"));
    assert!(bias_warned(&fixed, "batch_size") as f64 <= PROMISE_SHARE * SEEDS as f64, "{label}: still warned: {}", row(&label, &fixed, "batch_size"));
}
