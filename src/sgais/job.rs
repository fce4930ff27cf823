//! A live evidence job for the page: one or more SGAIS runs (e.g. 3/5/7-component mixtures on
//! shifting data, in order and shuffled) plus full-data AIS baselines at a few data sizes, advanced
//! in bounded slices, with their curves as chart specifications. Wall time is measured by the
//! caller (no clock on wasm) and attributed to runs with [`EvidenceJob::add_seconds`].

use super::ais::{ais_config, ais_run, baseline_seed, first_chunk_as_ais};
use super::charts::{annealing_chart, change_point_markers, evidence_chart, CurveRun};
use super::models::{evidence_target, split_settings, EvidenceModel};
use super::replicas::ess_note;
use super::run::{checkpoints, RunStatus, SgaisRun};
use super::shift::{change_points, shift_summary, ShiftVariant, VariantRecords};
use super::SgaisConfig;
use crate::data::Dataset;
use crate::plot::chart::{ChartSpec, Marker};
use serde_json::{json, Value};
use std::sync::Arc;

/// One curve of a job: a label and target settings that differ from the job's.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Variant {
    pub label: String,
    #[serde(default)]
    pub settings: Vec<(String, String)>,
}

struct JobRun {
    label: String,
    run: SgaisRun,
    is_ais: bool,
    seconds: f64,
    colour: usize,
    /// Set for a mixture on the shifting data (paper §6.2).
    shift: Option<ShiftVariant>,
}

pub struct EvidenceJob {
    runs: Vec<JobRun>,
    next: usize,
    n_total: usize,
}

/// The distribution-shift variant a GMM run on shifting data is (scenario 1 = in order, 2 = shuffled).
pub fn shift_variant(target: &str, values: &crate::params::ParamValues) -> Option<ShiftVariant> {
    let scenario = values.try_get("scenario")? as usize;
    (target == "gmm" && scenario > 0).then(|| ShiftVariant { components: values.get_usize("n_components"), shuffled: scenario == 2 })
}

/// A model and SGAIS settings resolved from the page's or CLI's `name=value` settings.
pub struct Resolved {
    pub model: Arc<dyn EvidenceModel>,
    pub config: SgaisConfig,
    /// Set for a mixture on the shifting data of paper §6.2.
    pub shift: Option<ShiftVariant>,
}

/// Resolve a target's and SGAIS's settings: a preset's values first (`accurate`, `paper`), then
/// `settings` (unknown names and bad values are refused with what is allowed).
pub fn resolve(target: &str, preset: Option<&str>, settings: &[(String, String)], data: Option<&Dataset>) -> Result<Resolved, String> {
    let target = evidence_target(target)?;
    let preset_settings = match preset {
        Some(name) => super::preset(name)?.pairs(),
        None => Vec::new(),
    };
    let all: Vec<(String, String)> = preset_settings.into_iter().chain(settings.iter().cloned()).collect();
    let (target_values, sgais_values) = split_settings(target, &all)?;
    let model = (target.build)(&target_values, data)?;
    let shift = shift_variant(target.name, &target_values);
    Ok(Resolved { model, config: first_chunk_as_ais(target.name, &sgais_values, SgaisConfig::for_data(&sgais_values, shift.is_some())?), shift })
}

/// Everything a Web Worker needs to build one run, as JSON from the page: replica `replica` of
/// SGAIS on a target, or (`ais_n` set) the full-data AIS baseline on its first `ais_n` data with
/// the same settings (with the model's AIS overrides, [`ais_config`]) and its own seed. Drive the run with `advance` and post
/// [`super::replicas::ReplicaResult::from_run`]; combine with [`super::replicas::summarise`] and,
/// for the shift variants, [`super::shift::shift_summary`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunSpec {
    pub target: String,
    #[serde(default)]
    pub preset: Option<String>,
    #[serde(default)]
    pub settings: Vec<(String, String)>,
    pub seed: u64,
    #[serde(default)]
    pub replica: usize,
    #[serde(default)]
    pub ais_n: Option<usize>,
}

