//! A live evidence job for the page: one or more SGAIS runs (e.g. 3/5/7-component mixtures on
//! shifting data, in order and shuffled) plus full-data AIS baselines at a few data sizes, advanced
//! in bounded slices, with their curves as chart specifications. Wall time is measured by the
//! caller (no clock on wasm) and attributed to runs with [`EvidenceJob::add_seconds`].

use super::ais::{ais_config, ais_run, baseline_seed};
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
    Ok(Resolved { model, config: SgaisConfig::for_data(&sgais_values, shift.is_some())?, shift })
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

    /// log Ẑ/N against n for every SGAIS run, the exact curve when known, AIS points, and the
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(labels, vec!["SGAIS", "exact log Z/N", "AIS (full data)"]);
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
            assert_eq!(chart.series.iter().filter(|s| s.style == crate::plot::chart::Style::Dashed).count(), 1);
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
        assert_eq!((seed, shift), (super::super::replicas::replica_seed(3, 2), None));
        assert_eq!(run.particles().len(), 10, "the paper preset's M");
        run.run_to_end();
        let mut same = super::super::replicas::replica_run(run_model(600), &{
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
        let mut values = crate::params::ParamValues::defaults(target.params);
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
}
