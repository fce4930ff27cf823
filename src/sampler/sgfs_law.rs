//! SGFS's stationary law with the preconditioner the sampler actually builds (issue 21;
//! docs/sgfs-osgfs.md §6): Algorithm 1 of Ahn, Korattikara & Welling 2012 preconditions with, and
//! draws its noise from, the running empirical Fisher I_N = N·Î + G, not the posterior precision P.
//! On real data the two differ (the breast-cancer split of logreg_heldout: diag F/P ≈ 0.5–0.85), and
//! a law built on P alone (src/sampler/sgfs.rs `DiagonalSgfsLaw`, K = diag(P),
//! F = φP) misses the variance deficit the chain shows.
//!
//! Once Î has converged to its mean, with K = F + (n s²/N)I + G (its diagonal for SGFS-d),
//! F = N·Cov(g_i) at the summary's mean, h = 2/((1 + α²)γ), γ = (n + N)/n and gradient noise
//! Σ_ξ = (N/n − 1)F + s²I, one step is (SGFS.4)
//!   θ' − μ = (I − hK⁻¹P)(θ − μ) + hK⁻¹(ξ + η),   η ~ N(0, α²γK),
//! so Σ = AΣAᵀ + Q with A = I − hK⁻¹P, Q = h²K⁻¹(Σ_ξ + α²γK)K⁻¹. With K = LLᵀ and
//! L⁻¹PL⁻ᵀ = WΛWᵀ, z = WᵀLᵀ(θ − μ) has a diagonal transition I − hΛ, so every entry solves alone:
//!   X_kl = h²[(BᵀΣ_ξB)_kl + α²γδ_kl] / (1 − (1 − hλ_k)(1 − hλ_l)),   Σ = BXBᵀ,  B = L⁻ᵀW
//! (SGFS.6). With K = P and F = P it is the scalar law of src/sampler/sgfs.rs `sgfs_law` per direction.
//!
//! Implemented here; used by the derived defaults of SGFS-f and SGFS-d (src/sampler/sgfs.rs `SgfsPlan`).
//! Tested: this file's unit tests (against the Lyapunov equation solved by doubling, and against
//! the sampler run on logreg_heldout) and tests/pairings.rs (logreg_heldout × SGFS-f at its
//! defaults).

use super::fisher::prior_precision;
use crate::curvature::{score_covariance, Curvature};
use crate::model::Model;
use nalgebra::{DMatrix, DVector};

/// Largest number of data whose scores estimate F (as src/law.rs does).
const FISHER_DATA: usize = 5000;

/// The SGFS law on a target's Gaussian summary with its empirical Fisher (module docs).
pub struct FisherSgfsLaw {
    /// P, the summary's precision.
    precision: DMatrix<f64>,
    /// F = N·Cov(g_i) at the summary's mean.
    fisher: DMatrix<f64>,
    /// G, the prior's precision at the summary's mean.
    prior: DMatrix<f64>,
    n_data: f64,
    /// s² of the synthetic gradient noise.
    synthetic: f64,
    diagonal: bool,
}

impl FisherSgfsLaw {
    /// None without data to estimate F (fewer than two) or with a singular summary.
    pub fn new(c: &Curvature, model: &dyn Model, diagonal: bool) -> Option<FisherSgfsLaw> {
        let precision = &c.directions * DMatrix::from_diagonal(&DVector::from_column_slice(&c.precisions)) * c.directions.transpose();
        let n_data = model.n_data() as f64;
        let fisher = score_covariance(model, &c.mean, FISHER_DATA)? * n_data;
        if fisher.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let s = model.synthetic_noise_sd();
        Some(FisherSgfsLaw { precision: symmetric(precision), fisher: symmetric(fisher), prior: prior_precision(model, &c.mean), n_data, synthetic: s * s, diagonal })
    }

    /// K = F + (n s²/N)I + G, the converged I_N of Algorithm 1 (its diagonal for SGFS-d).
    pub fn preconditioner(&self, batch: f64) -> DMatrix<f64> {
        let d = self.precision.nrows();
        let k = &self.fisher + &self.prior + DMatrix::identity(d, d) * (batch * self.synthetic / self.n_data);
        if self.diagonal {
            DMatrix::from_diagonal(&k.diagonal())
        } else {
            k
        }
    }

    /// Σ_ξ = (N/n − 1)F + s²I.
    fn gradient_noise(&self, batch: f64) -> DMatrix<f64> {
        let d = self.precision.nrows();
        &self.fisher * (self.n_data / batch - 1.0) + DMatrix::identity(d, d) * self.synthetic
    }

