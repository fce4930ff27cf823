//! Shared plumbing for data-free 2-D toy densities (correlated Gaussian, banana, funnel): log π is
//! split into [`PSEUDO_DATA`] pseudo-data terms with a real per-datum structure, so that minibatch
//! gradients and the empirical Fisher of SGFS/OSGFS mean what they mean on data; the synthetic
//! noise knob s (docs/README.md, (N.2)) adds on top.
//!
//! Construction [DERIVED]: write log π(θ) = −½‖r(θ)‖² + c(θ) with a residual map r: R² → R² (the
//! Gaussian's whitened deviation, the banana's two Gaussian factors, the funnel's v/σ_v and
//! x e^{−v/2}), and fix N pseudo-observations y_i ∈ R² with Σ y_i = 0 and Σ y_i y_iᵀ/(N − 1) = N·I
//! exactly (equally spaced on a circle of radius √(2(N − 1))). Then
//!   ℓ_i(θ) = log π(θ)/N + y_iᵀ r(θ)/N,   g_i = ∇log π(θ)/N + J(θ)ᵀ y_i/N   (J = ∂r/∂θ)
//! sums to log π exactly (Σ y_i = 0), and the scores' sample covariance (divisor N − 1) is JᵀJ/N:
//! the empirical Fisher N·Cov(g_i) is the Gauss–Newton matrix JᵀJ — for the Gaussian exactly the
//! posterior precision P, as for N observations x_i ~ N(θ, NΣ) with sample mean μ and sample
//! covariance NΣ under a flat prior. A minibatch of n (without replacement) carries gradient noise
//! of covariance (N/n − 1)·JᵀJ, zero at n = N (full batch: docs/sgld.md (SGLD.7) unchanged).

use super::{Model, View};
use crate::diagnostics::Moments;

/// Number of pseudo-data a toy log density is split into.
pub const PSEUDO_DATA: usize = 100;

/// The pseudo-observation y_i (i < [`PSEUDO_DATA`]): N points equally spaced on a circle of radius
/// √(2(N − 1)), so Σ y_i = 0 and Σ y_i y_iᵀ = (N − 1)·N·I (up to rounding).
pub fn pseudo_observation(i: usize) -> [f64; 2] {
    let n = PSEUDO_DATA as f64;
    let radius = (2.0 * (n - 1.0)).sqrt();
    let angle = 2.0 * std::f64::consts::PI * i as f64 / n;
    [radius * angle.cos(), radius * angle.sin()]
}

/// Σ_{i∈batch} y_i.
fn pseudo_observation_sum(batch: &[usize]) -> [f64; 2] {
    batch.iter().fold([0.0, 0.0], |acc, &i| {
        let y = pseudo_observation(i);
        [acc[0] + y[0], acc[1] + y[1]]
    })
}

/// out += share·∇log π + Jᵀ y / N: the pseudo-data scores of a batch whose observations sum to `y`
/// and whose size is `share`·N (one datum: share = 1/N, y = y_i).
pub fn add_pseudo_scores(grad_log_pi: [f64; 2], jacobian: [[f64; 2]; 2], y: [f64; 2], share: f64, out: &mut [f64]) {
    let n = PSEUDO_DATA as f64;
    for j in 0..2 {
        out[j] += share * grad_log_pi[j] + (jacobian[0][j] * y[0] + jacobian[1][j] * y[1]) / n;
    }
}

/// ℓ_i = log π/N + y_iᵀ r/N.
pub fn pseudo_log_lik(log_pi: f64, residuals: [f64; 2], i: usize) -> f64 {
    let y = pseudo_observation(i);
    (log_pi + y[0] * residuals[0] + y[1] * residuals[1]) / PSEUDO_DATA as f64
}

/// The batch form of [`add_pseudo_scores`]: share = n/N and y = Σ_{i∈batch} y_i.
pub fn add_pseudo_batch_scores(grad_log_pi: [f64; 2], jacobian: [[f64; 2]; 2], batch: &[usize], out: &mut [f64]) {
    let share = batch.len() as f64 / PSEUDO_DATA as f64;
    add_pseudo_scores(grad_log_pi, jacobian, pseudo_observation_sum(batch), share, out);
}

