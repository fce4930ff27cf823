//! `sgviz evidence --target linreg|softmax|gmm [--data FILE.csv] [--preset paper] [--set name=value]...
//!  --seed K [--replicas R] [--ais] [--ns]`
//!
//! Prints one JSON object per finished chunk (the fields of [`ChunkRecord`]: `n`, `log_z`,
//! `annealing_steps`, `ess`, `exact_log_z` when known, `min_step_ess`, `datum_evals`,
//! `learning_rate`, `noise_ratio`; with R > 1 also `replica`) and a final summary object
//! (`"summary": true`, `log_z` = mean over the replicas, `log_z_se`, `log_z_sd`, `exact_log_z` or
//! null, `error`, `ess`, `ess_note` (with R > 1 ending in the replica agreement check of
//! [`super::agreement`]), `log_z_range` (max − min), `log_z_predicted_sd` (what one run's weights
//! predict) and `replicas_disagree` (null with one replica), `text`, `seconds` per replica, `status`, the combined `curve`
//! when R > 1, …). Replica r runs with seed [`replica_seed`]`(K, r)`; replica 0 is seed K itself.
//! With `--ais` the summary also carries the full-data AIS baseline at the same N and the same
//! kernel settings with the model's AIS overrides ([`ais_config`]: the mixture's smaller temperature
//! steps, `ais_target_ess`), one run per replica with its own seed ([`baseline_seed`]): `ais` (its
//! summary) and the means `ais_log_z`, `ais_seconds`, `ais_annealing_steps`, `ais_datum_evals`.
//! `cpu_seconds` and `ais_cpu_seconds` are thread CPU times (Linux), the fair time comparison on a
//! shared machine. With `--ns` the summary also carries nested sampling on the full data
//! ([`super::nested`]), one run per replica with its own seed: `ns_log_z`, `ns_log_z_se`,
//! `ns_seconds`, `ns_cpu_seconds`, `ns_datum_evals` and `ns` (each run). `--preset paper` starts from the paper's settings (§6.1); `--set` names come from
//! [`super::PARAMS`] or the target's parameter list and override the preset.

use super::ais::{ais_config, ais_run, baseline_seed, first_chunk_as_ais};
use super::nested::{nested_seed, NestedConfig, NestedResult, NestedRun, NESTED_PARAMS};
use super::models::{evidence_target, split_settings, EvidenceTarget};
use super::replicas::{replica_run, replica_seed, summarise, ReplicaResult, ReplicaSummary, Spread};
use super::run::{ChunkRecord, RunStatus};
use super::SgaisConfig;
use crate::data::{read_data_file, Dataset};
use crate::params::ParamValues;
use std::io::Write;
use std::time::Instant;

pub const EVIDENCE_USAGE: &str =
    "usage: sgviz evidence --target linreg|softmax|gmm [--data FILE.csv] [--preset accurate|paper] [--set name=value]... --seed K [--replicas R] [--ais] [--ns]";

/// Largest number of replicas the CLI runs.
pub const MAX_REPLICAS: usize = 1000;

/// Parsed arguments of `sgviz evidence`.
pub struct EvidenceArgs {
    pub target: &'static EvidenceTarget,
    pub target_values: ParamValues,
    pub sgais_values: ParamValues,
    pub data: Option<Dataset>,
    pub seed: u64,
    pub replicas: usize,
    pub ais: bool,
    pub ns: bool,
    /// Values of [`NESTED_PARAMS`].
    pub ns_values: ParamValues,
}

