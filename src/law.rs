//! The sampler's predicted stationary law (issue 13): the mean and covariance a chain converges to
//! at the current parameters — not the truth, but the biased law the discretisation and the
//! gradient noise leave — on a Gaussian target exactly, and on a target's Gaussian summary
//! (Laplace approximation or grid scan, [`Curvature`]) approximately.
//!
//! Every stochastic-gradient sampler in sgviz is, on a Gaussian target with precision P and mean μ,
//! a linear recursion x' = A x + w with zero-mean noise w ~ (0, Q) independent of x, so its
//! stationary covariance solves the discrete Lyapunov equation Σ = AΣAᵀ + Q (docs/sgld.md §4,
//! with the gradient noise added) and its mean is μ. The gradient noise of a minibatch of n drawn
//! without replacement, plus the synthetic noise s² of toy targets, has covariance
//! Σ_ξ = (N/n − 1)F + s²I (docs/README.md, Notation), F = N·Cov(g_i) the empirical Fisher (divisor N − 1).
//! Per sampler (δ = θ − μ):
//! - SGLD (Welling & Teh 2011 eq. 4, constant ε, diagonal M): A = I − (ε/2)MP,
//!   Q = (ε²/4)MΣ_ξM + εM; with RMSprop M is taken at its stationary mean square (approximate).
//! - SGHMC (Chen et al. 2014 eq. 15 in SGAIS eq. 3's form; v first, then θ with the new v): on
//!   x = (δ, v), A = [[I − ηP, (1−α)I], [−ηP, (1−α)I]], Q = [[R, R], [R, R]],
//!   R = η²Σ_ξ + 2(α − β̂)ηI (β̂ clamped to [0, α]); with momentum redrawn every L steps the
//!   period map is itself linear (see [`sghmc_with_resampling`]).
//! - SGFS-f / SGFS-d (Ahn et al. 2012 Algorithm 1 with B = γI_N, α = 2/√ε) once Î has converged:
//!   I_N = F + (ns²/N)I + G + λI (its diagonal for SGFS-d), h = 2/((1 + α²)γ), γ = (n + N)/n:
//!   A = I − hI_N⁻¹P, Q = h²I_N⁻¹(Σ_ξ + α²γI_N)I_N⁻¹.
//! - OSGFS (El hanchi 2018 eq. 8–10, 16, ε = 1) once C has converged: NC = F + (ns²/N)I,
//!   H = NC + G, k of eq. 16, D = (k/2)H⁻¹: A = I − DP, Q = DΣ_ξD + 2D − (N²/n)DCD [− DHD].
//! - MALA, HMC, BPS: exact samplers, their law is the target (when it is known in closed form).
//!
//! The law is "exact" when the target is Gaussian with a gradient noise that does not depend on θ
//! (the correlated Gaussian's pseudo-data, toy.rs); elsewhere it is the law of the linearised chain
//! on the Gaussian summary, labelled approximate.

use crate::curvature::{Curvature, CurvatureSource};
use crate::defaults::FISHER_CURVATURE_SPREAD;
use crate::linalg::{rows_to_matrix, stationary_covariance};
use crate::model::Model;
use crate::params::ParamValues;
use crate::sampler::fisher::prior_precision;
use crate::sampler::osgfs::strong_prior_share;
use nalgebra::{DMatrix, DVector};
use serde_json::{json, Value};

/// Largest dimension whose law the page computes (the Lyapunov solve of SGHMC is on 2D × 2D, by
/// doubling: O(D³) a step). 21 since issue 21's s49 pass, so that the SGFS setup (logreg_sgfs,
/// d = 21) gets the law's bias and validity rules as logreg_dd (d = 20) does; its cost at d = 21
/// is in docs/diagnostics.md §7 "s49".
pub const MAX_DIM: usize = 21;
/// Largest number of data whose scores estimate the empirical Fisher F.
const FISHER_DATA: usize = 5000;

