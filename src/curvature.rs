//! What the derived defaults of the samplers (issue 12; [`crate::spec::DerivedParam`]) need to know
//! about a built target, from the cheapest source it already has:
//! 1. a closed-form Gaussian posterior ([`Model::gaussian_precision`]);
//! 2. a cached Laplace approximation ([`Model::laplace_moments`]: the logistic family, free even at
//!    N = 10⁶);
//! 3. for other 2-D targets (the non-Gaussian toys and the small-data mixtures): a grid scan of the
//!    typical set — the log density on a node grid over [`Model::truth_region`], the nodes carrying
//!    the top [`TYPICAL_MASS`] of the mass, and the Hessian −∇²log π and the empirical Fisher at those
//!    nodes (cached per target, so switching samplers costs nothing);
//! 4. otherwise a Laplace approximation by Newton's method.
//!
//! The summary is a Gaussian (mean, covariance Σ with eigen-directions u_k and precisions
//! λ_k = 1/σ_k²), the largest curvature over the typical set λ_max (≥ max λ_k: the stability limit
//! of a discretisation is set by the stiffest place the chain visits, not by the average), the
//! ratio φ of the empirical Fisher N·Cov(g_i) to that curvature (minibatch noise of a batch of n is
//! ≈ (N/n − 1)·φ·λ along the stiff directions), and the synthetic noise variance s².

use crate::diagnostics::Moments;
use crate::linalg::rows_to_matrix;
use crate::model::laplace::{hessian, laplace_approximation};
use crate::model::Model;
use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// Share of the probability mass whose nodes define the typical set of a grid scan.
pub const TYPICAL_MASS: f64 = 0.99;
/// Modes count as separated when the density between them falls more than this many nats (a
/// factor e⁶ ≈ 400) below the highest peak: a local sampler crosses such a valley too rarely to
/// weigh the modes within a few hundred thousand steps.
pub const MODE_VALLEY: f64 = 6.0;
/// Smallest share of the mass of a separated mode.
pub const MODE_MASS: f64 = 0.05;
/// Largest Mahalanobis distance from the mean (in the target's covariance) of a typical node: a
/// 2-D Gaussian puts e^(−4.5) ≈ 1 % of its mass beyond 3.
pub const TYPICAL_RADIUS: f64 = 3.0;
/// Budget of per-datum log-likelihood evaluations for the scan's grid (1/40 of the truth's).
const SCAN_BUDGET: f64 = 5e5;
/// Largest number of typical-set nodes at which the Hessian and the Fisher are evaluated.
const SCAN_POINTS: usize = 2000;
/// Largest number of data whose scores estimate the empirical Fisher at one point.
const FISHER_DATA: usize = 2000;
/// Grid scans kept in the per-thread cache.
const CACHE_SIZE: usize = 32;

/// Where a [`Curvature`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CurvatureSource {
    ClosedForm,
    Laplace,
    GridScan,
}

/// A target's curvature summary (see the module docs).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Curvature {
    pub dim: usize,
    pub n_data: usize,
    pub mean: Vec<f64>,
    pub cov: Vec<Vec<f64>>,
    /// Precisions λ_k = 1/σ_k² along the covariance's eigen-directions, ascending.
    pub precisions: Vec<f64>,
    /// Eigen-directions u_k (column k goes with `precisions[k]`); left out of the summary's JSON
    /// (a scan travelling between wasm instances carries them beside it, [`export_scans_json`]).
    #[serde(skip, default = "no_directions")]
    pub directions: DMatrix<f64>,
    /// Largest eigenvalue of −∇²log π over the typical set (≥ the largest λ_k).
    pub lambda_max: f64,
    /// λ_max of the empirical Fisher N·Cov(g_i) over the same points, divided by `lambda_max`.
    pub fisher_ratio: f64,
    /// s² of the synthetic gradient noise.
    pub synthetic_variance: f64,
    pub source: CurvatureSource,
    /// For 2-D grid scans: the modes separated by valleys deeper than [`MODE_VALLEY`] nats, each
    /// holding at least [`MODE_MASS`] of the mass (empty when the typical set is connected).
    pub modes: Vec<Mode>,
}

/// One of several separated modes of a 2-D target: its share of the mass and its own moments.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Mode {
    pub mass: f64,
    pub moments: Moments,
}

