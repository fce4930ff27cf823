//! The `sgviz evidence` contract, checked against things computed here rather than against the
//! same library call: the exact evidence against an independent Kalman-filter evaluation of
//! docs/truth.md §5, the estimate against it within the replica-derived tolerance of
//! tests/sgais_defaults.rs, the replicas' standard error against the replicas' own numbers, the
//! AIS baseline's seed, presets, and bad input (exit status 2 with what is allowed). CPU time
//! ≈ 1.5 s at opt-level 3.

use nalgebra::{DMatrix, DVector};
use sgviz::model::linear::LinearRegression;
use sgviz::params::ParamValues;
use std::process::{Command, Output};

fn sgviz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sgviz")).args(args).output().expect("binary runs")
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap().lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect()
}

/// log p(y_1..y_n) by a Kalman filter written here: prior N(0, I) on [w, b], then for each datum
/// log N(y; φᵀm, σ² + φᵀSφ), m ← m + Sφ r/s, S ← S − SφφᵀS/s (docs/truth.md (TRUTH.5), sequential form).
fn kalman_log_evidence(model: &LinearRegression, n: usize) -> f64 {
    let dim = model.design_row(0).len();
    let (mut m, mut s) = (DVector::<f64>::zeros(dim), DMatrix::<f64>::identity(dim, dim));
    let noise_var = model.noise_sd().powi(2);
    let mut total = 0.0;
    for i in 0..n {
        let phi = DVector::from_vec(model.design_row(i));
        let s_phi = &s * &phi;
        let variance = noise_var + phi.dot(&s_phi);
        let residual = model.response(i) - phi.dot(&m);
        total += -0.5 * (2.0 * std::f64::consts::PI * variance).ln() - 0.5 * residual * residual / variance;
        m += &s_phi * (residual / variance);
        s -= &s_phi * s_phi.transpose() / variance;
    }
    total
}

/// The CLI's default linear-regression data (5 features, σ = 1, data seed 1), regenerated here.
fn default_linreg_data(n: usize) -> LinearRegression {
    let mut values = ParamValues::defaults(sgviz::model::linear::PARAMS);
    for (name, v) in [("n_points", n as f64), ("n_features", 5.0), ("noise_sd", 1.0), ("prior_sd", 1.0), ("data_seed", 1.0)] {
        values.set(sgviz::model::linear::PARAMS, name, v).unwrap();
    }
    LinearRegression::synthetic(&values)
}

