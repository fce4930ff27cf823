//! Stochastic-gradient Fisher scoring (Ahn, Korattikara & Welling 2012, Algorithm 1; docs/sgfs-osgfs.md
//! §1), full (SGFS-f) and diagonal (SGFS-d).
//!
//! Per step: minibatch scores g_i, mean ḡ, covariance V (divisor n − 1); Î_t = (1 − κ_t)Î_{t−1} +
//! κ_t V with κ_t = 1/t; γ = (n + N)/n. With the paper's choice B = γ I_N and α = 2/√ε:
//! θ ← θ + 2 [(1 + α²) γ I_N]^(−1) (∇log p(θ) + N ḡ + η),  η ~ N(0, α² γ I_N).
//! Practical regularisation (docs/sgfs-osgfs.md §2, [derived]): I_N = N Î_t + G + λ I, with G the prior's
//! precision (by central differences of ∇log p at the start point; exact for Gaussian priors) and a
//! small ridge λ, so the first steps (Î_1 from one minibatch, singular when n ≤ D) stay defined.
//! SGFS-d keeps only diag(I_N). If the Cholesky factorisation of I_N fails, SGFS-f falls back to
//! the diagonal update for that step (counted in the diagnostics).

use super::fisher::{largest_eigenvalue, prior_precision, smallest_eigenvalue, RunningFisher};
use super::gradient::score_mean_and_covariance;
use super::sgfs_law::FisherSgfsLaw;
use super::{exact_gradient, Diagnostic, Emitted, GradientOracle, Sampler, StepParts};
use crate::curvature::Curvature;
use crate::defaults;
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{DerivedParam, SamplerKind, SamplerSpec};
use crate::rng::{standard_normal, ChainRng};
use nalgebra::{DMatrix, DVector};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::linear(
        "sgfs_alpha",
        "Noise level",
        "α",
        "α = 2/√ε: 0 = no injected noise and the largest step (Fisher scoring), large α = small steps like preconditioned SGLD",
        0.0,
        100.0,
        1.0,
    )
    .primary(),
    ParamSpec::integer("batch_size", "Minibatch size", "n", "Data per step (the paper recommends n > 100; clamped to N)", 2.0, 1e6, 100.0, true).primary(),
    ParamSpec::log(
        "sgfs_ridge",
        "Ridge",
        "λ",
        "The Fisher estimate used is N·Î + G + λI: G is the prior precision (added as in docs/sgfs-osgfs.md §2), λ a small ridge for the first, noisy Î",
        1e-12,
        1e6,
        1e-6,
    ),
];

pub const SPEC_FULL: SamplerSpec = SamplerSpec {
    name: "sgfs_f",
    label: "SGFS-f",
    description: "Stochastic-gradient Fisher scoring, full D×D Fisher (Ahn, Korattikara & Welling 2012)",
    kind: SamplerKind::StochasticGradient,
    params: PARAMS,
    unread: &[],
    build: |values, model, start| Box::new(Sgfs::new(model, start.to_vec(), values, false).refusing(defaults::fisher_premise_violation(model))),
    derive: derive_full,
};

pub const SPEC_DIAG: SamplerSpec = SamplerSpec {
    name: "sgfs_d",
    label: "SGFS-d",
    description: "Stochastic-gradient Fisher scoring, diagonal Fisher (Ahn, Korattikara & Welling 2012)",
    kind: SamplerKind::StochasticGradient,
    params: PARAMS,
    unread: &[],
    build: |values, model, start| Box::new(Sgfs::new(model, start.to_vec(), values, true).refusing(defaults::fisher_premise_violation(model))),
    derive: derive_diagonal,
};

/// SGFS along one direction of precision λ once Î has converged and N·Î + G equals the posterior
/// precision there: θ' = θ + (h/λ)(−λθ + ξ + η) with h = 2/((1 + α²)γ), ξ the gradient noise
/// (variance q) and η ~ N(0, α²γλ); stationary variance v = (h/λ²)(q + α²γλ)/(2 − h), lag-one
/// autocorrelation 1 − h. With q = (N/n − 1)λ exactly (data-driven noise, no synthetic part)
/// vλ = 2(1 − h)/(2 − h): the without-replacement deflation of tests/gradient_samplers.rs.
pub fn sgfs_law(alpha: f64, gamma: f64, precision: f64, noise: f64) -> (f64, f64) {
    let h = 2.0 / ((1.0 + alpha * alpha) * gamma);
    let variance = h / (precision * precision) * (noise + alpha * alpha * gamma * precision) / (2.0 - h);
    (variance, 1.0 - h)
}