impl Curvature {
    /// The summary of `model` (cached for grid scans).
    pub fn of(model: &dyn Model) -> Option<Curvature> {
        if let Some((mean, precision)) = model.gaussian_precision() {
            let p = crate::linalg::to_matrix(&precision, model.dim());
            let cov = crate::linalg::matrix_to_rows(&p.clone().cholesky()?.inverse());
            let lambda = crate::linalg::largest_symmetric_eigenvalue(&p);
            return Self::from_gaussian(model, Moments { mean, cov }, lambda, CurvatureSource::ClosedForm);
        }
        if let Some(laplace) = model.laplace_moments() {
            return Self::from_gaussian_summary(model, laplace, CurvatureSource::Laplace);
        }
        if model.dim() == 2 && scan_cost(model) <= 4.0 * SCAN_BUDGET {
            return cached_scan(model);
        }
        Self::from_gaussian_summary(model, laplace_approximation(model)?, CurvatureSource::Laplace)
    }

    /// A summary whose stiffest curvature is that of the Gaussian itself.
    fn from_gaussian_summary(model: &dyn Model, moments: Moments, source: CurvatureSource) -> Option<Curvature> {
        let cov = rows_to_matrix(&moments.cov);
        let lambda = 1.0 / crate::linalg::smallest_symmetric_eigenvalue(&cov);
        Self::from_gaussian(model, moments, lambda, source)
    }

    fn from_gaussian(model: &dyn Model, moments: Moments, lambda_max: f64, source: CurvatureSource) -> Option<Curvature> {
        let fisher = fisher_largest_eigenvalue(model, &moments.mean);
        Self::assemble(model, moments, lambda_max, fisher, source)
    }

    fn assemble(model: &dyn Model, moments: Moments, lambda_max: f64, fisher_max: f64, source: CurvatureSource) -> Option<Curvature> {
        let cov = rows_to_matrix(&moments.cov);
        let eigen = crate::linalg::bounded_symmetric_eigen(&cov)?;
        let mut order: Vec<usize> = (0..model.dim()).collect();
        // Ascending precision = descending variance.
        order.sort_by(|&a, &b| eigen.eigenvalues[b].total_cmp(&eigen.eigenvalues[a]));
        let precisions: Vec<f64> = order.iter().map(|&k| 1.0 / eigen.eigenvalues[k]).collect();
        if !precisions.iter().all(|p| p.is_finite() && *p > 0.0) {
            return None;
        }
        let directions = DMatrix::from_fn(model.dim(), model.dim(), |a, k| eigen.eigenvectors[(a, order[k])]);
        let lambda_max = lambda_max.max(*precisions.last()?);
        if !lambda_max.is_finite() {
            return None;
        }
        let s = model.synthetic_noise_sd();
        Some(Curvature {
            dim: model.dim(),
            n_data: model.n_data(),
            mean: moments.mean,
            cov: moments.cov,
            precisions,
            directions,
            lambda_max,
            fisher_ratio: if fisher_max.is_finite() { fisher_max.max(0.0) / lambda_max } else { 1.0 },
            synthetic_variance: s * s,
            source,
            modes: Vec::new(),
        })
    }

    /// A fingerprint of the summary (every number a plan depends on), for memoising plans.
    pub fn key(&self) -> Vec<u64> {
        let mut key = vec![self.dim as u64, self.n_data as u64, self.lambda_max.to_bits(), self.fisher_ratio.to_bits(), self.synthetic_variance.to_bits()];
        key.extend(self.precisions.iter().chain(self.directions.iter()).chain(self.cov.iter().flatten()).map(|x| x.to_bits()));
        key
    }

    /// The smallest precision 1/σ²_max (the flattest direction).
    pub fn lambda_min(&self) -> f64 {
        self.precisions[0]
    }

    /// λ_max / λ_min: the effective condition number over the typical set.
    pub fn condition_number(&self) -> f64 {
        self.lambda_max / self.lambda_min()
    }

    /// Gradient-noise variance along a direction of precision λ for a minibatch of n:
    /// (N/n − 1)·φ·λ + s² (without-replacement sampling; docs/README.md, Notation).
    pub fn gradient_noise(&self, precision: f64, batch: f64) -> f64 {
        let n = self.n_data as f64;
        let batch = batch.clamp(1.0, n);
        (n / batch - 1.0) * self.fisher_ratio * precision + self.synthetic_variance
    }

    /// SGFS eq. 14's E2 = Σ|C − Σ|/Σ|Σ| of the covariance with variances `variances[k]` along the
    /// summary's eigen-directions (and the same directions).
    pub fn e2_of_variances(&self, variances: &[f64]) -> f64 {
        let d = self.dim;
        let truth = rows_to_matrix(&self.cov);
        let scaled = DMatrix::from_fn(d, d, |a, k| self.directions[(a, k)] * variances[k]);
        let c = scaled * self.directions.transpose();
        (c - &truth).abs().sum() / truth.abs().sum()
    }
}