    /// The stationary covariance Σ (SGFS.6) and the spectral radius of A at noise level α,
    /// γ = (n + N)/n and minibatch n; None when K is not positive definite or the chain is unstable.
    pub fn covariance(&self, alpha: f64, gamma: f64, batch: f64) -> Option<(DMatrix<f64>, f64)> {
        let batch = batch.clamp(1.0, self.n_data);
        let l_inverse = self.preconditioner(batch).cholesky()?.l().try_inverse()?;
        let scaled = symmetric(&l_inverse * &self.precision * l_inverse.transpose());
        let eigen = scaled.try_symmetric_eigen(f64::EPSILON, 10_000)?;
        let back = l_inverse.transpose() * &eigen.eigenvectors;
        let h = 2.0 / ((1.0 + alpha * alpha) * gamma);
        let contraction: Vec<f64> = eigen.eigenvalues.iter().map(|l| 1.0 - h * l).collect();
        let radius = contraction.iter().fold(0.0f64, |r, c| r.max(c.abs()));
        if !(radius < 1.0) {
            return None;
        }
        let noise = back.transpose() * self.gradient_noise(batch) * &back;
        let d = contraction.len();
        let x = DMatrix::from_fn(d, d, |k, l| {
            let injected = if k == l { alpha * alpha * gamma } else { 0.0 };
            h * h * (noise[(k, l)] + injected) / (1.0 - contraction[k] * contraction[l])
        });
        Some((symmetric(&back * x * back.transpose()), radius))
    }
}

fn symmetric(m: DMatrix<f64>) -> DMatrix<f64> {
    (&m + m.transpose()) * 0.5
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamValues;
    use crate::registry;

    fn heldout() -> Box<dyn Model> {
        let spec = registry::target("logreg_heldout").unwrap();
        (spec.build)(&ParamValues::defaults(spec.params), None).unwrap()
    }

    /// Σ = AΣAᵀ + Q solved by doubling (src/linalg.rs), A and Q written out from the update, on
    /// logreg_heldout (D = 11, F ≠ P) for SGFS-f and SGFS-d, and on the Gaussian toy with synthetic
    /// noise (K depends on n).
    #[test]
    fn closed_form_solves_the_lyapunov_equation_of_the_update() {
        let gaussian = crate::model::gaussian::CorrelatedGaussian::new(1.0, 2.0, 0.8, 0.7);
        let heldout = heldout();
        for (model, diagonal) in [(heldout.as_ref(), false), (heldout.as_ref(), true), (&gaussian as &dyn Model, false), (&gaussian as &dyn Model, true)] {
            let c = Curvature::of(model).unwrap();
            let law = FisherSgfsLaw::new(&c, model, diagonal).unwrap();
            let (alpha, batch) = (0.9, 30.0);
            let n = model.n_data() as f64;
            let gamma = (batch + n) / batch;
            let h = 2.0 / ((1.0 + alpha * alpha) * gamma);
            let k = law.preconditioner(batch);
            let k_inverse = k.clone().try_inverse().unwrap();
            let d = k.nrows();
            let a = DMatrix::identity(d, d) - &k_inverse * &law.precision * h;
            let q = &k_inverse * (&law.fisher * (n / batch - 1.0) + DMatrix::identity(d, d) * law.synthetic + &k * (alpha * alpha * gamma)) * &k_inverse * (h * h);
            let doubled = crate::linalg::stationary_covariance(&a, &symmetric(q)).unwrap();
            let (sigma, radius) = law.covariance(alpha, gamma, batch).unwrap();
            assert!((&sigma - &doubled).abs().max() < 1e-8 * doubled.abs().max(), "diagonal {diagonal}: {sigma} vs {doubled}");
            let largest = a.complex_eigenvalues().iter().map(|z| z.norm()).fold(0.0, f64::max);
            assert!((radius - largest).abs() < 1e-9, "{radius} vs {largest}");
        }
    }

    /// F on logreg_heldout is not P: the law with F predicts a variance deficit at α = 1.24, n = 50
    /// (the defaults derived on P alone) that the law with K = P, F = φP does not.
    #[test]
    fn empirical_fisher_differs_from_the_precision_on_the_breast_cancer_split() {
        let model = heldout();
        let c = Curvature::of(model.as_ref()).unwrap();
        let law = FisherSgfsLaw::new(&c, model.as_ref(), false).unwrap();
        let ratios: Vec<f64> = (0..11).map(|j| law.fisher[(j, j)] / law.precision[(j, j)]).collect();
        assert!(ratios.iter().any(|r| *r < 0.6), "{ratios:?}");
    }
}
