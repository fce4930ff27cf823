//! SGAIS on the paper's K = 5 Gaussian mixture (issue 22; docs/sgais.md §10) at the mixture's own
//! defaults (the registry's per-model table, resolved exactly as the CLI and the page do), against
//! an independent reference: the Laplace approximation at the posterior mode plus log K!
//! (`sgviz::sgais::laplace_reference`, itself checked against the exact one-component evidence in
//! its unit tests), and against the two other algorithms of the paper: full-data AIS at its own
//! settings for the mixture (`sgviz::sgais::ais::ais_config`, docs/sgais.md §6), and nested
//! sampling (Skilling 2006; App. A). Every run is seeded as `sgviz evidence --seed S --ais --ns`
//! seeds it, so a failing seed replays on the command line.
//!
//! The tolerance is the issue's: 0.1 % of |log Z| (36 nats at N = 10⁴, 3.6 at N = 1,000). The
//! failure it is there to catch is a run whose particles miss posterior mass (a local-mode trap),
//! which loses far more than that at either size: at the global defaults the three SGAIS
//! seeds were 1,000–3,700 nats low at N = 10⁴ and 177–393 low after N = 1,000 (docs/sgais.md
//! §10); AIS at SGAIS's own settings was 78 nats low at 10⁴ (seed 6) and 41 low at N = 1,000
//! (seed 1, docs/sgais.md §6). So N = 1,000 still tells a trapped run from agreement by more than
//! ten times the tolerance; what it cannot resolve is a bias of a few nats (the Laplace reference's
//! own error at this N is of that order, and so is nested sampling's upward residual, §6), so nested
//! sampling is compared at 10⁴ only.
//! CI: SGAIS seed 1 at N = 10⁴; seed 1 of SGAIS and of AIS at N = 1,000.
//! `SGVIZ_SGAIS_MIXTURE_SOAK=1` (`make soak`): seeds 1–3 of SGAIS, AIS and NS at N = 10⁴, all within
//! 0.1 % of each other and of the reference (≈ 12 CPU-minutes), and seeds 1–3 of SGAIS and AIS at
//! N = 1,000.

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::sgais::ais::{ais_config, ais_run, baseline_seed};
use sgviz::sgais::job::resolve;
use sgviz::sgais::laplace_reference::laplace_log_evidence;
use sgviz::sgais::models::EvidenceModel;
use sgviz::sgais::nested::{nested_seed, NestedConfig, NestedRun, NESTED_PARAMS};
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::SgaisConfig;
use std::sync::Arc;

fn soak() -> bool {
    std::env::var("SGVIZ_SGAIS_MIXTURE_SOAK").is_ok_and(|v| v != "0")
}

/// The paper's K = 5 mixture on N points from 5 clusters, data seed 1, and the SGAIS settings a
/// user gets without setting any (the same resolution as `sgviz evidence --target gmm`).
fn mixture_at_its_defaults(n: usize) -> (GaussianMixture, SgaisConfig) {
    let resolved = resolve("gmm", None, &[("n_points".into(), n.to_string())], None).unwrap();
    let model = GaussianMixture::new(2, 5, generate_cluster_data(n, ClusterSchedule::Stationary(5), 1)).unwrap();
    (model, resolved.config)
}

fn finished_log_z(mut run: SgaisRun) -> f64 {
    run.run_to_end();
    assert_eq!(*run.status(), RunStatus::Finished);
    run.log_z()
}

fn sgais_log_z(model: &GaussianMixture, config: &SgaisConfig, seed: u64) -> f64 {
    let shared: Arc<dyn EvidenceModel> = Arc::new(model.clone());
    finished_log_z(SgaisRun::new(shared, config.clone(), model.n_data(), seed))
}

/// Full-data AIS at the mixture's AIS settings, seeded as the CLI's `--ais` with `--seed seed`.
fn ais_log_z(model: &GaussianMixture, config: &SgaisConfig, seed: u64) -> f64 {
    let shared: Arc<dyn EvidenceModel> = Arc::new(model.clone());
    finished_log_z(ais_run(shared, &ais_config("gmm", config), model.n_data(), baseline_seed(seed)))
}

