//! A measuring probe for issue 21's law work (docs/diagnostics.md §7): the setting named in
//! `SGVIZ_PROBE` ("target sampler name=value,name=value"; target settings with a `t:` prefix) over
//! 40 seeds × 5,000 samples (tests/common/sweep.rs `measure`) and, with `SGVIZ_PROBE_LONG=1`, two
//! long runs (seeds 1, 2) of 200,000 samples (`=3,4@1000000`: seeds 3 and 4, a million each): runs over 0.3, median and pooled E2, the warning each
//! run ends with. `SGVIZ_PROBE_BLOCKS=k` adds k − 1 further blocks of 40 seeds (41–80, …) and
//! prints the runs over 0.3 over all of them; `SGVIZ_PROBE_NO_RUNS=1` prints the warnings only.
//! It measures and asserts nothing, so it is ignored (not a test of the suite): run it by hand,
//! `SGVIZ_PROBE="…" cargo nextest run --test all --run-ignored only -E 'test(/^law_probe::/)' --no-capture`.

#[path = "common/sweep.rs"]
mod sweep;
mod common;

use sgviz::chain::{Chain, ChainConfig};

fn parse(spec: &str) -> (String, String, Vec<(String, String)>, Vec<(String, f64)>) {
    let mut words = spec.split_whitespace();
    let (target, sampler) = (words.next().unwrap().to_string(), words.next().unwrap().to_string());
    let mut settings = Vec::new();
    let mut target_settings = Vec::new();
    for pair in words.flat_map(|w| w.split(',')).filter(|w| !w.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap();
        match name.strip_prefix("t:") {
            Some(t) => target_settings.push((t.to_string(), value.parse().unwrap())),
            None => settings.push((name.to_string(), value.to_string())),
        }
    }
    (target, sampler, settings, target_settings)
}

/// The long runs `SGVIZ_PROBE_LONG` asks for: "1" seeds 1 and 2 × 200,000 samples, or
/// "3,4,5@1000000" those seeds × that many samples.
fn long_runs(spec: &str) -> (Vec<u64>, u64) {
    match spec.split_once('@') {
        Some((seeds, samples)) => (seeds.split(',').map(|s| s.parse().unwrap()).collect(), samples.parse().unwrap()),
        None => (vec![1, 2], 200_000),
    }
}

#[test]
#[ignore = "a measuring probe, run by hand with SGVIZ_PROBE (it asserts nothing)"]
fn probe() {
    let Ok(spec) = std::env::var("SGVIZ_PROBE") else { return };
    for one in spec.split(';') {
        let (target, sampler, settings, target_settings) = parse(one);
        let tset: Vec<(&str, f64)> = target_settings.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        let truth = common::reference_with(&target, &tset).moments;
        let mut config = ChainConfig::new(&target, &sampler, 1);
        for (n, v) in tset.iter().map(|(n, v)| (n.to_string(), v.to_string())).chain(settings.iter().cloned()) {
            config = config.with(&n, v);
        }
        let chain = Chain::new(&config);
        match &chain {
            Err(e) => {
                println!("PROBE {one}: refused: {e}");
                continue;
            }
            Ok(c) => {
                println!("PROBE {one}: params {:?}\n  setting warning {:?}\n  pairing warning {:?}", c.sampler_params(), c.setting_warning(), c.warning());
                let law = sgviz::promise::Predictor::new(&sampler, c.model()).map(|p| p.predict(c.sampler_params()));
                println!("  law: {law:?}");
                if std::env::var("SGVIZ_PROBE_DETAIL").is_ok() {
                    detail(&sampler, c, &truth.cov);
                }
            }
        }
        if std::env::var("SGVIZ_PROBE_NO_RUNS").is_ok() {
            continue;
        }
        let m = sweep::measure(&config, &truth);
        let mut e2 = m.e2.clone();
        e2.sort_by(f64::total_cmp);
        let over = e2.iter().filter(|e| **e > 0.3).count();
        let warned = m.warnings.iter().filter(|w| w.is_some()).count();
        println!("  40 × 5,000: {over}/40 over 0.3, median {:.3}, max {:.3}, pooled {:.3} ± {:.3}, warned at the end {warned}/40", e2[20], e2[39], m.pooled_e2, m.pooled_sd);
        let blocks: u64 = std::env::var("SGVIZ_PROBE_BLOCKS").ok().and_then(|b| b.parse().ok()).unwrap_or(1);
        if blocks > 1 {
            let more = (1..blocks).map(|b| sweep::measure_from(&config, &truth, 1 + 40 * b));
            let over_all = over + more.map(|m| m.e2.iter().filter(|e| **e > 0.3).count()).sum::<usize>();
            println!("  {} × 5,000 (seeds 1–{}): {over_all} over 0.3 ({:.1} %)", 40 * blocks, 40 * blocks, 100.0 * over_all as f64 / (40 * blocks) as f64);
        }
        if let Ok(long) = std::env::var("SGVIZ_PROBE_LONG") {
            let (seeds, samples) = long_runs(&long);
            for seed in seeds {
                let mut c = config.clone();
                c.seed = seed;
                let mut chain = Chain::new(&c).unwrap();
                chain.run(samples);
                println!("  seed {seed} × {samples}: E2 {:.3} ({:?})", sweep::e2(&chain.moments().cov, &truth.cov), chain.status());
            }
        }
    }
}