/// What the linearised chain needs to know about the target (see the module docs).
#[derive(Clone, Debug)]
pub struct GaussianSummary {
    pub mean: DVector<f64>,
    /// P: the target's precision (or the summary's).
    pub precision: DMatrix<f64>,
    /// F = N·Cov(g_i) at the mean (divisor N − 1).
    pub fisher: DMatrix<f64>,
    /// G = −∇²log p, the prior's precision.
    pub prior: DMatrix<f64>,
    pub n_data: f64,
    /// s² of the synthetic gradient noise.
    pub synthetic: f64,
    /// True when the target is exactly this Gaussian and F does not depend on θ.
    pub exact: bool,
    /// Where the summary comes from (shown with the law).
    pub source: &'static str,
    /// True to leave the gradient noise Σ_ξ out (the injected part of an update's noise alone).
    pub without_gradient_noise: bool,
    /// E_π[F(θ)], the empirical Fisher averaged over the posterior by grid quadrature, on a 2-D
    /// grid-scan summary (None on closed forms and Laplace summaries): the other end of the
    /// linearisation's bracket ([`posterior_fisher`], [`GaussianSummary::averaged`]).
    pub posterior_fisher: Option<DMatrix<f64>>,
}

impl GaussianSummary {
    /// The summary of `model`, or why its linearisation is not meaningful.
    pub fn of(model: &dyn Model) -> Result<GaussianSummary, String> {
        let dim = model.dim();
        if dim > MAX_DIM {
            return Err(format!("the predicted law is computed for up to {MAX_DIM} parameters (this target has {dim})"));
        }
        let (mean, precision, closed_form, grid_scan) = match model.gaussian_precision() {
            Some((mean, p)) => (DVector::from_vec(mean), DMatrix::from_row_slice(dim, dim, &p), true, false),
            None => {
                let c = Curvature::of(model).ok_or("no Gaussian summary of this target (its curvature is unknown)")?;
                linearisable(&c)?;
                let cov = rows_to_matrix(&c.cov);
                let precision = cov.try_inverse().ok_or("the target's summary covariance is singular")?;
                (DVector::from_vec(c.mean.clone()), symmetric(precision), false, c.source == CurvatureSource::GridScan)
            }
        };
        let fisher = empirical_fisher(model, mean.as_slice());
        let prior = prior_precision(model, mean.as_slice());
        let exact = closed_form && fisher_is_constant(model, &mean, &precision, &fisher);
        let source = match (closed_form, exact) {
            (true, true) => "exact: Gaussian target, gradient noise independent of θ",
            (true, false) => "approximate: Gaussian target, gradient noise taken at the mean",
            (false, _) => "approximate: the chain linearised on the target's Gaussian summary",
        };
        let s = model.synthetic_noise_sd();
        let posterior_fisher = if grid_scan { posterior_fisher(model) } else { None };
        Ok(GaussianSummary { mean, precision, fisher, prior, n_data: model.n_data().max(1) as f64, synthetic: s * s, exact, source, without_gradient_noise: false, posterior_fisher })
    }

    pub fn dim(&self) -> usize {
        self.mean.len()
    }

    /// This summary with F replaced by its posterior average, where one is known.
    pub fn averaged(&self) -> Option<GaussianSummary> {
        self.posterior_fisher.as_ref().map(|f| GaussianSummary { fisher: f.clone(), posterior_fisher: None, ..self.clone() })
    }

