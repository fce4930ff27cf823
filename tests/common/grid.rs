//! Shared by the grid sweeps over sampler × target pairings (tests/toy_sweep.rs on the banana and
//! the funnel, tests/toy_sweep_more.rs on every other target the page offers): the slider points of
//! one pairing read from the registry and the chain's derived ranges, the verdict on one setting
//! (refused, warned truthfully, or silent within the promise; tests/common/sweep.rs judges), and
//! the driver that runs a grid and checks its failures against a list of known silent failures
//! that must stay true both ways (an unlisted failure fails, and so does a listed setting that no
//! longer fails).
//!
//! A file including this one declares `mod sweep` (tests/common/sweep.rs) and `mod common` beside it.

#![allow(dead_code)]

use super::sweep::{self, judge, judge_pairing, measure, Measured};
use sgviz::chain::{Chain, ChainConfig};
use sgviz::diagnostics::Moments;
use sgviz::registry;
use sgviz::setting_warning::Failure;

/// A target as the page offers it: a registry target with some of its choices set (e.g. the
/// logistic regression's shipped data sets), under a label that keys the known-failure lists.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub label: &'static str,
    pub target: &'static str,
    pub settings: &'static [(&'static str, f64)],
}

impl Case {
    pub const fn plain(target: &'static str) -> Case {
        Case { label: target, target, settings: &[] }
    }

    /// A chain of `sampler` on this target at its settings, seed 1.
    pub fn config(&self, sampler: &str) -> ChainConfig {
        self.settings.iter().fold(ChainConfig::new(self.target, sampler, 1), |c, (n, v)| c.with(n, v))
    }

    /// The truth at this target's settings (tests/common/mod.rs: closed form, grid quadrature or a
    /// reference MALA run; never the code under test's estimate of it).
    pub fn truth(&self) -> Moments {
        super::common::reference_with(self.target, self.settings).moments
    }
}

/// (key suffix, parameter, value) points of the sweep of `sampler` on `case`: the derived defaults
/// (key "defaults"), and with `all_sliders` each numeric slider that applies at its minimum,
/// midpoint (log units for a log slider, rounded for an integer one) and maximum, as the chain's
/// derived ranges give them (the page's slider ends), the other sliders at their defaults.
pub fn points(case: &Case, sampler: &str, all_sliders: bool) -> Vec<(String, &'static str, f64)> {
    let mut out = vec![("defaults".to_string(), "", f64::NAN)];
    if !all_sliders {
        return out;
    }
    let Ok(chain) = Chain::new(&case.config(sampler)) else { return out };
    let spec = registry::sampler(sampler).unwrap();
    let params = chain.sampler_params();
    for p in spec.params.iter().filter(|p| p.choices.is_empty() && p.visible_if.is_none_or(|w| w.holds(params))) {
        let (lo, hi) = chain.derived().iter().find(|d| d.name == p.name).map_or((p.min, p.max), |d| (d.min, d.max));
        let mid = if p.log_scale && lo > 0.0 { (lo * hi).sqrt() } else { 0.5 * (lo + hi) };
        let mid = if p.integer { mid.round() } else { mid };
        for (name, v) in [("min", lo), ("mid", mid), ("max", hi)] {
            out.push((format!("{}={name}", p.name), p.name, v));
        }
    }
    out
}

/// The verdict on one setting: Ok(row) when refused, warned truthfully or silent within the promise.
pub fn verdict(label: &str, config: &ChainConfig, truth: &Moments) -> Result<String, String> {
    let chain = match Chain::new(config) {
        Ok(chain) => chain,
        Err(e) => return Ok(format!("{label}: refused ({e})")),
    };
    let m: Measured = measure(config, truth);
    match (chain.setting_warning(), chain.warning()) {
        (Some(w), _) if w.failure == Failure::Bias => judge(label, Some(&w), &m).or_else(|why| judge_bias_by_long_run(why, config, truth, &m)),
        (Some(w), _) => judge(label, Some(&w), &m),
        (None, Some(text)) => judge_pairing(label, text, &m),
        (None, None) if measured_bias_undecided(&m) => judge_measured(label, &m).and_then(|row| judge_bias_by_long_run(row, config, truth, &m)),
        (None, None) => judge_measured(label, &m),
    }
}

/// A measured bias warning (SBPS's band check, docs/diagnostics.md §9) in more than
/// [`sweep::PROMISE_SHARE`] of the runs of a setting where at most that share fail and the pooled
/// bias is not measurably within [`sweep::BIAS_E2`]: [`judge_measured`] accepts it, and the long
/// run of [`judge_bias_by_long_run`] decides whether the bias it names is real (issue 21's
/// fourteenth pass: SBPS and pSBPS at n = 14 on the linear regression, warned in 39 and 36 of 40
/// runs, pooled E2 0.049 ± 0.033, 400,000 events E2 0.052–0.067).
fn measured_bias_undecided(m: &Measured) -> bool {
    let warned_bias = m.warnings.iter().flatten().filter(|w| w.failure == Failure::Bias).count();
    let fails = m.e2.iter().filter(|e| **e > sweep::E2_CLAIM).count();
    let seeds = m.e2.len() as f64;
    fails as f64 <= sweep::PROMISE_SHARE * seeds && warned_bias as f64 > sweep::PROMISE_SHARE * seeds && m.pooled_e2 >= sweep::BIAS_E2 - 3.0 * m.pooled_sd
}

