//! Ground truth for every target, with its own error stated (docs/truth.md, docs/diagnostics.md), cheapest
//! source first:
//! 1. closed form ([`Model::exact_moments`]) — exact;
//! 2. deterministic grid quadrature for 2-D targets ([`grid_truth`]): trapezoid rule on a node grid
//!    with spacing h; the same evaluations give the 2h rule, and |M_h − M_2h| (plus the mass on the
//!    grid's edge, a truncation indicator) is the stated error;
//! 3. for D > 2 without a closed form, a long exact MALA reference run ([`ReferenceRun`]), advanced
//!    in chunks so the page can run it in a worker, with batch-means Monte-Carlo standard errors.
//!
//! Also the SGFS paper's pair choices for the 2-D panel (Ahn et al. 2012, Fig. 1 and 4): the most
//! correlated pair, and the pairs with the largest / smallest difference between two covariances.

use crate::diagnostics::{Moments, RunningMoments};
use crate::model::{Model, View};
use crate::rng::{chain_rng, standard_normal, uniform, ChainRng};
use nalgebra::{DMatrix, DVector};
use serde::Serialize;

/// Density of one coordinate on a grid of points (normalised: trapezoid integral 1).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Marginal {
    pub coordinate: usize,
    pub points: Vec<f64>,
    pub density: Vec<f64>,
}

/// Where a truth came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TruthSource {
    ClosedForm,
    GridQuadrature,
    ReferenceRun,
    /// A Laplace approximation, used where exact quadrature is too costly for the page.
    Laplace,
    /// D > 2 and no closed form: run a [`ReferenceRun`] to get one.
    NeedsReferenceRun,
}

/// Moments (when known), 2-D marginal densities, and a statement of the truth's own error.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Truth {
    pub moments: Option<Moments>,
    /// For 2-D targets: the marginals of coordinates 0 and 1 on a grid; empty otherwise.
    pub marginals: Vec<Marginal>,
    pub source: TruthSource,
    /// Largest estimated absolute error of any mean or covariance entry (0 for closed forms,
    /// NaN when unknown).
    #[serde(deserialize_with = "nan_from_null")]
    pub error_bound: f64,
    /// Human-readable statement of the error, e.g. "grid 401², |M_h − M_2h| ≤ 3e-9".
    pub error: String,
}

/// Largest number of grid intervals per axis for 2-D quadrature (used when evaluations are cheap).
pub const GRID_INTERVALS: usize = 1600;
/// Budget of per-datum likelihood evaluations for one grid (the resolution drops for large N):
/// ~0.3 s natively for the 100-point mixture.
const GRID_BUDGET: f64 = 2e7;

/// The truth for a target: closed-form moments when available, grid quadrature in 2-D (moments if
/// not closed form, and marginals always), otherwise a note that a reference run is needed.
pub fn truth_for(model: &dyn Model) -> Truth {
    let exact = model.exact_moments();
    if model.dim() == 2 {
        let intervals = grid_intervals_for(model.density_cost());
        // Targets with data pay N terms per node: their grid is only as fine as (TRUTH.6) needs.
        let mut grid = if model.density_cost() > 1 {
            let (r, stated) = (model.truth_region(), |t: &Truth| t.moments.as_ref().map(|m| (t.error_bound, m.cov[0][0], m.cov[1][1])));
            crate::truth_refine::refine(intervals, (r.x_max - r.x_min, r.y_max - r.y_min), |k| grid_truth(model, r, k), stated)
        } else {
            grid_truth(model, model.truth_region(), intervals)
        };
        let mut exact_curves = Vec::new();
        for m in grid.marginals.iter_mut() {
            if let Some(density) = model.exact_marginal(m.coordinate, &m.points) {
                m.density = density;
                exact_curves.push(m.coordinate.to_string());
            }
        }
        if !exact_curves.is_empty() {
            grid.error = format!("{}; marginal curves of coordinate(s) {} exact", grid.error, exact_curves.join(", "));
        }
        return match exact {
            Some(moments) => Truth {
                moments: Some(moments),
                marginals: grid.marginals,
                source: TruthSource::ClosedForm,
                error_bound: 0.0,
                error: format!("moments in closed form; marginal curves by {}", grid.error),
            },
            None => grid,
        };
    }
    match exact {
        Some(moments) => Truth {
            moments: Some(moments),
            marginals: Vec::new(),
            source: TruthSource::ClosedForm,
            error_bound: 0.0,
            error: "closed form".into(),
        },
        None => Truth {
            moments: None,
            marginals: Vec::new(),
            source: TruthSource::NeedsReferenceRun,
            error_bound: f64::NAN,
            error: format!("no closed form in {} dimensions: run the MALA reference (ReferenceRun)", model.dim()),
        },
    }
}