    /// The largest factor, over directions v, by which the preconditioner a Fisher sampler
    /// converges to, H = F + G (F at the mean, and averaged over the posterior where known),
    /// departs from the summary's curvature P: max over the generalised eigenvalues λ of
    /// Hv = λPv of max(λ, 1/λ) (docs/diagnostics.md §7 addendum "s53"). 1 where the scores'
    /// covariance is the curvature (the information identity); on the tied-means mixture, whose
    /// latent labels break it, H exceeds P several-fold along the two lobes' axis. NaN if P is
    /// not positive definite.
    pub fn information_mismatch(&self) -> f64 {
        let Some(root) = self.precision.clone().cholesky() else { return f64::NAN };
        let inverse_root = root.l().try_inverse().unwrap_or_else(|| DMatrix::from_element(self.dim(), self.dim(), f64::NAN));
        let fishers = std::iter::once(&self.fisher).chain(self.posterior_fisher.as_ref());
        fishers
            .map(|f| {
                let relative = &inverse_root * (f + &self.prior) * inverse_root.transpose();
                let relative = symmetric(relative);
                let (low, high) = (crate::linalg::smallest_symmetric_eigenvalue(&relative), crate::linalg::largest_symmetric_eigenvalue(&relative));
                if low > 0.0 { high.max(1.0 / low) } else { f64::INFINITY }
            })
            .fold(1.0, f64::max)
    }

    /// The minibatch size actually used, n clamped to [1, N].
    pub fn batch(&self, batch: f64) -> f64 {
        batch.round().clamp(1.0, self.n_data)
    }

    /// Σ_ξ = (N/n − 1)F + s²I: the covariance of the minibatch gradient's error.
    pub fn gradient_noise(&self, batch: f64) -> DMatrix<f64> {
        let d = self.dim();
        if self.without_gradient_noise {
            return DMatrix::zeros(d, d);
        }
        &self.fisher * (self.n_data / self.batch(batch) - 1.0) + DMatrix::identity(d, d) * self.synthetic
    }

    /// N·E[V]: the empirical Fisher a running average of minibatch score covariances converges to,
    /// F plus the synthetic noise split over the batch (n s²/N per coordinate, gradient.rs).
    pub fn averaged_fisher(&self, batch: f64) -> DMatrix<f64> {
        let d = self.dim();
        &self.fisher + DMatrix::identity(d, d) * (self.batch(batch) * self.synthetic / self.n_data)
    }
}

/// Why a summary that is not a closed form cannot stand for the chain, if it cannot.
#[doc(hidden)] // pub for tests/unit (issue 23)
pub fn linearisable(c: &Curvature) -> Result<(), String> {
    if c.modes.len() > 1 {
        return Err(format!("this target has {} separated modes: one Gaussian cannot describe where the chain goes", c.modes.len()));
    }
    let spread = c.lambda_max / c.precisions.last().copied().unwrap_or(c.lambda_max);
    if c.source == CurvatureSource::GridScan && spread > FISHER_CURVATURE_SPREAD {
        return Err(format!("the curvature varies {spread:.0}-fold over the typical set: the linearised chain does not describe this target"));
    }
    Ok(())
}

fn symmetric(m: DMatrix<f64>) -> DMatrix<f64> {
    (&m + m.transpose()) * 0.5
}

/// F = N·Cov(g_i) at θ over at most [`FISHER_DATA`] data (zero without data).
pub fn empirical_fisher(model: &dyn Model, theta: &[f64]) -> DMatrix<f64> {
    let n = model.n_data() as f64;
    crate::curvature::score_covariance(model, theta, FISHER_DATA).map_or_else(|| DMatrix::zeros(model.dim(), model.dim()), |cov| symmetric(cov * n))
}

/// Nodes per axis of [`posterior_fisher`]'s grid.
const FISHER_GRID: usize = 61;

