//! Unit tests of src/model/toy.rs (`model::toy::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::model::toy::*;
use sgviz::model::banana::Banana;
use sgviz::model::funnel::Funnel;
use sgviz::model::gaussian::CorrelatedGaussian;

/// N·(sample covariance, divisor N − 1, of the N per-datum scores) at θ.
fn empirical_fisher(model: &dyn Model, theta: &[f64]) -> [[f64; 2]; 2] {
    let n = model.n_data();
    let scores: Vec<[f64; 2]> = (0..n)
        .map(|i| {
            let mut g = [0.0; 2];
            model.add_grad_log_lik(i, theta, &mut g);
            g
        })
        .collect();
    let mean = [0, 1].map(|j| scores.iter().map(|g| g[j]).sum::<f64>() / n as f64);
    let mut f = [[0.0; 2]; 2];
    for g in &scores {
        for a in 0..2 {
            for b in 0..2 {
                f[a][b] += (g[a] - mean[a]) * (g[b] - mean[b]) * n as f64 / (n - 1) as f64;
            }
        }
    }
    f
}

fn models() -> Vec<(Box<dyn Model>, Box<dyn Fn(&[f64]) -> [[f64; 2]; 2]>)> {
    let banana = Banana::new(1.5, 0.7);
    let funnel = Funnel::new(1.2);
    let gaussian = CorrelatedGaussian::new(1.3, 0.6, -0.7, 0.0);
    let p = gaussian.precision();
    let gauss_newton = |d: &dyn ToyDensity, t: &[f64]| {
        let j = d.residual_jacobian(t);
        [0, 1].map(|a| [0, 1].map(|b| j[0][a] * j[0][b] + j[1][a] * j[1][b]))
    };
    let (b2, f2) = (banana.clone(), funnel.clone());
    vec![
        (Box::new(gaussian), Box::new(move |_: &[f64]| p)),
        (Box::new(PseudoData { density: banana, noise_sd: 0.0 }), Box::new(move |t: &[f64]| gauss_newton(&b2, t))),
        (Box::new(PseudoData { density: funnel, noise_sd: 0.0 }), Box::new(move |t: &[f64]| gauss_newton(&f2, t))),
    ]
}

#[test]
fn pseudo_observations_have_mean_zero_and_covariance_n() {
    let n = PSEUDO_DATA as f64;
    let ys: Vec<[f64; 2]> = (0..PSEUDO_DATA).map(pseudo_observation).collect();
    for a in 0..2 {
        assert!(ys.iter().map(|y| y[a]).sum::<f64>().abs() < 1e-10);
        for b in 0..2 {
            let s: f64 = ys.iter().map(|y| y[a] * y[b]).sum::<f64>() / (n - 1.0);
            let expected = if a == b { n } else { 0.0 };
            assert!((s - expected).abs() < 1e-9, "S[{a}][{b}] = {s}");
        }
    }
}

#[test]
fn scores_sum_to_the_gradient_and_their_fisher_is_the_gauss_newton_matrix() {
    // Σ ℓ_i = log π and Σ g_i = ∇log π exactly; N·Cov(g_i) = JᵀJ (= Σ⁻¹ for the Gaussian), at
    // several points: the empirical Fisher of SGFS/OSGFS is a curvature, not a noise level.
    for (model, fisher) in models() {
        for theta in [[0.3, -0.4], [-1.1, 0.8], [0.0, 0.0]] {
            let mut full = [0.0; 2];
            model.grad_log_density(&theta, &mut full);
            let mut sum = [0.0; 2];
            let all: Vec<usize> = (0..model.n_data()).collect();
            model.add_grad_log_lik_batch(&all, &theta, &mut sum);
            let lik: f64 = (0..model.n_data()).map(|i| model.log_lik(i, &theta)).sum();
            assert!((lik - model.log_density(&theta)).abs() < 1e-9 * (1.0 + lik.abs()), "{lik} vs {}", model.log_density(&theta));
            let (f, expected) = (empirical_fisher(model.as_ref(), &theta), fisher(&theta));
            for a in 0..2 {
                assert!((sum[a] - full[a]).abs() < 1e-9 * (1.0 + full[a].abs()));
                for b in 0..2 {
                    assert!((f[a][b] - expected[a][b]).abs() < 1e-8 * (1.0 + expected[a][b].abs()), "F = {f:?} vs {expected:?}");
                }
            }
            // The fused batch form equals the datum-by-datum sum on any batch.
            let batch = [3, 17, 42, 99];
            let (mut fused, mut single) = ([0.0; 2], [0.0; 2]);
            model.add_grad_log_lik_batch(&batch, &theta, &mut fused);
            batch.iter().for_each(|&i| model.add_grad_log_lik(i, &theta, &mut single));
            assert!((fused[0] - single[0]).abs() < 1e-12 && (fused[1] - single[1]).abs() < 1e-12);
        }
    }
}

#[test]
fn residual_jacobians_match_finite_differences_and_residuals_give_the_density() {
    let densities: Vec<Box<dyn ToyDensity>> = vec![Box::new(Banana::new(1.5, 0.7)), Box::new(Funnel::new(1.2))];
    for d in densities {
        let theta = [0.4, -0.9];
        let j = d.residual_jacobian(&theta);
        for col in 0..2 {
            let h = 1e-6;
            let (mut up, mut down) = (theta, theta);
            up[col] += h;
            down[col] -= h;
            let (ru, rd) = (d.residuals(&up), d.residuals(&down));
            for k in 0..2 {
                let fd = (ru[k] - rd[k]) / (2.0 * h);
                assert!((fd - j[k][col]).abs() < 1e-6 * (1.0 + fd.abs()));
            }
        }
        // ∇log π = −Jᵀr + ∇c: the residual part carries the whole θ₂ dependence.
        let (g, r) = (d.grad_log_pdf(&theta), d.residuals(&theta));
        assert!((g[1] + j[0][1] * r[0] + j[1][1] * r[1]).abs() < 1e-12);
    }
}