/// Estimated cost of [`truth_for`] in per-datum likelihood evaluations (the page can run costly
/// truths in a worker, or skip them). Zero when the truth is closed form and D > 2.
pub fn truth_cost(model: &dyn Model) -> f64 {
    if model.dim() != 2 {
        return 0.0;
    }
    let nodes = grid_intervals_for(model.density_cost()) as f64 + 1.0;
    nodes * nodes * model.density_cost() as f64
}

/// Grid resolution that keeps N × (intervals + 1)² likelihood terms within the budget.
fn grid_intervals_for(cost: usize) -> usize {
    let affordable = (GRID_BUDGET / cost.max(1) as f64).sqrt() as usize;
    // At least 16 intervals: on the doubled view (±9 Laplace sd for regression targets) that is
    // h ≈ 1.1 sd, where the trapezoid rule is still accurate for near-Gaussian posteriors (TRUTH.7;
    // at N = 10⁵ within 1.1·10⁻⁵ of the variances); the h/2h comparison then reports a
    // (conservative) error. N = 10⁶ costs 17² × 10⁶ terms.
    (affordable.min(GRID_INTERVALS).max(16) / 2) * 2
}

/// Largest grid spacing, in marginal sds, at which |M_h − M_2h| bounds the error (TRUTH.7, docs/truth.md §2).
pub const MAX_SPACING_PER_SD: f64 = 2.0;

/// Trapezoid-rule moments and marginals of a 2-D target over `region` with `intervals` (even)
/// intervals per axis. The error estimate is max |M_h − M_2h| over all mean and covariance entries
/// (the 2h rule uses every other node of the same evaluations), plus span² × the fraction of mass on
/// the grid's boundary nodes (truncation), plus a 1e-10 relative floating-point floor.
pub fn grid_truth(model: &dyn Model, region: View, intervals: usize) -> Truth {
    assert_eq!(model.dim(), 2, "grid quadrature is for 2-D targets");
    let intervals = intervals.max(4) / 2 * 2;
    let xs = nodes(region.x_min, region.x_max, intervals);
    let ys = nodes(region.y_min, region.y_max, intervals);
    let log_density: Vec<f64> = ys.iter().flat_map(|&y| xs.iter().map(move |&x| (x, y))).map(|(x, y)| model.log_density(&[x, y])).collect();
    let peak = log_density.iter().copied().filter(|v| v.is_finite()).fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = log_density.iter().map(|v| if v.is_finite() { (v - peak).exp() } else { 0.0 }).collect();
    let fine = weighted_moments(&xs, &ys, &weights, 1);
    let coarse = weighted_moments(&xs, &ys, &weights, 2);
    let width = xs.len();
    let edge: f64 = (0..weights.len()).filter(|k| on_edge(k % width, k / width, width)).map(|k| weights[k]).sum::<f64>();
    let total: f64 = weights.iter().sum();
    let edge_fraction = edge / total;
    let span = region.span();
    let difference = max_abs_difference(&fine, &coarse);
    // Floating-point floor: ~1e-10 relative for sums over ~10⁵ nodes.
    let magnitude = fine.mean.iter().chain(fine.cov.iter().flatten()).map(|v| v.abs()).fold(0.0, f64::max);
    let error_bound = difference + edge_fraction * span * span + 1e-10 * magnitude;
    let marginals = vec![marginal(0, &xs, &weights, width, true), marginal(1, &ys, &weights, width, false)];
    // (TRUTH.7): a coarser grid's |M_h − M_2h| bounds nothing, and the truth says so.
    let (hx, hy) = (xs[1] - xs[0], ys[1] - ys[0]);
    let within = |var: f64, h: f64| var.sqrt() * MAX_SPACING_PER_SD >= h;
    if !(within(fine.cov[0][0], hx) && within(fine.cov[1][1], hy)) {
        return Truth {
            moments: Some(fine),
            marginals,
            source: TruthSource::GridQuadrature,
            error_bound: f64::INFINITY,
            error: format!("grid of {}² nodes is too coarse for this posterior (spacing above {} sd): moments unreliable", width, MAX_SPACING_PER_SD),
        };
    }
    Truth {
        moments: Some(fine),
        marginals,
        source: TruthSource::GridQuadrature,
        error_bound,
        error: format!(
            "grid quadrature on {}² nodes over [{:.3}, {:.3}] × [{:.3}, {:.3}]: quadrature error |Mₕ − M₂ₕ| (moments at grid spacing h against 2h) = {}, edge mass (probability at the grid's border, cut off) {}",
            width, region.x_min, region.x_max, region.y_min, region.y_max, crate::readable::show(difference), crate::readable::show(edge_fraction)
        ),
    }
}