/// Samples of the long run that decides a bias warning the 40 short runs cannot (40 × 5,000).
pub const LONG_RUN_SAMPLES: u64 = sweep::SEEDS * sweep::SAMPLES;

/// A bias warning whose bias the pooled short runs do not show: the pooled second moment about the
/// true mean hides a chain that barely moves from a start spread like the posterior (SGFS at α = 0,
/// SGHMC at β̂ = 1 on the mixture: every run's E2 ≈ 1, pooled E2 ≈ 0.03). The warning names the
/// stationary law, so one chain run [`LONG_RUN_SAMPLES`] decides: its E2 above [`sweep::BIAS_E2`]
/// by more than its Monte-Carlo part ⇒ the bias is real; else the warning is untrue (`why`
/// stands). The Monte-Carlo part is bounded by the short runs' median E2 (bias included, so an
/// upper bound) scaled by √(5,000 / 200,000) = 1/√40, as E2's Monte-Carlo part falls as
/// 1/√samples.
fn judge_bias_by_long_run(why: String, config: &ChainConfig, truth: &Moments, m: &Measured) -> Result<String, String> {
    let e2 = long_run_e2(config, truth);
    let mut short = m.e2.clone();
    short.sort_by(f64::total_cmp);
    let noise = short[short.len() / 2] / (sweep::SEEDS as f64).sqrt();
    if e2 - noise > sweep::BIAS_E2 {
        Ok(format!("{why} — but one run of {LONG_RUN_SAMPLES} samples has E2 {e2:.3} (Monte-Carlo part ≤ {noise:.3}) > {}: the bias is real, warned, true", sweep::BIAS_E2))
    } else {
        Err(format!("{why} — and one run of {LONG_RUN_SAMPLES} samples has E2 {e2:.3}"))
    }
}

/// E2 of the covariance of one chain (seed 1) after [`LONG_RUN_SAMPLES`] samples (∞ when it stops).
pub fn long_run_e2(config: &ChainConfig, truth: &Moments) -> f64 {
    let mut chain = Chain::new(config).unwrap();
    let mut steps = 0;
    while chain.promise_samples() < LONG_RUN_SAMPLES && steps < 20 * LONG_RUN_SAMPLES {
        steps += chain.run(LONG_RUN_SAMPLES - chain.promise_samples()).max(1);
        if !matches!(chain.status(), sgviz::chain::ChainStatus::Running) {
            return f64::INFINITY;
        }
    }
    sweep::e2(&chain.moments().cov, &truth.cov)
}

/// A setting no law predicts: the measured warning (src/mixing_meter.rs) appears at the end of a
/// run; a run that diverged shows the page's divergence message instead (both count as warned).
/// - the setting breaks the promise measurably (judge's binomial test) ⇒ at least half its runs
///   are warned (else a silent failure);
/// - at most [`sweep::PROMISE_SHARE`] of its runs fail (≤ 4 of 40) ⇒ at most that share of its
///   runs are warned (else an untrue warning);
/// - between the two (5–12 of 40 runs over 0.3: a failure share above 10 % that 40 runs cannot
///   prove) either is accepted, as the law-based judge accepts;
/// - a measured warning that names a bias (SBPS's band check, docs/diagnostics.md §9) is untrue
///   only where the bias it names is measurably absent, as for a law-based bias warning: pooled
///   E2 below [`sweep::BIAS_E2`] by 3 sd; a pooled bias that 40 runs cannot place on either side of
///   0.1 is accepted here, and [`verdict`] then lets one long run decide ([`measured_bias_undecided`]).
pub fn judge_measured(label: &str, m: &Measured) -> Result<String, String> {
    let warned = m.warnings.iter().zip(&m.e2).filter(|(w, e)| w.is_some() || !e.is_finite()).count();
    let seeds = m.warnings.len();
    let fails = m.e2.iter().filter(|e| **e > sweep::E2_CLAIM).count();
    let few_fail = fails as f64 <= sweep::PROMISE_SHARE * seeds as f64;
    let names_bias = m.warnings.iter().flatten().any(|w| w.failure == Failure::Bias);
    let bias_absent = m.pooled_e2 < sweep::BIAS_E2 - 3.0 * m.pooled_sd;
    // Not only how many runs warn: the share each run's warning prints must stand against the 40
    // runs' measured share (issue 21: "k of 40" / "about x %" read as printed).
    sweep::per_run_shares_are_true(label, m)?;
    match judge(label, None, m) {
        Err(why) if 2 * warned >= seeds => Ok(format!("{why} — measured warning in {warned}/{seeds} runs, true")),
        Err(why) => Err(format!("{why} — measured warning in only {warned}/{seeds} runs")),
        Ok(row) if few_fail && names_bias && !bias_absent && warned as f64 > sweep::PROMISE_SHARE * seeds as f64 => Ok(format!("{row} (warned of bias in {warned}/{seeds} runs; the pooled bias is not measurably within {}: accepted)", sweep::BIAS_E2)),
        Ok(row) if few_fail && warned as f64 > sweep::PROMISE_SHARE * seeds as f64 => Err(format!("{row} — but a measured warning in {warned}/{seeds} runs: untrue")),
        Ok(row) if warned > 0 && !few_fail => Ok(format!("{row} (measured warning in {warned}/{seeds} runs; {fails} fail: warned, true)")),
        Ok(row) => Ok(format!("{row} (measured warning in {warned}/{seeds} runs)")),
    }
}

