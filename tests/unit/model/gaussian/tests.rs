//! Unit tests of src/model/gaussian.rs (`model::gaussian::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::model::gaussian::*;

#[test]
fn gaussian_precision_reproduces_the_gradient() {
    let g = CorrelatedGaussian::new(1.5, 0.7, -0.6, 0.0);
    let (mean, p) = g.gaussian_precision().unwrap();
    let theta = [0.3, -0.8];
    let mut grad = [0.0; 2];
    g.grad_log_density(&theta, &mut grad);
    for a in 0..2 {
        let pd = p[2 * a] * (theta[0] - mean[0]) + p[2 * a + 1] * (theta[1] - mean[1]);
        assert!((grad[a] + pd).abs() < 1e-12);
    }
}

#[test]
fn gradient_matches_finite_differences_and_density_integrates() {
    let g = CorrelatedGaussian::new(1.5, 0.7, -0.6, 0.0);
    let theta = [0.3, -0.8];
    let mut grad = [0.0; 2];
    g.grad_log_density(&theta, &mut grad);
    for j in 0..2 {
        let h = 1e-6;
        let mut up = theta;
        up[j] += h;
        let mut down = theta;
        down[j] -= h;
        let fd = (g.log_density(&up) - g.log_density(&down)) / (2.0 * h);
        assert!((fd - grad[j]).abs() < 1e-6 * (1.0 + fd.abs()), "coordinate {j}: {fd} vs {}", grad[j]);
    }
    // Per-datum scores sum to the full gradient.
    let mut sum = [0.0; 2];
    for i in 0..PSEUDO_DATA {
        g.add_grad_log_lik(i, &theta, &mut sum);
    }
    assert!((sum[0] - grad[0]).abs() < 1e-12 && (sum[1] - grad[1]).abs() < 1e-12);
    // Riemann sum of the density over ±8σ is 1.
    let (n, h1, h2) = (400, 16.0 * 1.5 / 400.0, 16.0 * 0.7 / 400.0);
    let mut mass = 0.0;
    for a in 0..n {
        for b in 0..n {
            let t = [-8.0 * 1.5 + (a as f64 + 0.5) * h1, -8.0 * 0.7 + (b as f64 + 0.5) * h2];
            mass += g.log_density(&t).exp() * h1 * h2;
        }
    }
    assert!((mass - 1.0).abs() < 1e-6, "mass {mass}");
}