/// Three replicas at the defaults on N = 2,000: chunk lines per replica, the exact curve equal to
/// an independent Kalman filter at every checkpoint, every replica within the replica-derived
/// tolerance (3.0 nats, tests/sgais_defaults.rs), log_z the replicas' mean and log_z_se their
/// sd/√3, and replica 0 the same as a plain `--seed 1` run.
#[test]
fn linreg_replicas_match_an_independent_closed_form_and_their_own_spread() {
    let lines = json_lines(&sgviz(&["evidence", "--target", "linreg", "--set", "n_points=2000", "--seed", "1", "--replicas", "3"]));
    let (chunks, summary) = lines.split_at(lines.len() - 1);
    let summary = &summary[0];
    assert_eq!(chunks.len(), 6, "two chunks of 1,000 per replica");
    let data = default_linreg_data(2_000);
    for c in chunks {
        let n = c["n"].as_u64().unwrap() as usize;
        let exact = kalman_log_evidence(&data, n);
        assert!((c["exact_log_z"].as_f64().unwrap() - exact).abs() < 1e-8 * exact.abs(), "n = {n}");
        assert!(c["replica"].as_u64().unwrap() < 3 && c["ess"].as_f64().unwrap() >= 1.0 && c["noise_ratio"].as_f64().unwrap() <= 0.5 + 1e-12);
    }
    let exact = kalman_log_evidence(&data, 2_000);
    let finals: Vec<f64> = summary["replica_log_z"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert_eq!(finals.len(), 3);
    for z in &finals {
        assert!((z - exact).abs() <= 3.0, "log Ẑ = {z:.2}, exact {exact:.2}");
    }
    let mean = finals.iter().sum::<f64>() / 3.0;
    let sd = (finals.iter().map(|z| (z - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
    assert!((summary["log_z"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert!((summary["log_z_se"].as_f64().unwrap() - sd / 3f64.sqrt()).abs() < 1e-9);
    assert!((summary["error"]["mean"].as_f64().unwrap() - (mean - exact)).abs() < 1e-6);
    assert_eq!(summary["curve"].as_array().unwrap().len(), 2);
    assert!(summary["text"].as_str().unwrap().contains("standard error over 3 independent replicas"));
    assert!(summary["ess_note"].as_str().unwrap().contains("ESS = 1 means"));
    assert!(summary["cpu_seconds"].is_f64() || summary["cpu_seconds"].is_null());

    let single = json_lines(&sgviz(&["evidence", "--target", "linreg", "--set", "n_points=2000", "--seed", "1"]));
    let single = single.last().unwrap();
    assert_eq!(single["log_z"].as_f64().unwrap(), finals[0], "replica 0 is seed 1");
    assert!(single["log_z_se"].is_null() && single.get("curve").is_none());
}

/// With one chunk (chunk = N) SGAIS and full-data AIS are the same algorithm; only the seed tells
/// them apart. The CLI must give the baseline its own seed, so the two estimates differ.
#[test]
fn the_ais_baseline_runs_with_its_own_seed() {
    let lines = json_lines(&sgviz(&["evidence", "--target", "linreg", "--set", "n_points=2000", "--set", "chunk_size=2000", "--seed", "4", "--ais"]));
    let summary = lines.last().unwrap();
    let (sgais, ais) = (summary["log_z"].as_f64().unwrap(), summary["ais_log_z"].as_f64().unwrap());
    assert_ne!(sgais, ais, "the baseline reused the SGAIS seed");
    // Tolerance: the AIS pilot of tests/sgais_defaults.rs (N = 2,000, defaults): +0.02 ± 0.69.
    let exact = kalman_log_evidence(&default_linreg_data(2_000), 2_000);
    assert!((ais - exact).abs() <= 3.1 && summary["ais"]["error"]["mean"].is_f64(), "AIS {ais:.2} vs exact {exact:.2}");
    assert!(summary["ais_seconds"].as_f64().unwrap() >= 0.0 && summary["ais_datum_evals"].as_f64().unwrap() > 0.0);
}

/// `--ns` adds nested sampling on the full data, one run per replica with its own seed: the summary
/// carries `ns_log_z` (mean of the runs), `ns_log_z_se` (√(Σ se²)/R with each se = √(H/M) from the
/// run's own information H), `ns_seconds` and `ns_datum_evals`; the estimate is within 4 SE of the
/// Kalman-filter evidence (Skilling 2006 §5). The replica agreement fields are there with R = 2.
#[test]
fn the_nested_sampling_baseline_reports_its_estimate_and_cost() {
    let lines = json_lines(&sgviz(&["evidence", "--target", "linreg", "--set", "n_points=1000", "--set", "particles=4", "--set", "target_ess=2", "--set", "ns_live_points=20", "--seed", "5", "--replicas", "2", "--ns"]));
    let summary = lines.last().unwrap();
    let runs = summary["ns"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["live_points"], 20, "--set ns_live_points reaches the nested sampler");
    assert_ne!(runs[0]["seed"], runs[1]["seed"], "each replica's NS has its own seed");
    assert_ne!(runs[0]["seed"].as_u64().unwrap(), 5, "NS does not reuse the SGAIS seed");
    let (z0, z1) = (runs[0]["log_z"].as_f64().unwrap(), runs[1]["log_z"].as_f64().unwrap());
    assert!((summary["ns_log_z"].as_f64().unwrap() - (z0 + z1) / 2.0).abs() < 1e-9);
    let (s0, s1) = (runs[0]["log_z_se"].as_f64().unwrap(), runs[1]["log_z_se"].as_f64().unwrap());
    for r in runs {
        let (h, m) = (r["information"].as_f64().unwrap(), r["live_points"].as_f64().unwrap());
        assert!((r["log_z_se"].as_f64().unwrap() - (h / m).sqrt()).abs() < 1e-9 && r["finished"].as_bool().unwrap());
    }
    let se = summary["ns_log_z_se"].as_f64().unwrap();
    assert!((se - (s0 * s0 + s1 * s1).sqrt() / 2.0).abs() < 1e-9);
    let exact = kalman_log_evidence(&default_linreg_data(1_000), 1_000);
    assert!((summary["ns_log_z"].as_f64().unwrap() - exact).abs() <= 4.0 * se, "NS {} vs exact {exact:.2} (SE {se:.2})", summary["ns_log_z"]);
    assert!(summary["ns_seconds"].as_f64().unwrap() >= 0.0 && summary["ns_datum_evals"].as_f64().unwrap() > 1e5);
    assert!(summary["replicas_disagree"].is_boolean() && summary["log_z_range"].as_f64().unwrap() >= 0.0 && summary["log_z_predicted_sd"].as_f64().unwrap() > 0.0);
    assert!(summary["ess_note"].as_str().unwrap().contains("Replicas "));
}

/// `--preset paper` sets the paper's §6.1 values; later `--set`s override them.
#[test]
fn the_paper_preset_sets_the_paper_values() {
    let lines = json_lines(&sgviz(&["evidence", "--target", "linreg", "--set", "n_points=1000", "--preset", "paper", "--set", "burn_in_steps=5", "--seed", "2"]));
    let params = &lines.last().unwrap()["sgais_params"];
    let expected = [("particles", 10.0), ("target_ess", 5.0), ("burn_in_steps", 5.0), ("learning_rate", 0.1), ("eta_scale", 0.0), ("friction", 0.2), ("noise_correction", 0.0), ("noise_estimate", 0.0), ("batch_size", 500.0), ("chunk_size", 500.0), ("resampling", 0.0)];
    for (name, value) in expected {
        assert_eq!(params[name].as_f64().unwrap(), value, "{name}");
    }
    assert_eq!(lines.len(), 3, "two chunks of 500 and the summary");
}

#[test]
fn gmm_has_an_exact_evidence_only_with_one_component() {
    let run = |k: &str| json_lines(&sgviz(&["evidence", "--target", "gmm", "--set", "n_points=100", "--set", &format!("n_components={k}"), "--set", "chunk_size=50", "--set", "batch_size=50", "--seed", "1"]));
    assert!(run("5").last().unwrap()["exact_log_z"].is_null());
    let one = run("1");
    let summary = one.last().unwrap();
    assert!(summary["exact_log_z"].is_f64() && summary["error"]["mean"].is_f64());
    assert_eq!(summary["n"], 100);
}

#[test]
fn softmax_reads_class_labels_from_a_csv_file_and_refuses_an_empty_class() {
    let path = std::env::temp_dir().join(format!("sgviz_evidence_{}.csv", std::process::id()));
    let write = |offset: usize| {
        let mut text = String::from("x1,x2,label\n");
        for i in 0..120 {
            let (a, b) = ((i % 7) as f64 / 3.0 - 1.0, (i % 5) as f64 / 2.0 - 1.0);
            text.push_str(&format!("{a},{b},{}\n", i % 3 + offset));
        }
        std::fs::write(&path, text).unwrap();
    };
    write(0);
    let out = sgviz(&["evidence", "--target", "softmax", "--data", path.to_str().unwrap(), "--set", "chunk_size=40", "--seed", "2"]);
    let lines = json_lines(&out);
    let summary = lines.last().unwrap();
    assert_eq!(summary["n"], 120);
    assert_eq!(lines.len(), 4, "three chunks of 40 and the summary");
    // Three classes: log Z of 120 labels is below 0 and, for weakly informative features, near 120 log(1/3).
    let log_z = summary["log_z"].as_f64().unwrap();
    assert!(log_z < 0.0 && log_z > 2.0 * 120.0 * (1.0f64 / 3.0).ln(), "{log_z}");
    write(1);
    let out = sgviz(&["evidence", "--target", "softmax", "--data", path.to_str().unwrap(), "--seed", "2"]);
    std::fs::remove_file(&path).ok();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("class 0 has no rows") && err.contains("1-based"), "{err}");
}

#[test]
fn bad_arguments_exit_2_with_what_is_allowed() {
    let dir = std::env::temp_dir();
    let numeric_header = dir.join(format!("sgviz_numeric_header_{}.csv", std::process::id()));
    std::fs::write(&numeric_header, "1.5,2.0,3.1\n0.5,1.0,2.0\n").unwrap();
    // A sparse file just over 50 MB: refused from its size, before it is read.
    let huge = dir.join(format!("sgviz_huge_{}.csv", std::process::id()));
    std::fs::File::create(&huge).unwrap().set_len(50 * 1024 * 1024 + 1).unwrap();
    let (numeric_header_path, huge_path) = (numeric_header.to_str().unwrap().to_string(), huge.to_str().unwrap().to_string());
    let cases: &[(&[&str], &str)] = &[
        (&["evidence", "--target", "linreg"], "--seed is required"),
        (&["evidence", "--seed", "1"], "--target is required"),
        (&["evidence", "--target", "probit", "--seed", "1"], "allowed: linreg, softmax, gmm"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--set", "bogus=1"], "allowed: particles"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--set", "particles=1"], "particles: 1 is out of range"),
        (&["evidence", "--target", "gmm", "--seed", "1", "--data", "x.csv"], "generated data only"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--set", "noise_correction=fixed", "--set", "noise_estimate=0.5"], "β̂ ≤ α"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--set", "target_ess=60"], "ESS* < M"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--preset", "fast"], "allowed: accurate, paper"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--replicas", "0"], "--replicas: '0' is not allowed"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--data", &numeric_header_path], "row 1 is all numbers"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--data", &huge_path], "the limit is 50 MB"),
        (&["sample", "--target", "linreg", "--sampler", "sgld", "--steps", "10", "--seed", "1", "--data", &huge_path], "the limit is 50 MB"),
    ];
    for (args, expected) in cases {
        let out = sgviz(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: got '{err}', expected '{expected}'");
    }
    std::fs::remove_file(&numeric_header).ok();
    std::fs::remove_file(&huge).ok();
}