/// Parse the arguments after `evidence`.
pub fn parse_evidence_args(args: &[String]) -> Result<EvidenceArgs, String> {
    let (mut target, mut seed, mut data_path, mut ais, mut ns, mut replicas) = (None, None, None, false, false, 1);
    let mut preset_settings = Vec::new();
    let mut settings = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--target" => target = Some(evidence_target(&value()?)?),
            "--seed" => {
                let text = value()?;
                seed = Some(text.parse::<u64>().map_err(|_| format!("--seed: '{text}' is not allowed; expected a whole number ≥ 0"))?);
            }
            "--set" => {
                let text = value()?;
                let (name, v) = text.split_once('=').ok_or_else(|| format!("--set '{text}': expected name=value"))?;
                settings.push((name.trim().to_string(), v.trim().to_string()));
            }
            "--replicas" => {
                let text = value()?;
                replicas = text.parse::<usize>().ok().filter(|r| (1..=MAX_REPLICAS).contains(r)).ok_or_else(|| format!("--replicas: '{text}' is not allowed; expected a whole number in 1..={MAX_REPLICAS}"))?;
            }
            "--data" => data_path = Some(value()?),
            "--preset" => preset_settings = super::preset(&value()?)?.pairs(),
            "--ais" => ais = true,
            "--ns" => ns = true,
            other => return Err(format!("unknown option '{other}'; allowed: --target --data --preset --set --seed --ais --ns --replicas")),
        }
    }
    let target = target.ok_or_else(|| format!("--target is required; {EVIDENCE_USAGE}"))?;
    let seed = seed.ok_or_else(|| format!("--seed is required; {EVIDENCE_USAGE}"))?;
    let settings: Vec<(String, String)> = preset_settings.into_iter().chain(settings).collect();
    let (ns_settings, settings): (Vec<_>, Vec<_>) = settings.into_iter().partition(|(name, _)| NESTED_PARAMS.iter().any(|p| p.name == name));
    let mut ns_values = ParamValues::defaults(NESTED_PARAMS);
    for (name, text) in &ns_settings {
        let spec = NESTED_PARAMS.iter().find(|p| p.name == name).expect("partitioned by name");
        ns_values.set(NESTED_PARAMS, name, spec.parse(text)?)?;
    }
    let (target_values, sgais_values) = split_settings(target, &settings)?;
    let data = match data_path {
        Some(path) if !target.accepts_data => return Err(format!("--data {path}: target '{}' uses generated data only; --data is for linreg and softmax", target.name)),
        Some(path) => Some(read_data_file(&path)?),
        None => None,
    };
    Ok(EvidenceArgs { target, target_values, sgais_values, data, seed, replicas, ais, ns, ns_values })
}