fn nodes(low: f64, high: f64, intervals: usize) -> Vec<f64> {
    let h = (high - low) / intervals as f64;
    (0..=intervals).map(|k| low + k as f64 * h).collect()
}

fn on_edge(a: usize, b: usize, width: usize) -> bool {
    a == 0 || b == 0 || a + 1 == width || b + 1 == width
}

/// Trapezoid weight of node k of n (1/2 at the ends).
fn trapezoid(k: usize, n: usize) -> f64 {
    if k == 0 || k + 1 == n {
        0.5
    } else {
        1.0
    }
}

/// Mean and covariance from unnormalised node weights, using every `stride`-th node.
fn weighted_moments(xs: &[f64], ys: &[f64], weights: &[f64], stride: usize) -> Moments {
    let width = xs.len();
    let picked: Vec<usize> = (0..width).step_by(stride).collect();
    let n = picked.len();
    let (mut mass, mut sx, mut sy, mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for (bi, &b) in picked.iter().enumerate() {
        for (ai, &a) in picked.iter().enumerate() {
            let w = weights[b * width + a] * trapezoid(ai, n) * trapezoid(bi, n);
            let (x, y) = (xs[a], ys[b]);
            mass += w;
            sx += w * x;
            sy += w * y;
            sxx += w * x * x;
            sxy += w * x * y;
            syy += w * y * y;
        }
    }
    let (mx, my) = (sx / mass, sy / mass);
    let cxy = sxy / mass - mx * my;
    Moments { mean: vec![mx, my], cov: vec![vec![sxx / mass - mx * mx, cxy], vec![cxy, syy / mass - my * my]] }
}

fn max_abs_difference(a: &Moments, b: &Moments) -> f64 {
    let means = a.mean.iter().zip(&b.mean).map(|(p, q)| (p - q).abs());
    let covs = a.cov.iter().flatten().zip(b.cov.iter().flatten()).map(|(p, q)| (p - q).abs());
    means.chain(covs).fold(0.0, f64::max)
}

/// Marginal density of x (`along_x`) or y on the node grid, normalised by the trapezoid rule.
fn marginal(coordinate: usize, points: &[f64], weights: &[f64], width: usize, along_x: bool) -> Marginal {
    let n = points.len();
    let mut density: Vec<f64> = (0..n)
        .map(|k| (0..width).map(|m| trapezoid(m, width) * if along_x { weights[m * width + k] } else { weights[k * width + m] }).sum())
        .collect();
    let h = points[1] - points[0];
    let integral: f64 = density.iter().enumerate().map(|(k, d)| d * trapezoid(k, n)).sum::<f64>() * h;
    density.iter_mut().for_each(|d| *d /= integral);
    Marginal { coordinate, points: points.to_vec(), density }
}

// ---------------------------------------------------------------------------------------------
// Reference runs for D > 2.

/// Target acceptance rate of MALA during warm-up (Roberts & Rosenthal 1998: 0.574).
const TARGET_ACCEPTANCE: f64 = 0.574;
/// Number of batch means kept; when full, neighbours are merged and the batch length doubles.
const MAX_BATCHES: usize = 128;

/// How far a reference run is.
#[derive(Clone, Debug, Serialize)]
pub struct Progress {
    pub steps_done: u64,
    pub total_steps: u64,
    pub warm_up_steps: u64,
    pub acceptance_rate: f64,
    pub step_size: f64,
    pub finished: bool,
}

/// The result of a reference run: moments and their Monte-Carlo standard errors.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct ReferenceResult {
    pub moments: Moments,
    /// Batch-means MCSE of each coordinate's mean.
    pub mean_mcse: Vec<f64>,
    /// Batch-means MCSE of each coordinate's variance (from the series (θ_j − mean_j)²).
    pub variance_mcse: Vec<f64>,
    pub samples: u64,
    pub acceptance_rate: f64,
}

