//! SGAIS on the paper's K = 5 Gaussian mixture (issue 22; docs/sgais.md §10) against an independent
//! reference: the Laplace approximation at the posterior mode plus log K! for the K! label-switched
//! copies of the mode, written here from the model's gradient alone (Newton from the generating
//! parameters, Hessian by central differences). The Laplace code is itself checked against the
//! exact one-component evidence.
//!
//! The tolerance is the issue's: 0.1 % of |log Z| (36 nats at N = 10⁴). At the defaults the three
//! seeds of the issue are 1,000–3,700 nats below the reference (docs/sgais.md §10), so the runs here
//! use the faster exploration measured there (K = 20 SGHMC steps per temperature, lr = 0.1). CI runs
//! seed 1 (≈ 7 CPU-s at opt-level 3); `SGVIZ_SGAIS_MIXTURE_SOAK=1` (`make soak`) runs seeds 1–3 and
//! also checks that they agree with each other within 0.1 %.

use sgviz::model::gmm::{generate_cluster_data, one_component_log_evidence, ClusterSchedule, GaussianMixture, CLUSTERS};
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::sgais::models::EvidenceModel;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::{SgaisConfig, PARAMS};
use std::sync::Arc;

fn grad_log_posterior(m: &GaussianMixture, theta: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; theta.len()];
    m.add_grad_log_prior(theta, &mut g);
    let all: Vec<usize> = (0..m.n_data()).collect();
    m.add_grad_log_lik_batch(&all, theta, &mut g);
    g
}

fn negative_hessian(m: &GaussianMixture, theta: &[f64]) -> nalgebra::DMatrix<f64> {
    let (d, h) = (theta.len(), 1e-5);
    let mut hm = nalgebra::DMatrix::<f64>::zeros(d, d);
    for j in 0..d {
        let (mut a, mut b) = (theta.to_vec(), theta.to_vec());
        a[j] += h;
        b[j] -= h;
        let (ga, gb) = (grad_log_posterior(m, &a), grad_log_posterior(m, &b));
        for i in 0..d {
            hm[(i, j)] = -(ga[i] - gb[i]) / (2.0 * h);
        }
    }
    (&hm + hm.transpose()) * 0.5
}

/// log p(D | θ̂) + log p(θ̂) + (d/2) log 2π − ½ log det(−H) + log k!.
fn laplace_log_evidence(m: &GaussianMixture) -> f64 {
    let k = m.n_components();
    let mut theta = vec![0.0; k - 1];
    theta.extend((0..k).flat_map(|c| CLUSTERS[c].0));
    theta.extend((0..k).flat_map(|c| [2.0 * CLUSTERS[c].1.ln(); 2]));
    for _ in 0..50 {
        let g = nalgebra::DVector::from_vec(grad_log_posterior(m, &theta));
        let step = negative_hessian(m, &theta).cholesky().expect("−H is SPD near the mode").solve(&g);
        theta.iter_mut().zip(step.iter()).for_each(|(t, s)| *t += s);
        if step.norm() < 1e-9 {
            break;
        }
    }
    let chol = negative_hessian(m, &theta).cholesky().expect("−H is SPD at the mode");
    let log_det: f64 = chol.l().diagonal().iter().map(|l| 2.0 * l.ln()).sum();
    let log_lik: f64 = (0..m.n_data()).map(|i| m.log_lik(i, &theta)).sum();
    let log_k_factorial: f64 = (1..=k).map(|i| (i as f64).ln()).sum();
    log_lik + m.log_prior(&theta) + 0.5 * theta.len() as f64 * (2.0 * std::f64::consts::PI).ln() - 0.5 * log_det + log_k_factorial
}

fn mixture(n: usize, k: usize) -> GaussianMixture {
    GaussianMixture::new(2, k, generate_cluster_data(n, ClusterSchedule::Stationary(k), 1)).unwrap()
}

/// K = 20 SGHMC steps per temperature and lr = 0.1 (docs/sgais.md §10); the rest at the defaults.
fn exploring_settings() -> SgaisConfig {
    let mut values = ParamValues::defaults(PARAMS);
    values.set(PARAMS, "burn_in_steps", 20.0).unwrap();
    values.set(PARAMS, "learning_rate", 0.1).unwrap();
    SgaisConfig::from_values(&values).unwrap()
}

fn sgais_log_z(model: &GaussianMixture, seed: u64) -> f64 {
    let shared: Arc<dyn EvidenceModel> = Arc::new(model.clone());
    let mut run = SgaisRun::new(shared, exploring_settings(), model.n_data(), seed);
    run.run_to_end();
    assert_eq!(*run.status(), RunStatus::Finished);
    run.log_z()
}

/// The reference's own check: for K = 1 the evidence has a closed form (docs/sgais.md §8); the
/// Laplace approximation at N = 2,000 must be within 0.5 nats of it (its error is O(d/N) nats).
#[test]
fn laplace_reference_matches_the_exact_one_component_evidence() {
    let single = mixture(2_000, 1);
    let exact = one_component_log_evidence(&single, &[2_000]).unwrap()[0];
    let laplace = laplace_log_evidence(&single);
    assert!((laplace - exact).abs() < 0.5, "Laplace {laplace:.3} vs exact {exact:.3}");
}

/// N = 10⁴, data seed 1: every seed within 0.1 % of the Laplace reference; in the soak, seeds 1–3
/// also within 0.1 % of each other (the three-seed check).
#[test]
fn five_component_mixture_seeds_agree_with_the_laplace_reference() {
    let n = 10_000;
    let model = mixture(n, 5);
    let reference = laplace_log_evidence(&model);
    let tolerance = 1e-3 * reference.abs();
    let soak = std::env::var("SGVIZ_SGAIS_MIXTURE_SOAK").is_ok_and(|v| v != "0");
    let seeds: Vec<u64> = if soak { vec![1, 2, 3] } else { vec![1] };
    let estimates: Vec<f64> = seeds.iter().map(|&s| sgais_log_z(&model, s)).collect();
    for (seed, z) in seeds.iter().zip(&estimates) {
        assert!((z - reference).abs() <= tolerance, "seed {seed}: log Ẑ = {z:.1}, Laplace {reference:.1}, tolerance {tolerance:.1}");
    }
    let range = estimates.iter().copied().fold(f64::MIN, f64::max) - estimates.iter().copied().fold(f64::MAX, f64::min);
    assert!(range <= tolerance, "seeds {seeds:?}: log Ẑ = {estimates:?}, range {range:.1} > {tolerance:.1}");
}
