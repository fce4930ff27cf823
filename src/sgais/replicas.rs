//! Independent replicas of one SGAIS (or AIS) run and their spread: log Ẑ ± its standard error,
//! per-chunk curves with their spread, and the ESS explained in words.
//!
//! A single log Ẑ carries no error bar: the weights' ESS says how many particles the estimate
//! rests on, not how far it is from log Z. R replicas with independent seeds give R independent
//! estimates; their mean has standard error sd/√R (reported), and their spread is the honest
//! error bar. Everything here is plain data (serde), so a Web Worker can run one replica
//! ([`run_replica`]) and post its [`ReplicaResult`], and the page combines them with
//! [`summarise`].

use super::agreement::{agreement, Agreement};
pub use super::format::group_digits;
use super::models::EvidenceModel;
use super::run::{ChunkRecord, RunStatus, SgaisRun};
pub use super::spread::Spread;
use super::SgaisConfig;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The seed of replica `r` derived from the user's seed: SplitMix64 of (seed, r), so replica
/// streams are unrelated to each other and to runs seeded with nearby numbers. Replica 0 is the
/// user's seed itself, so one replica replays `sgviz evidence --seed K` exactly.
pub fn replica_seed(seed: u64, replica: usize) -> u64 {
    if replica == 0 {
        return seed;
    }
    split_mix(seed ^ split_mix(replica as u64))
}

/// SplitMix64 (Steele, Lea, Flood 2014), the standard seed scrambler.
pub fn split_mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What one replica hands back (JSON-able: a worker can post it to the page).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplicaResult {
    pub replica: usize,
    pub seed: u64,
    /// Number of particles M (for the ESS text).
    pub particles: usize,
    pub records: Vec<ChunkRecord>,
    pub status: RunStatus,
    pub datum_evals: u64,
    /// Wall time measured by the caller (there is no clock in the core).
    pub seconds: Option<f64>,
}

impl ReplicaResult {
    /// The result of a finished (or stopped) run.
    pub fn from_run(replica: usize, seed: u64, run: &SgaisRun, seconds: Option<f64>) -> Self {
        ReplicaResult {
            replica,
            seed,
            particles: run.particles().len(),
            records: run.records().to_vec(),
            status: run.status().clone(),
            datum_evals: run.datum_evals(),
            seconds,
        }
    }

    /// log Ẑ after the last finished chunk.
    pub fn log_z(&self) -> Option<f64> {
        self.records.last().map(|r| r.log_z)
    }
}

/// A fresh run for replica `r` (seed [`replica_seed`]); drive it with `advance` and wrap it with
/// [`ReplicaResult::from_run`].
pub fn replica_run(model: Arc<dyn EvidenceModel>, config: &SgaisConfig, n: usize, seed: u64, replica: usize) -> SgaisRun {
    SgaisRun::new(model, config.clone(), n, replica_seed(seed, replica))
}

/// Run replica `r` to the end (native convenience; the page runs each in a worker).
pub fn run_replica(model: Arc<dyn EvidenceModel>, config: &SgaisConfig, n: usize, seed: u64, replica: usize) -> ReplicaResult {
    let mut run = replica_run(model, config, n, seed, replica);
    run.run_to_end();
    ReplicaResult::from_run(replica, replica_seed(seed, replica), &run, None)
}

/// One checkpoint of the combined curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub n: usize,
    pub log_z: Spread,
    pub exact_log_z: Option<f64>,
    pub annealing_steps: Spread,
    pub ess: Option<Spread>,
}

/// The replicas combined.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplicaSummary {
    pub replicas: usize,
    /// Replicas that reached the end.
    pub finished: usize,
    /// Data processed by every finished replica.
    pub n: usize,
    pub particles: usize,
    /// Final log Ẑ over the finished replicas (mean ± se).
    pub log_z: Option<Spread>,
    /// log of the mean of Ẑ over the replicas: the estimate from all R·M particles together
    /// (unbiased for Z, so slightly above the mean of log Ẑ).
    pub log_z_pooled: Option<f64>,
    pub exact_log_z: Option<f64>,
    /// log Ẑ − log Z over the finished replicas, when the exact value is known.
    pub error: Option<Spread>,
    /// ESS of the weights after the last chunk, over the finished replicas.
    pub ess: Option<Spread>,
    /// What that ESS means, in words, with the numbers, followed by the replica agreement check.
    pub ess_note: String,
    /// Between-replica spread of the final log Ẑ against what each run's weights predict (R̂-like).
    pub agreement: Option<Agreement>,
    /// The estimate in words: "log Ẑ = … ± … (…)", with a warning when ESS collapsed or the
    /// error is many standard errors ([`super::warning::reliability_warning`]).
    pub text: String,
    /// That warning alone, if any.
    pub warning: Option<String>,
    pub datum_evals: Option<Spread>,
    pub seconds: Option<Spread>,
    /// Per-chunk curve over the replicas that reached each checkpoint.
    pub curve: Vec<CurvePoint>,
    /// Messages of replicas that diverged.
    pub problems: Vec<String>,
}