/// SGFS-d's stationary covariance on the target's Gaussian summary (precision P) once Î has
/// converged, N·Î + G = P: only diag(P) = P_d preconditions, so
/// θ' = θ + h P_d⁻¹(−P(θ − μ) + ξ + η) with η ~ N(0, α²γP_d) and ξ the gradient noise
/// (N/n − 1)φP + s²I: A = I − hP_d⁻¹P, Q = h²P_d⁻¹(Σ_ξ + α²γP_d)P_d⁻¹, Σ = AΣAᵀ + Q (the law of
/// tests/gradient_samplers.rs; paper Fig. 1's variance deficit on correlated posteriors at α = 0).
/// In y = P_d^{1/2}θ the recursion is y' = (I − hS)y + noise with S = P_d^{−1/2}PP_d^{−1/2} = WΛWᵀ,
/// so in z = Wᵀy each entry solves alone: X_kl = Q'_kl/(1 − (1 − hλ_k)(1 − hλ_l)) with
/// Q' = h²[(N/n − 1)φΛ + s²WᵀP_d⁻¹W + α²γI], and Σ = BXBᵀ, B = P_d^{−1/2}W — one eigen-
/// decomposition per target, O(D³) per evaluation.
pub struct DiagonalSgfsLaw {
    /// Eigenvalues λ_k of S.
    lambda: Vec<f64>,
    /// B = P_d^{−1/2}W.
    back: DMatrix<f64>,
    /// WᵀP_d⁻¹W (the synthetic noise's shape in z).
    synthetic: DMatrix<f64>,
    n_data: f64,
    fisher_ratio: f64,
    synthetic_variance: f64,
}

impl DiagonalSgfsLaw {
    pub fn new(c: &Curvature) -> Option<DiagonalSgfsLaw> {
        let d = c.dim;
        let precision = &c.directions * DMatrix::from_diagonal(&DVector::from_column_slice(&c.precisions)) * c.directions.transpose();
        let root = DVector::from_fn(d, |a, _| 1.0 / precision[(a, a)].sqrt());
        let scaled = DMatrix::from_fn(d, d, |a, b| root[a] * precision[(a, b)] * root[b]);
        let eigen = crate::linalg::bounded_symmetric_eigen(&scaled)?;
        let w = eigen.eigenvectors;
        let back = DMatrix::from_fn(d, d, |a, k| root[a] * w[(a, k)]);
        let synthetic = back.transpose() * &back;
        Some(DiagonalSgfsLaw {
            lambda: eigen.eigenvalues.iter().copied().collect(),
            back,
            synthetic,
            n_data: c.n_data as f64,
            fisher_ratio: c.fisher_ratio,
            synthetic_variance: c.synthetic_variance,
        })
    }

    /// Σ and the spectral radius of A, or None when unstable.
    pub fn covariance(&self, alpha: f64, gamma: f64, batch: f64) -> Option<(DMatrix<f64>, f64)> {
        SgfsCovariance::covariance(self, alpha, gamma, batch)
    }
}

/// A law of SGFS with a full stationary covariance: [`DiagonalSgfsLaw`] (K = diag(P), F = φP) or
/// [`FisherSgfsLaw`] (the empirical Fisher the sampler builds, docs/sgfs-osgfs.md §6).
pub trait SgfsCovariance {
    /// Σ and the spectral radius of A at α, γ, n; None when unstable.
    fn covariance(&self, alpha: f64, gamma: f64, batch: f64) -> Option<(DMatrix<f64>, f64)>;
}

impl SgfsCovariance for FisherSgfsLaw {
    fn covariance(&self, alpha: f64, gamma: f64, batch: f64) -> Option<(DMatrix<f64>, f64)> {
        FisherSgfsLaw::covariance(self, alpha, gamma, batch)
    }
}

