//! Shared by the slider sweeps (tests/slider_sweep.rs on the Gaussian toy, tests/toy_sweep.rs on
//! every other toy target and the synthetic logistic regression): 40 seeds × 5,000 samples of one
//! setting, and the verdict on it against the promise as docs/diagnostics.md §17 states
//! it (restated here as constants, not read from the code under test).

#![allow(dead_code)]

use sgviz::chain::{Chain, ChainConfig};
use sgviz::diagnostics::Moments;
use sgviz::setting_warning::{Failure, SettingWarning};

pub const SEEDS: u64 = 40;
pub const SAMPLES: u64 = 5_000;
pub const E2_CLAIM: f64 = 0.3;
pub const BIAS_E2: f64 = 0.1;
pub const PROMISE_SHARE: f64 = 0.1;
/// Per-check significance: keeps the family error below 1 % over the ≈ 100 checks of a soak run.
pub const ALPHA: f64 = 1e-4;

/// P(Z ≤ x) for a standard normal Z (Abramowitz & Stegun 7.1.26, |error| < 1.5·10⁻⁷), written here,
/// not taken from the library.
pub fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / 2f64.sqrt();
    let t = 1.0 / (1.0 + 0.3275911 * z);
    let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    let erfc = poly * (-z * z).exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

/// P(Bin(n, p) ≤ k).
pub fn binomial_cdf(k: u64, n: u64, p: f64) -> f64 {
    let mut term = (1.0 - p).powi(n as i32);
    let mut sum = 0.0;
    for i in 0..=k.min(n) {
        if i > 0 {
            term *= (n - i + 1) as f64 / i as f64 * p / (1.0 - p);
        }
        sum += term;
    }
    sum.min(1.0)
}

pub fn e2(cov: &[Vec<f64>], truth: &[Vec<f64>]) -> f64 {
    let (mut err, mut norm) = (0.0, 0.0);
    for (row, t) in cov.iter().zip(truth) {
        for (c, s) in row.iter().zip(t) {
            err += (c - s).abs();
            norm += s.abs();
        }
    }
    err / norm
}

/// What 40 runs of one setting measured.
pub struct Measured {
    pub e2: Vec<f64>,
    pub pooled_e2: f64,
    pub pooled_sd: f64,
    /// Each run's setting warning after its 5,000 samples (measured warnings appear only then).
    pub warnings: Vec<Option<SettingWarning>>,
}

pub fn measure(config: &ChainConfig, truth: &Moments) -> Measured {
    measure_from(config, truth, 1)
}

/// [`measure`] over seeds `first`..`first + SEEDS` (a test's own runs, apart from the page's 1–40).
pub fn measure_from(config: &ChainConfig, truth: &Moments, first: u64) -> Measured {
    let d = truth.mean.len();
    let mut e2s = Vec::new();
    let mut warnings = Vec::new();
    let mut covs: Vec<Vec<Vec<f64>>> = Vec::new();
    for seed in first..first + SEEDS {
        let mut config = config.clone();
        config.seed = seed;
        let mut chain = Chain::new(&config).unwrap();
        // As the page's lab does once the truth is known (src/lab/runaway.rs).
        chain.watch_for_runaway(truth);
        let mut steps = 0;
        while chain.promise_samples() < SAMPLES && steps < 20 * SAMPLES {
            steps += chain.run(SAMPLES - chain.promise_samples()).max(1);
            if !matches!(chain.status(), sgviz::chain::ChainStatus::Running) {
                break;
            }
        }
        warnings.push(chain.setting_warning().or_else(|| runaway_as_warning(&chain)));
        let moments = chain.moments();
        let cov = moments.cov;
        let ok = matches!(chain.status(), sgviz::chain::ChainStatus::Running) && cov.iter().flatten().all(|x| x.is_finite());
        e2s.push(if ok { e2(&cov, &truth.cov) } else { f64::INFINITY });
        if ok {
            // Pooled for the bias: the second moment about the TRUE mean, whose expectation is the
            // law's covariance (the sample covariance is low by Var(x̄), which pooling keeps).
            let dev: Vec<f64> = moments.mean.iter().zip(&truth.mean).map(|(m, t)| m - t).collect();
            covs.push((0..d).map(|a| (0..d).map(|b| cov[a][b] + dev[a] * dev[b]).collect()).collect());
        }
    }
    let runs = covs.len().max(1) as f64;
    let pooled: Vec<Vec<f64>> = (0..d).map(|a| (0..d).map(|b| covs.iter().map(|c| c[a][b]).sum::<f64>() / runs).collect()).collect();
    let mut sd_sum = 0.0;
    for a in 0..d {
        for b in 0..d {
            let var = covs.iter().map(|c| (c[a][b] - pooled[a][b]).powi(2)).sum::<f64>() / (runs - 1.0).max(1.0);
            sd_sum += (var / runs).sqrt();
        }
    }
    let norm: f64 = truth.cov.iter().flatten().map(|x| x.abs()).sum();
    let pooled_e2 = if covs.len() < 2 { f64::INFINITY } else { e2(&pooled, &truth.cov) };
    Measured { e2: e2s, pooled_e2, pooled_sd: sd_sum / norm, warnings }
}

