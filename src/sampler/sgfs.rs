//! Stochastic-gradient Fisher scoring (Ahn, Korattikara & Welling 2012, Algorithm 1; ALGORITHMS.md
//! §2), full (SGFS-f) and diagonal (SGFS-d).
//!
//! Per step: minibatch scores g_i, mean ḡ, covariance V (divisor n − 1); Î_t = (1 − κ_t)Î_{t−1} +
//! κ_t V with κ_t = 1/t; γ = (n + N)/n. With the paper's choice B = γ I_N and α = 2/√ε:
//! θ ← θ + 2 [(1 + α²) γ I_N]^(−1) (∇log p(θ) + N ḡ + η),  η ~ N(0, α² γ I_N).
//! Practical regularisation (ALGORITHMS.md §2, [DERIVED]): I_N = N Î_t + G + λ I, with G the prior's
//! precision (by central differences of ∇log p at the start point; exact for Gaussian priors) and a
//! small ridge λ, so the first steps (Î_1 from one minibatch, singular when n ≤ D) stay defined.
//! SGFS-d keeps only diag(I_N). If the Cholesky factorisation of I_N fails, SGFS-f falls back to
//! the diagonal update for that step (counted in the diagnostics).

use super::fisher::{largest_eigenvalue, prior_precision, smallest_eigenvalue, RunningFisher};
use super::gradient::score_mean_and_covariance;
use super::{Diagnostic, Emitted, GradientOracle, Sampler};
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{SamplerKind, SamplerSpec};
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
        "The Fisher estimate used is N·Î + G + λI: G is the prior precision (added as in ALGORITHMS.md §2), λ a small ridge for the first, noisy Î",
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
    build: |values, model, start| Box::new(Sgfs::new(model, start.to_vec(), values, false)),
    derive: crate::spec::no_derived_defaults,
};

pub const SPEC_DIAG: SamplerSpec = SamplerSpec {
    name: "sgfs_d",
    label: "SGFS-d",
    description: "Stochastic-gradient Fisher scoring, diagonal Fisher (Ahn, Korattikara & Welling 2012)",
    kind: SamplerKind::StochasticGradient,
    params: PARAMS,
    build: |values, model, start| Box::new(Sgfs::new(model, start.to_vec(), values, true)),
    derive: crate::spec::no_derived_defaults,
};

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
        }
    }

    /// γ = (n + N)/n (Algorithm 1 line 2; not (n + N)/N, ALGORITHMS.md §2).
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
    fn full_update(&self, information: &DMatrix<f64>, delta: &mut DVector<f64>, rng: &mut ChainRng) -> bool {
        let dim = delta.len();
        let Some(chol) = information.clone().cholesky() else { return false };
        let gamma = self.gamma();
        let noise_scale = self.alpha * gamma.sqrt();
        // l_dirty's upper triangle is garbage: only entries k ≤ j are read.
        let l = chol.l_dirty();
        let z: Vec<f64> = (0..dim).map(|_| standard_normal(rng)).collect();
        for j in 0..dim {
            let lz: f64 = (0..=j).map(|k| l[(j, k)] * z[k]).sum();
            delta[j] = self.drift[j] + noise_scale * lz;
        }
        chol.solve_mut(delta);
        *delta *= 2.0 / ((1.0 + self.alpha * self.alpha) * gamma);
        true
    }

    /// Per coordinate: Δθ_j = 2(∇_j + η_j)/((1+α²)γ I_jj), η_j ~ N(0, α²γ I_jj).
    fn diagonal_update(&self, information: &DMatrix<f64>, delta: &mut DVector<f64>, rng: &mut ChainRng) {
        let gamma = self.gamma();
        let scale = 2.0 / ((1.0 + self.alpha * self.alpha) * gamma);
        for j in 0..delta.len() {
            let info = information[(j, j)];
            let noise = self.alpha * (gamma * info).sqrt() * standard_normal(rng);
            delta[j] = scale * (self.drift[j] + noise) / info;
        }
    }
}

impl Sampler for Sgfs {
    fn position(&self) -> &[f64] {
        &self.theta
    }

    /// Algorithm 1, lines 4–9.
    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted {
        let dim = self.theta.len();
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
        if self.diagonal {
            self.diagonal_update(&information, &mut delta, rng);
        } else if !self.full_update(&information, &mut delta, rng) {
            self.cholesky_failures += 1;
            self.diagonal_update(&information, &mut delta, rng);
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
