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
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub precision: DMatrix<f64>,
    /// F = N·Cov(g_i) at the summary's mean.
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub fisher: DMatrix<f64>,
    /// G, the prior's precision at the summary's mean.
    prior: DMatrix<f64>,
    n_data: f64,
    /// s² of the synthetic gradient noise.
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub synthetic: f64,
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
        let eigen = crate::linalg::bounded_symmetric_eigen(&scaled)?;
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

#[doc(hidden)] // pub for tests/unit (issue 23)
pub fn symmetric(m: DMatrix<f64>) -> DMatrix<f64> {
    (&m + m.transpose()) * 0.5
}