impl ReferenceResult {
    pub fn to_truth(&self) -> Truth {
        let worst = self.mean_mcse.iter().chain(&self.variance_mcse).copied().fold(0.0, f64::max);
        Truth {
            moments: Some(self.moments.clone()),
            marginals: Vec::new(),
            source: TruthSource::ReferenceRun,
            error_bound: 2.0 * worst,
            error: format!(
                "MALA reference, {} samples (acceptance {:.2}): largest MCSE of a mean {}, of a variance {}",
                crate::sgais::format::group_digits(self.samples as f64, 0),
                self.acceptance_rate,
                crate::readable::show(self.mean_mcse.iter().copied().fold(0.0, f64::max)),
                crate::readable::show(self.variance_mcse.iter().copied().fold(0.0, f64::max))
            ),
        }
    }
}

/// A long exact MALA run with a dense preconditioner M = L Lᵀ, advanced in chunks.
/// Proposal θ' = θ + (ε/2) M ∇log π(θ) + √ε L ξ with a Metropolis–Hastings correction
/// (Roberts & Tweedie 1996; Girolami & Calderhead 2011 for the fixed-metric form). During warm-up
/// ε is adapted by Robbins–Monro towards acceptance 0.574 and M is set to the sample covariance of
/// the warm-up states since the last switch (at 1/4, 1/2 and 3/4 of the warm-up); both are frozen
/// afterwards, so the sampling phase is an exact, non-adaptive MALA chain.
pub struct ReferenceRun {
    model: Box<dyn Model>,
    rng: ChainRng,
    theta: Vec<f64>,
    log_density: f64,
    grad: Vec<f64>,
    proposal: Vec<f64>,
    proposal_grad: Vec<f64>,
    metric: DMatrix<f64>,
    metric_factor: DMatrix<f64>,
    noise: Vec<f64>,
    log_step: f64,
    warm_up_steps: u64,
    total_steps: u64,
    steps_done: u64,
    accepted: u64,
    proposed: u64,
    warm_up_moments: RunningMoments,
    moments: RunningMoments,
    batches: BatchMeans,
}

impl ReferenceRun {
    /// A run of `warm_up_steps` adaptive steps followed by `sampling_steps` recorded steps.
    pub fn new(model: Box<dyn Model>, seed: u64, warm_up_steps: u64, sampling_steps: u64) -> Self {
        let dim = model.dim();
        let theta = model.initial_point();
        let mut grad = vec![0.0; dim];
        model.grad_log_density(&theta, &mut grad);
        let log_density = model.log_density(&theta);
        ReferenceRun {
            rng: chain_rng(seed),
            theta,
            log_density,
            grad,
            proposal: vec![0.0; dim],
            proposal_grad: vec![0.0; dim],
            metric: DMatrix::identity(dim, dim),
            metric_factor: DMatrix::identity(dim, dim),
            noise: vec![0.0; dim],
            log_step: (0.1 / dim as f64).ln(),
            warm_up_steps,
            total_steps: warm_up_steps + sampling_steps,
            steps_done: 0,
            accepted: 0,
            proposed: 0,
            warm_up_moments: RunningMoments::new(dim),
            moments: RunningMoments::new(dim),
            batches: BatchMeans::new(2 * dim),
            model,
        }
    }

    pub fn model(&self) -> &dyn Model {
        self.model.as_ref()
    }

    /// The chain's current state (e.g. to batch its samples outside).
    pub fn position(&self) -> &[f64] {
        &self.theta
    }

    /// Run up to `steps` more steps (fewer at the end) and report progress.
    pub fn advance(&mut self, steps: u64) -> Progress {
        let end = (self.steps_done + steps).min(self.total_steps);
        while self.steps_done < end {
            let warming = self.steps_done < self.warm_up_steps;
            let accepted = self.mala_step();
            if warming {
                self.adapt(accepted);
            } else {
                self.record();
            }
            self.steps_done += 1;
        }
        self.progress()
    }

    pub fn progress(&self) -> Progress {
        Progress {
            steps_done: self.steps_done,
            total_steps: self.total_steps,
            warm_up_steps: self.warm_up_steps,
            acceptance_rate: self.accepted as f64 / self.proposed.max(1) as f64,
            step_size: self.log_step.exp(),
            finished: self.steps_done >= self.total_steps,
        }
    }