/// E_π[F(θ)] = ∫ F(θ) π(θ) dθ on a 2-D target as a density-weighted mean over the nodes of a
/// [`FISHER_GRID`]² grid spanning its truth region, edges included, equal cell weights normalised by
/// their sum (nodes below 10⁻¹² of the peak density left out); None above 2-D or without
/// data. The linearised chain takes F at one point, but a chain's gradient noise and SGFS's and
/// OSGFS's running Fisher estimates (Ahn et al. 2012 §3; El hanchi 2018 eq. 9) average it over the
/// positions it visits, whose fixed point is this average: on the tied-means mixture (Welling & Teh
/// 2011 §5.1), whose mass sits in two lobes either side of its mean, F at the mean is 1.3 times the
/// average along the first axis (49.2 by this quadrature, 49.5 from 2,000 points of an HMC run). Neither end alone is right there (docs/diagnostics.md §10): with
/// F at the mean the law predicted SGFS-f's bias E2 0.107–0.119 at n = 6–30 where 40 runs × 5,000
/// samples pooled 0.008–0.031, with the average it predicts 15 % of runs over 0.3 at SGFS-f's
/// defaults where 3 of 40 were. The promise's law takes the bracket's lower end
/// (src/promise.rs `Predictor::predict`).
pub fn posterior_fisher(model: &dyn Model) -> Option<DMatrix<f64>> {
    if model.dim() != 2 || model.n_data() < 2 {
        return None;
    }
    let r = model.truth_region();
    let node = |low: f64, high: f64, k: usize| low + (high - low) * k as f64 / (FISHER_GRID - 1) as f64;
    let points: Vec<[f64; 2]> = (0..FISHER_GRID).flat_map(|b| (0..FISHER_GRID).map(move |a| (a, b))).map(|(a, b)| [node(r.x_min, r.x_max, a), node(r.y_min, r.y_max, b)]).collect();
    let log_density: Vec<f64> = points.iter().map(|p| model.log_density(p)).collect();
    let peak = log_density.iter().copied().filter(|v| v.is_finite()).fold(f64::NEG_INFINITY, f64::max);
    if !peak.is_finite() {
        return None;
    }
    let (mut sum, mut total) = (DMatrix::zeros(2, 2), 0.0);
    for (p, l) in points.iter().zip(&log_density) {
        let w = if l.is_finite() { (l - peak).exp() } else { 0.0 };
        if w > 1e-12 {
            sum += empirical_fisher(model, p) * w;
            total += w;
        }
    }
    (total > 0.0).then(|| symmetric(sum / total))
}

/// F at the mean equals F one standard deviation away along every axis (to 10⁻⁹): the gradient
/// noise does not depend on θ, so the recursion is exactly linear.
fn fisher_is_constant(model: &dyn Model, mean: &DVector<f64>, precision: &DMatrix<f64>, fisher: &DMatrix<f64>) -> bool {
    let Some(cov) = precision.clone().try_inverse() else { return false };
    let scale = fisher.abs().max().max(f64::MIN_POSITIVE);
    (0..mean.len()).all(|j| {
        let mut theta = mean.clone();
        theta[j] += cov[(j, j)].max(0.0).sqrt();
        (empirical_fisher(model, theta.as_slice()) - fisher).abs().max() <= 1e-9 * scale
    })
}

/// A linear recursion x' = Ax + w, w ~ (0, Q), whose first `dim` coordinates are θ − μ.
#[derive(Clone, Debug)]
pub struct LinearChain {
    pub transition: DMatrix<f64>,
    pub noise: DMatrix<f64>,
    pub dim: usize,
}

/// A sampler's predicted stationary law.
#[derive(Clone, Debug)]
pub struct Law {
    pub mean: Vec<f64>,
    pub cov: DMatrix<f64>,
    pub exact: bool,
    pub note: String,
    /// The recursion and its full stationary covariance, for autocorrelations (None for exact
    /// samplers and periodic recursions).
    pub chain: Option<(LinearChain, DMatrix<f64>)>,
}

impl Law {
    /// `{mean, cov, exact, note}` for `Lab::state()`.
    pub fn to_json(&self) -> Value {
        let d = self.cov.nrows();
        let cov: Vec<Vec<f64>> = (0..d).map(|a| (0..d).map(|b| self.cov[(a, b)]).collect()).collect();
        json!({ "mean": self.mean, "cov": cov, "exact": self.exact, "note": self.note })
    }