/// A confirmed runaway (src/runaway.rs) is what the page says of a run that left the truth's
/// mass: it counts as that run's warning (a mixing failure, no share printed) where no setting
/// warning speaks first.
fn runaway_as_warning(chain: &Chain) -> Option<SettingWarning> {
    chain.runaway().map(|r| SettingWarning { param: "runaway", failure: Failure::Mixing, text: r.message, detail: String::new() })
}

/// The share p a mixing warning states ("above 0.3 in p % of runs", or the bounds "in at least p %
/// of runs" and "in more than p % of runs").
pub fn stated_share(w: &SettingWarning) -> f64 {
    stated_share_in(&w.text).unwrap_or_else(|| panic!("no stated share: {}", w.text))
}

/// The share a warning's text prints ("above 0.3 in [at least] p % of runs"), if it prints one.
pub fn stated_share_in(text: &str) -> Option<f64> {
    let tail = text.split(&format!("above {E2_CLAIM} in ")).nth(1)?;
    let tail = ["at least ", "more than "].iter().find_map(|b| tail.strip_prefix(b)).unwrap_or(tail);
    Some(tail.split(" %").next()?.trim().parse::<f64>().ok()? / 100.0)
}

/// Whether a printed share p is refuted by `fails` of [`SEEDS`] runs over [`E2_CLAIM`]: a share
/// measurably above the runs' (P < [`ALPHA`]), or, unless the text says it is a lower bound ("in at
/// least p %"), measurably below them. The rule tests/warning_shares.rs applies at four settings,
/// here for every warning a sweep meets; `None` when the printed share stands (or none is printed).
pub fn printed_share_refuted(text: &str, fails: u64) -> Option<String> {
    let p = stated_share_in(text)?;
    let lower = binomial_cdf(fails, SEEDS, p);
    if lower < ALPHA {
        return Some(format!("prints {:.0} % of runs failing, measured {fails}/{SEEDS} (P = {lower:.1e})", 100.0 * p));
    }
    let upper = binomial_upper_tail(fails, SEEDS, p);
    let bound = is_a_lower_bound(text);
    (!bound && upper < ALPHA).then(|| format!("prints {:.0} % of runs failing, measured {fails}/{SEEDS} (P = {upper:.1e}; a bound must say \"at least\")", 100.0 * p))
}

/// The printed shares of a setting's per-run warnings (the measured signal prints each run's own,
/// at its estimate's 90 % lower confidence bound, docs/diagnostics.md §8) against the share its
/// 40 runs measure. A 90 % lower bound overshoots the true share in at most 10 % of runs, so up
/// to that many runs may print a share the runs refute: more than Bin(40, 0.1) allows at P <
/// [`ALPHA`] is an untrue printed share. Err names the runs and the first refuted text.
pub fn per_run_shares_are_true(label: &str, m: &Measured) -> Result<usize, String> {
    let fails = m.e2.iter().filter(|e| **e > E2_CLAIM).count() as u64;
    let refuted: Vec<(String, &str)> = m.warnings.iter().flatten().filter_map(|w| printed_share_refuted(&w.text, fails).map(|why| (why, w.text.as_str()))).collect();
    let k = refuted.len() as u64;
    if k > 0 && binomial_upper_tail(k, SEEDS, PROMISE_SHARE) < ALPHA {
        let (why, text) = &refuted[0];
        return Err(format!("{label}: {k}/{SEEDS} runs print a share their runs refute, e.g. {why}: {}", text.chars().take(200).collect::<String>()));
    }
    Ok(refuted.len())
}

/// Whether the share a mixing warning states is only a lower bound ("in at least p % of runs", or
/// "in more than p % of runs": the promise's own line, where a law's bracket states no share).
pub fn share_is_a_lower_bound(w: &SettingWarning) -> bool {
    is_a_lower_bound(&w.text)
}