/// Which of the four outcomes a verdict row reports (the tally of docs/diagnostics.md's tables).
fn outcome(row: &str) -> usize {
    if row.contains("refused") {
        2
    } else if row.contains(", true") || row.contains("warned") {
        1
    } else {
        0
    }
}

/// Run every (case, sampler) pairing at its points and check the failures against `known` (keys
/// "label sampler point"): every failure is listed, and every listed setting that was swept still
/// fails. Prints one row per setting and the tally per target label.
pub fn run_grid(pairings: &[(Case, &'static str)], all_sliders: bool, known: &[&str]) {
    run_grid_where(pairings, all_sliders, &|_| true, known);
}

/// [`run_grid`] on the points whose key ("label sampler point") `keep` accepts: a small grid that
/// still reaches chosen slider positions (a CI subset).
pub fn run_grid_where(pairings: &[(Case, &'static str)], all_sliders: bool, keep: &dyn Fn(&str) -> bool, known: &[&str]) {
    let mut failures: Vec<(String, String)> = Vec::new();
    let mut swept: Vec<String> = Vec::new();
    let mut truths: Vec<(&str, Moments)> = Vec::new();
    let mut tallies: Vec<(&str, [usize; 4])> = Vec::new();
    for (case, sampler) in pairings {
        if !truths.iter().any(|(l, _)| *l == case.label) {
            truths.push((case.label, case.truth()));
            tallies.push((case.label, [0; 4]));
        }
        let truth = &truths.iter().find(|(l, _)| *l == case.label).unwrap().1;
        let tally = &mut tallies.iter_mut().find(|(l, _)| *l == case.label).unwrap().1;
        for (point, param, value) in points(case, sampler, all_sliders) {
            let key = format!("{} {sampler} {point}", case.label);
            if !keep(&key) {
                continue;
            }
            swept.push(key.clone());
            let config = if param.is_empty() { case.config(sampler) } else { case.config(sampler).with(param, value) };
            let label = if param.is_empty() { key.clone() } else { format!("{key} ({value:.3e})") };
            let cpu = process_cpu_seconds();
            let result = verdict(&label, &config, truth);
            if std::env::var("SGVIZ_SWEEP_TIMES").is_ok() {
                eprintln!("CPU {:.2} s {key}", process_cpu_seconds() - cpu);
            }
            match result {
                Ok(row) => {
                    tally[outcome(&row)] += 1;
                    eprintln!("{row}");
                }
                Err(why) => {
                    tally[3] += 1;
                    eprintln!("FALSE {why}");
                    failures.push((key, why));
                }
            }
        }
    }
    for (label, [right, warned, refused, failed]) in &tallies {
        eprintln!("{label}: {right} right, {warned} warned, {refused} refused, {failed} failures");
    }
    let unlisted: Vec<&str> = failures.iter().filter(|(k, _)| !known.contains(&k.as_str())).map(|(_, why)| why.as_str()).collect();
    let fixed: Vec<&&str> = known.iter().filter(|k| swept.iter().any(|s| s == *k) && !failures.iter().any(|(f, _)| f == *k)).collect();
    assert!(unlisted.is_empty() && fixed.is_empty(), "unlisted failures:\n{}\nlisted failures that no longer fail (delete their lines): {fixed:?}", unlisted.join("\n"));
}

/// CPU seconds (user + system) of this test process so far, from /proc/self/stat (0 where there is
/// none): `SGVIZ_SWEEP_TIMES=1` prints each point's cost, to choose CI's subset by (issue 23,
/// BENCHMARKS.md "CI time, eighth round (native)"); a process's CPU, unlike wall time, does not
/// grow with the machine's load.
fn process_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name's closing parenthesis: utime and stime are the 12th and
    // 13th (fields 14 and 15 of proc(5)), in clock ticks of 1/100 s.
    let fields: Vec<f64> = stat.rsplit(')').next().unwrap_or("").split_whitespace().map(|x| x.parse().unwrap_or(0.0)).collect();
    fields.get(11..13).map_or(0.0, |t| (t[0] + t[1]) / 100.0)
}
