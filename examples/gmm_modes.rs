//! Diagnostic for SGAIS on the paper's Gaussian mixture (K = 5, 2-D, stationary 5-cluster data,
//! data seed 1; docs/sgais.md §10): the independent reference log Z of
//! `sgviz::sgais::laplace_reference` (Laplace at the mode plus log K!; checked here again against
//! the exact evidence of a one-component mixture on one-cluster data), and, per SGAIS seed, log Ẑ
//! after every chunk with how many of the five data clusters the particles' components cover
//! (a component counts when its weight is ≥ 0.05 and its mean is within 0.5 of a cluster centre).
//!
//! `cargo run --release --example gmm_modes -- N SEEDS [name=value ...]` (names from the SGAIS
//! parameter list, over the mixture's own defaults, `sgviz::sgais::model_defaults`), e.g.
//! `-- 1000 4 burn_in_steps=10 learning_rate=0.02` for the global defaults of docs/sgais.md §10.

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture, CLUSTERS};
use sgviz::sgais::laplace_reference::laplace_log_evidence;
use sgviz::sgais::model_defaults::sgais_defaults_for;
use sgviz::sgais::models::EvidenceModel;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::{SgaisConfig, PARAMS};
use std::sync::Arc;

const K: usize = 5;

/// How many data clusters the components of θ cover.
fn clusters_covered(theta: &[f64]) -> usize {
    let mut z: Vec<f64> = theta[..K - 1].to_vec();
    z.push(0.0);
    let max = z.iter().copied().fold(f64::MIN, f64::max);
    let total: f64 = z.iter().map(|v| (v - max).exp()).sum();
    let mut covered = [false; K];
    for c in (0..K).filter(|&c| (z[c] - max).exp() / total >= 0.05) {
        let mu = &theta[K - 1 + 2 * c..K + 1 + 2 * c];
        for (q, (centre, _)) in CLUSTERS[..K].iter().enumerate() {
            covered[q] |= (mu[0] - centre[0]).hypot(mu[1] - centre[1]) < 0.5;
        }
    }
    covered.iter().filter(|c| **c).count()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(10_000, |s| s.parse().expect("N"));
    let seeds: u64 = args.get(2).map_or(3, |s| s.parse().expect("SEEDS"));
    let mixture = GaussianMixture::new(2, K, generate_cluster_data(n, ClusterSchedule::Stationary(K), 1)).expect("valid mixture");
    let laplace = laplace_log_evidence(&mixture);
    println!("N = {n}: Laplace log Z (with log K!) = {laplace:.2}");
    let single = GaussianMixture::new(2, 1, generate_cluster_data(n, ClusterSchedule::Stationary(1), 1)).expect("valid mixture");
    let exact = sgviz::model::gmm::one_component_log_evidence(&single, &[n]).expect("closed form for K = 1")[0];
    println!("check of the Laplace code on K = 1 (one cluster): Laplace {:.2}, exact {exact:.2}", laplace_log_evidence(&single));
    let mut values = sgais_defaults_for("gmm");
    for pair in args.iter().skip(3) {
        let (name, text) = pair.split_once('=').expect("name=value");
        let spec = PARAMS.iter().find(|s| s.name == name).expect("an SGAIS parameter");
        values.set(PARAMS, name, spec.parse(text).expect("a valid value")).expect("in range");
    }
    let config = SgaisConfig::from_values(&values).expect("valid settings");
    let model: Arc<dyn EvidenceModel> = Arc::new(mixture);
    for seed in 1..=seeds {
        let mut run = SgaisRun::new(model.clone(), config.clone(), n, seed);
        let mut line = String::new();
        while *run.status() == RunStatus::Running {
            for r in run.advance(usize::MAX) {
                let mut histogram = [0; K + 1];
                run.particles().iter().for_each(|p| histogram[clusters_covered(p)] += 1);
                line += &format!("\n  n = {}: log Ẑ = {:.1}, {} steps, particles covering 0..5 clusters {histogram:?}", r.n, r.log_z, r.annealing_steps);
            }
        }
        println!("seed {seed}: log Ẑ = {:.2}, minus Laplace {:.1}, {:.2e} datum evaluations{line}", run.log_z(), run.log_z() - laplace, run.datum_evals() as f64);
    }
}