impl Curvature {
    /// Predicted E2 after `samples` draws of a chain with stationary variances `variances[k]` and
    /// lag-one autocorrelations `ar[k]` along the summary's directions: (bias, spread) where bias is
    /// the E2 of the stationary covariance and spread = Σ_ab sd(Ĉ_ab)/Σ_ab|Σ_ab| sums the Monte-Carlo
    /// standard deviations of the covariance entries. Per direction the chain is taken as a Gaussian
    /// AR(1) series, so in the eigenbasis Var(Ĉ'_kl) = v_k v_l (1 + a_k a_l)/((1 − a_k a_l) T) for
    /// k ≠ l and twice that for k = l; Ĉ = U Ĉ' Uᵀ. E2 ≤ bias + spread·|z| for a standard normal z
    /// whatever the correlations between entries, so bias + 2·spread bounds E2 with ≈ 95 %.
    pub fn predicted_e2(&self, variances: &[f64], ar: &[f64], samples: f64) -> (f64, f64) {
        let d = self.dim;
        let u = &self.directions;
        let entry_variance = |k: usize, l: usize| {
            let r = ar[k] * ar[l];
            let factor = if r >= 1.0 { f64::INFINITY } else { (1.0 + r) / (1.0 - r) };
            variances[k] * variances[l] * factor / samples * if k == l { 2.0 } else { 1.0 }
        };
        let eigen_variances = DMatrix::from_fn(d, d, |k, l| entry_variance(k, l));
        let mut spread = 0.0;
        for a in 0..d {
            for b in 0..d {
                let mut var = 0.0;
                for k in 0..d {
                    var += (u[(a, k)] * u[(b, k)]).powi(2) * eigen_variances[(k, k)];
                    for l in k + 1..d {
                        var += (u[(a, k)] * u[(b, l)] + u[(a, l)] * u[(b, k)]).powi(2) * eigen_variances[(k, l)];
                    }
                }
                spread += var.sqrt();
            }
        }
        let scale = rows_to_matrix(&self.cov).abs().sum();
        (self.e2_of_variances(variances), spread / scale)
    }
}

/// N·λ_max of the sample covariance of the per-datum scores at θ, over at most [`FISHER_DATA`]
/// data taken at an even stride (deterministic).
pub fn fisher_largest_eigenvalue(model: &dyn Model, theta: &[f64]) -> f64 {
    score_covariance(model, theta, FISHER_DATA).map_or(f64::NAN, |cov| model.n_data() as f64 * crate::linalg::largest_symmetric_eigenvalue(&cov))
}

/// Cov(g_i) of the per-datum scores at θ (divisor count − 1) over all data, or `max_data` data
/// taken at an even stride (deterministic); None with fewer than two data.
pub fn score_covariance(model: &dyn Model, theta: &[f64], max_data: usize) -> Option<DMatrix<f64>> {
    let n = model.n_data();
    let dim = model.dim();
    let count = n.min(max_data);
    if count < 2 {
        return None;
    }
    let stride = n as f64 / count as f64;
    let mut scores = DMatrix::<f64>::zeros(count, dim);
    let mut row = vec![0.0; dim];
    for k in 0..count {
        row.fill(0.0);
        model.add_grad_log_lik((k as f64 * stride) as usize, theta, &mut row);
        scores.row_mut(k).copy_from_slice(&row);
    }
    let means = scores.row_mean();
    for k in 0..count {
        for j in 0..dim {
            scores[(k, j)] -= means[j];
        }
    }
    Some(scores.transpose() * &scores / (count - 1) as f64)
}

fn scan_cost(model: &dyn Model) -> f64 {
    let nodes = scan_intervals(model) as f64 + 1.0;
    nodes * nodes * model.density_cost() as f64
}

fn scan_intervals(model: &dyn Model) -> usize {
    let affordable = (SCAN_BUDGET / model.density_cost().max(1) as f64).sqrt() as usize;
    (affordable.clamp(16, crate::truth::GRID_INTERVALS) / 2) * 2
}

thread_local! {
    static SCANS: RefCell<Vec<(Vec<u64>, Curvature)>> = const { RefCell::new(Vec::new()) };
}