fn is_a_lower_bound(text: &str) -> bool {
    ["at least ", "more than "].iter().any(|b| text.contains(&format!("above {E2_CLAIM} in {b}")))
}

/// P(Bin(n, p) ≥ k), as P(Bin(n, 1 − p) ≤ n − k) (exact at p = 1, where 1 − cdf divides by 0).
pub fn binomial_upper_tail(k: u64, n: u64, p: f64) -> f64 {
    binomial_cdf(n.saturating_sub(k), n, 1.0 - p)
}

/// The verdict on one setting; Err with what is false.
pub fn judge(label: &str, warning: Option<&SettingWarning>, m: &Measured) -> Result<String, String> {
    let fails = m.e2.iter().filter(|e| **e > E2_CLAIM).count() as u64;
    let mut sorted = m.e2.clone();
    sorted.sort_by(f64::total_cmp);
    let row = format!("{label}: {fails}/{SEEDS} over {E2_CLAIM}, median E2 {:.3}, pooled E2 {:.3} ± {:.3}", sorted[sorted.len() / 2], m.pooled_e2, m.pooled_sd);
    match warning {
        None => {
            let tail = 1.0 - binomial_cdf(fails.saturating_sub(1), SEEDS, PROMISE_SHARE);
            if fails > 0 && tail < ALPHA {
                return Err(format!("{row}: silent, but more than {PROMISE_SHARE} of runs fail (P = {tail:.1e})"));
            }
            if m.pooled_e2 > BIAS_E2 + 3.0 * m.pooled_sd {
                return Err(format!("{row}: silent, but biased beyond {BIAS_E2}"));
            }
            Ok(format!("{row}: silent, within the promise"))
        }
        Some(w) if w.failure == Failure::Mixing => {
            // A mixing warning that prints no share (a run too short to reach the law, whose
            // start shows: docs/diagnostics.md §7, V2) names a failure: true when more than
            // PROMISE_SHARE of the runs fail.
            let Some(p) = stated_share_in(&w.text) else {
                return if fails as f64 > PROMISE_SHARE * SEEDS as f64 { Ok(format!("{row}: warned ({}, no share stated), true", w.param)) } else { Err(format!("{row}: a mixing warning, but at most {PROMISE_SHARE} of runs fail: {}", w.text)) };
            };
            // The share printed is true within the binomial spread of 40 runs both ways, or it
            // says it is a lower bound ("at least"): then only a share measurably below it is false.
            if let Some(why) = printed_share_refuted(&w.text, fails) {
                return Err(format!("{row}: {why}: {}", w.text));
            }
            Ok(format!("{row}: warned ({}, {:.0} % stated), true", w.param, 100.0 * p))
        }
        Some(w) => {
            if m.pooled_e2.is_finite() && m.pooled_e2 < BIAS_E2 - 3.0 * m.pooled_sd {
                return Err(format!("{row}: warns of bias, but the pooled covariance is within {BIAS_E2}: {}", w.text));
            }
            Ok(format!("{row}: warned of bias ({}), true", w.param))
        }
    }
}


/// The verdict on a setting carrying a pairing warning (`Chain::warning`: the derived defaults
/// cannot meet E2 ≤ 0.3 after 5,000 samples on this target, or its modes are separated). The
/// warning names a failure; it is true when that failure is measured: more than
/// [`PROMISE_SHARE`] of the runs over [`E2_CLAIM`], or the pooled bias above [`BIAS_E2`].
pub fn judge_pairing(label: &str, text: &str, m: &Measured) -> Result<String, String> {
    let fails = m.e2.iter().filter(|e| **e > E2_CLAIM).count() as u64;
    let row = format!("{label}: {fails}/{SEEDS} over {E2_CLAIM}, pooled E2 {:.3} ± {:.3}", m.pooled_e2, m.pooled_sd);
    if let Some(why) = printed_share_refuted(text, fails) {
        return Err(format!("{row}: pairing warning {why}: {}", text.chars().take(200).collect::<String>()));
    }
    if fails as f64 > PROMISE_SHARE * SEEDS as f64 || m.pooled_e2 > BIAS_E2 {
        Ok(format!("{row}: pairing warning, true"))
    } else {
        Err(format!("{row}: pairing warning, but the failure it names is not measured: {}", text.chars().take(160).collect::<String>()))
    }
}