/// `SGVIZ_PROBE_DETAIL=1`: the law on the summary at the mean and on the posterior-averaged one
/// (the bracket's two ends), each with its covariance, its bias against the truth and the
/// summary's own error against the truth (what the law inherits at any setting).
fn detail(sampler: &str, chain: &Chain, truth: &[Vec<f64>]) {
    use sgviz::law::{law_on_summary, GaussianSummary};
    let truth = nalgebra::DMatrix::from_fn(truth.len(), truth.len(), |i, j| truth[i][j]);
    let e2 = |a: &nalgebra::DMatrix<f64>, b: &nalgebra::DMatrix<f64>| (a - b).abs().sum() / b.abs().sum();
    let Ok(summary) = GaussianSummary::of(chain.model()) else { return };
    for (name, s) in [("at mean", Some(summary.clone())), ("averaged", summary.averaged())] {
        let Some(s) = s else { continue };
        let summary_cov = s.precision.clone().try_inverse().unwrap();
        match law_on_summary(sampler, chain.sampler_params(), &s) {
            Ok(law) => println!("  {name}: F {:?}\n    law cov {:?}\n    summary cov {:?}\n    truth {:?}\n    bias E2(law, truth) {:.4}, E2(summary, truth) {:.4}, E2(law, summary) {:.4}", s.fisher.as_slice(), law.cov.as_slice(), summary_cov.as_slice(), truth.as_slice(), e2(&law.cov, &truth), e2(&summary_cov, &truth), e2(&law.cov, &summary_cov)),
            Err(e) => println!("  {name}: {e}"),
        }
    }
}

/// The information mismatch of every target's Gaussian summary at its defaults (and the logistic
/// regression's shipped data sets): where the Fisher samplers' preconditioner departs from the
/// summary's curvature (docs/diagnostics.md §7 addendum "s53"). Prints only.
#[test]
#[ignore = "a measuring probe, run by hand (it asserts nothing)"]
fn mismatch() {
    let cases: Vec<(&str, Vec<(&str, f64)>)> = sgviz::registry::TARGETS.iter().map(|t| (t.name, vec![])).chain([("logreg", vec![("dataset", 1.0)]), ("logreg", vec![("dataset", 2.0)])]).collect();
    for (target, settings) in cases {
        let mut config = ChainConfig::new(target, "osgfs", 1);
        for (n, v) in &settings {
            config = config.with(n, v.to_string());
        }
        let Ok(chain) = Chain::new(&config) else {
            println!("MISMATCH {target} {settings:?}: refused");
            continue;
        };
        match sgviz::law::GaussianSummary::of(chain.model()) {
            Ok(s) => println!("MISMATCH {target} {settings:?}: {:.3} (exact {}, averaged {})", s.information_mismatch(), s.exact, s.posterior_fisher.is_some()),
            Err(e) => println!("MISMATCH {target} {settings:?}: no summary ({e})"),
        }
    }
}