impl RunSpec {
    /// The run, its seed and (for mixtures on shifting data) its shift variant.
    pub fn build(&self, data: Option<&Dataset>) -> Result<(SgaisRun, u64, Option<ShiftVariant>), String> {
        let resolved = resolve(&self.target, self.preset.as_deref(), &self.settings, data)?;
        let seed = super::replicas::replica_seed(self.seed, self.replica);
        let n = resolved.model.n_data();
        Ok(match self.ais_n {
            Some(ais_n) => (ais_run(resolved.model, &ais_config(&self.target, &resolved.config), ais_n.min(n), baseline_seed(seed)), baseline_seed(seed), None),
            None => (SgaisRun::new(resolved.model, resolved.config, n, seed), seed, resolved.shift),
        })
    }
}

impl EvidenceJob {
    /// Build the SGAIS runs (one per variant, or one default run) and, when `with_ais`, full-data
    /// AIS baselines of the first variant at N/4, N/2 and N.
    pub fn new(target: &str, settings: &[(String, String)], data: Option<&Dataset>, seed: u64, variants: &[Variant], with_ais: bool) -> Result<EvidenceJob, String> {
        let default_variant = [Variant { label: "SGAIS".into(), settings: Vec::new() }];
        let variants = if variants.is_empty() { &default_variant[..] } else { variants };
        let mut runs = Vec::new();
        let mut first: Option<(Arc<dyn EvidenceModel>, SgaisConfig)> = None;
        for (k, variant) in variants.iter().enumerate() {
            let all: Vec<(String, String)> = settings.iter().chain(&variant.settings).cloned().collect();
            let Resolved { model, config, shift } = resolve(target, None, &all, data)?;
            let n = model.n_data();
            runs.push(JobRun { label: variant.label.clone(), run: SgaisRun::new(model.clone(), config.clone(), n, seed), is_ais: false, seconds: 0.0, colour: k, shift });
            first.get_or_insert((model, config));
        }
        let (model, config) = first.expect("at least one variant");
        let n_total = model.n_data();
        if with_ais {
            let marks = checkpoints(n_total, config.chunk_size);
            for fraction in [0.25, 0.5, 1.0] {
                let wanted = (fraction * n_total as f64).round() as usize;
                let n = marks.iter().copied().find(|&m| m >= wanted).unwrap_or(n_total);
                let run = ais_run(model.clone(), &ais_config(target, &config), n, baseline_seed(seed));
                runs.push(JobRun { label: format!("AIS, full data n = {}", super::format::group_digits(n as f64, 0)), run, is_ais: true, seconds: 0.0, colour: 0, shift: None });
            }
        }
        Ok(EvidenceJob { runs, next: 0, n_total })
    }

    /// Advance the next unfinished run by `budget` particle-SGHMC steps (SGAIS runs before the
    /// AIS baselines); returns that run's index, or None when all are done.
    pub fn advance(&mut self, budget: usize) -> Option<usize> {
        let order: Vec<usize> = (0..self.runs.len()).filter(|&i| !self.runs[i].is_ais).chain((0..self.runs.len()).filter(|&i| self.runs[i].is_ais)).collect();
        let running: Vec<usize> = order.into_iter().filter(|&i| *self.runs[i].run.status() == RunStatus::Running).collect();
        let sgais_running: Vec<usize> = running.iter().copied().filter(|&i| !self.runs[i].is_ais).collect();
        let pool = if sgais_running.is_empty() { running } else { sgais_running };
        let index = *pool.get(self.next % pool.len().max(1))?;
        self.next = self.next.wrapping_add(1);
        self.runs[index].run.advance(budget.max(1));
        Some(index)
    }

    /// Attribute measured wall time to run `index`.
    pub fn add_seconds(&mut self, index: usize, seconds: f64) {
        if let Some(r) = self.runs.get_mut(index) {
            if seconds.is_finite() && seconds > 0.0 {
                r.seconds += seconds;
            }
        }
    }

