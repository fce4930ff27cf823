//! The two errors of a stochastic-gradient chain's covariance estimate, kept apart (issue 13):
//! the **bias** of its stationary law against the truth, and the **Monte Carlo error** of a run of
//! finite length. In the relative Frobenius norm,
//!   E‖Ĉ_T − Σ‖²/‖Σ‖² = bias² + mc²(T),  bias = ‖C − Σ‖/‖Σ‖,  mc²(T) = S/(T‖Σ‖²),
//! with C the stationary covariance ([`crate::law`]) and S = Σ_ab T·Var(Ĉ_ab) the asymptotic
//! variance of the sample covariance. For a stationary Gaussian linear recursion (every
//! stochastic-gradient sampler on a Gaussian, src/law.rs), Isserlis' theorem gives
//!   S = Σ_{k∈ℤ} [(tr Γ(k))² + tr(Γ(k)²)],  Γ(k) = Cov(θ_{t+k}, θ_t) = (A^kΣ_x)_θθ,
//! which is what the trade-off chart of error against budget (Ahn et al. 2012, Fig. 2) plots for
//! several step sizes: small steps win at large budgets (less bias), large steps at small budgets
//! (faster mixing). Where no law exists the errors come from a run: the measured error and its
//! batch-means MCSE.
//!
//! Cost: [`asymptotic_covariance_variance`] iterates Γ(k) until it decays (≈ 20 × the slowest
//! relaxation time in steps), O((2D)³) per lag; capped by [`MAX_LAG_WORK`] (a few ms for 2-D
//! targets, refused for large D with slow mixing). The chart builders call it once per curve.

use crate::diagnostics::{batch_means_standard_error, Moments};
use crate::law::Law;
use crate::linalg::rows_to_matrix;
use crate::ring::RingBuffer;
use nalgebra::DMatrix;

/// Largest lags × (state dimension)³ spent on one asymptotic variance.
pub const MAX_LAG_WORK: f64 = 3e8;
/// Batches for the batch-means MCSE of measured errors.
const BATCHES: usize = 25;

/// ‖C − Σ‖_F/‖Σ‖_F: the relative bias of a covariance against the truth's.
pub fn relative_bias(cov: &DMatrix<f64>, truth: &Moments) -> f64 {
    let t = rows_to_matrix(&truth.cov);
    (cov - &t).norm() / t.norm()
}

/// S = Σ_{k∈ℤ} [(tr Γ(k))² + tr(Γ(k)²)]: T times the summed variances of the entries of the
/// sample covariance after T samples of the law's stationary recursion (Isserlis); None without a
/// linear recursion or when it cannot be computed within the work caps.
pub fn asymptotic_covariance_variance(law: &Law) -> Option<f64> {
    let (chain, full) = law.chain.as_ref()?;
    if full.nrows() <= KRONECKER_STATE {
        return series_by_kronecker(&chain.transition, full, chain.dim);
    }
    series_by_lags(law)
}

/// Largest state dimension n for the closed form of [`series_by_kronecker`] (an n² × n² solve).
pub const KRONECKER_STATE: usize = 20;

/// Both terms are linear in A^k ⊗ A^k, whose sum over k ≥ 0 is K = (I − A⊗A)⁻¹: with M the
/// stationary covariance of the state and a, b ranging over the θ coordinates,
/// Σ_{k≥0}(tr Γ(k))² = Σ K[(a,b),(j,l)] M_ja M_lb and Σ_{k≥0} tr(Γ(k)²) = Σ K[(a,b),(j,l)] M_jb M_la;
/// S is twice their sum minus the k = 0 terms.
pub fn series_by_kronecker(a: &DMatrix<f64>, m: &DMatrix<f64>, dim: usize) -> Option<f64> {
    let n = a.nrows();
    let k = (DMatrix::identity(n * n, n * n) - a.kronecker(a)).lu().try_inverse()?;
    let (mut traces, mut squares) = (0.0, 0.0);
    for i in 0..dim {
        for j in 0..dim {
            for p in 0..n {
                for q in 0..n {
                    let kk = k[(i * n + j, p * n + q)];
                    traces += kk * m[(p, i)] * m[(q, j)];
                    squares += kk * m[(p, j)] * m[(q, i)];
                }
            }
        }
    }
    let g0 = m.view((0, 0), (dim, dim));
    let zero = g0.trace().powi(2) + (g0 * g0).trace();
    let s = 2.0 * (traces + squares) - zero;
    s.is_finite().then_some(s)
}