impl SgfsCovariance for DiagonalSgfsLaw {
    fn covariance(&self, alpha: f64, gamma: f64, batch: f64) -> Option<(DMatrix<f64>, f64)> {
        let h = 2.0 / ((1.0 + alpha * alpha) * gamma);
        let contraction: Vec<f64> = self.lambda.iter().map(|l| 1.0 - h * l).collect();
        let radius = contraction.iter().fold(0.0f64, |r, a| r.max(a.abs()));
        if radius >= 1.0 {
            return None;
        }
        let minibatch = (self.n_data / batch.clamp(1.0, self.n_data) - 1.0) * self.fisher_ratio;
        let d = self.lambda.len();
        let x = DMatrix::from_fn(d, d, |k, l| {
            let diagonal = if k == l { minibatch * self.lambda[k] + alpha * alpha * gamma } else { 0.0 };
            h * h * (diagonal + self.synthetic_variance * self.synthetic[(k, l)]) / (1.0 - contraction[k] * contraction[l])
        });
        Some((&self.back * x * self.back.transpose(), radius))
    }
}

/// SGFS's derived noise level α and minibatch (the criteria of [`crate::defaults`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgfsPlan {
    pub alpha: f64,
    pub batch: usize,
    pub e2_bound: f64,
}

/// The stationary variances along the summary's directions, their lag-one autocorrelations
/// (SGFS-d: the spectral radius of its A for every direction, a conservative proxy) and the E2 of
/// the stationary covariance, or None when unstable.
#[doc(hidden)] // pub for tests/unit (issue 23)
pub fn sgfs_variances(c: &Curvature, law: Option<&dyn SgfsCovariance>, alpha: f64, gamma: f64, batch: f64) -> Option<(Vec<f64>, Vec<f64>, f64)> {
    let Some(law) = law else {
        let (v, ar): (Vec<f64>, Vec<f64>) = c.precisions.iter().map(|&p| sgfs_law(alpha, gamma, p, c.gradient_noise(p, batch))).unzip();
        let e2 = c.e2_of_variances(&v);
        return Some((v, ar, e2));
    };
    let (sigma, radius) = law.covariance(alpha, gamma, batch)?;
    let v: Vec<f64> = (0..c.dim)
        .map(|k| {
            let u = c.directions.column(k);
            (u.transpose() * &sigma * u)[(0, 0)]
        })
        .collect();
    let truth = crate::linalg::rows_to_matrix(&c.cov);
    let e2 = (&sigma - &truth).abs().sum() / truth.abs().sum();
    Some((v, vec![radius; c.dim], e2))
}

impl SgfsPlan {
    /// For a batch n (γ = (n + N)/n): the smallest α ≥ 0 whose law meets the bias criteria (larger
    /// α only slows mixing); then the smallest n, not below the Fisher estimate's minimum
    /// ([`defaults::fisher_minimum_batch`]), that meets the E2 claim. SGFS-d uses its own law
    /// ([`DiagonalSgfsLaw`]).
    pub fn for_target(c: &Curvature, diagonal: bool) -> SgfsPlan {
        let law = if diagonal { DiagonalSgfsLaw::new(c) } else { None };
        Self::with_law(c, law.as_ref().map(|l| l as &dyn SgfsCovariance))
    }

    /// [`SgfsPlan::for_target`] with the law of the preconditioner the sampler builds from the
    /// model's data ([`FisherSgfsLaw`], docs/sgfs-osgfs.md §6); without data, the law on P alone.
    pub fn for_model(c: &Curvature, model: &dyn Model, diagonal: bool) -> SgfsPlan {
        match FisherSgfsLaw::new(c, model, diagonal) {
            Some(law) => Self::with_law(c, Some(&law)),
            None => Self::for_target(c, diagonal),
        }
    }

    /// The plan with `law` (None: SGFS-f's scalar law per direction, K = P, F = φP).
    fn with_law(c: &Curvature, law: Option<&dyn SgfsCovariance>) -> SgfsPlan {
        let plan = |batch: usize| {
            let gamma = (batch + c.n_data) as f64 / batch as f64;
            let alpha = smallest_alpha(c, law, gamma, batch as f64);
            let e2_bound = match sgfs_variances(c, law, alpha, gamma, batch as f64) {
                Some((v, ar, e2)) => e2 - c.e2_of_variances(&v) + defaults::e2_bound(c, &v, &ar, defaults::REFERENCE_SAMPLES),
                None => f64::INFINITY,
            };
            SgfsPlan { alpha, batch, e2_bound }
        };
        let minimum = defaults::fisher_minimum_batch(c);
        let batch = defaults::smallest_batch_where(c.n_data, |n| n >= minimum && plan(n).e2_bound <= defaults::E2_CLAIM).unwrap_or(minimum);
        plan(batch)
    }
}