    /// Moments and MCSEs of the sampling phase so far (None before two batches exist).
    pub fn result(&self) -> Option<ReferenceResult> {
        let dim = self.theta.len();
        let mcse = self.batches.standard_errors()?;
        let moments = self.moments.moments();
        // The squared-deviation series was recorded about the running mean; its MCSE is that of
        // the variance to first order.
        Some(ReferenceResult {
            mean_mcse: mcse[..dim].to_vec(),
            variance_mcse: mcse[dim..].to_vec(),
            moments,
            samples: self.moments.count(),
            acceptance_rate: self.accepted as f64 / self.proposed.max(1) as f64,
        })
    }

    /// One preconditioned MALA step; returns whether it was accepted.
    fn mala_step(&mut self) -> bool {
        let e = self.log_step.exp();
        let dim = self.theta.len();
        for z in self.noise.iter_mut() {
            *z = standard_normal(&mut self.rng);
        }
        for a in 0..dim {
            let drift: f64 = (0..dim).map(|b| self.metric[(a, b)] * self.grad[b]).sum();
            let kick: f64 = (0..=a).map(|b| self.metric_factor[(a, b)] * self.noise[b]).sum();
            self.proposal[a] = self.theta[a] + 0.5 * e * drift + e.sqrt() * kick;
        }
        self.model.grad_log_density(&self.proposal, &mut self.proposal_grad);
        let proposal_log_density = self.model.log_density(&self.proposal);
        let log_ratio = proposal_log_density - self.log_density + self.log_q(&self.theta, &self.proposal, &self.proposal_grad)
            - self.log_q(&self.proposal, &self.theta, &self.grad);
        self.proposed += 1;
        let accept = proposal_log_density.is_finite() && uniform(&mut self.rng).ln() < log_ratio;
        if accept {
            std::mem::swap(&mut self.theta, &mut self.proposal);
            std::mem::swap(&mut self.grad, &mut self.proposal_grad);
            self.log_density = proposal_log_density;
            self.accepted += 1;
        }
        accept
    }

    /// log q(to | from) up to a constant: −ΔᵀM⁻¹Δ / (2ε), Δ = to − from − (ε/2) M ∇log π(from).
    fn log_q(&self, to: &[f64], from: &[f64], grad_from: &[f64]) -> f64 {
        let e = self.log_step.exp();
        let drift = &self.metric * DVector::from_column_slice(grad_from);
        let delta = DVector::from_iterator(to.len(), (0..to.len()).map(|j| to[j] - from[j] - 0.5 * e * drift[j]));
        let whitened = self.metric_factor.solve_lower_triangular(&delta).expect("metric factor is invertible");
        -whitened.norm_squared() / (2.0 * e)
    }

    /// Warm-up: Robbins–Monro on log ε, and the diagonal preconditioner at 1/4, 1/2, 3/4.
    fn adapt(&mut self, accepted: bool) {
        let t = self.steps_done as f64 + 1.0;
        let rate = 1.0 / t.powf(0.6);
        self.log_step += 2.0 * rate.max(0.01) * (if accepted { 1.0 } else { 0.0 } - TARGET_ACCEPTANCE);
        let w = self.warm_up_steps;
        // The variance estimate uses the warm-up states since the previous switch.
        self.warm_up_moments.add(&self.theta, 1.0);
        let step = self.steps_done + 1;
        if w >= 8 && (step == w / 4 || step == w / 2 || step == 3 * w / 4) {
            self.switch_metric();
            self.warm_up_moments = RunningMoments::new(self.theta.len());
            // Acceptance counts restart with the new preconditioner.
            self.accepted = 0;
            self.proposed = 0;
        }
        if step == w {
            self.accepted = 0;
            self.proposed = 0;
        }
    }

    /// M ← the warm-up covariance (slightly regularised), if it is positive definite; ε is rescaled
    /// so that ε·trace(M) is unchanged, and the adaptation then refines it.
    fn switch_metric(&mut self) {
        let dim = self.theta.len();
        let cov = crate::linalg::rows_to_matrix(&self.warm_up_moments.cov());
        let trace = cov.trace();
        if !(trace.is_finite() && trace > 0.0) {
            return;
        }
        let candidate = &cov + DMatrix::identity(dim, dim) * (1e-8 * trace / dim as f64);
        if let Some(chol) = candidate.clone().cholesky() {
            self.log_step += (self.metric.trace() / trace).ln();
            self.metric_factor = chol.l();
            self.metric = candidate;
        }
    }

    fn record(&mut self) {
        self.moments.add(&self.theta, 1.0);
        let mean = self.moments.mean().to_vec();
        let mut row = self.theta.clone();
        row.extend(self.theta.iter().zip(&mean).map(|(t, m)| (t - m).powi(2)));
        self.batches.push(&row);
    }
}

