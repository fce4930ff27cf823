//! Diagnostic for SGAIS on the paper's Gaussian mixture (default K = 5, 2-D, stationary 5-cluster
//! data, data seed 1; docs/sgais.md §10; with `scenario=shift` the shift data of §9): the independent reference log Z of
//! `sgviz::sgais::laplace_reference` (Laplace at the mode plus log K!; checked here again against
//! the exact evidence of a one-component mixture on one-cluster data), and, per SGAIS seed, log Ẑ
//! after every chunk with how many of the seven generating clusters the particles' components
//! cover (`sgviz::sgais::coverage`: weight ≥ 0.05 and mean within 0.5 of a cluster centre).
//!
//! `cargo run --release --example gmm_modes -- N SEEDS [name=value ...]` (names from the SGAIS
//! or the mixture's parameter list, over the mixture's own defaults,
//! `sgviz::sgais::model_defaults`), e.g. `-- 1000 4 burn_in_steps=10 learning_rate=0.02` for the
//! global defaults of docs/sgais.md §10, or `-- 12000 1 scenario=shift n_components=7`. The SGAIS
//! settings are resolved as the page and the CLI resolve them (`sgviz::sgais::job::resolve`: the
//! surprise rule for the shift data, the first chunk at the model's AIS share, docs/sgais.md §15).

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture, CLUSTERS};
use sgviz::sgais::coverage::clusters_covered;
use sgviz::sgais::job::resolve;
use sgviz::sgais::laplace_reference::laplace_log_evidence;
use sgviz::sgais::models::{evidence_target, split_settings, EvidenceModel};
use sgviz::sgais::run::{RunStatus, SgaisRun};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(10_000, |s| s.parse().expect("N"));
    let seeds: u64 = args.get(2).map_or(3, |s| s.parse().expect("SEEDS"));
    let mut settings = vec![("n_points".to_string(), n.to_string())];
    settings.extend(args.iter().skip(3).map(|pair| {
        let (name, text) = pair.split_once('=').expect("name=value");
        (name.to_string(), text.to_string())
    }));
    let (target_values, _) = split_settings(evidence_target("gmm").expect("gmm"), &settings).expect("valid settings");
    let (k, scenario, clusters) = (target_values.get_usize("n_components"), target_values.get_usize("scenario"), target_values.get_usize("data_clusters"));
    let schedule = match scenario {
        0 => ClusterSchedule::Stationary(clusters),
        s => ClusterSchedule::Shift { shuffled: s == 2 },
    };
    let mixture = GaussianMixture::new(2, k, generate_cluster_data(n, schedule, target_values.get("data_seed") as u64)).expect("valid mixture");
    let laplace = (scenario == 0 && k == clusters).then(|| laplace_log_evidence(&mixture));
    if let Some(laplace) = laplace {
        println!("N = {n}: Laplace log Z (with log K!) = {laplace:.2}");
        let single = GaussianMixture::new(2, 1, generate_cluster_data(n, ClusterSchedule::Stationary(1), 1)).expect("valid mixture");
        let exact = sgviz::model::gmm::one_component_log_evidence(&single, &[n]).expect("closed form for K = 1")[0];
        println!("check of the Laplace code on K = 1 (one cluster): Laplace {:.2}, exact {exact:.2}", laplace_log_evidence(&single));
    }
    let config = resolve("gmm", None, &settings, None).expect("valid settings").config;
    let model: Arc<dyn EvidenceModel> = Arc::new(mixture);
    for seed in 1..=seeds {
        let mut run = SgaisRun::new(model.clone(), config.clone(), n, seed);
        let mut line = String::new();
        while *run.status() == RunStatus::Running {
            for r in run.advance(usize::MAX) {
                let mut histogram = [0; CLUSTERS.len() + 1];
                run.particles().iter().for_each(|p| histogram[clusters_covered(p, k)] += 1);
                line += &format!("\n  n = {}: log Ẑ = {:.1}, {} steps, particles covering 0..7 clusters {histogram:?}", r.n, r.log_z, r.annealing_steps);
            }
        }
        let versus = laplace.map_or(String::new(), |l| format!(", minus Laplace {:.1}", run.log_z() - l));
        println!("seed {seed}: log Ẑ = {:.2}{versus}, {:.2e} datum evaluations{line}", run.log_z(), run.datum_evals() as f64);
    }
}