/// The smallest α ∈ [0, 100] meeting the bias criteria at γ and batch n (bias falls as α grows).
fn smallest_alpha(c: &Curvature, law: Option<&dyn SgfsCovariance>, gamma: f64, batch: f64) -> f64 {
    let biased = |alpha: f64| match sgfs_variances(c, law, alpha, gamma, batch) {
        Some((v, _, e2)) => {
            let axes = v.iter().zip(&c.precisions).map(|(v, p)| v * p);
            axes.fold(0.0f64, |worst, r| worst.max((r - 1.0).abs())) > defaults::AXIS_BIAS || e2 > defaults::BIAS_E2
        }
        None => true,
    };
    if !biased(0.0) {
        return 0.0;
    }
    // The largest α that is still biased, by bisection on (0, 100]; the answer is just above it.
    defaults::largest_where(1e-6, 100.0, biased).map_or(1e-6, |a| a * (1.0 + 1e-9))
}

/// Derived defaults of SGFS-f and SGFS-d ([`SgfsPlan`]). α's slider spans [0, max(6, 3α)]
/// (paper Fig. 2: 0–6).
fn derive_with(model: &dyn Model, diagonal: bool) -> Vec<DerivedParam> {
    let Some(c) = Curvature::of(model) else { return Vec::new() };
    let plan = SgfsPlan::for_model(&c, model, diagonal);
    vec![
        defaults::derived(defaults::spec(PARAMS, "sgfs_alpha"), plan.alpha, 0.0, (3.0 * plan.alpha).max(6.0), None),
        defaults::derived(defaults::spec(PARAMS, "batch_size"), plan.batch as f64, 2.0, c.n_data as f64, None),
    ]
}

fn derive_full(model: &dyn Model, _values: &ParamValues) -> Vec<DerivedParam> {
    derive_with(model, false)
}

fn derive_diagonal(model: &dyn Model, _values: &ParamValues) -> Vec<DerivedParam> {
    derive_with(model, true)
}

/// Before the first step: ⌈N/n⌉ − 1 minibatch covariances at the start point, folded into Î as
/// the running mean's first terms (docs/sgfs-osgfs.md §2), so the first step's Î rests on about
/// one pass over the data instead of one minibatch. Costs about N score evaluations, once.
pub fn prime_fisher(fisher: &mut RunningFisher, model: &dyn Model, theta: &[f64], grads: &mut GradientOracle, rng: &mut ChainRng, scores: &mut Vec<f64>) {
    let dim = theta.len();
    let extra = grads.n_data().div_ceil(grads.batch_size().max(1)).saturating_sub(1);
    for _ in 0..extra {
        grads.minibatch_scores(model, theta, rng, scores);
        fisher.update(&score_mean_and_covariance(scores, dim).1);
    }
}

/// SGFS state: position, the running Fisher estimate, the prior precision.
#[derive(Clone, Debug)]
pub struct Sgfs {
    theta: Vec<f64>,
    diagonal: bool,
    alpha: f64,
    ridge: f64,
    fisher: RunningFisher,
    prior_precision: DMatrix<f64>,
    scores: Vec<f64>,
    drift: DVector<f64>,
    information: DMatrix<f64>,
    delta: DVector<f64>,
    prior_grad: Vec<f64>,
    cholesky_failures: u64,
    batch_size: usize,
    n_data: usize,
    /// Why the target does not suit SGFS (see [`defaults::fisher_premise_violation`]).
    unsupported: Option<String>,
    /// The injected noise of the latest step before preconditioning (α√γ·Lz, or per coordinate).
    noise: Vec<f64>,
    /// The latest step's parts, while recording them (slow motion).
    parts: Option<StepParts>,
}

impl Sgfs {
    /// `diagonal` selects SGFS-d.
    pub fn new(model: &dyn Model, start: Vec<f64>, params: &ParamValues, diagonal: bool) -> Self {
        let dim = start.len();
        Sgfs {
            prior_precision: prior_precision(model, &start),
            theta: start,
            diagonal,
            alpha: params.get("sgfs_alpha"),
            ridge: params.get("sgfs_ridge"),
            fisher: RunningFisher::new(dim),
            scores: Vec::new(),
            drift: DVector::zeros(dim),
            information: DMatrix::zeros(dim, dim),
            delta: DVector::zeros(dim),
            prior_grad: vec![0.0; dim],
            cholesky_failures: 0,
            batch_size: 0,
            n_data: model.n_data(),
            unsupported: None,
            noise: vec![0.0; dim],
            parts: None,
        }
    }