    pub fn is_done(&self) -> bool {
        self.runs.iter().all(|r| *r.run.status() != RunStatus::Running)
    }

    /// Fraction of the data processed, averaged over runs (AIS counts when finished).
    pub fn progress(&self) -> f64 {
        let done: f64 = self
            .runs
            .iter()
            .map(|r| if *r.run.status() != RunStatus::Running { 1.0 } else { r.run.processed() as f64 / r.run.n_total().max(1) as f64 })
            .sum();
        done / self.runs.len() as f64
    }

    fn curve_runs(&self) -> Vec<CurveRun<'_>> {
        self.runs
            .iter()
            .filter(|r| !r.is_ais)
            .map(|r| CurveRun { label: &r.label, colour: r.colour, dashed: r.shift.is_some_and(|v| v.shuffled), records: r.run.records() })
            .collect()
    }

    /// Change points of shifting data (paper §6.2), when any run is on it.
    fn markers(&self) -> Vec<Marker> {
        if self.runs.iter().any(|r| r.shift.is_some()) {
            change_point_markers(&change_points(self.n_total))
        } else {
            Vec::new()
        }
    }

    /// log Ẑ/n against n for every SGAIS run, the exact curve when known, AIS points, and the
    /// change points of shifting data.
    pub fn evidence_chart(&self) -> ChartSpec {
        let ais: Vec<(usize, f64)> = self.runs.iter().filter(|r| r.is_ais && *r.run.status() == RunStatus::Finished).map(|r| (r.run.processed(), r.run.log_z())).collect();
        evidence_chart(&self.curve_runs(), &ais, self.n_total, self.markers())
    }

    /// Annealing steps needed by each chunk (spikes mark distribution shifts).
    pub fn annealing_chart(&self) -> ChartSpec {
        annealing_chart(&self.curve_runs(), self.n_total, self.markers())
    }

    /// The distribution-shift comparison (which K wins, from when; Bayes factors) over the
    /// mixture runs on shifting data, when there are any.
    pub fn shift_summary(&self) -> Option<super::shift::ShiftSummary> {
        let runs: Vec<VariantRecords> = self.runs.iter().filter_map(|r| Some(VariantRecords { variant: r.shift?, records: r.run.records().to_vec() })).collect();
        (!runs.is_empty()).then(|| shift_summary(&runs, self.n_total))
    }

    /// Per-run summary: label, n, log Ẑ, exact, last ESS, annealing steps, seconds, status.
    pub fn summary(&self) -> Value {
        let finite = |x: f64| if x.is_finite() { json!(x) } else { Value::Null };
        let runs: Vec<Value> = self
            .runs
            .iter()
            .map(|r| {
                let last = r.run.records().last();
                json!({
                    "label": r.label,
                    "ais": r.is_ais,
                    "n": r.run.processed(),
                    "n_total": r.run.n_total(),
                    "log_z": finite(r.run.log_z()),
                    "exact_log_z": r.run.exact_log_z(),
                    "ess": last.map(|c| finite(c.ess)),
                    "ess_note": ess_note(last.and_then(|c| super::replicas::Spread::of(&[c.ess])).as_ref(), r.run.particles().len()),
                    "learning_rate": last.map(|c| c.learning_rate),
                    "noise_ratio": last.map(|c| finite(c.noise_ratio)),
                    "annealing_steps": r.run.records().iter().map(|c| c.annealing_steps).sum::<usize>(),
                    "datum_evals": r.run.datum_evals(),
                    "seconds": r.seconds,
                    "status": match r.run.status() { RunStatus::Running => "running".to_string(), RunStatus::Finished => "finished".to_string(), RunStatus::Diverged(m) => m.clone() },
                })
            })
            .collect();
        json!({ "progress": self.progress(), "done": self.is_done(), "runs": runs, "shift": self.shift_summary() })
    }
}
