//! Diagnostic for the mixture's small-N replicas (docs/sgais.md §15): SGAIS on the stationary
//! 5-cluster data (data seed 1) at the class preset's sizes, several seeds, each chunk's log Ẑ minus
//! the Laplace reference of the same prefix (`sgviz::sgais::laplace_reference`, with log K!), the
//! run's own predicted sd, its datum evaluations, and how many particles cover all five clusters.
//!
//! `cargo run --release --example class_replicas -- N K SEEDS [name=value ...]` with the shift
//! examples' command line (src: examples/shift_common), e.g. `-- 1500 5 6 chunk_size=500
//! batch_size=500`; `FIRST_SEED=S` starts the seeds at S; `REPLICAS_OF=S` runs replicas 0..SEEDS of
//! `sgviz evidence --seed S` instead (`sgviz::sgais::replicas::replica_seed`); `FIRST_CHUNK_SHARE=f`
//! sets the first chunk's least ESS* to f·M (`SgaisConfig::first_chunk_ess_share`; without it the
//! share the page and the CLI resolve for these settings, 0.9 on the mixture: `FIRST_CHUNK_SHARE=0`
//! gives §15's runs before the change, the run's own ESS*).

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use sgviz::sgais::cli::thread_cpu_seconds;
use sgviz::sgais::coverage::clusters_covered;
use sgviz::sgais::laplace_reference::laplace_log_evidence;
use sgviz::sgais::models::EvidenceModel;
use sgviz::sgais::replicas::replica_seed;
use sgviz::sgais::run::SgaisRun;
use std::sync::Arc;

mod shift_common;
use shift_common::{page_first_chunk_share, shift_args};

fn main() {
    let (n, k, seeds, mut config) = shift_args(1_500, 5, 6);
    config.first_chunk_ess_share = std::env::var("FIRST_CHUNK_SHARE").ok().map_or_else(|| page_first_chunk_share(n, k), |s| s.parse().expect("FIRST_CHUNK_SHARE"));
    let data = generate_cluster_data(n, ClusterSchedule::Stationary(5), 1);
    let model: Arc<dyn EvidenceModel> = Arc::new(GaussianMixture::new(2, k, data.clone()).expect("mixture"));
    let ends: Vec<usize> = (1..=n.div_ceil(config.chunk_size)).map(|c| (c * config.chunk_size).min(n)).collect();
    let reference: Vec<f64> = ends.iter().map(|&end| laplace_log_evidence(&GaussianMixture::new(2, k, data[..2 * end].to_vec()).unwrap())).collect();
    println!("N = {n}, K = {k}, chunks {}: Laplace reference per chunk end {reference:.1?}", config.chunk_size);
    let first: u64 = std::env::var("FIRST_SEED").ok().map_or(1, |s| s.parse().expect("FIRST_SEED"));
    let replicas_of: Option<u64> = std::env::var("REPLICAS_OF").ok().map(|s| s.parse().expect("REPLICAS_OF"));
    for index in 0..seeds {
        let seed = replicas_of.map_or(first + index, |of| replica_seed(of, index as usize));
        let mut run = SgaisRun::new(model.clone(), config.clone(), n, seed);
        let cpu = thread_cpu_seconds();
        let records = run.run_to_end().to_vec();
        let cpu = cpu.zip(thread_cpu_seconds()).map_or(f64::NAN, |(a, b)| b - a);
        let all = run.particles().iter().filter(|p| clusters_covered(p, k) == 5).count();
        let per_chunk: Vec<String> = records.iter().zip(&reference).map(|(r, l)| format!("{}: {:+.1} ({} steps, sd {:.2})", r.n, r.log_z - l, r.annealing_steps, r.log_z_var.sqrt())).collect();
        println!("seed {seed} (#{index}): log Ẑ {:.1}, {:.2e} evals, {cpu:.1} CPU-s, {} reseeds, {all}/{} particles on all 5 clusters; minus reference {}", run.log_z(), run.datum_evals() as f64, run.reseeds_accepted(), run.particles().len(), per_chunk.join(", "));
    }
}