    /// Refuse to run, for this reason (the chain reports it instead of building).
    pub fn refusing(mut self, reason: Option<String>) -> Self {
        self.unsupported = reason;
        self
    }

    /// γ = (n + N)/n (Algorithm 1 line 2; not (n + N)/N, docs/sgfs-osgfs.md §2).
    pub fn gamma(&self) -> f64 {
        (self.batch_size + self.n_data) as f64 / self.batch_size.max(1) as f64
    }

    /// The regularised Fisher information of the whole data set, I_N = N Î + G + λI.
    pub fn fisher_information(&self) -> DMatrix<f64> {
        let mut information = self.prior_precision.clone();
        self.fill_fisher_information(&mut information);
        information
    }

    /// Writes N Î + G + λI into `out` (D × D) without allocating.
    fn fill_fisher_information(&self, out: &mut DMatrix<f64>) {
        let big_n = self.n_data as f64;
        for ((o, f), g) in out.iter_mut().zip(self.fisher.estimate().iter()).zip(self.prior_precision.iter()) {
            *o = big_n * f + g;
        }
        for j in 0..out.nrows() {
            out[(j, j)] += self.ridge;
        }
    }

    /// The step size ε = 4/α² that the noise level α stands for (∞ at α = 0).
    pub fn equivalent_step_size(&self) -> f64 {
        4.0 / (self.alpha * self.alpha)
    }

    /// Δθ = 2 [(1+α²)γ I_N]^(−1) (∇ + √(α²γ) L z) with I_N = L Lᵀ, written into `delta`;
    /// false (and `delta` untouched) if I_N is not SPD.
    fn full_update(&mut self, information: &DMatrix<f64>, delta: &mut DVector<f64>, rng: &mut ChainRng) -> bool {
        let dim = delta.len();
        let Some(chol) = information.clone().cholesky() else { return false };
        let gamma = self.gamma();
        let noise_scale = self.alpha * gamma.sqrt();
        // l_dirty's upper triangle is garbage: only entries k ≤ j are read.
        let l = chol.l_dirty();
        let z: Vec<f64> = (0..dim).map(|_| standard_normal(rng)).collect();
        for j in 0..dim {
            let lz: f64 = (0..=j).map(|k| l[(j, k)] * z[k]).sum();
            self.noise[j] = noise_scale * lz;
            delta[j] = self.drift[j] + self.noise[j];
        }
        chol.solve_mut(delta);
        *delta *= 2.0 / ((1.0 + self.alpha * self.alpha) * gamma);
        true
    }

    /// Per coordinate: Δθ_j = 2(∇_j + η_j)/((1+α²)γ I_jj), η_j ~ N(0, α²γ I_jj).
    fn diagonal_update(&mut self, information: &DMatrix<f64>, delta: &mut DVector<f64>, rng: &mut ChainRng) {
        let gamma = self.gamma();
        let scale = 2.0 / ((1.0 + self.alpha * self.alpha) * gamma);
        for j in 0..delta.len() {
            let info = information[(j, j)];
            self.noise[j] = self.alpha * (gamma * info).sqrt() * standard_normal(rng);
            delta[j] = scale * (self.drift[j] + self.noise[j]) / info;
        }
    }
}

impl Sgfs {
    /// Record the latest step's parts: Δθ = B⁻¹(∇log π̂ + η) with B = (1 + α²)γ I_N / 2 (full) or
    /// its diagonal (SGFS-d, and full steps that fell back) splits into B⁻¹∇log π (the drift with
    /// the full-data gradient), B⁻¹(∇log π̂ − ∇log π) (minibatch noise) and B⁻¹η (injected noise),
    /// each computed on its own (Ahn, Korattikara & Welling 2012, Algorithm 1 line 8).
    fn record(&mut self, model: &dyn Model, information: &DMatrix<f64>, diagonal: bool) {
        // Called before θ moves: θ is the step's start.
        let start = self.theta.clone();
        let full = exact_gradient(model, &start);
        let minibatch: Vec<f64> = self.drift.iter().zip(&full).map(|(d, f)| d - f).collect();
        let scale = 2.0 / ((1.0 + self.alpha * self.alpha) * self.gamma());
        let chol = if diagonal { None } else { information.clone().cholesky() };
        let precondition = |v: &[f64]| -> Vec<f64> {
            match &chol {
                Some(chol) => chol.solve(&DVector::from_column_slice(v)).iter().map(|x| scale * x).collect(),
                None => v.iter().enumerate().map(|(j, x)| scale * x / information[(j, j)]).collect(),
            }
        };
        let mut parts = self.parts.take().unwrap_or_default();
        parts.restart(&start);
        parts.push("drift", "gradient drift B⁻¹∇log π", precondition(&full));
        parts.push("minibatch_noise", "minibatch noise B⁻¹(∇log π̂ − ∇log π)", precondition(&minibatch));
        parts.push("injected_noise", "injected noise B⁻¹η", precondition(&self.noise));
        self.parts = Some(parts);
    }
}

