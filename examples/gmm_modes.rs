//! Diagnostic for SGAIS on the paper's Gaussian mixture (K = 5, 2-D, stationary 5-cluster data,
//! data seed 1; docs/sgais.md §10): an independent reference log Z by the Laplace approximation at
//! the MAP (Newton from the generating parameters, Hessian by central differences of the analytic
//! gradient) plus log K! for the K! label-switched copies of the mode (checked against the exact
//! evidence of a one-component mixture on one-cluster data), and, per SGAIS seed, log Ẑ
//! after every chunk with how many of the five data clusters the particles' components cover
//! (a component counts when its weight is ≥ 0.05 and its mean is within 0.5 of a cluster centre).
//!
//! `cargo run --release --example gmm_modes -- N SEEDS [name=value ...]` (names from the SGAIS
//! parameter list), e.g. `-- 1000 4 burn_in_steps=50`.

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture, CLUSTERS};
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::sgais::models::EvidenceModel;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::{SgaisConfig, PARAMS};
use std::sync::Arc;

const K: usize = 5;

fn grad_log_posterior(m: &GaussianMixture, theta: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; theta.len()];
    m.add_grad_log_prior(theta, &mut g);
    let all: Vec<usize> = (0..m.n_data()).collect();
    m.add_grad_log_lik_batch(&all, theta, &mut g);
    g
}

fn hessian(m: &GaussianMixture, theta: &[f64]) -> nalgebra::DMatrix<f64> {
    let (d, h) = (theta.len(), 1e-5);
    let mut hm = nalgebra::DMatrix::<f64>::zeros(d, d);
    for j in 0..d {
        let (mut a, mut b) = (theta.to_vec(), theta.to_vec());
        a[j] += h;
        b[j] -= h;
        let (ga, gb) = (grad_log_posterior(m, &a), grad_log_posterior(m, &b));
        for i in 0..d {
            hm[(i, j)] = (ga[i] - gb[i]) / (2.0 * h);
        }
    }
    (&hm + hm.transpose()) * 0.5
}

/// log p(D | θ̂) + log p(θ̂) + (d/2) log 2π − ½ log det(−H) + log k!, k = the model's components,
/// Newton started at the first k generating clusters.
fn laplace_log_evidence(m: &GaussianMixture) -> f64 {
    let k = m.n_components();
    let mut theta = vec![0.0; k - 1];
    theta.extend((0..k).flat_map(|c| CLUSTERS[c].0));
    theta.extend((0..k).flat_map(|c| [2.0 * CLUSTERS[c].1.ln(); 2]));
    for _ in 0..50 {
        let step = (-hessian(m, &theta)).cholesky().expect("−H is SPD near the mode").solve(&nalgebra::DVector::from_vec(grad_log_posterior(m, &theta)));
        theta.iter_mut().zip(step.iter()).for_each(|(t, s)| *t += s);
        if step.norm() < 1e-9 {
            break;
        }
    }
    let chol = (-hessian(m, &theta)).cholesky().expect("−H is SPD at the mode");
    let log_det: f64 = chol.l().diagonal().iter().map(|l| 2.0 * l.ln()).sum();
    let log_lik: f64 = (0..m.n_data()).map(|i| m.log_lik(i, &theta)).sum();
    let log_k_factorial: f64 = (1..=k).map(|i| (i as f64).ln()).sum();
    log_lik + m.log_prior(&theta) + 0.5 * theta.len() as f64 * (2.0 * std::f64::consts::PI).ln() - 0.5 * log_det + log_k_factorial
}

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
    let mut values = ParamValues::defaults(PARAMS);
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
