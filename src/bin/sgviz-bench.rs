//! Native sampler-throughput benchmark (`make bench` runs it through scripts/bench.sh).
//!
//! Reads the case list from bench/cases.json (the same cases the wasm benchmark runs under Node),
//! runs every sampler × target × minibatch size through [`Chain`] and prints one JSON object per
//! case: steps per second and per-datum gradient evaluations per second. It asserts nothing
//! about time.
//!
//! Usage: `sgviz-bench [cases.json] [--only SAMPLER] [--min-seconds S]`, or
//! `sgviz-bench --breakdown [--min-seconds S]` for the per-part cost of one SGLD/SGHMC step on
//! logistic regression (see [`breakdown`]), or `sgviz-bench --export-logreg-dd PATH` to write that
//! case's data set as CSV (for bench/blackjax_sgld.py).

#[path = "sgviz-bench/breakdown.rs"]
mod breakdown;

use sgviz::chain::{Chain, ChainConfig, ChainStatus};
use sgviz::sgais::cli::thread_cpu_seconds;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut path = "bench/cases.json".to_string();
    let mut only: Option<String> = None;
    let mut min_seconds_override: Option<f64> = None;
    let mut breakdown_only = false;
    let mut k = 0;
    while k < args.len() {
        match args[k].as_str() {
            "--only" => {
                k += 1;
                only = args.get(k).cloned();
            }
            "--breakdown" => breakdown_only = true,
            "--export-logreg-dd" => {
                k += 1;
                let out = args.get(k).expect("--export-logreg-dd needs a path");
                breakdown::export_case_data(out).unwrap_or_else(|e| panic!("cannot write {out}: {e}"));
                return;
            }
            "--min-seconds" => {
                k += 1;
                min_seconds_override = args.get(k).and_then(|s| s.parse().ok());
            }
            other => path = other.to_string(),
        }
        k += 1;
    }
    if breakdown_only {
        breakdown::print(min_seconds_override.unwrap_or(0.3));
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let cases: serde_json::Value = serde_json::from_str(&text).expect("cases.json is not valid JSON");
    let min_seconds = min_seconds_override.unwrap_or_else(|| cases["min_seconds"].as_f64().unwrap_or(0.5));
    let seed = cases["seed"].as_u64().unwrap_or(1);
    for target in cases["targets"].as_array().expect("targets") {
        for sampler in cases["samplers"].as_array().expect("samplers") {
            let sampler_name = sampler["sampler"].as_str().unwrap();
            if only.as_deref().is_some_and(|o| o != sampler_name) {
                continue;
            }
            for batch in cases["batch_sizes"].as_array().expect("batch_sizes") {
                let mut config = ChainConfig::new(target["target"].as_str().unwrap(), sampler_name, seed);
                for settings in [&target["settings"], &sampler["settings"]] {
                    for (name, value) in settings.as_object().unwrap() {
                        config = config.with(name, value);
                    }
                }
                config = config.with("batch_size", batch);
                let result = measure(&config, min_seconds);
                let line = serde_json::json!({
                    "target": target["label"], "sampler": sampler_name, "batch_size": batch,
                    "steps": result.steps, "seconds": result.seconds,
                    "steps_per_second": result.steps as f64 / result.seconds,
                    "grad_evals_per_second": result.grad_evals as f64 / result.seconds,
                    "cpu_seconds": result.cpu_seconds,
                    "steps_per_cpu_second": result.cpu_seconds.map(|c| result.steps as f64 / c),
                    "status": result.status,
                });
                println!("{line}");
            }
        }
    }
}

struct Measured {
    steps: u64,
    grad_evals: u64,
    seconds: f64,
    cpu_seconds: Option<f64>,
    status: String,
}

/// Warm up (1/10 of a chunk), then run doubling chunks until `min_seconds` have passed.
fn measure(config: &ChainConfig, min_seconds: f64) -> Measured {
    let mut chain = Chain::new(config).unwrap_or_else(|e| panic!("{e}"));
    chain.run(1000);
    let (steps0, evals0) = (chain.steps(), chain.grad_evals());
    let started = Instant::now();
    let cpu_started = thread_cpu_seconds();
    let mut chunk = 1000u64;
    while started.elapsed().as_secs_f64() < min_seconds && *chain.status() == ChainStatus::Running {
        chain.run(chunk);
        chunk = (chunk * 2).min(1 << 22);
    }
    let seconds = started.elapsed().as_secs_f64();
    let cpu_seconds = thread_cpu_seconds().zip(cpu_started).map(|(end, start)| end - start);
    let status = match chain.status() {
        ChainStatus::Running => "running".to_string(),
        ChainStatus::Diverged(m) => format!("diverged: {m}"),
    };
    Measured { steps: chain.steps() - steps0, grad_evals: chain.grad_evals() - evals0, seconds, cpu_seconds, status }
}
