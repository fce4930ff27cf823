//! Diagnostic for the distribution-shift gap (docs/sgais.md §9–§10): SGAIS on the shift data with
//! K components, in order and shuffled, several seeds, against the Laplace reference of
//! `sgviz::sgais::laplace_reference` (K = 7 only: it matches the 7 generating clusters). Prints,
//! per run, the final log Ẑ minus the reference, and for the in-order runs the annealing steps and
//! log Ẑ increments of the chunks around the change points.
//!
//! `cargo run --release --example shift_gap -- N K SEEDS [name=value ...]` (SGAIS settings over the
//! mixture's own defaults), e.g. `-- 12000 7 3`; `FIRST_SEED=S` starts the seeds at S (seeds not
//! used to choose a setting), `ORDERS=in` or `ORDERS=shuffled` only one order. Each run also prints its thread CPU seconds and the chunks the
//! surprise rule (src/sgais/surprise.rs) flagged.

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use sgviz::sgais::laplace_reference::laplace_log_evidence;
use sgviz::sgais::cli::thread_cpu_seconds;
use sgviz::sgais::models::EvidenceModel;
use sgviz::sgais::run::SgaisRun;
use std::sync::Arc;

mod shift_common;
use shift_common::shift_args;

/// The orders to run: `ORDERS=in` or `ORDERS=shuffled` for one, both otherwise.
fn orders() -> Vec<bool> {
    match std::env::var("ORDERS").as_deref() {
        Ok("in") => vec![false],
        Ok("shuffled") => vec![true],
        _ => vec![false, true],
    }
}

fn main() {
    let (n, k, seeds, config) = shift_args(12_000, 7, 3);
    let model_of = |shuffled: bool| -> Arc<dyn EvidenceModel> { Arc::new(GaussianMixture::new(2, k, generate_cluster_data(n, ClusterSchedule::Shift { shuffled }, 1)).expect("mixture")) };
    let reference = (k == 7).then(|| laplace_log_evidence(&GaussianMixture::new(2, k, generate_cluster_data(n, ClusterSchedule::Shift { shuffled: false }, 1)).unwrap()));
    println!("N = {n}, K = {k}: Laplace reference {reference:?}");
    let first: u64 = std::env::var("FIRST_SEED").ok().map_or(1, |s| s.parse().expect("FIRST_SEED"));
    for seed in first..first + seeds {
        for shuffled in orders() {
            let mut run = SgaisRun::new(model_of(shuffled), config.clone(), n, seed);
            let cpu = thread_cpu_seconds();
            let records = run.run_to_end().to_vec();
            let cpu = cpu.zip(thread_cpu_seconds()).map_or(f64::NAN, |(a, b)| b - a);
            let boosted: Vec<String> = run.surprises().iter().filter(|s| s.surprising).map(|s| format!("{} ×{:.0}", s.n, s.variance / s.threshold.max(f64::MIN_POSITIVE))).collect();
            let quiet = run.surprises().iter().filter(|s| !s.surprising).map(|s| s.variance / s.threshold).fold(0.0, f64::max);
            let steps: usize = records.iter().map(|r| r.annealing_steps).sum();
            let versus = reference.map_or(String::new(), |r| format!(" (minus reference {:.1})", run.log_z() - r));
            let mut detail = String::new();
            if !shuffled {
                let mut previous = 0.0;
                for r in &records {
                    if [1_000, 2_000, 3_000, 10_000, 11_000, 12_000, 13_000].contains(&r.n) {
                        detail += &format!(" [{}: +{:.0}, {} steps]", r.n, r.log_z - previous, r.annealing_steps);
                    }
                    previous = r.log_z;
                }
            }
            println!("seed {seed} {}: log Ẑ {:.1} (own sd {:.2}){versus}, {steps} annealing steps, {:.2e} evals, {cpu:.1} CPU-s, {} reseeds, surprising chunks (end ×s²/threshold) {boosted:?}, largest s²/threshold of the others {quiet:.2}{detail}", if shuffled { "shuffled" } else { "in order" }, run.log_z(), run.log_z_variance().sqrt(), run.datum_evals() as f64, run.reseeds_accepted());
        }
    }
}