    /// Lag-k autocovariances Γ(k) = (A^kΣ)_θθ for k = 0, 1, … until they fall below 10⁻⁹ of Γ(0)
    /// (at most `max_lags`); None without a linear recursion.
    pub fn autocovariances(&self, max_lags: usize) -> Option<Vec<DMatrix<f64>>> {
        let (chain, full) = self.chain.as_ref()?;
        let d = chain.dim;
        let size = self.cov.abs().max().max(f64::MIN_POSITIVE);
        let mut lagged = full.clone();
        let mut out = Vec::new();
        for _ in 0..max_lags {
            let block = lagged.view((0, 0), (d, d)).into_owned();
            let small = block.abs().max() < 1e-9 * size;
            out.push(block);
            if small {
                break;
            }
            lagged = &chain.transition * lagged;
        }
        Some(out)
    }
}

/// The predicted stationary law of `sampler` with parameters `params` on `model`, or why there is none.
pub fn predicted_law(sampler: &str, params: &ParamValues, model: &dyn Model) -> Result<Law, String> {
    match sampler {
        "bps" if params.try_get("refresh_rate") == Some(0.0) && model.gaussian_precision().is_some() && model.exact_moments().is_some_and(|m| is_round(&round_check(&m.cov))) => Err("BPS without refreshes is not ergodic: its path keeps to the curve it started on, no single stationary law to predict (docs/diagnostics.md §13)".into()),
        "mala" | "hmc" | "bps" => exact_sampler_law(model),
        "sgld" | "sghmc" | "sgfs_f" | "sgfs_d" | "osgfs" => law_on_summary(sampler, params, &GaussianSummary::of(model)?),
        other => Err(format!("{other}: no closed-form stationary law (its bias shows only in long runs)")),
    }
}

/// The law of a stochastic-gradient sampler on a summary already computed (the promise of
/// src/promise.rs evaluates many settings on one summary).
pub fn law_on_summary(sampler: &str, params: &ParamValues, summary: &GaussianSummary) -> Result<Law, String> {
    if sampler == "sghmc" && params.get_usize("resample_every") > 0 {
        return sghmc_with_resampling(summary, params);
    }
    let (chain, extra) = linear_chain(sampler, params, summary)?;
    if !summary.without_gradient_noise && crate::law_validity::is_noiseless(&chain.noise, &summary.precision) {
        return Err(crate::law_validity::NOT_SAMPLING.into());
    }
    if crate::law_validity::is_marginal(&chain.transition) {
        // ρ(A) = 1: SGHMC without friction (docs/diagnostics.md §7, V1); the Lyapunov solve would
        // return rounding noise (7·10¹² on the Gaussian toy) for a spread that grows as it runs.
        return Err("unstable at these settings: nothing damps the chain (its transition has an eigenvalue of modulus 1), so it has no stationary law (what it shows depends on where it started and how long it has run)".into());
    }
    // On a summary that is not exact, a linearised chain that grows says only that the steps
    // overshoot where the target looks like its summary; the chain then leaves for where it does
    // not, and whether it diverges depends on the target's tails (docs/diagnostics.md §7 addendum,
    // V3: logreg_dd × SGLD at ε = 10 runs 40 of 40 seeds without diverging, E2 ≈ 3,650).
    let unstable = if summary.exact { "unstable at these settings: the chain has no stationary law (it diverges)" } else { "unstable at these settings on the target's Gaussian summary: the linearised chain's steps overshoot and grow, so it leaves for where that summary does not describe the target (far off, or stuck; watch E2)" };
    let full = stationary_covariance(&chain.transition, &chain.noise).ok_or(unstable)?;
    let cov = symmetric(full.view((0, 0), (chain.dim, chain.dim)).into_owned());
    let note = format!("{}{extra}", summary.source);
    Ok(Law { mean: summary.mean.as_slice().to_vec(), cov, exact: summary.exact && extra.is_empty(), note, chain: Some((chain, full)) })
}

