//! Shared pieces of the Fisher-scoring samplers (SGFS, OSGFS; docs/sgfs-osgfs.md) and of the
//! SGLD noise diagnostic (docs/sgld.md §3): the running average of minibatch score covariances, the prior's
//! precision, and Gaussian draws with a given covariance. Every routine returns `None` (or a
//! non-finite value) instead of panicking when a matrix is not positive definite, so a sampler can
//! fall back or let the chain's divergence guard stop it.

use crate::model::Model;
use crate::rng::{standard_normal, ChainRng};
use nalgebra::{DMatrix, DVector};

/// Running average Î_t = (1 − κ_t) Î_{t−1} + κ_t V_t with κ_t = 1/t (SGFS Algorithm 1 line 7,
/// OSGFS Algorithm 1 line 7): the plain mean of every minibatch covariance seen so far.
#[derive(Clone, Debug)]
pub struct RunningFisher {
    dim: usize,
    updates: u64,
    mean: DMatrix<f64>,
}

impl RunningFisher {
    pub fn new(dim: usize) -> Self {
        RunningFisher { dim, updates: 0, mean: DMatrix::zeros(dim, dim) }
    }

    /// Fold in one symmetric minibatch covariance V (D × D; row- and column-major agree).
    pub fn update(&mut self, covariance: &[f64]) {
        assert_eq!(covariance.len(), self.dim * self.dim, "covariance must be D × D");
        self.updates += 1;
        let kappa = 1.0 / self.updates as f64;
        for (m, v) in self.mean.iter_mut().zip(covariance) {
            *m += kappa * (v - *m);
        }
    }

    /// The current estimate Î (per-datum score covariance).
    pub fn estimate(&self) -> &DMatrix<f64> {
        &self.mean
    }

    pub fn updates(&self) -> u64 {
        self.updates
    }

    /// Whether Î is already nonsingular (smallest eigenvalue above 10⁻⁹ of the largest): the
    /// average of the minibatches seen so far has full rank, so a minibatch of n ≤ D scores, whose
    /// own covariance is singular, no longer makes the preconditioner singular when folded in.
    /// False before the first update (Î = 0).
    pub fn nonsingular(&self) -> bool {
        let (low, high) = (smallest_eigenvalue(&self.mean), largest_eigenvalue(&self.mean));
        high > 0.0 && low > 1e-9 * high
    }
}

/// G = −∇² log p(θ), the prior's precision, by central differences of ∇log p at `theta`.
/// Exact (to rounding) for Gaussian priors, whose gradient is linear; zero for flat priors.
pub fn prior_precision(model: &dyn Model, theta: &[f64]) -> DMatrix<f64> {
    let dim = theta.len();
    let mut g = DMatrix::zeros(dim, dim);
    let (mut up, mut down) = (vec![0.0; dim], vec![0.0; dim]);
    let mut point = theta.to_vec();
    for j in 0..dim {
        let h = 1e-4 * (1.0 + theta[j].abs());
        up.fill(0.0);
        down.fill(0.0);
        point[j] = theta[j] + h;
        model.add_grad_log_prior(&point, &mut up);
        point[j] = theta[j] - h;
        model.add_grad_log_prior(&point, &mut down);
        point[j] = theta[j];
        for a in 0..dim {
            g[(a, j)] = -(up[a] - down[a]) / (2.0 * h);
        }
    }
    (&g + g.transpose()) * 0.5
}

/// x ~ N(0, Σ) for symmetric Σ, through its Cholesky factor; if Σ is not positive definite, through
/// its eigen-decomposition with negative eigenvalues clipped to zero. Returns whether clipping
/// was needed. A non-finite Σ gives a non-finite draw (the chain's divergence guard stops it).
pub fn gaussian_with_covariance(cov: &DMatrix<f64>, rng: &mut ChainRng) -> (DVector<f64>, bool) {
    let dim = cov.nrows();
    let z = DVector::from_fn(dim, |_, _| standard_normal(rng));
    if cov.iter().any(|x| !x.is_finite()) {
        return (DVector::from_element(dim, f64::NAN), false);
    }
    if let Some(chol) = cov.clone().cholesky() {
        return (chol.l() * z, false);
    }
    let Some(eigen) = bounded_symmetric_eigen(cov) else {
        return (DVector::from_element(dim, f64::NAN), true);
    };
    let scaled = DVector::from_fn(dim, |j, _| eigen.eigenvalues[j].max(0.0).sqrt() * z[j]);
    (&eigen.eigenvectors * scaled, true)
}

/// Largest eigenvalue of a symmetric matrix (NaN for an empty or non-finite matrix): src/linalg.rs.
pub use crate::linalg::largest_symmetric_eigenvalue as largest_eigenvalue;
/// Smallest eigenvalue of a symmetric matrix (NaN for an empty or non-finite matrix): src/linalg.rs.
pub use crate::linalg::smallest_symmetric_eigenvalue as smallest_eigenvalue;
use crate::linalg::bounded_symmetric_eigen;

/// Inverse of a symmetric positive-definite matrix, or `None`.
pub fn spd_inverse(m: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    if m.iter().any(|x| !x.is_finite()) {
        return None;
    }
    m.clone().cholesky().map(|c| c.inverse())
}
