//! One evidence method, one run, for the long benchmarks (BENCHMARKS.md "SGAIS vs NS vs AIS",
//! docs/sgais.md §6–§7): `sgviz evidence --ais --ns` always runs SGAIS first and then each
//! baseline, so on a shared machine a 10⁵-point NS run cannot be started on its own. This runs
//! exactly one of SGAIS, full-data AIS (seeded as the CLI's baseline) or nested sampling (seeded as
//! the CLI's `--ns`), with the CLI's argument parsing and setting resolution, and prints one JSON
//! line: log Ẑ (and NS's SE), thread CPU seconds and per-datum evaluations.
//!
//! `cargo run --release --example evidence_method -- sgais|ais|ais_same_kernel|ns --target T --set n_points=N --seed K [--set name=value]...`
//! (the arguments after the method are `sgviz evidence`'s; `ais` uses the AIS settings the CLI's
//! `--ais` would, `ais_same_kernel` exactly the SGAIS settings given, for measuring AIS's own).

use sgviz::sgais::ais::{ais_config, ais_run, baseline_seed};
use sgviz::sgais::cli::{parse_evidence_args, thread_cpu_seconds};
use sgviz::sgais::nested::{nested_seed, NestedConfig, NestedRun};
use sgviz::sgais::run::SgaisRun;
use sgviz::sgais::SgaisConfig;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let method = args.first().cloned().unwrap_or_default();
    let parsed = parse_evidence_args(&args[1..]).unwrap_or_else(|e| panic!("{e}"));
    let model = (parsed.target.build)(&parsed.target_values, parsed.data.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    let config = SgaisConfig::from_values(&parsed.sgais_values).unwrap_or_else(|e| panic!("{e}"));
    let n = model.n_data();
    let cpu = thread_cpu_seconds().unwrap_or(f64::NAN);
    let (log_z, se, evals) = match method.as_str() {
        "sgais" => {
            let mut run = SgaisRun::new(model, config, n, parsed.seed);
            run.run_to_end();
            (run.log_z(), None, run.datum_evals())
        }
        "ais" => {
            let mut run = ais_run(model, &ais_config(parsed.target.name, &config), n, baseline_seed(parsed.seed));
            run.run_to_end();
            (run.log_z(), None, run.datum_evals())
        }
        // AIS at exactly the SGAIS settings given (no per-model AIS overrides): for measuring them.
        "ais_same_kernel" => {
            let mut run = ais_run(model, &config, n, baseline_seed(parsed.seed));
            run.run_to_end();
            (run.log_z(), None, run.datum_evals())
        }
        "ns" => {
            let result = NestedRun::new(model, NestedConfig::from_values(&parsed.ns_values), n, nested_seed(parsed.seed)).run_to_end();
            (result.log_z, Some(result.log_z_se), result.datum_evals)
        }
        other => panic!("method '{other}': expected sgais, ais, ais_same_kernel or ns"),
    };
    let cpu_seconds = thread_cpu_seconds().unwrap_or(f64::NAN) - cpu;
    println!("{}", serde_json::json!({ "method": method, "target": parsed.target.name, "n": n, "seed": parsed.seed, "log_z": log_z, "log_z_se": se, "cpu_seconds": cpu_seconds, "datum_evals": evals }));
}