/// A grid scan, remembered by a fingerprint of the model (its size and its log density and
/// gradient at a few fixed points): the same target settings give the same fingerprint.
fn cached_scan(model: &dyn Model) -> Option<Curvature> {
    let key = fingerprint(model);
    if let Some(hit) = SCANS.with(|c| c.borrow().iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone())) {
        return Some(hit);
    }
    crate::entry_counts::count("curvature_scan");
    let scanned = grid_scan(model)?;
    remember(key, scanned.clone());
    Some(scanned)
}

fn remember(key: Vec<u64>, scan: Curvature) {
    SCANS.with(|c| {
        let mut cache = c.borrow_mut();
        if cache.len() == CACHE_SIZE {
            cache.remove(0);
        }
        cache.push((key, scan));
    });
}

/// One grid scan as it travels between wasm instances: the summary and its eigen-directions
/// (column-major), which the summary's own serialisation leaves out.
#[derive(Serialize, Deserialize)]
struct ScanEntry {
    key: Vec<u64>,
    directions: Vec<f64>,
    #[serde(flatten)]
    scan: Curvature,
}

/// The directions of a summary read back from JSON, until its entry's are put in.
fn no_directions() -> DMatrix<f64> {
    DMatrix::zeros(0, 0)
}

/// The grid scans this instance holds, as JSON: a Web Worker that built a chain for its promise
/// (src/promise_memo.rs, www/promise-job.js) posts them with the promise memo, so that the page
/// builds a 2-D non-Gaussian target's chain without its grid scan on the main thread (issue 26:
/// part of a 51–53 ms build step of sbps-hyperbola). serde_json round-trips finite f64 exactly.
pub fn export_scans_json() -> String {
    let entries: Vec<ScanEntry> = SCANS.with(|c| {
        c.borrow()
            .iter()
            .map(|(key, v)| ScanEntry { key: key.clone(), directions: v.directions.as_slice().to_vec(), scan: v.clone() })
            .collect()
    });
    serde_json::to_string(&entries).unwrap_or_else(|_| "[]".into())
}

/// Add the exported scans this instance does not hold; returns how many were added. A scan is
/// found again by its model's fingerprint, so an entry for another target is never used for this one.
pub fn import_scans_json(json: &str) -> Result<usize, String> {
    let entries: Vec<ScanEntry> = serde_json::from_str(json).map_err(|_| "the curvature memo is not valid".to_string())?;
    let mut added = 0;
    for ScanEntry { key, directions, scan } in entries {
        if scan.dim * scan.dim != directions.len() || SCANS.with(|c| c.borrow().iter().any(|(k, _)| *k == key)) {
            continue;
        }
        let curvature = Curvature { directions: DMatrix::from_vec(scan.dim, scan.dim, directions), ..scan };
        remember(key, curvature);
        added += 1;
    }
    Ok(added)
}

fn fingerprint(model: &dyn Model) -> Vec<u64> {
    let v = model.truth_region();
    let mut key = vec![model.dim() as u64, model.n_data() as u64, model.synthetic_noise_sd().to_bits()];
    key.extend([v.x_min, v.x_max, v.y_min, v.y_max].map(f64::to_bits));
    let mut grad = vec![0.0; model.dim()];
    for (a, b) in [(0.31, 0.67), (0.5, 0.5), (0.83, 0.12)] {
        let theta = [v.x_min + a * (v.x_max - v.x_min), v.y_min + b * (v.y_max - v.y_min)];
        key.push(model.log_density(&theta).to_bits());
        model.grad_log_density(&theta, &mut grad);
        key.extend(grad.iter().map(|g| g.to_bits()));
    }
    key
}

