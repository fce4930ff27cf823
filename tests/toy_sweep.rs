//! Honest at every slider position, beyond the Gaussian toy (issue 21, part A): every sampler ×
//! target pairing the page offers among the 2-D toys and the synthetic logistic regression, except
//! the Langevin-type samplers on the Gaussian toy (tests/slider_sweep.rs sweeps those), at the
//! derived defaults and at each numeric slider's minimum, midpoint (log units for log sliders) and
//! maximum, 40 seeds × 5,000 samples each (samples as the page counts them: BPS events). Each
//! setting is refused (the chain does not build), or warned (a setting or pairing warning), or
//! silent; the verdicts are tests/common/sweep.rs's, from README "What the warnings promise".
//!
//! Where no law exists the page does not yet warn (README "Not yet covered"): the settings that
//! break the promise silently are listed in [`KNOWN_SILENT_FAILURES`] with what was measured; the
//! test fails when a setting not listed fails, and when a listed one stops failing (the list
//! stays true both ways, so fixing a failure means deleting its line).
//!
//! CI (`make test`): the defaults of the five Langevin-type samplers on banana, funnel and mixture
//! (where the issue measured its silent failures) and of every sampler on the logistic regression
//! is too much for the ~40 s budget; CI runs the defaults on banana, funnel and mixture (15
//! settings). `SGVIZ_SLIDER_SWEEP=soak` (make soak): every pairing, every numeric slider at
//! min/default/midpoint/max (`SGVIZ_TOY_SWEEP_TARGETS=banana,funnel` restricts it to those targets,
//! `SGVIZ_TOY_SWEEP_SAMPLERS=sghmc` to those samplers).

#[path = "common/sweep.rs"]
mod sweep;
mod common;

use sgviz::chain::{Chain, ChainConfig};
use sgviz::registry;
use sweep::{judge, judge_pairing, measure, Measured};

const LANGEVIN: [&str; 5] = ["sgld", "sgfs_f", "sgfs_d", "sghmc", "osgfs"];
const TOYS: [&str; 6] = ["gaussian", "mixture", "banana", "hyperbola", "multimodal", "funnel"];

/// Settings that break the promise without a warning, as measured (40 seeds × 5,000 samples, this
/// file's verdict). Key: "target sampler point" with point "defaults" or "param=min|mid|max".
/// Measured under `SGVIZ_SLIDER_SWEEP=soak SGVIZ_TOY_SWEEP_TARGETS=banana,funnel cargo test --release --test all toy_sweep::`;
/// the first two are biases (pooled E2 well above 0.1 with a small spread), which a measured
/// Monte-Carlo signal cannot see; the last is a false alarm in 8 of 40 runs of a setting with 2 of
/// 40 failing. SGHMC's three (banana n = 10, funnel β̂ = 0.5 and 1) are warned by its noise law
/// (src/noise_law.rs, docs/diagnostics.md §10) since issue 21's fourth pass.
const KNOWN_SILENT_FAILURES: &[&str] = &[
    // 39/40 and 40/40 over 0.3, pooled E2 0.355 ± 0.014 and 0.365 ± 0.070.
    "funnel osgfs osgfs_c=mid",
    "funnel osgfs osgfs_c=max",
    // 2/40 over 0.3, measured warning in 8/40 runs.
    "funnel mala mala_step=max",
];

fn soak() -> bool {
    std::env::var("SGVIZ_SLIDER_SWEEP").is_ok_and(|v| v == "soak")
}

/// The pairings swept: CI's subset or the soak's full set.
fn pairings() -> Vec<(&'static str, &'static str)> {
    if !soak() {
        return ["banana", "funnel", "mixture"].iter().flat_map(|t| LANGEVIN.iter().map(move |s| (*t, *s))).collect();
    }
    // SGVIZ_TOY_SWEEP_TARGETS=banana,funnel runs a documented part of the grid.
    let only = std::env::var("SGVIZ_TOY_SWEEP_TARGETS").ok();
    let targets = TOYS.iter().copied().chain(["logistic"]).filter(move |t| only.as_ref().is_none_or(|o| o.split(',').any(|x| x == *t)));
    // SGVIZ_TOY_SWEEP_SAMPLERS=sghmc,osgfs the same for samplers.
    let samplers = std::env::var("SGVIZ_TOY_SWEEP_SAMPLERS").ok();
    let pairs = targets.flat_map(|t| registry::SAMPLERS.iter().map(move |s| (t, s.name))).filter(|(t, s)| !(*t == "gaussian" && LANGEVIN.contains(s)));
    pairs.filter(|(_, s)| samplers.as_ref().is_none_or(|o| o.split(',').any(|x| x == *s))).collect()
}

