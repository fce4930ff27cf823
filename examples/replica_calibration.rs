//! Is the replicas' agreement check calibrated (docs/sgais.md §15, "Is the flag true")? SGAIS on a
//! target with an exact evidence (linear regression; the mixture with `n_components=1`), many
//! seeds, the settings resolved as the page and the CLI resolve them (`sgviz::sgais::job::resolve`).
//! At every chunk end it prints, over the seeds: the mean error of log Ẑ against the exact
//! evidence, the seeds' sd of log Ẑ (the replicas' real error), the root-mean predicted sd
//! (`ChunkRecord::log_z_var`, what the check divides by), their ratio, and how often the check
//! (`sgviz::sgais::agreement::agreement`) flags a group of four replicas, disjoint groups of four
//! seeds; a calibrated check flags 1 % of them.
//!
//! `cargo run --release --example replica_calibration -- TARGET SEEDS [name=value ...]`, e.g.
//! `-- linreg 80 n_points=1500 chunk_size=500 batch_size=500` or `-- gmm 80 n_points=1500
//! n_components=1 chunk_size=500 batch_size=500`; `FIRST_SEED=S` starts the seeds at S.

use sgviz::sgais::agreement::agreement;
use sgviz::sgais::cli::thread_cpu_seconds;
use sgviz::sgais::epoch_covariance::{correction, LAGS};
use sgviz::sgais::job::resolve;
use sgviz::sgais::run::{RunStatus, SgaisRun};

/// (log Ẑ, predicted variance, exact log Z, epoch covariances by lag, copies' within-epoch
/// covariance) at every chunk end of one run.
type Checkpoints = Vec<(f64, f64, f64, [f64; LAGS], f64)>;

/// Lags whose covariance the printed variances count (0 = the weights' variance alone).
const COUNTED_LAGS: [usize; 5] = [0, 1, 2, 4, LAGS];

fn run_seed(target: &str, settings: &[(String, String)], seed: u64) -> (Checkpoints, Vec<usize>, f64) {
    let resolved = resolve(target, None, settings, None).expect("valid settings");
    let n = resolved.model.n_data();
    let mut run = SgaisRun::new(resolved.model, resolved.config, n, seed);
    let cpu = thread_cpu_seconds();
    let mut cross = Vec::new();
    while *run.status() == RunStatus::Running {
        // One annealing step per call: a chunk's covariances are read right after it finishes.
        if !run.advance(1).is_empty() {
            cross.push((run.epoch_cross(), run.epoch_siblings()));
        }
    }
    let records = run.records().to_vec();
    let cpu = cpu.zip(thread_cpu_seconds()).map_or(f64::NAN, |(a, b)| b - a);
    let points = records.iter().zip(cross).map(|(r, (c, sib))| (r.log_z, r.log_z_var, r.exact_log_z.unwrap_or(f64::NAN), c, sib)).collect();
    (points, records.iter().map(|r| r.n).collect(), cpu)
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target = args.get(1).map_or("linreg", String::as_str).to_string();
    let seeds: u64 = args.get(2).map_or(40, |s| s.parse().expect("SEEDS"));
    let settings: Vec<(String, String)> = args.iter().skip(3).map(|pair| pair.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())).expect("name=value")).collect();
    let first: u64 = std::env::var("FIRST_SEED").ok().map_or(1, |s| s.parse().expect("FIRST_SEED"));
    let mut runs = Vec::new();
    let mut ends = Vec::new();
    let mut cpu = 0.0;
    for seed in first..first + seeds {
        let (points, n, seconds) = run_seed(&target, &settings, seed);
        ends = n;
        cpu += seconds;
        runs.push(points);
    }
    println!("{target} {settings:?}, seeds {first}..{}: {cpu:.1} CPU-s", first + seeds - 1);
    for (c, n) in ends.iter().enumerate() {
        let z: Vec<f64> = runs.iter().map(|r| r[c].0).collect();
        let error: Vec<f64> = runs.iter().map(|r| r[c].0 - r[c].2).collect();
        let m = mean(&z);
        let sd = (z.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (z.len() - 1) as f64).sqrt();
        let worst = error.iter().cloned().fold(f64::INFINITY, f64::min);
        let rmse = (error.iter().map(|e| e * e).sum::<f64>() / error.len() as f64).sqrt();
        println!("n = {n}: error mean {:+.3} (lowest {worst:+.2}, rms {rmse:.3}), sd of log Ẑ over {} seeds {sd:.3}", mean(&error), z.len());
        for (lags, siblings) in COUNTED_LAGS.iter().map(|&l| (l, false)).chain([(0, true), (1, true)]) {
            let var: Vec<f64> = runs.iter().map(|r| r[c].1 + correction(&r[c].3, lags) + if siblings { r[c].4 } else { 0.0 }).collect();
            let predicted = mean(&var).sqrt();
            let groups: Vec<bool> = (0..runs.len() / 4).filter_map(|g| agreement(&z[4 * g..4 * g + 4], &var[4 * g..4 * g + 4]).map(|a| a.disagree)).collect();
            let flagged = groups.iter().filter(|d| **d).count();
            let negative = var.iter().filter(|v| **v <= 0.0).count();
            println!("  lags {lags}{}: predicted sd (rms) {predicted:.3}, ratio {:.2}; groups of 4 flagged {flagged} of {}; non-positive {negative}", if siblings { " + siblings" } else { "" }, sd / predicted, groups.len());
        }
    }
}
