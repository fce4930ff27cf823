//! Targets (posteriors) behind one interface with per-datum log-likelihood gradients
//! (docs/README.md, Notation): SGFS/OSGFS need the empirical Fisher and SBPS the noise variance, so the
//! model exposes the scores g_i = ∇ℓ_i(θ) one datum at a time, not only their sum.

pub mod banana;
pub mod funnel;
pub mod gaussian;
pub mod hyperbola;
pub mod laplace;
pub mod gmm;
pub mod import;
pub mod linear;
pub mod logistic;
pub mod logreg_dd;
pub mod logreg_heldout;
pub mod logreg_sgfs;
pub mod mixture;
pub mod multimodal;
pub mod softmax;
pub mod test_set;
pub mod toy;

use crate::diagnostics::Moments;
use crate::params::ParamSpec;

/// The synthetic gradient-noise knob of data-free toy targets (docs/README.md, Notation).
pub const GRAD_NOISE: ParamSpec = ParamSpec::linear(
    "grad_noise",
    "Gradient noise",
    "s",
    "Std. dev. of synthetic noise added to each gradient estimate: ∇log π̂ = ∇log π + N(0, s²I)",
    0.0,
    100.0,
    0.0,
);

/// log N(θ; 0, σ² I), normalised: the N(0, σ_p²) prior of the regression targets.
pub fn isotropic_normal_log_density(theta: &[f64], sd: f64) -> f64 {
    let var = sd * sd;
    -0.5 * theta.iter().map(|t| t * t).sum::<f64>() / var - 0.5 * theta.len() as f64 * (2.0 * std::f64::consts::PI * var).ln()
}

/// out += ∇ log N(θ; 0, σ² I) = −θ/σ².
pub fn add_isotropic_normal_gradient(theta: &[f64], sd: f64, out: &mut [f64]) {
    let precision = 1.0 / (sd * sd);
    for (o, t) in out.iter_mut().zip(theta) {
        *o -= precision * t;
    }
}

/// Axis-aligned window of the 2-D panel, in the coordinates of the displayed pair.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
/// synthetic gradient-noise knob (docs/README.md, (N.2)) through [`Model::synthetic_noise_sd`].
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
    /// estimate (docs/README.md, Notation). Zero for targets whose noise comes from real minibatches.
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

    /// The whole posterior is N(mean, precision⁻¹): `(mean, precision row-major D × D)`. Lets exact
    /// BPS draw its event times in closed form (docs/bouncy.md (BPS.3)). Default: not Gaussian.
    fn gaussian_precision(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        None
    }

    /// L with |u·∇ℓ_i(θ)| ≤ L for every datum i, every θ and every unit vector u: bounds every
    /// minibatch's projected score, which makes lipSBPS thinning exact (docs/bouncy.md §9).
    /// Default: no such bound.
    fn score_projection_bound(&self) -> Option<f64> {
        None
    }

    /// M_p with uᵀ(−∇²log p(θ))u ≤ M_p for every θ and unit u (the prior's contribution to the
    /// slope of a bounce rate along a ray; 0 for a flat prior). Default: unknown.
    fn prior_curvature_bound(&self) -> Option<f64> {
        None
    }

    /// M with uᵀ∇²U(θ)u ≤ M for every θ and unit u, U = −log π: along x + v t the bounce rate
    /// v·∇U grows at most by M‖v‖² per unit time, the affine thinning bound of exact BPS on
    /// non-Gaussian targets (docs/bouncy.md §2, the affine bound). Default: unknown.
    fn curvature_bound(&self) -> Option<f64> {
        None
    }

    /// A Laplace approximation (mode, inverse negative Hessian) the target already computed, if any;
    /// otherwise callers fall back to [`laplace::laplace_approximation`].
    fn laplace_moments(&self) -> Option<Moments> {
        None
    }

    /// The built target as plain parts (data buffers and what construction computed), so that a
    /// Web Worker can build a large target and the page adopt it without rebuilding it; only
    /// targets whose construction is costly at large N offer it. Default: none.
    fn export_parts(&self) -> Option<ExportedModel> {
        None
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

    /// The exact marginal density of coordinate `coordinate` at `points`, when known in closed form
    /// or by cheap 1-D quadrature (the truth uses it instead of the 2-D grid's marginal).
    fn exact_marginal(&self, _coordinate: usize, _points: &[f64]) -> Option<Vec<f64>> {
        None
    }

    /// Cost of one [`Model::log_density`] call in per-datum evaluations (sets the grid resolution of
    /// the quadrature truth). Targets with sufficient statistics or no data override it.
    fn density_cost(&self) -> usize {
        self.n_data()
    }

    /// Region for 2-D grid quadrature of the truth (src/truth.rs): by default the view doubled about
    /// its centre. Targets whose mass reaches far outside the view (a long curved ridge) override it.
    fn truth_region(&self) -> View {
        let v = self.view();
        let (cx, cy) = (0.5 * (v.x_min + v.x_max), 0.5 * (v.y_min + v.y_max));
        View::centred(cx, cy, v.x_max - v.x_min, v.y_max - v.y_min)
    }

    /// Held-out rows the target was not trained on (classifiers with a test split), if any.
    fn test_set(&self) -> Option<&test_set::TestSet> {
        None
    }

    /// Names of the coordinates, for axes and CSV headers.
    fn coordinate_names(&self) -> Vec<String> {
        (1..=self.dim()).map(|j| format!("θ{j}")).collect()
    }
}

/// A built target as transferable parts: a JSON header (shape, settings, results of construction)
/// and two numeric buffers (e.g. features and labels). See [`Model::export_parts`].
#[derive(Clone, Debug, PartialEq)]
pub struct ExportedModel {
    pub header: serde_json::Value,
    pub features: Vec<f64>,
    pub labels: Vec<f64>,
}