/// One update of a stochastic-gradient sampler as a linear recursion on `summary` (module docs),
/// with a note on any approximation; SGHMC's momentum resampling is left out (one step's map).
pub fn linear_chain(sampler: &str, params: &ParamValues, summary: &GaussianSummary) -> Result<(LinearChain, String), String> {
    match sampler {
        "sgld" => sgld_chain(summary, params),
        "sghmc" => Ok((sghmc_chain(summary, params), String::new())),
        "osgfs" => osgfs_chain(summary, params),
        "sgfs_f" | "sgfs_d" => Ok((sgfs_chain(summary, params, sampler == "sgfs_d")?, String::new())),
        other => Err(format!("{other} is not a stochastic-gradient sampler with a linear update")),
    }
}

/// A covariance whose principal variances are all equal (relative spread below 10⁻⁹): a round target.
pub fn is_round(variances: &[f64]) -> bool {
    let (lo, hi) = variances.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    hi > 0.0 && hi - lo <= 1e-9 * hi
}

/// The principal variances of a covariance given by rows (for [`is_round`]).
fn round_check(cov: &[Vec<f64>]) -> Vec<f64> {
    crate::linalg::principal_axes(&rows_to_matrix(cov)).0
}

/// An exact sampler's law is the target itself.
fn exact_sampler_law(model: &dyn Model) -> Result<Law, String> {
    let m = model.exact_moments().ok_or("exact sampler: its law is the target (the truth ellipse)")?;
    Ok(Law { mean: m.mean.clone(), cov: rows_to_matrix(&m.cov), exact: true, note: "exact sampler: its stationary law is the target".into(), chain: None })
}

/// SGLD: A = I − (ε/2)MP, Q = (ε²/4)MΣ_ξM + εM (Welling & Teh eq. 4; docs/sgld.md §4).
fn sgld_chain(s: &GaussianSummary, params: &ParamValues) -> Result<(LinearChain, String), String> {
    if params.get_usize("sgld_schedule") != 0 {
        return Err("decreasing steps: no stationary law; the εₜ-weighted estimate tends to the truth as εₜ → 0".into());
    }
    let (step, noise) = (params.get("step_size"), s.gradient_noise(params.get("batch_size")));
    let langevin = |m: &DVector<f64>| {
        let m = DMatrix::from_diagonal(m);
        let transition = DMatrix::identity(s.dim(), s.dim()) - &m * &s.precision * (step / 2.0);
        let q = &m * &noise * &m * (step * step / 4.0) + &m * step;
        LinearChain { transition, noise: symmetric(q), dim: s.dim() }
    };
    if params.get_usize("sgld_precond") == 0 {
        return Ok((langevin(&DVector::from_element(s.dim(), 1.0)), String::new()));
    }
    Ok((langevin(&rmsprop_preconditioner(s, params, &noise, step)?), "; RMSprop's M held at its stationary mean square".into()))
}

/// pSGLD's M = 1/(λ + √E[ḡ²]) at the fixed point where E[ḡ_j²] = ((PΣP)_jj + (Σ_ξ)_jj)/N² under
/// the chain's own law Σ (20 fixed-point rounds from Σ = P⁻¹).
fn rmsprop_preconditioner(s: &GaussianSummary, params: &ParamValues, noise: &DMatrix<f64>, step: f64) -> Result<DVector<f64>, String> {
    let floor = params.get("rms_floor");
    let mut sigma = s.precision.clone().try_inverse().ok_or("singular precision")?;
    let mut m = DVector::from_element(s.dim(), 1.0);
    for _ in 0..20 {
        let gradient_power = &s.precision * &sigma * &s.precision + noise;
        m = DVector::from_fn(s.dim(), |j, _| 1.0 / (floor + (gradient_power[(j, j)] / (s.n_data * s.n_data)).max(0.0).sqrt()));
        let md = DMatrix::from_diagonal(&m);
        let a = DMatrix::identity(s.dim(), s.dim()) - &md * &s.precision * (step / 2.0);
        let q = &md * noise * &md * (step * step / 4.0) + &md * step;
        sigma = stationary_covariance(&a, &q).ok_or("unstable at these settings: the chain has no stationary law (it diverges)")?;
    }
    Ok(m)
}

