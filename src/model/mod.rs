//! Targets (posteriors) behind one interface with per-datum log-likelihood gradients
//! (ALGORITHMS.md §0): SGFS/OSGFS need the empirical Fisher and SBPS the noise variance, so the
//! model exposes the scores g_i = ∇ℓ_i(θ) one datum at a time, not only their sum.

pub mod gaussian;
pub mod linear;
pub mod gmm;
pub mod logistic;
pub mod softmax;

use crate::diagnostics::Moments;

/// Axis-aligned window of the 2-D panel, in the coordinates of the displayed pair.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct View {
    pub x_min: f64,
    pub x_max: f64,
    pub y_min: f64,
    pub y_max: f64,
}

impl View {
    /// A window centred on `(cx, cy)` with half-widths `(hx, hy)`.
    pub fn centred(cx: f64, cy: f64, hx: f64, hy: f64) -> Self {
        View { x_min: cx - hx, x_max: cx + hx, y_min: cy - hy, y_max: cy + hy }
    }
    /// The larger side length; divergence is declared far outside it.
    pub fn span(&self) -> f64 {
        (self.x_max - self.x_min).max(self.y_max - self.y_min)
    }
}

/// A posterior log π(θ) = log p(θ) + Σ_{i=1}^N ℓ_i(θ).
///
/// Targets without data (toy densities) split log π into N identical pseudo-data terms and add the
/// synthetic gradient-noise knob of ALGORITHMS.md §0 through [`Model::synthetic_noise_sd`].
pub trait Model: Send + Sync {
    /// Dimension D of θ.
    fn dim(&self) -> usize;
    /// Number of data N (≥ 1).
    fn n_data(&self) -> usize;
    /// log p(θ) (may omit constants).
    fn log_prior(&self, theta: &[f64]) -> f64;
    /// out += ∇ log p(θ).
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]);
    /// ℓ_i(θ) = log p(x_i | θ) (may omit constants that do not depend on θ).
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64;
    /// out += ∇ℓ_i(θ).
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]);

    /// Standard deviation s of the synthetic noise ξ ~ N(0, s² I) added to the full-scale gradient
    /// estimate (ALGORITHMS.md §0). Zero for targets whose noise comes from real minibatches.
    fn synthetic_noise_sd(&self) -> f64 {
        0.0
    }

    /// out += Σ_{i∈batch} ∇ℓ_i(θ). Targets override this when a fused loop is faster.
    fn add_grad_log_lik_batch(&self, batch: &[usize], theta: &[f64], out: &mut [f64]) {
        for &i in batch {
            self.add_grad_log_lik(i, theta, out);
        }
    }

    /// Unnormalised log posterior (used for contours and Metropolis–Hastings tests).
    fn log_density(&self, theta: &[f64]) -> f64 {
        let lik: f64 = (0..self.n_data()).map(|i| self.log_lik(i, theta)).sum();
        self.log_prior(theta) + lik
    }

    /// out = ∇ log π(θ) on the full data.
    fn grad_log_density(&self, theta: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        self.add_grad_log_prior(theta, out);
        let all: Vec<usize> = (0..self.n_data()).collect();
        self.add_grad_log_lik_batch(&all, theta, out);
    }

    /// Closed-form posterior mean and covariance, when they exist.
    fn exact_moments(&self) -> Option<Moments> {
        None
    }

    /// Where chains start by default.
    fn initial_point(&self) -> Vec<f64> {
        vec![0.0; self.dim()]
    }

    /// Window of the 2-D panel for coordinates (0, 1).
    fn view(&self) -> View;

    /// Names of the coordinates, for axes and CSV headers.
    fn coordinate_names(&self) -> Vec<String> {
        (1..=self.dim()).map(|j| format!("θ{j}")).collect()
    }
}