/// The same S by summing Γ(k) until it decays (within [`MAX_LAG_WORK`]), for larger states.
pub fn series_by_lags(law: &Law) -> Option<f64> {
    let state = law.chain.as_ref()?.1.nrows() as f64;
    let max_lags = (MAX_LAG_WORK / state.powi(3)).max(10.0) as usize;
    let gammas = law.autocovariances(max_lags)?;
    if gammas.len() >= max_lags {
        return None;
    }
    let term = |g: &DMatrix<f64>| g.trace().powi(2) + (g * g).trace();
    Some(term(&gammas[0]) + 2.0 * gammas[1..].iter().map(term).sum::<f64>())
}

/// The predicted error split of one setting: bias and S (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PredictedError {
    pub bias: f64,
    /// S/‖Σ‖²: the relative Monte Carlo variance of one sample's worth.
    pub mc_variance_per_sample: f64,
    /// Per-datum gradient evaluations per sample.
    pub grads_per_sample: f64,
}

impl PredictedError {
    pub fn of(law: &Law, truth: &Moments, grads_per_sample: f64) -> Option<PredictedError> {
        let s = asymptotic_covariance_variance(law)?;
        let norm2 = rows_to_matrix(&truth.cov).norm_squared();
        Some(PredictedError { bias: relative_bias(&law.cov, truth), mc_variance_per_sample: s / norm2, grads_per_sample })
    }

    /// Relative Monte Carlo error (root mean square) after `budget` gradient evaluations.
    pub fn mc_error(&self, budget: f64) -> f64 {
        (self.mc_variance_per_sample * self.grads_per_sample / budget).sqrt()
    }

    /// √(bias² + mc²): the root-mean-square relative error after `budget` gradient evaluations.
    pub fn total(&self, budget: f64) -> f64 {
        (self.bias.powi(2) + self.mc_error(budget).powi(2)).sqrt()
    }
}

/// Coordinates whose covariance entries' MCSEs are computed (the cost is O(d² × retained)).
pub const MCSE_COORDINATES: usize = 10;

/// A run's measured relative error ‖Ĉ − Σ‖/‖Σ‖ and its Monte Carlo standard error: the MCSE of
/// every entry of Ĉ by batch means over the retained samples, scaled to the `n_samples` the
/// moments were computed from, combined as √(Σ_ab MCSE_ab²)/‖Σ‖. Beyond [`MCSE_COORDINATES`]
/// coordinates the entries among the first ten stand for all: their summed variance is scaled by
/// D²/10² (an estimate, not a bound).
pub fn measured_error(moments: &Moments, ring: &RingBuffer, n_samples: f64, truth: &Moments) -> Option<(f64, f64)> {
    let retained = ring.len();
    if retained < 2 * BATCHES || n_samples < retained as f64 {
        return None;
    }
    let dim = moments.mean.len();
    let d = dim.min(MCSE_COORDINATES);
    let columns: Vec<Vec<f64>> = (0..d).map(|j| ring.coordinate(j)).collect();
    let mut variance = 0.0;
    for a in 0..d {
        for b in 0..d {
            let products: Vec<f64> = columns[a].iter().zip(&columns[b]).map(|(x, y)| (x - moments.mean[a]) * (y - moments.mean[b])).collect();
            variance += batch_means_standard_error(&products, BATCHES).powi(2) * retained as f64 / n_samples;
        }
    }
    let norm = rows_to_matrix(&truth.cov).norm();
    let scale = (dim as f64 / d as f64).powi(2);
    Some((relative_bias(&rows_to_matrix(&moments.cov), truth), (variance * scale).sqrt() / norm))
}