/// Run `sgviz evidence` with the arguments after the subcommand, writing JSON lines to `out`.
pub fn evidence_cli(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let args = parse_evidence_args(args)?;
    let model = (args.target.build)(&args.target_values, args.data.as_ref())?;
    let shifting = super::job::shift_variant(args.target.name, &args.target_values).is_some();
    let config = first_chunk_as_ais(args.target.name, &args.sgais_values, SgaisConfig::for_data(&args.sgais_values, shifting)?);
    let n = model.n_data();
    let tag = args.replicas > 1;
    let mut results = Vec::with_capacity(args.replicas);
    let mut cpu_seconds = Vec::with_capacity(args.replicas);
    for replica in 0..args.replicas {
        let (started, cpu_started) = (Instant::now(), thread_cpu_seconds());
        let mut run = replica_run(model.clone(), &config, n, args.seed, replica);
        while *run.status() == RunStatus::Running {
            for record in run.advance(100_000) {
                writeln!(out, "{}", chunk_json(&record, tag.then_some(replica))).map_err(|e| e.to_string())?;
            }
        }
        cpu_seconds.extend(cpu_started.zip(thread_cpu_seconds()).map(|(a, b)| b - a));
        results.push(ReplicaResult::from_run(replica, replica_seed(args.seed, replica), &run, Some(started.elapsed().as_secs_f64())));
    }
    let sgais = summarise(&results);
    let mut summary = serde_json::json!({
        "summary": true,
        "target": args.target.name,
        "seed": args.seed,
        "replicas": args.replicas,
        "n": sgais.n,
        "log_z": sgais.log_z.as_ref().map(|s| s.mean),
        "log_z_se": sgais.log_z.as_ref().and_then(|s| s.se),
        "log_z_sd": sgais.log_z.as_ref().and_then(|s| s.sd),
        "log_z_range": sgais.agreement.as_ref().map(|a| a.range),
        "log_z_predicted_sd": sgais.agreement.as_ref().map(|a| a.within_sd),
        "replicas_disagree": sgais.agreement.as_ref().map(|a| a.disagree),
        "replica_log_z": results.iter().map(|r| r.log_z().map(finite_or_null)).collect::<Vec<_>>(),
        "exact_log_z": sgais.exact_log_z,
        "error": sgais.error,
        "ess": sgais.ess.as_ref().map(|s| s.mean),
        "ess_note": sgais.ess_note,
        "text": sgais.text,
        "seconds": sgais.seconds.as_ref().map(|s| s.mean),
        "cpu_seconds": Spread::of(&cpu_seconds).map(|s| s.mean),
        "status": status_text(&results),
        "chunks": results[0].records.len(),
        "annealing_steps": mean_over(&results, |r| r.records.iter().map(|c| c.annealing_steps).sum::<usize>() as f64),
        "datum_evals": mean_over(&results, |r| r.datum_evals as f64),
        "sgais_params": args.sgais_values.to_json(),
        "target_params": args.target_values.to_json(),
        "surprise_rule_on": config.surprise_boost.is_some(),
        "surprise_note": super::surprise_note::surprise_note(&[("SGAIS", &results[0].records[..])]),
    });
    if tag {
        summary["curve"] = serde_json::json!(sgais.curve);
    }
    let all_finished = sgais.finished == results.len();
    if args.ais && all_finished {
        let (ais, ais_cpu_seconds) = ais_baseline(&args, model.clone(), &config, n);
        summary["ais_cpu_seconds"] = serde_json::json!(Spread::of(&ais_cpu_seconds).map(|s| s.mean));
        summary["ais_log_z"] = serde_json::json!(ais.log_z.as_ref().map(|s| s.mean));
        summary["ais_seconds"] = serde_json::json!(ais.seconds.as_ref().map(|s| s.mean));
        summary["ais_annealing_steps"] = serde_json::json!(ais.curve.last().map(|c| c.annealing_steps.mean));
        summary["ais_datum_evals"] = serde_json::json!(ais.datum_evals.as_ref().map(|s| s.mean));
        summary["ais_target_ess"] = serde_json::json!(ais_config(args.target.name, &config).target_ess);
        summary["ais"] = serde_json::json!({ "log_z": ais.log_z, "error": ais.error, "seconds": ais.seconds, "datum_evals": ais.datum_evals, "ess": ais.ess, "text": ais.text, "problems": ais.problems });
    }
    if args.ns {
        add_nested_baseline(&mut summary, &args, model, n);
    }
    writeln!(out, "{summary}").map_err(|e| e.to_string())?;
    match sgais.problems.first() {
        Some(message) => Err(message.clone()),
        None => Ok(()),
    }
}

/// Full-data AIS with the same settings, one run per replica, each with its own seed; also the
/// CPU seconds of each run.
fn ais_baseline(args: &EvidenceArgs, model: std::sync::Arc<dyn super::models::EvidenceModel>, config: &SgaisConfig, n: usize) -> (ReplicaSummary, Vec<f64>) {
    let config = &ais_config(args.target.name, config);
    let mut cpu_seconds = Vec::new();
    let results: Vec<ReplicaResult> = (0..args.replicas)
        .map(|replica| {
            let seed = baseline_seed(replica_seed(args.seed, replica));
            let (started, cpu_started) = (Instant::now(), thread_cpu_seconds());
            let mut run = ais_run(model.clone(), config, n, seed);
            run.run_to_end();
            cpu_seconds.extend(cpu_started.zip(thread_cpu_seconds()).map(|(a, b)| b - a));
            ReplicaResult::from_run(replica, seed, &run, Some(started.elapsed().as_secs_f64()))
        })
        .collect();
    (summarise(&results), cpu_seconds)
}

