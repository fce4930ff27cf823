//! Unit tests of src/sgais/job.rs (`sgais::job::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::SgaisConfig;
use sgviz::sgais::ais::baseline_seed;
use sgviz::sgais::models::{evidence_target, EvidenceModel};
use std::sync::Arc;
use sgviz::sgais::job::*;

fn settings(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn linear_job_tracks_the_exact_curve_and_runs_ais_baselines() {
    let s = settings(&[("n_points", "400"), ("chunk_size", "100"), ("batch_size", "100"), ("eta_scale", "seen")]);
    let mut job = EvidenceJob::new("linreg", &s, None, 3, &[], true).unwrap();
    let mut calls = 0;
    while job.advance(2_000).is_some() {
        calls += 1;
        assert!(calls < 10_000);
    }
    assert!(job.is_done());
    assert!((job.progress() - 1.0).abs() < 1e-12);
    let chart = job.evidence_chart();
    let labels: Vec<&str> = chart.series.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, vec!["SGAIS", "exact log Z/n", "AIS (full data)"]);
    assert_eq!(chart.series[0].points.len(), 4, "one point per chunk");
    assert_eq!(chart.series[2].points.len(), 3, "AIS at N/4, N/2, N");
    let summary = job.summary();
    let sgais = &summary["runs"][0];
    let (z, exact) = (sgais["log_z"].as_f64().unwrap(), sgais["exact_log_z"].as_f64().unwrap());
    // Same 1 % criterion as tests/sgais.rs, at a smaller N.
    assert!((z - exact).abs() < 0.02 * exact.abs() + 15.0, "{z} vs {exact}");
}

/// Mixtures on shifting data: both charts mark the change point within the data (n = 1,000),
/// shuffled runs are dashed, and the summary carries the model comparison.
#[test]
fn shift_jobs_mark_change_points_and_compare_models() {
    let light = settings(&[("n_points", "1500"), ("scenario", "shift"), ("particles", "6"), ("target_ess", "3"), ("burn_in_steps", "3"), ("chunk_size", "500")]);
    let variants = vec![
        Variant { label: "K = 3".into(), settings: settings(&[("n_components", "3")]) },
        Variant { label: "K = 5".into(), settings: settings(&[("n_components", "5")]) },
        Variant { label: "K = 5 shuffled".into(), settings: settings(&[("n_components", "5"), ("scenario", "shift_shuffled")]) },
    ];
    let mut job = EvidenceJob::new("gmm", &light, None, 2, &variants, false).unwrap();
    while job.advance(100_000).is_some() {}
    for chart in [job.evidence_chart(), job.annealing_chart()] {
        assert_eq!(chart.markers.iter().map(|m| m.x).collect::<Vec<_>>(), vec![1_000.0], "{}", chart.title);
        assert_eq!(chart.series.iter().filter(|s| s.style == sgviz::plot::chart::Style::Dashed).count(), 1);
    }
    let summary = job.summary();
    let sentence = summary["shift"]["comparisons"][0]["sentence"].as_str().unwrap();
    assert!(sentence.starts_with("Data in order: K = "), "{sentence}");
    assert!(summary["runs"][0]["ess_note"].as_str().unwrap().contains("M = 6"));
    // Stationary data: no markers, no comparison.
    let plain = EvidenceJob::new("gmm", &settings(&[("n_points", "200")]), None, 1, &[], false).unwrap();
    assert!(plain.evidence_chart().markers.is_empty() && plain.summary()["shift"].is_null());
}

/// A worker's run spec from JSON builds replica r of SGAIS with the replica's seed, or the AIS
/// baseline with its own seed; presets apply before the settings.
#[test]
fn run_specs_from_json_build_replicas_and_baselines() {
    let spec: RunSpec = serde_json::from_str(r#"{"target": "linreg", "preset": "paper", "settings": [["n_points", "600"], ["chunk_size", "200"]], "seed": 3, "replica": 2}"#).unwrap();
    let (mut run, seed, shift) = spec.build(None).unwrap();
    assert_eq!((seed, shift), (sgviz::sgais::replicas::replica_seed(3, 2), None));
    assert_eq!(run.particles().len(), 10, "the paper preset's M");
    run.run_to_end();
    let mut same = sgviz::sgais::replicas::replica_run(run_model(600), &{
        let mut c = SgaisConfig::paper_defaults();
        c.chunk_size = 200;
        c
    }, 600, 3, 2);
    same.run_to_end();
    assert_eq!(run.records(), same.records());
    let ais = RunSpec { ais_n: Some(300), ..spec.clone() };
    let (ais_run, ais_seed, _) = ais.build(None).unwrap();
    assert_eq!((ais_run.n_total(), ais_seed), (300, baseline_seed(seed)));
    let bad = RunSpec { preset: Some("fast".into()), ..spec };
    assert!(bad.build(None).err().unwrap().contains("allowed: accurate, paper"));
}

fn run_model(n: usize) -> Arc<dyn EvidenceModel> {
    let target = evidence_target("linreg").unwrap();
    let mut values = sgviz::params::ParamValues::defaults(target.params);
    values.set(target.params, "n_points", n as f64).unwrap();
    (target.build)(&values, None).unwrap()
}

#[test]
fn variants_override_target_settings_and_bad_names_are_refused() {
    let variants = vec![
        Variant { label: "K = 3".into(), settings: settings(&[("n_components", "3")]) },
        Variant { label: "K = 5".into(), settings: settings(&[("n_components", "5")]) },
    ];
    let job = EvidenceJob::new("gmm", &settings(&[("n_points", "200")]), None, 1, &variants, false).unwrap();
    assert_eq!(job.annealing_chart().series.len(), 2);
    let bad = EvidenceJob::new("gmm", &settings(&[("bogus", "1")]), None, 1, &[], false);
    assert!(bad.err().unwrap().contains("unknown parameter 'bogus'"));
}