/// The typical set of a 2-D target on a node grid: the nodes within [`TYPICAL_RADIUS`] of the
/// mean in the metric of the target's covariance that hold the top [`TYPICAL_MASS`] of the node
/// mass (the radius keeps the funnel's neck, where the density is highest but the mass is not, from
/// dominating). λ_max and the Fisher's largest eigenvalue are the maxima over at most
/// [`SCAN_POINTS`] of them (an even stride through the set ordered by weight); the Gaussian summary
/// is the closed-form moments when the target has them, the grid's moments otherwise.
fn grid_scan(model: &dyn Model) -> Option<Curvature> {
    let region = model.truth_region();
    let intervals = scan_intervals(model);
    let node = |low: f64, high: f64, k: usize| low + (high - low) * k as f64 / intervals as f64;
    let points: Vec<[f64; 2]> = (0..=intervals)
        .flat_map(|b| (0..=intervals).map(move |a| (a, b)))
        .map(|(a, b)| [node(region.x_min, region.x_max, a), node(region.y_min, region.y_max, b)])
        .collect();
    let log_density: Vec<f64> = points.iter().map(|p| model.log_density(p)).collect();
    let peak = log_density.iter().copied().filter(|v| v.is_finite()).fold(f64::NEG_INFINITY, f64::max);
    if !peak.is_finite() {
        return None;
    }
    let weights: Vec<f64> = log_density.iter().map(|v| if v.is_finite() { (v - peak).exp() } else { 0.0 }).collect();
    let moments = model.exact_moments().unwrap_or_else(|| grid_moments(&points, &weights));
    let precision = rows_to_matrix(&moments.cov).try_inverse()?;
    let within_radius = |p: &[f64; 2]| {
        let d = DVector::from_fn(2, |j, _| p[j] - moments.mean[j]);
        d.dot(&(&precision * &d)) <= TYPICAL_RADIUS * TYPICAL_RADIUS
    };
    // Nodes below 1e-12 of the peak hold at most (nodes · 1e-12) of the peak's weight: negligible.
    let total: f64 = weights.iter().sum();
    let mut candidates: Vec<usize> = (0..points.len()).filter(|&k| weights[k] > 1e-12 && within_radius(&points[k])).collect();
    candidates.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]));
    let mut mass = 0.0;
    let typical: Vec<usize> = candidates
        .into_iter()
        .take_while(|&k| {
            let inside = mass < TYPICAL_MASS * total;
            mass += weights[k];
            inside
        })
        .collect();
    let stride = (typical.len() as f64 / SCAN_POINTS as f64).max(1.0);
    let picked = (0..typical.len().min(SCAN_POINTS)).map(|k| typical[(k as f64 * stride) as usize]);
    let (mut lambda_max, mut fisher_max) = (0.0f64, 0.0f64);
    for k in picked {
        let curvature = -hessian(model, &points[k]);
        lambda_max = lambda_max.max(crate::linalg::largest_symmetric_eigenvalue(&curvature));
        fisher_max = fisher_max.max(fisher_largest_eigenvalue(model, &points[k]));
    }
    let modes = separated_modes(&points, &log_density, intervals + 1);
    Curvature::assemble(model, moments, lambda_max, fisher_max, CurvatureSource::GridScan).map(|c| Curvature { modes, ..c })
}

/// The connected components (4-neighbour, on the node grid of `width` nodes per row) of the nodes
/// within [`MODE_VALLEY`] nats of the highest, that hold at least [`MODE_MASS`] of the total node
/// weight; empty unless there are at least two.
fn separated_modes(points: &[[f64; 2]], log_density: &[f64], width: usize) -> Vec<Mode> {
    let peak = log_density.iter().copied().filter(|v| v.is_finite()).fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = log_density.iter().map(|v| if v.is_finite() { (v - peak).exp() } else { 0.0 }).collect();
    let total: f64 = weights.iter().sum();
    let high = |k: usize| log_density[k] >= peak - MODE_VALLEY;
    let mut seen = vec![false; points.len()];
    let mut modes = Vec::new();
    for start in 0..points.len() {
        if seen[start] || !high(start) {
            continue;
        }
        seen[start] = true;
        let (mut stack, mut members) = (vec![start], Vec::new());
        while let Some(k) = stack.pop() {
            members.push(k);
            let (a, b) = (k % width, k / width);
            let neighbours = [(a > 0).then(|| k - 1), (a + 1 < width).then(|| k + 1), (b > 0).then(|| k - width), (k + width < points.len()).then(|| k + width)];
            for n in neighbours.into_iter().flatten() {
                if !seen[n] && high(n) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        let component_points: Vec<[f64; 2]> = members.iter().map(|&k| points[k]).collect();
        let component_weights: Vec<f64> = members.iter().map(|&k| weights[k]).collect();
        let mass = component_weights.iter().sum::<f64>() / total;
        if mass >= MODE_MASS {
            modes.push(Mode { mass, moments: grid_moments(&component_points, &component_weights) });
        }
    }
    if modes.len() < 2 {
        modes.clear();
    }
    modes
}

fn grid_moments(points: &[[f64; 2]], weights: &[f64]) -> Moments {
    let total: f64 = weights.iter().sum();
    let mean = DVector::from_fn(2, |j, _| points.iter().zip(weights).map(|(p, w)| w * p[j]).sum::<f64>() / total);
    let cov = DMatrix::from_fn(2, 2, |a, b| {
        points.iter().zip(weights).map(|(p, w)| w * (p[a] - mean[a]) * (p[b] - mean[b])).sum::<f64>() / total
    });
    Moments { mean: mean.as_slice().to_vec(), cov: crate::linalg::matrix_to_rows(&cov) }
}
