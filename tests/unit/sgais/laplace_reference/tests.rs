//! Unit tests of src/sgais/laplace_reference.rs (`sgais::laplace_reference::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::gmm::GaussianMixture;
use sgviz::sgais::laplace_reference::*;
use sgviz::model::gmm::{generate_cluster_data, one_component_log_evidence, ClusterSchedule};

/// For K = 1 the evidence has a closed form (Normal-InvGamma in each coordinate, docs/sgais.md
/// §8, computed by a separate route in `model::gmm`). The Laplace error is O(d/N) nats with
/// d = 4 parameters: at N = 2,000 it must be within 0.5 nats (it is ≈ 0.01).
#[test]
fn laplace_reference_matches_the_exact_one_component_evidence() {
    for n in [2_000, 10_000] {
        let single = GaussianMixture::new(2, 1, generate_cluster_data(n, ClusterSchedule::Stationary(1), 1)).unwrap();
        let exact = one_component_log_evidence(&single, &[n]).unwrap()[0];
        let laplace = laplace_log_evidence(&single);
        assert!((laplace - exact).abs() < 0.5, "N = {n}: Laplace {laplace:.3} vs exact {exact:.3}");
    }
}

/// The mode is a stationary point of the posterior and −H is positive definite there, for the
/// paper's K = 5 on five-cluster data.
#[test]
fn the_mode_of_the_five_component_mixture_is_a_maximum() {
    let m = GaussianMixture::new(2, 5, generate_cluster_data(2_000, ClusterSchedule::Stationary(5), 1)).unwrap();
    let theta = posterior_mode(&m);
    let g = grad_log_posterior(&m, &theta);
    assert!(g.iter().all(|v| v.abs() < 1e-6), "gradient at the mode {g:?}");
    assert!(negative_hessian(&m, &theta).cholesky().is_some());
}