/// SGHMC on x = (δ, v): A = [[I − ηP, (1−α)I], [−ηP, (1−α)I]], Q = [[R, R], [R, R]],
/// R = η²Σ_ξ + 2(α − β̂)ηI.
fn sghmc_chain(s: &GaussianSummary, params: &ParamValues) -> LinearChain {
    let d = s.dim();
    let (eta, friction) = (params.get("sghmc_lr"), params.get("friction"));
    let beta_hat = params.get("beta_hat").clamp(0.0, friction);
    let identity = DMatrix::<f64>::identity(d, d);
    let r = s.gradient_noise(params.get("batch_size")) * (eta * eta) + &identity * (2.0 * (friction - beta_hat) * eta);
    let mut transition = DMatrix::zeros(2 * d, 2 * d);
    let mut noise = DMatrix::zeros(2 * d, 2 * d);
    transition.view_mut((0, 0), (d, d)).copy_from(&(&identity - &s.precision * eta));
    transition.view_mut((0, d), (d, d)).copy_from(&(&identity * (1.0 - friction)));
    transition.view_mut((d, 0), (d, d)).copy_from(&(-&s.precision * eta));
    transition.view_mut((d, d), (d, d)).copy_from(&(&identity * (1.0 - friction)));
    for (row, col) in [(0, 0), (0, d), (d, 0), (d, d)] {
        noise.view_mut((row, col), (d, d)).copy_from(&r);
    }
    LinearChain { transition, noise, dim: d }
}

/// Largest L × (2D)³ for which the momentum-resampling law is computed.
const RESAMPLING_WORK: f64 = 5e7;

/// SGHMC with v ~ N(0, ηI) redrawn every L steps: with S₀ = diag(X, ηI) at the start of a period,
/// S_k = A^k S₀ A^kᵀ + W_k (W_k = Σ_{j<k} A^jQA^jᵀ); the θ-block X' = BXBᵀ + C of S_L, B = (A^L)_θθ,
/// is a Lyapunov equation for the start-of-period X; the samples are the positions after steps
/// 1..L, so the law is the average of (S_k)_θθ over k = 1..L.
fn sghmc_with_resampling(s: &GaussianSummary, params: &ParamValues) -> Result<Law, String> {
    let chain = sghmc_chain(s, params);
    let (d, period) = (s.dim(), params.get_usize("resample_every"));
    if period as f64 * (2.0 * d as f64).powi(3) > RESAMPLING_WORK {
        return Err(format!("momentum resampling every {period} steps: the periodic law is not computed at this size"));
    }
    let momentum = |x: &DMatrix<f64>| {
        let mut start = DMatrix::zeros(2 * d, 2 * d);
        start.view_mut((0, 0), (d, d)).copy_from(x);
        start.view_mut((d, d), (d, d)).copy_from(&(DMatrix::identity(d, d) * params.get("sghmc_lr")));
        start
    };
    let propagate = |start: DMatrix<f64>, mut visit: Box<dyn FnMut(&DMatrix<f64>) + '_>| {
        let mut state = start;
        for _ in 0..period {
            state = &chain.transition * state * chain.transition.transpose() + &chain.noise;
            visit(&state);
        }
        state.view((0, 0), (d, d)).into_owned()
    };
    let offset = propagate(momentum(&DMatrix::zeros(d, d)), Box::new(|_| {}));
    let power = chain.transition.pow(period as u32);
    let b = power.view((0, 0), (d, d)).into_owned();
    let start = stationary_covariance(&b, &offset).ok_or("unstable at these settings: the chain has no stationary law (it diverges)")?;
    let mut sum = DMatrix::zeros(d, d);
    propagate(momentum(&start), Box::new(|state| sum += state.view((0, 0), (d, d))));
    let note = format!("{}; momentum redrawn every {period} steps (periodic law averaged over a period)", s.source);
    Ok(Law { mean: s.mean.as_slice().to_vec(), cov: symmetric(sum / period as f64), exact: s.exact, note, chain: None })
}

