//! SGAIS on the paper's K = 5 Gaussian mixture (issue 22; docs/sgais.md §10) at the mixture's own
//! defaults (the registry's per-model table, resolved exactly as the CLI and the page do), against
//! an independent reference: the Laplace approximation at the posterior mode plus log K!
//! (`sgviz::sgais::laplace_reference`, itself checked against the exact one-component evidence in
//! its unit tests), and against the two other algorithms of the paper: full-data AIS with the same
//! kernel settings, and nested sampling (Skilling 2006; App. A).
//!
//! The tolerance is the issue's: 0.1 % of |log Z| (36 nats at N = 10⁴). At the global defaults
//! the three seeds were 1,000–3,700 nats below the reference (docs/sgais.md §10).
//! CI (≈ 20 CPU-s at opt-level 3): SGAIS seed 1 at N = 10⁴ and AIS at N = 2,000.
//! `SGVIZ_SGAIS_MIXTURE_SOAK=1` (`make soak`): seeds 1–3, AIS and NS at N = 10⁴, all within 0.1 %
//! of each other and of the reference (≈ 2 CPU-minutes).

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::sgais::ais::{ais_run, baseline_seed};
use sgviz::sgais::job::resolve;
use sgviz::sgais::laplace_reference::laplace_log_evidence;
use sgviz::sgais::models::EvidenceModel;
use sgviz::sgais::nested::{NestedConfig, NestedRun, NESTED_PARAMS};
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

fn ais_log_z(model: &GaussianMixture, config: &SgaisConfig, seed: u64) -> f64 {
    let shared: Arc<dyn EvidenceModel> = Arc::new(model.clone());
    finished_log_z(ais_run(shared, config, model.n_data(), baseline_seed(seed)))
}

fn assert_within(label: &str, estimate: f64, reference: f64, tolerance: f64) {
    assert!((estimate - reference).abs() <= tolerance, "{label}: log Ẑ = {estimate:.1}, reference {reference:.1}, tolerance {tolerance:.1}");
}

/// The mixture's defaults are what the issue measured to work; the global ones are not
/// (docs/sgais.md §10), so this is also the check that a run on `gmm` picks its own.
#[test]
fn five_component_mixture_at_its_defaults_agrees_with_the_laplace_reference() {
    let n = 10_000;
    let (model, config) = mixture_at_its_defaults(n);
    let reference = laplace_log_evidence(&model);
    let tolerance = 1e-3 * reference.abs();
    let seeds: Vec<u64> = if soak() { vec![1, 2, 3] } else { vec![1] };
    let estimates: Vec<f64> = seeds.iter().map(|&s| sgais_log_z(&model, &config, s)).collect();
    for (seed, z) in seeds.iter().zip(&estimates) {
        assert_within(&format!("SGAIS seed {seed}"), *z, reference, tolerance);
    }
    let range = estimates.iter().copied().fold(f64::MIN, f64::max) - estimates.iter().copied().fold(f64::MAX, f64::min);
    assert!(range <= tolerance, "seeds {seeds:?}: log Ẑ = {estimates:?}, range {range:.1} > {tolerance:.1}");
    if soak() {
        let ais = ais_log_z(&model, &config, 1);
        assert_within("AIS", ais, reference, tolerance);
        for (seed, z) in seeds.iter().zip(&estimates) {
            assert_within(&format!("SGAIS seed {seed} against AIS"), *z, ais, tolerance);
        }
        let ns = NestedRun::new(Arc::new(model.clone()), NestedConfig::from_values(&ParamValues::defaults(NESTED_PARAMS)), n, 1).run_to_end();
        assert!(ns.finished, "{ns:?}");
        assert_within("NS", ns.log_z, reference, tolerance);
        for (seed, z) in seeds.iter().zip(&estimates) {
            assert_within(&format!("SGAIS seed {seed} against NS"), *z, ns.log_z, tolerance);
        }
        assert_within("AIS against NS", ais, ns.log_z, tolerance);
    }
}

/// Full-data AIS with the mixture's kernel settings (the paper's baseline, docs/sgais.md §6) finds
/// the same evidence: CI runs it at N = 2,000 (the soak at N = 10⁴ above).
#[test]
fn ais_with_the_mixture_defaults_agrees_with_the_laplace_reference() {
    let (model, config) = mixture_at_its_defaults(2_000);
    let reference = laplace_log_evidence(&model);
    assert_within("AIS at N = 2,000", ais_log_z(&model, &config, 1), reference, 1e-3 * reference.abs());
}
