//! The `sgviz evidence` contract: one JSON object per chunk (`n`, `log_z`, `annealing_steps`, `ess`)
//! and a summary line (`log_z`, `exact_log_z` or null, `seconds`) that agree with the library;
//! bad arguments exit with status 2 and say what is allowed.

use sgviz::params::ParamValues;
use sgviz::sgais::models::evidence_target;
use sgviz::sgais::run::SgaisRun;
use sgviz::sgais::{SgaisConfig, PARAMS};
use std::process::{Command, Output};

fn sgviz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sgviz")).args(args).output().expect("binary runs")
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap().lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect()
}

#[test]
fn linreg_prints_chunks_and_a_summary_that_agree_with_the_library() {
    let args = ["evidence", "--target", "linreg", "--set", "n_points=1000", "--set", "chunk_size=250", "--seed", "5"];
    let lines = json_lines(&sgviz(&args));
    let (chunks, summary) = lines.split_at(lines.len() - 1);
    let summary = &summary[0];
    assert_eq!(chunks.len(), 4);
    for (k, c) in chunks.iter().enumerate() {
        assert_eq!(c["n"], 250 * (k + 1));
        assert!(c["log_z"].is_f64() && c["ess"].is_f64() && c["exact_log_z"].is_f64());
        assert!(c["annealing_steps"].as_u64().unwrap() >= 1);
    }
    assert_eq!(summary["summary"], true);
    assert_eq!(summary["log_z"], chunks[3]["log_z"]);
    assert!(summary["seconds"].as_f64().unwrap() >= 0.0);

    let target = evidence_target("linreg").unwrap();
    let mut values = ParamValues::defaults(target.params);
    values.set(target.params, "n_points", 1000.0).unwrap();
    let model = (target.build)(&values, None).unwrap();
    let mut config_values = ParamValues::defaults(PARAMS);
    config_values.set(PARAMS, "chunk_size", 250.0).unwrap();
    let mut run = SgaisRun::new(model, SgaisConfig::from_values(&config_values).unwrap(), 1000, 5);
    run.run_to_end();
    assert_eq!(summary["log_z"].as_f64().unwrap(), run.log_z(), "same seed, same run");
    assert_eq!(summary["exact_log_z"].as_f64().unwrap(), run.exact_log_z().unwrap());
}

#[test]
fn gmm_has_no_exact_evidence_and_ais_is_reported_on_request() {
    let args = ["evidence", "--target", "gmm", "--set", "n_points=100", "--set", "chunk_size=50", "--set", "batch_size=50", "--seed", "1", "--ais"];
    let lines = json_lines(&sgviz(&args));
    let summary = lines.last().unwrap();
    assert!(summary["exact_log_z"].is_null());
    assert!(lines[0].get("exact_log_z").is_none());
    assert!(summary["ais_log_z"].is_f64() && summary["ais_seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(summary["n"], 100);
}

#[test]
fn softmax_reads_class_labels_from_a_csv_file() {
    let path = std::env::temp_dir().join(format!("sgviz_evidence_{}.csv", std::process::id()));
    let mut text = String::from("x1,x2,label\n");
    for i in 0..120 {
        let (a, b) = ((i % 7) as f64 / 3.0 - 1.0, (i % 5) as f64 / 2.0 - 1.0);
        text.push_str(&format!("{a},{b},{}\n", i % 3));
    }
    std::fs::write(&path, text).unwrap();
    let out = sgviz(&["evidence", "--target", "softmax", "--data", path.to_str().unwrap(), "--set", "chunk_size=40", "--seed", "2"]);
    std::fs::remove_file(&path).ok();
    let lines = json_lines(&out);
    let summary = lines.last().unwrap();
    assert_eq!(summary["n"], 120);
    assert_eq!(lines.len(), 4, "three chunks of 40 and the summary");
    // Three classes: log Z of 120 labels is below 0 and, for weakly informative features, near 120 log(1/3).
    let log_z = summary["log_z"].as_f64().unwrap();
    assert!(log_z < 0.0 && log_z > 2.0 * 120.0 * (1.0f64 / 3.0).ln(), "{log_z}");
}

#[test]
fn bad_arguments_exit_2_with_what_is_allowed() {
    let cases: &[(&[&str], &str)] = &[
        (&["evidence", "--target", "linreg"], "--seed is required"),
        (&["evidence", "--seed", "1"], "--target is required"),
        (&["evidence", "--target", "probit", "--seed", "1"], "allowed: linreg, softmax, gmm"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--set", "bogus=1"], "allowed: particles"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--set", "particles=1"], "particles: 1 is out of range"),
        (&["evidence", "--target", "gmm", "--seed", "1", "--data", "x.csv"], "generated data only"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--set", "noise_estimate=0.5"], "β̂ ≤ α"),
        (&["evidence", "--target", "linreg", "--seed", "1", "--set", "target_ess=10"], "ESS* < M"),
    ];
    for (args, expected) in cases {
        let out = sgviz(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: got '{err}', expected '{expected}'");
    }
}