/// Nested sampling at its defaults, seeded as the CLI's `--ns` with `--seed seed`.
fn ns_log_z(model: &GaussianMixture, seed: u64) -> f64 {
    let ns = NestedRun::new(Arc::new(model.clone()), NestedConfig::from_values(&ParamValues::defaults(NESTED_PARAMS)), model.n_data(), nested_seed(seed)).run_to_end();
    assert!(ns.finished, "{ns:?}");
    ns.log_z
}

/// Every estimate within `tolerance` of the reference and of every other estimate.
fn assert_all_agree(estimates: &[(String, f64)], reference: f64, tolerance: f64) {
    for (label, z) in estimates {
        assert_within(label, *z, reference, tolerance);
        for (other, w) in estimates {
            assert!((z - w).abs() <= tolerance, "{label} ({z:.1}) against {other} ({w:.1}): tolerance {tolerance:.1}; all: {estimates:?}");
        }
    }
}

fn assert_within(label: &str, estimate: f64, reference: f64, tolerance: f64) {
    assert!((estimate - reference).abs() <= tolerance, "{label}: log Ẑ = {estimate:.1}, reference {reference:.1}, tolerance {tolerance:.1}");
}

/// The mixture's defaults are what the issue measured to work; the global ones are not
/// (docs/sgais.md §10), so this is also the check that a run on `gmm` picks its own. The soak adds
/// seeds 2 and 3 and the two baselines: the done-means at N = 10⁴.
#[test]
fn five_component_mixture_at_its_defaults_agrees_with_the_laplace_reference() {
    let n = 10_000;
    let (model, config) = mixture_at_its_defaults(n);
    let reference = laplace_log_evidence(&model);
    let tolerance = 1e-3 * reference.abs();
    let seeds: Vec<u64> = if soak() { vec![1, 2, 3] } else { vec![1] };
    let mut estimates: Vec<(String, f64)> = seeds.iter().map(|&s| (format!("SGAIS seed {s}"), sgais_log_z(&model, &config, s))).collect();
    if soak() {
        estimates.extend(seeds.iter().map(|&s| (format!("AIS seed {s}"), ais_log_z(&model, &config, s))));
        estimates.extend(seeds.iter().map(|&s| (format!("NS seed {s}"), ns_log_z(&model, s))));
    }
    assert_all_agree(&estimates, reference, tolerance);
}

/// At N = 1,000 (what CI can afford) SGAIS and full-data AIS at the mixture's AIS settings agree
/// within 0.1 % (3.6 nats) of each other and of the reference; a trapped run loses 40–400 nats at
/// this size (see the file's opening comment). CI runs seed 1 of each, `make soak` seeds 1–3 (issue
/// 23, BENCHMARKS.md "CI time", fifth round): both failures this test exists for trap seed 1 —
/// SGAIS at the global defaults (every one of the three seeds 177–393 nats low) and AIS
/// at SGAIS's own settings (seed 1 41 nats low) — so seeds 2 and 3 add power only against a trap
/// that spares seed 1, which the soak keeps (with seeds 1–3 at N = 10⁴).
#[test]
fn sgais_and_ais_agree_on_a_thousand_points() {
    let (model, config) = mixture_at_its_defaults(1_000);
    let reference = laplace_log_evidence(&model);
    let seeds = if soak() { 1..=3 } else { 1..=1 };
    let mut estimates: Vec<(String, f64)> = seeds.clone().map(|s| (format!("SGAIS seed {s}"), sgais_log_z(&model, &config, s))).collect();
    estimates.extend(seeds.map(|s| (format!("AIS seed {s}"), ais_log_z(&model, &config, s))));
    assert_all_agree(&estimates, reference, 1e-3 * reference.abs());
}
