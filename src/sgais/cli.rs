//! `sgviz evidence --target linreg|softmax|gmm [--data FILE.csv] [--set name=value]... --seed K [--ais]`
//!
//! Prints one JSON object per finished chunk (`n`, `log_z`, `annealing_steps`, `ess`, plus
//! `exact_log_z` when known, `min_step_ess`, `datum_evals`) and a final summary object
//! (`"summary": true`, `log_z`, `exact_log_z` or null, `seconds`, `status`, …). With `--ais` the
//! summary also carries the full-data AIS baseline (`ais_log_z`, `ais_seconds`) at the same N.
//! `--set` names come from [`super::PARAMS`] or the target's parameter list.

use super::ais::ais_run;
use super::models::{evidence_target, EvidenceTarget};
use super::run::{ChunkRecord, RunStatus, SgaisRun};
use super::{SgaisConfig, PARAMS};
use crate::data::{parse_csv, Dataset};
use crate::params::{unknown_param, ParamSpec, ParamValues};
use std::io::Write;
use std::time::Instant;

pub const EVIDENCE_USAGE: &str =
    "usage: sgviz evidence --target linreg|softmax|gmm [--data FILE.csv] [--set name=value]... --seed K [--ais]";

/// Parsed arguments of `sgviz evidence`.
pub struct EvidenceArgs {
    pub target: &'static EvidenceTarget,
    pub target_values: ParamValues,
    pub sgais_values: ParamValues,
    pub data: Option<Dataset>,
    pub seed: u64,
    pub ais: bool,
}

/// Parse the arguments after `evidence`.
pub fn parse_evidence_args(args: &[String]) -> Result<EvidenceArgs, String> {
    let (mut target, mut seed, mut data_path, mut ais) = (None, None, None, false);
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
            "--data" => data_path = Some(value()?),
            "--ais" => ais = true,
            other => return Err(format!("unknown option '{other}'; allowed: --target --data --set --seed --ais")),
        }
    }
    let target = target.ok_or_else(|| format!("--target is required; {EVIDENCE_USAGE}"))?;
    let seed = seed.ok_or_else(|| format!("--seed is required; {EVIDENCE_USAGE}"))?;
    let (target_values, sgais_values) = split_settings(target, &settings)?;
    let data = match data_path {
        Some(path) if !target.accepts_data => return Err(format!("--data {path}: target '{}' uses generated data only; --data is for linreg and softmax", target.name)),
        Some(path) => {
            let bytes = std::fs::read(&path).map_err(|e| format!("cannot read --data {path}: {e}"))?;
            Some(parse_csv(&bytes).map_err(|e| format!("--data {path}: {e}"))?)
        }
        None => None,
    };
    Ok(EvidenceArgs { target, target_values, sgais_values, data, seed, ais })
}

/// Each `name=value` goes to the SGAIS list or the target's list; unknown names are refused.
fn split_settings(target: &EvidenceTarget, settings: &[(String, String)]) -> Result<(ParamValues, ParamValues), String> {
    let mut target_values = ParamValues::defaults(target.params);
    let mut sgais_values = ParamValues::defaults(PARAMS);
    for (name, text) in settings {
        if let Some(spec) = PARAMS.iter().find(|s| s.name == name) {
            sgais_values.set(PARAMS, name, spec.parse(text)?)?;
        } else if let Some(spec) = target.params.iter().find(|s| s.name == name) {
            target_values.set(target.params, name, spec.parse(text)?)?;
        } else {
            let all: Vec<ParamSpec> = PARAMS.iter().chain(target.params).copied().collect();
            return Err(unknown_param(&all, name));
        }
    }
    Ok((target_values, sgais_values))
}

/// Run `sgviz evidence` with the arguments after the subcommand, writing JSON lines to `out`.
pub fn evidence_cli(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let args = parse_evidence_args(args)?;
    let model = (args.target.build)(&args.target_values, args.data.as_ref())?;
    let config = SgaisConfig::from_values(&args.sgais_values)?;
    let n = model.n_data();
    let started = Instant::now();
    let mut run = SgaisRun::new(model.clone(), config.clone(), n, args.seed);
    while *run.status() == RunStatus::Running {
        for record in run.advance(100_000) {
            writeln!(out, "{}", chunk_json(&record)).map_err(|e| e.to_string())?;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let mut summary = serde_json::json!({
        "summary": true,
        "target": args.target.name,
        "seed": args.seed,
        "n": run.processed(),
        "log_z": finite_or_null(run.log_z()),
        "exact_log_z": run.exact_log_z(),
        "seconds": seconds,
        "status": status_text(run.status()),
        "chunks": run.records().len(),
        "annealing_steps": run.records().iter().map(|r| r.annealing_steps).sum::<usize>(),
        "datum_evals": run.datum_evals(),
        "sgais_params": args.sgais_values.to_json(),
        "target_params": args.target_values.to_json(),
    });
    if args.ais && *run.status() == RunStatus::Finished {
        let started = Instant::now();
        let mut ais = ais_run(model, &config, n, args.seed);
        ais.run_to_end();
        summary["ais_log_z"] = finite_or_null(ais.log_z());
        summary["ais_seconds"] = serde_json::json!(started.elapsed().as_secs_f64());
        summary["ais_annealing_steps"] = serde_json::json!(ais.records().iter().map(|r| r.annealing_steps).sum::<usize>());
        summary["ais_datum_evals"] = serde_json::json!(ais.datum_evals());
    }
    writeln!(out, "{summary}").map_err(|e| e.to_string())?;
    match run.status() {
        RunStatus::Diverged(message) => Err(message.clone()),
        _ => Ok(()),
    }
}

fn chunk_json(record: &ChunkRecord) -> serde_json::Value {
    let mut json = serde_json::json!({
        "n": record.n,
        "log_z": finite_or_null(record.log_z),
        "annealing_steps": record.annealing_steps,
        "ess": finite_or_null(record.ess),
        "min_step_ess": finite_or_null(record.min_step_ess),
        "datum_evals": record.datum_evals,
    });
    if let Some(exact) = record.exact_log_z {
        json["exact_log_z"] = serde_json::json!(exact);
    }
    json
}

fn status_text(status: &RunStatus) -> String {
    match status {
        RunStatus::Running => "running".into(),
        RunStatus::Finished => "ok".into(),
        RunStatus::Diverged(message) => message.clone(),
    }
}

fn finite_or_null(x: f64) -> serde_json::Value {
    if x.is_finite() {
        serde_json::json!(x)
    } else {
        serde_json::Value::Null
    }
}