/// A smooth 2-D log density with its gradient; [`PseudoData`] turns it into a [`Model`].
pub trait ToyDensity: Send + Sync {
    fn log_pdf(&self, theta: &[f64]) -> f64;
    fn grad_log_pdf(&self, theta: &[f64]) -> [f64; 2];
    /// The residual map r(θ) of log π = −½‖r‖² + c(θ) (see the module docs).
    fn residuals(&self, theta: &[f64]) -> [f64; 2];
    /// Its Jacobian J[k][j] = ∂r_k/∂θ_j.
    fn residual_jacobian(&self, theta: &[f64]) -> [[f64; 2]; 2];
    fn moments(&self) -> Option<Moments>;
    fn window(&self) -> View;
    fn marginal(&self, _coordinate: usize, _points: &[f64]) -> Option<Vec<f64>> {
        None
    }
    fn region(&self) -> Option<View> {
        None
    }
    fn start(&self) -> Vec<f64> {
        vec![0.0, 0.0]
    }
    fn names(&self) -> Vec<String> {
        vec!["θ1".into(), "θ2".into()]
    }
}

/// The N(mean, sd²) density at each point.
pub fn normal_density(mean: f64, sd: f64, points: &[f64]) -> Vec<f64> {
    let norm = 1.0 / (sd * (2.0 * std::f64::consts::PI).sqrt());
    points.iter().map(|x| norm * (-0.5 * ((x - mean) / sd).powi(2)).exp()).collect()
}

/// A toy density as a model with N pseudo-data and synthetic gradient noise s.
#[derive(Clone, Debug)]
pub struct PseudoData<D> {
    pub density: D,
    pub noise_sd: f64,
}

impl<D: ToyDensity> Model for PseudoData<D> {
    fn dim(&self) -> usize {
        2
    }
    fn n_data(&self) -> usize {
        PSEUDO_DATA
    }
    fn log_prior(&self, _theta: &[f64]) -> f64 {
        0.0
    }
    fn add_grad_log_prior(&self, _theta: &[f64], _out: &mut [f64]) {}
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        pseudo_log_lik(self.density.log_pdf(theta), self.density.residuals(theta), i)
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        let (g, j) = (self.density.grad_log_pdf(theta), self.density.residual_jacobian(theta));
        add_pseudo_scores(g, j, pseudo_observation(i), 1.0 / PSEUDO_DATA as f64, out);
    }
    fn add_grad_log_lik_batch(&self, batch: &[usize], theta: &[f64], out: &mut [f64]) {
        let (g, j) = (self.density.grad_log_pdf(theta), self.density.residual_jacobian(theta));
        add_pseudo_batch_scores(g, j, batch, out);
    }
    fn log_density(&self, theta: &[f64]) -> f64 {
        self.density.log_pdf(theta)
    }
    fn grad_log_density(&self, theta: &[f64], out: &mut [f64]) {
        out.copy_from_slice(&self.density.grad_log_pdf(theta));
    }
    fn exact_marginal(&self, coordinate: usize, points: &[f64]) -> Option<Vec<f64>> {
        self.density.marginal(coordinate, points)
    }
    fn density_cost(&self) -> usize {
        1
    }
    fn synthetic_noise_sd(&self) -> f64 {
        self.noise_sd
    }
    fn exact_moments(&self) -> Option<Moments> {
        self.density.moments()
    }
    fn initial_point(&self) -> Vec<f64> {
        self.density.start()
    }
    fn view(&self) -> View {
        self.density.window()
    }
    fn truth_region(&self) -> View {
        let v = self.view();
        self.density.region().unwrap_or_else(|| View::centred(0.5 * (v.x_min + v.x_max), 0.5 * (v.y_min + v.y_max), v.x_max - v.x_min, v.y_max - v.y_min))
    }
    fn coordinate_names(&self) -> Vec<String> {
        self.density.names()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::banana::Banana;
    use crate::model::funnel::Funnel;
    use crate::model::gaussian::CorrelatedGaussian;

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
}
