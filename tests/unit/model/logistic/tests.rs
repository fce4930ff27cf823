//! Unit tests of the logistic-regression target: gradients against finite differences, curvature
//! and score bounds, refused labels, the fused batch gradient, the stable log-sigmoid.
//!
//! Unit tests of src/model/logistic/mod.rs (`model::logistic::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::rng::{chain_rng, standard_normal, uniform};
use sgviz::model::logistic::*;
use sgviz::params::ParamValues;

#[test]
fn per_datum_gradients_match_finite_differences() {
    let model = LogisticRegression::synthetic_1d(&ParamValues::defaults(PARAMS));
    let theta = [0.7, -0.3];
    for i in [0, 5, 17] {
        let mut g = [0.0; 2];
        model.add_grad_log_lik(i, &theta, &mut g);
        for j in 0..2 {
            let h = 1e-6;
            let (mut up, mut down) = (theta, theta);
            up[j] += h;
            down[j] -= h;
            let fd = (model.log_lik(i, &up) - model.log_lik(i, &down)) / (2.0 * h);
            assert!((fd - g[j]).abs() < 1e-6 * (1.0 + fd.abs()), "datum {i}, coordinate {j}");
        }
    }
}

#[test]
fn curvature_and_score_bounds_dominate_the_model() {
    // uᵀ∇²U u by central differences of the gradient stays below the curvature bound, and every
    // |u·g_i| below the score-projection bound, at points spread over the prior.
    let model = LogisticRegression::synthetic_1d(&ParamValues::defaults(PARAMS));
    let (m, l) = (model.curvature_bound().unwrap(), model.score_projection_bound().unwrap());
    let mut largest = 0.0f64;
    for (theta, u) in [([0.0, 0.0], [1.0, 0.0]), ([0.1, -0.2], [0.6, 0.8]), ([1.5, -0.5], [0.0, 1.0])] {
        let h = 1e-5;
        let (mut gp, mut gm) = ([0.0; 2], [0.0; 2]);
        model.grad_log_density(&[theta[0] + h * u[0], theta[1] + h * u[1]], &mut gp);
        model.grad_log_density(&[theta[0] - h * u[0], theta[1] - h * u[1]], &mut gm);
        let curvature = -((gp[0] - gm[0]) * u[0] + (gp[1] - gm[1]) * u[1]) / (2.0 * h);
        largest = largest.max(curvature);
        for i in 0..model.n_data() {
            let mut g = [0.0; 2];
            model.add_grad_log_lik(i, &theta, &mut g);
            assert!((g[0] * u[0] + g[1] * u[1]).abs() <= l);
        }
    }
    // At θ = 0 every σ(1 − σ) = ¼, so the bound is attained up to the Gram matrix's top direction.
    assert!(largest <= m && largest > 0.5 * m, "curvature {largest} vs bound {m}");
}

#[test]
fn refuses_one_class_and_non_binary_labels() {
    let e = LogisticRegression::new(1, vec![1.0, 2.0], vec![1.0, 1.0], 1.0, vec![]).unwrap_err();
    assert!(e.contains("both classes"), "{e}");
    let e = LogisticRegression::new(1, vec![1.0, 2.0], vec![1.0, 0.5], 1.0, vec![]).unwrap_err();
    assert!(e.contains("row 3") && e.contains("not 0 or 1"), "{e}");
}

/// A model with d features, random data, and random minibatches crossing the chunk boundary.
fn random_model(d: usize, intercept: bool, n: usize, seed: u64) -> LogisticRegression {
    let mut rng = chain_rng(seed);
    let features: Vec<f64> = (0..n * d).map(|_| 2.0 * standard_normal(&mut rng)).collect();
    let mut labels: Vec<f64> = (0..n).map(|_| if uniform(&mut rng) < 0.5 { 1.0 } else { 0.0 }).collect();
    (labels[0], labels[1]) = (1.0, 0.0);
    LogisticRegression::assemble(d, intercept, features, labels, 3.0, Vec::new())
}

#[test]
fn fused_batch_gradient_is_bit_identical_to_datum_by_datum_sums() {
    // Every specialised (d, intercept) and the general loop, from a non-zero starting sum,
    // with batches shorter than, equal to and longer than the residual chunk.
    let mut rng = chain_rng(5);
    for d in 1..=7 {
        for intercept in [true, false] {
            let model = random_model(d, intercept, 300, d as u64);
            let dim = model.dim();
            for batch_len in [1, 7, 31, 32, 33, 64, 65, 200] {
                let theta: Vec<f64> = (0..dim).map(|_| 3.0 * standard_normal(&mut rng)).collect();
                let batch: Vec<usize> = (0..batch_len).map(|_| sgviz::rng::index_below(&mut rng, 300)).collect();
                let start: Vec<f64> = (0..dim).map(|_| standard_normal(&mut rng)).collect();
                let (mut fused, mut single) = (start.clone(), start.clone());
                model.add_grad_log_lik_batch(&batch, &theta, &mut fused);
                for &i in &batch {
                    model.add_grad_log_lik(i, &theta, &mut single);
                }
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fused), bits(&single), "d = {d}, intercept = {intercept}, n = {batch_len}");
            }
        }
    }
}

#[test]
fn stable_log_sigmoid() {
    assert!((log_sigmoid(-800.0) + 800.0).abs() < 1e-9);
    assert!(log_sigmoid(800.0).abs() < 1e-300);
    assert!((sigmoid(0.3) + sigmoid(-0.3) - 1.0).abs() < 1e-15);
}

/// Newton's mode and the Laplace covariance (`find_mode`, its lower-triangle negative Hessian):
/// at the mode the gradient vanishes, and the covariance times the negative Hessian computed here
/// by central differences of the model's own per-datum gradients (not the code under test) is the
/// identity. The differences' error is O(h²) ≈ 10⁻⁸ of the curvature at h = 10⁻⁴, so 10⁻⁵ is
/// far above it; an entry of −H summed into the wrong place moves the product by O(1).
#[test]
fn the_laplace_covariance_inverts_the_finite_difference_hessian_at_the_mode() {
    for (d, intercept, seed) in [(6, true, 41), (4, false, 42)] {
        let m = random_model(d, intercept, 300, seed);
        let dim = m.dim();
        let mode = m.mode().to_vec();
        let mut g = vec![0.0; dim];
        m.grad_log_density(&mode, &mut g);
        assert!(g.iter().all(|x| x.abs() < 1e-6), "gradient at the mode {g:?}");
        let h = 1e-4;
        let grad_at = |theta: &[f64]| {
            let mut out = vec![0.0; dim];
            m.grad_log_density(theta, &mut out);
            out
        };
        // neg_hessian[a][b] = −∂g_a/∂θ_b.
        let neg_hessian: Vec<Vec<f64>> = (0..dim)
            .map(|b| {
                let (mut up, mut down) = (mode.clone(), mode.clone());
                up[b] += h;
                down[b] -= h;
                let (gu, gd) = (grad_at(&up), grad_at(&down));
                (0..dim).map(|a| -(gu[a] - gd[a]) / (2.0 * h)).collect::<Vec<f64>>()
            })
            .collect();
        let cov = m.laplace_moments().expect("a Laplace covariance").cov;
        for i in 0..dim {
            for j in 0..dim {
                let product: f64 = (0..dim).map(|k| cov[i][k] * neg_hessian[j][k]).sum();
                let expected = if i == j { 1.0 } else { 0.0 };
                assert!((product - expected).abs() < 1e-5, "d = {d}, seed {seed}: (Σ·(−H))[{i}][{j}] = {product}");
            }
        }
    }
}