/// SGFS once Î has converged: A = I − hK⁻¹P, Q = h²K⁻¹(Σ_ξ + α²γK)K⁻¹ with K = I_N (SGFS-f) or its
/// diagonal (SGFS-d), h = 2/((1 + α²)γ), γ = (n + N)/n (Ahn et al. 2012, Algorithm 1).
fn sgfs_chain(s: &GaussianSummary, params: &ParamValues, diagonal: bool) -> Result<LinearChain, String> {
    let d = s.dim();
    let (alpha, batch) = (params.get("sgfs_alpha"), s.batch(params.get("batch_size")));
    let gamma = (batch + s.n_data) / batch;
    let mut info = s.averaged_fisher(batch) + &s.prior + DMatrix::identity(d, d) * params.get("sgfs_ridge");
    if diagonal {
        info = DMatrix::from_diagonal(&info.diagonal());
    }
    let inverse = info.clone().cholesky().ok_or("the converged Fisher information is singular")?.inverse();
    let h = 2.0 / ((1.0 + alpha * alpha) * gamma);
    let transition = DMatrix::identity(d, d) - &inverse * &s.precision * h;
    let q = &inverse * (s.gradient_noise(batch) + &info * (alpha * alpha * gamma)) * &inverse * (h * h);
    Ok(LinearChain { transition, noise: symmetric(q), dim: d })
}

/// OSGFS once C has converged (El hanchi 2018 eq. 8–10, 16, ε = 1): A = I − DP,
/// Q = DΣ_ξD + 2D − (N²/n)DCD [− DHD], the injected part with negative eigenvalues clipped as the
/// sampler clips them.
fn osgfs_chain(s: &GaussianSummary, params: &ParamValues) -> Result<(LinearChain, String), String> {
    let d = s.dim();
    let batch = s.batch(params.get("batch_size"));
    let n_c = s.averaged_fisher(batch);
    let h = &n_c + &s.prior;
    let h_inverse = h.clone().cholesky().ok_or("the converged Fisher information is singular")?.inverse();
    let k = params.get("osgfs_c").min(4.0 * (batch / (s.n_data + batch)).max(strong_prior_share(&h_inverse, &n_c, s.n_data, batch)));
    let step = &h_inverse * (k / 2.0);
    let mut injected = &step * 2.0 - &step * &n_c * &step * (s.n_data / batch);
    if params.get_usize("osgfs_variant") == 0 {
        injected -= &step * &h * &step;
    }
    let (injected, clipped) = clip_negative(symmetric(injected));
    let transition = DMatrix::identity(d, d) - &step * &s.precision;
    let q = &step * s.gradient_noise(batch) * &step + injected;
    let extra = if clipped { "; the injected noise covariance is clipped (not positive definite at these settings)" } else { "" };
    Ok((LinearChain { transition, noise: symmetric(q), dim: d }, extra.into()))
}

/// A symmetric matrix with its negative eigenvalues set to 0, and whether any was.
fn clip_negative(m: DMatrix<f64>) -> (DMatrix<f64>, bool) {
    if m.clone().cholesky().is_some() {
        return (m, false);
    }
    let Some(eigen) = crate::linalg::bounded_symmetric_eigen(&m) else { return (m, true) };
    let clipped = eigen.eigenvalues.map(|l| l.max(0.0));
    (&eigen.eigenvectors * DMatrix::from_diagonal(&clipped) * eigen.eigenvectors.transpose(), true)
}