/// (key suffix, parameter, value) points of the sweep of `sampler` on `target`.
fn points(target: &str, sampler: &str) -> Vec<(String, &'static str, f64)> {
    let mut out = vec![("defaults".to_string(), "", f64::NAN)];
    if !soak() {
        return out;
    }
    let Ok(chain) = Chain::new(&ChainConfig::new(target, sampler, 1)) else { return out };
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
fn verdict(label: &str, config: &ChainConfig, truth: &sgviz::diagnostics::Moments) -> Result<String, String> {
    let chain = match Chain::new(config) {
        Ok(chain) => chain,
        Err(e) => return Ok(format!("{label}: refused ({e})")),
    };
    let m: Measured = measure(config, truth);
    match (chain.setting_warning(), chain.warning()) {
        (Some(w), _) => judge(label, Some(&w), &m),
        (None, Some(text)) => judge_pairing(label, text, &m),
        (None, None) => judge_measured(label, &m),
    }
}

/// A setting no law predicts: the measured warning (src/mixing_meter.rs) appears at the end of a
/// run; a run that diverged shows the page's divergence message instead (both count as warned).
/// - the setting breaks the promise measurably (judge's binomial test) ⇒ at least half its runs
///   are warned (else a silent failure);
/// - at most [`sweep::PROMISE_SHARE`] of its runs fail (≤ 4 of 40) ⇒ at most that share of its
///   runs are warned (else an untrue warning);
/// - between the two (5–12 of 40 runs over 0.3: a failure share above 10 % that 40 runs cannot
///   prove) either is accepted, as the law-based judge accepts.
fn judge_measured(label: &str, m: &Measured) -> Result<String, String> {
    let warned = m.warnings.iter().zip(&m.e2).filter(|(w, e)| w.is_some() || !e.is_finite()).count();
    let seeds = m.warnings.len();
    let fails = m.e2.iter().filter(|e| **e > sweep::E2_CLAIM).count();
    let few_fail = fails as f64 <= sweep::PROMISE_SHARE * seeds as f64;
    match judge(label, None, m) {
        Err(why) if 2 * warned >= seeds => Ok(format!("{why} — measured warning in {warned}/{seeds} runs, true")),
        Err(why) => Err(format!("{why} — measured warning in only {warned}/{seeds} runs")),
        Ok(row) if few_fail && warned as f64 > sweep::PROMISE_SHARE * seeds as f64 => Err(format!("{row} — but a measured warning in {warned}/{seeds} runs: untrue")),
        Ok(row) if warned > 0 && !few_fail => Ok(format!("{row} (measured warning in {warned}/{seeds} runs; {fails} fail: warned, true)")),
        Ok(row) => Ok(format!("{row} (measured warning in {warned}/{seeds} runs)")),
    }
}

#[test]
fn every_pairing_and_slider_position_is_within_the_promise_or_warned_truthfully() {
    let (mut failures, mut counts) = (Vec::new(), [0usize; 4]);
    let mut truths: Vec<(&str, sgviz::diagnostics::Moments)> = Vec::new();
    for (target, sampler) in pairings() {
        if !truths.iter().any(|(t, _)| *t == target) {
            truths.push((target, common::reference(target).moments));
        }
        let truth = &truths.iter().find(|(t, _)| *t == target).unwrap().1;
        for (point, param, value) in points(target, sampler) {
            let key = format!("{target} {sampler} {point}");
            let config = if param.is_empty() { ChainConfig::new(target, sampler, 1) } else { ChainConfig::new(target, sampler, 1).with(param, value) };
            let label = if param.is_empty() { key.clone() } else { format!("{key} ({value:.3e})") };
            match verdict(&label, &config, truth) {
                Ok(row) => {
                    counts[if row.contains("refused") { 2 } else if row.contains(", true") || row.contains("warned") { 1 } else { 0 }] += 1;
                    eprintln!("{row}");
                }
                Err(why) => {
                    counts[3] += 1;
                    eprintln!("FALSE {why}");
                    failures.push((key, why));
                }
            }
        }
    }
    eprintln!("settings: {} right, {} warned, {} refused, {} failures", counts[0], counts[1], counts[2], counts[3]);
    let unlisted: Vec<&String> = failures.iter().filter(|(k, _)| !KNOWN_SILENT_FAILURES.contains(&k.as_str())).map(|(_, why)| why).collect();
    let swept: Vec<String> = pairings().iter().flat_map(|(t, s)| points(t, s).into_iter().map(move |(p, _, _)| format!("{t} {s} {p}"))).collect();
    let fixed: Vec<&&str> = KNOWN_SILENT_FAILURES.iter().filter(|k| swept.iter().any(|s| s == *k) && !failures.iter().any(|(f, _)| f == *k)).collect();
    assert!(unlisted.is_empty() && fixed.is_empty(), "unlisted failures:\n{}\nlisted failures that no longer fail (delete their lines): {fixed:?}", unlisted.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"));
}