impl Sampler for Sgfs {
    fn position(&self) -> &[f64] {
        &self.theta
    }

    fn record_parts(&mut self, on: bool) {
        self.parts = on.then(|| self.parts.take().unwrap_or_default());
    }

    fn last_parts(&self) -> Option<&StepParts> {
        self.parts.as_ref().filter(|p| !p.parts.is_empty())
    }

    /// Algorithm 1, lines 4–9.
    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted {
        let dim = self.theta.len();
        if self.fisher.updates() == 0 {
            prime_fisher(&mut self.fisher, model, &self.theta, grads, rng, &mut self.scores);
        }
        self.batch_size = grads.minibatch_scores(model, &self.theta, rng, &mut self.scores);
        self.n_data = grads.n_data();
        let (mean, cov) = score_mean_and_covariance(&self.scores, dim);
        self.fisher.update(&cov);
        self.prior_grad.fill(0.0);
        model.add_grad_log_prior(&self.theta, &mut self.prior_grad);
        let big_n = self.n_data as f64;
        for ((drift, prior), m) in self.drift.iter_mut().zip(&self.prior_grad).zip(&mean) {
            *drift = prior + big_n * m;
        }
        let mut information = std::mem::replace(&mut self.information, DMatrix::zeros(0, 0));
        self.fill_fisher_information(&mut information);
        let mut delta = std::mem::replace(&mut self.delta, DVector::zeros(0));
        let mut diagonal = self.diagonal;
        if self.diagonal {
            self.diagonal_update(&information, &mut delta, rng);
        } else if !self.full_update(&information, &mut delta, rng) {
            self.cholesky_failures += 1;
            diagonal = true;
            self.diagonal_update(&information, &mut delta, rng);
        }
        if self.parts.is_some() {
            self.record(model, &information, diagonal);
        }
        for (theta, d) in self.theta.iter_mut().zip(delta.iter()) {
            *theta += d;
        }
        self.information = information;
        self.delta = delta;
        Emitted::Sample { weight: 1.0 }
    }

    fn update_params(&mut self, params: &ParamValues) {
        self.alpha = params.get("sgfs_alpha");
        self.ridge = params.get("sgfs_ridge");
    }

    fn unsupported_reason(&self) -> Option<String> {
        self.unsupported.clone()
    }

    fn fisher_estimate_kept(&self) -> bool {
        self.fisher.nonsingular()
    }

    /// Fisher summary: trace and extreme eigenvalues of I_N (computed on demand, not per step).
    fn divergence_advice(&self) -> Option<&'static str> {
        Some("The empirical Fisher information is singular or too small: on a data-free toy set the gradient noise s > 0 (its scores are otherwise identical), use a larger minibatch, or pick a target with data; then reset.")
    }

    fn diagnostics(&self) -> Vec<Diagnostic> {
        let information = self.fisher_information();
        vec![
            Diagnostic { name: "fisher_trace", label: "trace of Fisher estimate N·Î+G+λI", value: information.trace() },
            Diagnostic { name: "fisher_lambda_max", label: "largest eigenvalue of Fisher estimate", value: largest_eigenvalue(&information) },
            Diagnostic { name: "fisher_lambda_min", label: "smallest eigenvalue of Fisher estimate", value: smallest_eigenvalue(&information) },
            Diagnostic { name: "gamma", label: "γ = (n+N)/n", value: self.gamma() },
            Diagnostic { name: "equivalent_step_size", label: "step size ε = 4/α²", value: self.equivalent_step_size() },
            Diagnostic { name: "cholesky_fallbacks", label: "steps that fell back to the diagonal", value: self.cholesky_failures as f64 },
        ]
    }
}