/// Combine replica results (any order; unfinished replicas count in the curve, not in the final).
pub fn summarise(results: &[ReplicaResult]) -> ReplicaSummary {
    let finished: Vec<&ReplicaResult> = results.iter().filter(|r| r.status == RunStatus::Finished).collect();
    let finals = |f: &dyn Fn(&ChunkRecord) -> f64| -> Vec<f64> { finished.iter().filter_map(|r| r.records.last().map(f)).collect() };
    let log_z = Spread::of(&finals(&|c| c.log_z));
    let exact_log_z = finished.iter().find_map(|r| r.records.last().and_then(|c| c.exact_log_z));
    let error = exact_log_z.and_then(|exact| Spread::of(&finals(&|c| c.log_z - exact)));
    let ess = Spread::of(&finals(&|c| c.ess));
    let particles = results.first().map_or(0, |r| r.particles);
    let log_z_pooled = {
        let values = finals(&|c| c.log_z);
        (!values.is_empty()).then(|| super::annealing::log_mean_exp(&values)).filter(|v| v.is_finite())
    };
    let problems = results
        .iter()
        .filter_map(|r| match &r.status {
            RunStatus::Diverged(m) => Some(format!("replica {} (seed {}): {m}", r.replica, r.seed)),
            _ => None,
        })
        .collect();
    let seconds: Vec<f64> = finished.iter().filter_map(|r| r.seconds).collect();
    let agreement = agreement(&finals(&|c| c.log_z), &finals(&|c| c.log_z_var));
    let mut note = ess_note(ess.as_ref(), particles);
    if let Some(a) = &agreement {
        note.push(' ');
        note.push_str(&a.sentence());
    }
    ReplicaSummary {
        replicas: results.len(),
        finished: finished.len(),
        n: finished.iter().filter_map(|r| r.records.last().map(|c| c.n)).min().unwrap_or(0),
        particles,
        warning: super::warning::reliability_warning(ess.as_ref(), particles, error.as_ref()),
        text: estimate_text(log_z.as_ref(), exact_log_z, error.as_ref(), results.len())
            + &super::warning::reliability_warning(ess.as_ref(), particles, error.as_ref()).map_or(String::new(), |w| format!(" {w}")),
        ess_note: note,
        agreement,
        log_z,
        log_z_pooled,
        exact_log_z,
        error,
        ess,
        datum_evals: Spread::of(&finished.iter().map(|r| r.datum_evals as f64).collect::<Vec<_>>()),
        seconds: Spread::of(&seconds),
        curve: combined_curve(results),
        problems,
    }
}

/// Spread at every checkpoint reached by at least one replica (replicas share the chunk grid).
fn combined_curve(results: &[ReplicaResult]) -> Vec<CurvePoint> {
    let longest = results.iter().map(|r| r.records.len()).max().unwrap_or(0);
    (0..longest)
        .filter_map(|k| {
            let at: Vec<&ChunkRecord> = results.iter().filter_map(|r| r.records.get(k)).collect();
            let first = at.first()?;
            Some(CurvePoint {
                n: first.n,
                log_z: Spread::of(&at.iter().map(|c| c.log_z).collect::<Vec<_>>())?,
                exact_log_z: first.exact_log_z,
                annealing_steps: Spread::of(&at.iter().map(|c| c.annealing_steps as f64).collect::<Vec<_>>())?,
                ess: Spread::of(&at.iter().map(|c| c.ess).collect::<Vec<_>>()),
            })
        })
        .collect()
}

fn estimate_text(log_z: Option<&Spread>, exact: Option<f64>, error: Option<&Spread>, replicas: usize) -> String {
    let Some(z) = log_z else {
        return format!("No replica of {replicas} finished, so there is no estimate yet.");
    };
    let mut text = match z.se {
        Some(se) => format!("log Ẑ = {} ± {} (mean ± standard error over {} independent replicas; their sd is {})", group_digits(z.mean, 2), group_digits(se, 2), z.count, group_digits(z.sd.unwrap_or(0.0), 2)),
        None => format!("log Ẑ = {} (one replica: run several to measure its spread)", group_digits(z.mean, 2)),
    };
    if let (Some(exact), Some(error)) = (exact, error) {
        let spread = error.se.map_or(String::new(), |se| format!(" ± {}", group_digits(se, 2)));
        text.push_str(&format!("; exact log Z = {}, error {}{} nats", group_digits(exact, 2), signed(error.mean), spread));
    }
    text.push('.');
    text
}

fn signed(x: f64) -> String {
    if x >= 0.0 {
        format!("+{}", group_digits(x, 2))
    } else {
        group_digits(x, 2)
    }
}

/// The ESS explained with the numbers of this run.
pub fn ess_note(ess: Option<&Spread>, particles: usize) -> String {
    let base = format!(
        "ESS = (Σw)²/Σw² of the M = {particles} particle weights after the last chunk's reweighting (before resampling): about how many particles carry the estimate. \
         ESS = {particles} means all weigh the same; ESS = 1 means the estimate rests on a single particle, so it can be far off while looking precise, and only the spread over independent replicas shows its error."
    );
    match ess {
        Some(e) if e.count > 1 => format!("{base} Here: {:.1} on average over {} replicas (min {:.1}).", e.mean, e.count, e.min),
        Some(e) => format!("{base} Here: {:.1}.", e.mean),
        None => base,
    }
}