/// Nested sampling on the full data, one run per replica with its own seed ([`nested_seed`]):
/// `ns_log_z` (mean over replicas), `ns_log_z_se` (√(Σ se²)/R, each se = √(H/M)), `ns_seconds`,
/// `ns_cpu_seconds`, `ns_datum_evals` (means) and `ns` (every run's result).
fn add_nested_baseline(summary: &mut serde_json::Value, args: &EvidenceArgs, model: std::sync::Arc<dyn super::models::EvidenceModel>, n: usize) {
    let config = NestedConfig::from_values(&args.ns_values);
    let mut cpu_seconds = Vec::new();
    let results: Vec<NestedResult> = (0..args.replicas)
        .map(|replica| {
            let seed = nested_seed(replica_seed(args.seed, replica));
            let (started, cpu_started) = (Instant::now(), thread_cpu_seconds());
            let mut run = NestedRun::new(model.clone(), config.clone(), n, seed);
            run.run_to_end();
            cpu_seconds.extend(cpu_started.zip(thread_cpu_seconds()).map(|(a, b)| b - a));
            run.result(Some(started.elapsed().as_secs_f64()))
        })
        .collect();
    let r = results.len() as f64;
    let mean = |f: &dyn Fn(&NestedResult) -> f64| results.iter().map(f).sum::<f64>() / r;
    summary["ns_log_z"] = serde_json::json!(finite_or_null(mean(&|x| x.log_z)));
    summary["ns_log_z_se"] = serde_json::json!(finite_or_null(results.iter().map(|x| x.log_z_se.powi(2)).sum::<f64>().sqrt() / r));
    summary["ns_seconds"] = serde_json::json!(mean(&|x| x.seconds.unwrap_or(f64::NAN)));
    summary["ns_cpu_seconds"] = serde_json::json!(Spread::of(&cpu_seconds).map(|s| s.mean));
    summary["ns_datum_evals"] = serde_json::json!(mean(&|x| x.datum_evals as f64));
    summary["ns"] = serde_json::json!(results);
    summary["ns_params"] = args.ns_values.to_json();
}

/// CPU time of this thread (Linux `/proc/thread-self/schedstat`, nanoseconds on CPU), so that run
/// times can also be compared per CPU-second when other jobs share the machine; None elsewhere.
pub fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(text.split_whitespace().next()?.parse::<f64>().ok()? * 1e-9)
}

fn mean_over(results: &[ReplicaResult], f: impl Fn(&ReplicaResult) -> f64) -> f64 {
    results.iter().map(f).sum::<f64>() / results.len().max(1) as f64
}

fn chunk_json(record: &ChunkRecord, replica: Option<usize>) -> serde_json::Value {
    let mut json = serde_json::json!({
        "n": record.n,
        "log_z": finite_or_null(record.log_z),
        "annealing_steps": record.annealing_steps,
        "ess": finite_or_null(record.ess),
        "min_step_ess": finite_or_null(record.min_step_ess),
        "datum_evals": record.datum_evals,
        "learning_rate": record.learning_rate,
        "noise_ratio": finite_or_null(record.noise_ratio),
        "boosted": record.boosted,
    });
    if let Some(exact) = record.exact_log_z {
        json["exact_log_z"] = serde_json::json!(exact);
    }
    if let Some(r) = replica {
        json["replica"] = serde_json::json!(r);
    }
    json
}

/// "ok" when every replica finished, otherwise the first problem.
fn status_text(results: &[ReplicaResult]) -> String {
    results
        .iter()
        .find_map(|r| match &r.status {
            RunStatus::Finished => None,
            RunStatus::Running => Some("running".to_string()),
            RunStatus::Diverged(message) => Some(message.clone()),
        })
        .unwrap_or_else(|| "ok".into())
}

fn finite_or_null(x: f64) -> serde_json::Value {
    if x.is_finite() {
        serde_json::json!(x)
    } else {
        serde_json::Value::Null
    }
}