/// Non-overlapping batch means of a vector series with bounded memory: at most [`MAX_BATCHES`]
/// full batches; when full, neighbours merge and the batch length doubles.
struct BatchMeans {
    width: usize,
    batch_len: u64,
    current: Vec<f64>,
    current_len: u64,
    means: Vec<Vec<f64>>,
}

impl BatchMeans {
    fn new(width: usize) -> Self {
        BatchMeans { width, batch_len: 1, current: vec![0.0; width], current_len: 0, means: Vec::new() }
    }

    fn push(&mut self, row: &[f64]) {
        for (c, r) in self.current.iter_mut().zip(row) {
            *c += r;
        }
        self.current_len += 1;
        if self.current_len == self.batch_len {
            let mean = self.current.iter().map(|c| c / self.batch_len as f64).collect();
            self.means.push(mean);
            self.current.fill(0.0);
            self.current_len = 0;
            if self.means.len() == MAX_BATCHES {
                self.merge_neighbours();
            }
        }
    }

    fn merge_neighbours(&mut self) {
        self.means = self.means.chunks(2).map(|p| p[0].iter().zip(&p[1]).map(|(a, b)| 0.5 * (a + b)).collect()).collect();
        self.batch_len *= 2;
    }

    /// Standard error of each column's overall mean, sd(batch means)/√(batches).
    fn standard_errors(&self) -> Option<Vec<f64>> {
        let k = self.means.len();
        if k < 2 {
            return None;
        }
        Some(
            (0..self.width)
                .map(|j| {
                    let grand = self.means.iter().map(|m| m[j]).sum::<f64>() / k as f64;
                    let var = self.means.iter().map(|m| (m[j] - grand).powi(2)).sum::<f64>() / (k - 1) as f64;
                    (var / k as f64).sqrt()
                })
                .collect(),
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Pair choices for the 2-D panel (SGFS Fig. 1 and 4).

/// The pair (i, j), i < j, with the largest |correlation| in `cov` (None when D < 2).
pub fn most_correlated_pair(cov: &[Vec<f64>]) -> Option<(usize, usize)> {
    let score = |i: usize, j: usize| {
        let denominator = (cov[i][i] * cov[j][j]).sqrt();
        if denominator > 0.0 {
            (cov[i][j] / denominator).abs()
        } else {
            0.0
        }
    };
    best_pair(cov.len(), score, true)
}

/// The pair whose 2 × 2 marginal covariance differs most between `reference` and `other`, in the
/// SGFS eq. 14 relative sense Σ|C − C*| / Σ|C*| over the block (SGFS Fig. 1/4, right-hand plots).
pub fn largest_difference_pair(reference: &[Vec<f64>], other: &[Vec<f64>]) -> Option<(usize, usize)> {
    best_pair(reference.len(), |i, j| block_difference(reference, other, i, j), true)
}

/// The pair whose 2 × 2 marginal covariance differs least (SGFS Fig. 1/4, left-hand plots).
pub fn smallest_difference_pair(reference: &[Vec<f64>], other: &[Vec<f64>]) -> Option<(usize, usize)> {
    best_pair(reference.len(), |i, j| block_difference(reference, other, i, j), false)
}

fn block_difference(reference: &[Vec<f64>], other: &[Vec<f64>], i: usize, j: usize) -> f64 {
    let cells = [(i, i), (i, j), (j, i), (j, j)];
    let num: f64 = cells.iter().map(|&(a, b)| (reference[a][b] - other[a][b]).abs()).sum();
    let den: f64 = cells.iter().map(|&(a, b)| reference[a][b].abs()).sum();
    if den > 0.0 {
        num / den
    } else {
        num
    }
}

fn best_pair(dim: usize, score: impl Fn(usize, usize) -> f64, largest: bool) -> Option<(usize, usize)> {
    let mut best: Option<((usize, usize), f64)> = None;
    for i in 0..dim {
        for j in i + 1..dim {
            let s = score(i, j);
            let better = match best {
                None => true,
                Some((_, b)) => (largest && s > b) || (!largest && s < b),
            };
            if better {
                best = Some(((i, j), s));
            }
        }
    }
    best.map(|(pair, _)| pair)
}

/// JSON writes NaN as null; read null back as NaN (a truth posted by a Web Worker).
fn nan_from_null<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    Ok(<Option<f64> as serde::Deserialize>::deserialize(deserializer)?.unwrap_or(f64::NAN))
}
