//! Statistical tests of the gradient samplers against closed forms (docs/sgld.md, docs/sgfs-osgfs.md, docs/sghmc.md, docs/truth.md).
//! Every test is seeded. Tolerances are Monte-Carlo standard errors from batch means (50 batches)
//! times a stated factor, plus, where a sampler is only approximately exact, a stated model error.

use nalgebra::{DMatrix, DVector};
use sgviz::diagnostics::batch_means_standard_error;
use sgviz::linalg::discrete_lyapunov;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::model::{Model, View};
use sgviz::params::ParamValues;
use sgviz::rng::{chain_rng, standard_normal};
use sgviz::sampler::sgfs::{self, Sgfs};
use sgviz::sampler::sghmc::{self, Sghmc};
use sgviz::sampler::sgld::{self, Sgld};
use sgviz::sampler::{Emitted, GradientOracle, Sampler};

pub(crate) const BATCHES: usize = 50;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Recorded positions (thinned), row-major.
pub(crate) struct Trace {
    pub(crate) dim: usize,
    pub(crate) points: Vec<f64>,
}

impl Trace {
    pub(crate) fn len(&self) -> usize {
        self.points.len() / self.dim
    }
    pub(crate) fn coordinate(&self, j: usize) -> Vec<f64> {
        self.points.chunks(self.dim).map(|p| p[j]).collect()
    }
    pub(crate) fn mean(&self, j: usize) -> f64 {
        self.coordinate(j).iter().sum::<f64>() / self.len() as f64
    }
    /// Series of centred products (x_a − m_a)(x_b − m_b); its mean is the covariance entry.
    pub(crate) fn product_series(&self, a: usize, b: usize) -> Vec<f64> {
        let (ma, mb) = (self.mean(a), self.mean(b));
        self.points.chunks(self.dim).map(|p| (p[a] - ma) * (p[b] - mb)).collect()
    }
    pub(crate) fn cov(&self, a: usize, b: usize) -> f64 {
        let s = self.product_series(a, b);
        s.iter().sum::<f64>() / s.len() as f64
    }
    pub(crate) fn cov_se(&self, a: usize, b: usize) -> f64 {
        batch_means_standard_error(&self.product_series(a, b), BATCHES)
    }
    pub(crate) fn mean_se(&self, j: usize) -> f64 {
        batch_means_standard_error(&self.coordinate(j), BATCHES)
    }
}

/// Run `sampler` for `burn_in + steps` steps with minibatch size `batch`, keeping every `thin`-th
/// emitted sample after burn-in.
pub(crate) fn run(sampler: &mut dyn Sampler, model: &dyn Model, batch: usize, seed: u64, burn_in: u64, steps: u64, thin: u64) -> Trace {
    let mut oracle = GradientOracle::new(model, batch);
    let mut rng = chain_rng(seed);
    let dim = model.dim();
    let mut points = Vec::with_capacity(dim * (steps / thin) as usize + dim);
    for t in 0..burn_in + steps {
        let emitted = sampler.step(model, &mut oracle, &mut rng);
        if t >= burn_in && (t - burn_in).is_multiple_of(thin) && matches!(emitted, Emitted::Sample { .. }) {
            points.extend_from_slice(sampler.position());
        }
    }
    assert!(sampler.position().iter().all(|x| x.is_finite()), "sampler diverged");
    Trace { dim, points }
}

pub(crate) fn values(specs: &[sgviz::params::ParamSpec], settings: &[(&str, f64)]) -> ParamValues {
    let mut v = ParamValues::defaults(specs);
    for (name, value) in settings {
        v.set(specs, name, *value).unwrap();
    }
    v
}

/// Assert every covariance entry is within `sigmas` MCSE (+ `model_error`·|truth|) of `truth`.
pub(crate) fn assert_cov_close(trace: &Trace, truth: &DMatrix<f64>, sigmas: f64, model_error: f64, what: &str) {
    for a in 0..trace.dim {
        for b in a..trace.dim {
            let (est, se, t) = (trace.cov(a, b), trace.cov_se(a, b), truth[(a, b)]);
            let tol = sigmas * se + model_error * t.abs();
            assert!((est - t).abs() <= tol, "{what}: cov[{a}][{b}] = {est:.5} vs {t:.5} (tolerance {tol:.5}, MCSE {se:.5})");
        }
    }
    assert_gaussian_tails(trace, truth, what);
}

/// Every law these tests compare with is Gaussian (linear recursions with Gaussian noise), so no
/// sample lies beyond Mahalanobis² 45 from the trace's mean in the law's metric (6.7 sd: about
/// 2·10⁻¹⁰ per sample in one or two dimensions). The covariance check alone passes heavy-tailed
/// noise (a cargo-mutants survivor drew SGFS-f's noise as L/z): its outliers inflate the
/// batch-means SE as much as the covariance.
fn assert_gaussian_tails(trace: &Trace, law: &DMatrix<f64>, what: &str) {
    let precision = law.clone().try_inverse().expect("an invertible law");
    let mean = DVector::from_fn(trace.dim, |j, _| trace.mean(j));
    let worst = trace
        .points
        .chunks(trace.dim)
        .map(|p| {
            let d = DVector::from_column_slice(p) - &mean;
            (d.transpose() * &precision * &d)[(0, 0)]
        })
        .fold(0.0, f64::max);
    assert!(worst <= 45.0, "{what}: a sample at Mahalanobis² {worst:.1} from the mean: not the Gaussian law's tails");
}

/// Bayesian inference of a mean: x_i ~ N(θ, Σ_x) with known Σ_x (precision Λ), θ ~ N(0, τ² I).
/// Per-datum scores Λ(x_i − θ) have a θ-independent covariance Λ S Λ (S the sample covariance of
/// the x_i), so the stochastic-gradient recursions are exactly linear with known noise, and the
/// posterior is exactly Gaussian with precision P = NΛ + I/τ².
pub(crate) struct GaussianMean {
    dim: usize,
    data: Vec<f64>,
    data_precision: DMatrix<f64>,
    pub(crate) prior_var: f64,
}

impl GaussianMean {
    pub(crate) fn new(n: usize, data_cov: &DMatrix<f64>, truth: &[f64], prior_var: f64, seed: u64) -> Self {
        let dim = truth.len();
        let chol = data_cov.clone().cholesky().unwrap().l();
        let mut rng = chain_rng(seed);
        let mut data = Vec::with_capacity(n * dim);
        for _ in 0..n {
            let z = DVector::from_fn(dim, |_, _| standard_normal(&mut rng));
            let x = &chol * z;
            data.extend((0..dim).map(|j| truth[j] + x[j]));
        }
        GaussianMean { dim, data, data_precision: data_cov.clone().try_inverse().unwrap(), prior_var }
    }
    fn row(&self, i: usize) -> DVector<f64> {
        DVector::from_column_slice(&self.data[i * self.dim..(i + 1) * self.dim])
    }
    pub(crate) fn posterior_precision(&self) -> DMatrix<f64> {
        &self.data_precision * self.n_data() as f64 + DMatrix::identity(self.dim, self.dim) / self.prior_var
    }
    pub(crate) fn posterior_mean(&self) -> DVector<f64> {
        let sum = (0..self.n_data()).fold(DVector::zeros(self.dim), |acc, i| acc + self.row(i));
        self.posterior_precision().cholesky().unwrap().solve(&(&self.data_precision * sum))
    }
    /// Sample covariance (divisor N − 1) of the scores: Λ S Λ.
    pub(crate) fn score_covariance(&self) -> DMatrix<f64> {
        let n = self.n_data();
        let mean = (0..n).fold(DVector::zeros(self.dim), |acc, i| acc + self.row(i)) / n as f64;
        let s = (0..n).fold(DMatrix::zeros(self.dim, self.dim), |acc, i| {
            let d = self.row(i) - &mean;
            acc + &d * d.transpose()
        }) / (n - 1) as f64;
        &self.data_precision * s * &self.data_precision
    }
    /// Exact covariance of (N/n) Σ_{i∈S} g_i for a without-replacement minibatch of size n.
    pub(crate) fn gradient_noise_covariance(&self, batch: usize) -> DMatrix<f64> {
        let (n, b) = (self.n_data() as f64, batch as f64);
        self.score_covariance() * (n * n / b * (1.0 - b / n))
    }
}

impl Model for GaussianMean {
    fn dim(&self) -> usize {
        self.dim
    }
    fn n_data(&self) -> usize {
        self.data.len() / self.dim
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        -0.5 * theta.iter().map(|t| t * t).sum::<f64>() / self.prior_var
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        for (o, t) in out.iter_mut().zip(theta) {
            *o -= t / self.prior_var;
        }
    }
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        let d = self.row(i) - DVector::from_column_slice(theta);
        -0.5 * d.dot(&(&self.data_precision * &d))
    }
    #[allow(clippy::needless_range_loop)]
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        let row = &self.data[i * self.dim..(i + 1) * self.dim];
        for a in 0..self.dim {
            for b in 0..self.dim {
                out[a] += self.data_precision[(a, b)] * (row[b] - theta[b]);
            }
        }
    }
    fn view(&self) -> View {
        View::centred(0.0, 0.0, 10.0, 10.0)
    }
}

/// N(0, I₂) split into 100 *identical* terms ℓ_i = log π/100 under a flat prior, with synthetic
/// gradient noise s (what the toy targets were before they got a per-datum structure): every
/// minibatch gradient is exact up to the synthetic N(0, s²I), whose per-datum share makes the
/// empirical Fisher N·C = s²n/N·I — the noise level, not the curvature.
pub(crate) struct IdenticalScores {
    pub(crate) noise_sd: f64,
}

impl Model for IdenticalScores {
    fn dim(&self) -> usize {
        2
    }
    fn n_data(&self) -> usize {
        100
    }
    fn log_prior(&self, _theta: &[f64]) -> f64 {
        0.0
    }
    fn add_grad_log_prior(&self, _theta: &[f64], _out: &mut [f64]) {}
    fn log_lik(&self, _i: usize, theta: &[f64]) -> f64 {
        -0.5 * (theta[0] * theta[0] + theta[1] * theta[1]) / 100.0
    }
    fn add_grad_log_lik(&self, _i: usize, theta: &[f64], out: &mut [f64]) {
        out[0] -= theta[0] / 100.0;
        out[1] -= theta[1] / 100.0;
    }
    fn synthetic_noise_sd(&self) -> f64 {
        self.noise_sd
    }
    fn view(&self) -> View {
        View::centred(0.0, 0.0, 4.0, 4.0)
    }
}

// ---------------------------------------------------------------------------------------------
// SGLD (docs/sgld.md §1, §4)
// ---------------------------------------------------------------------------------------------

/// Discretised Langevin on N(0, P⁻¹): θ' = (I − εMP/2)θ + N(0, εM), stationary Σ = AΣAᵀ + εM.
pub(crate) fn langevin_law(precision: &DMatrix<f64>, step: f64, m: &[f64]) -> DMatrix<f64> {
    let mm = DMatrix::from_diagonal(&DVector::from_column_slice(m));
    let a = DMatrix::identity(2, 2) - &mm * precision * (step / 2.0);
    discrete_lyapunov(&a, &(mm * step)).unwrap()
}

pub(crate) fn gaussian_precision(g: &CorrelatedGaussian) -> DMatrix<f64> {
    let p = g.precision();
    DMatrix::from_row_slice(2, 2, &[p[0][0], p[0][1], p[1][0], p[1][1]])
}

#[test]
fn sgld_stationary_covariance_follows_the_discretised_law() {
    // Full-batch gradients (grad_noise = 0): the recursion is exactly linear-Gaussian, so its
    // covariance is the Lyapunov solution, bias included. Tolerance: 4 MCSE per entry.
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.9, 0.0);
    let precision = gaussian_precision(&model);
    let truth = precision.clone().try_inverse().unwrap();
    for (step, steps, visible_bias) in [(0.05, 1_500_000u64, false), (0.3, 600_000, true)] {
        let mut sgld = Sgld::new(vec![0.0, 0.0], &values(sgld::PARAMS, &[("step_size", step)]));
        let trace = run(&mut sgld, &model, 100, 11, 2_000, steps, 1);
        let law = langevin_law(&precision, step, &[1.0, 1.0]);
        assert_cov_close(&trace, &law, 4.0, 0.0, &format!("SGLD ε = {step}"));
        if visible_bias {
            // The bias itself is resolved: the law differs from the target by ≫ the MCSE.
            let (gap, se) = ((law[(0, 0)] - truth[(0, 0)]).abs(), trace.cov_se(0, 0));
            assert!(gap > 8.0 * se, "bias {gap} not resolved (MCSE {se})");
            assert!((trace.cov(0, 0) - truth[(0, 0)]).abs() > 4.0 * se, "biased SGLD should not match the target");
        }
    }
}

#[test]
fn preconditioned_sgld_follows_its_discretised_law() {
    // M = diag(1/P_jj): A = I − εMP/2, Q = εM. Tolerance: 4 MCSE per entry.
    let model = CorrelatedGaussian::new(1.0, 2.0, 0.9, 0.0);
    let precision = gaussian_precision(&model);
    let m = vec![1.0 / precision[(0, 0)], 1.0 / precision[(1, 1)]];
    let step = 1.0;
    let mut sgld = Sgld::with_fixed_preconditioner(vec![0.0, 0.0], &values(sgld::PARAMS, &[("step_size", step)]), m.clone());
    let trace = run(&mut sgld, &model, 100, 12, 2_000, 800_000, 1);
    let law = langevin_law(&precision, step, &m);
    assert_cov_close(&trace, &law, 4.0, 0.0, "preconditioned SGLD");
    // Ignoring M in the law (the unpreconditioned law at the same ε) would be far off.
    let wrong = langevin_law(&precision, step * m[0], &[1.0, 1.0]);
    assert!((wrong[(1, 1)] - law[(1, 1)]).abs() > 8.0 * trace.cov_se(1, 1));
}

// ---------------------------------------------------------------------------------------------
// SGFS (docs/sgfs-osgfs.md §1)
// ---------------------------------------------------------------------------------------------

/// Exact stationary covariance of SGFS on a [`GaussianMean`] once Î has converged to the score
/// covariance: θ' = θ + 2K⁻¹(−P(θ − m) + ξ + η) with K = (1+α²)γ Ĩ, ξ ~ N(0, Σ_g) the
/// without-replacement minibatch noise, η ~ N(0, α²γĨ); Ĩ = N Î + G + λI (or its diagonal).
fn sgfs_law(model: &GaussianMean, batch: usize, alpha: f64, ridge: f64, diagonal: bool) -> DMatrix<f64> {
    let d = model.dim;
    let n = model.n_data() as f64;
    let gamma = (batch as f64 + n) / batch as f64;
    let mut info = model.score_covariance() * n + DMatrix::identity(d, d) * (1.0 / model.prior_var + ridge);
    if diagonal {
        info = DMatrix::from_diagonal(&info.diagonal());
    }
    let k_inv = (&info * ((1.0 + alpha * alpha) * gamma)).try_inverse().unwrap();
    let a = DMatrix::identity(d, d) - &k_inv * model.posterior_precision() * 2.0;
    let noise = &info * (alpha * alpha * gamma) + model.gradient_noise_covariance(batch);
    let q = &k_inv * noise * &k_inv * 4.0;
    discrete_lyapunov(&a, &q).unwrap()
}

/// Runs SGFS from the posterior mean and checks (i) the empirical covariance against the exact
/// discretised law within 4 MCSE and (ii) that law against the true posterior covariance within
/// `posterior_error` (the deflation left by without-replacement minibatches, (γ−2)/(γ−1) at α = 0).
fn check_sgfs(model: &GaussianMean, batch: usize, step: f64, steps: u64, seed: u64, posterior_error: f64) {
    let alpha = 2.0 / step.sqrt();
    let params = values(sgfs::PARAMS, &[("sgfs_alpha", alpha), ("batch_size", batch as f64)]);
    let start = model.posterior_mean().as_slice().to_vec();
    let mut sampler = Sgfs::new(model, start, &params, false);
    let trace = run(&mut sampler, model, batch, seed, 20_000, steps, 1);
    let law = sgfs_law(model, batch, alpha, params.get("sgfs_ridge"), false);
    let what = format!("SGFS-f D = {}, ε = {step}", model.dim);
    assert_cov_close(&trace, &law, 4.0, 0.0, &what);
    let posterior = model.posterior_precision().try_inverse().unwrap();
    let law_error = (&law - &posterior).abs().max() / posterior.abs().max();
    assert!(law_error < posterior_error, "{what}: discretised law is {law_error:.3} away from the posterior");
}

#[test]
fn sgfs_variance_matches_the_posterior_in_1d_across_step_sizes() {
    // N·Var ≈ 1 for N(θ, 1) data. Large N/n keeps the without-replacement deflation at ≤ 2 %
    // (model error 5 %); ε = 1e-3 (α ≈ 63) mixes in ~4/(α²γ) per step, so it uses γ = 3, where
    // at large α the deflation is O(1/α²).
    let big = GaussianMean::new(1000, &DMatrix::from_element(1, 1, 1.0), &[1.0], 100.0, 21);
    check_sgfs(&big, 20, 10.0, 600_000, 1, 0.05);
    check_sgfs(&big, 20, 0.1, 1_500_000, 2, 0.05);
    let small = GaussianMean::new(40, &DMatrix::from_element(1, 1, 1.0), &[1.0], 100.0, 22);
    check_sgfs(&small, 20, 1e-3, 3_000_000, 3, 0.05);
}

#[test]
fn sgfs_covariance_matches_the_posterior_in_2d_across_step_sizes() {
    let data_cov = DMatrix::from_row_slice(2, 2, &[1.0, 0.6, 0.6, 2.0]);
    let big = GaussianMean::new(1000, &data_cov, &[1.0, -1.0], 100.0, 23);
    check_sgfs(&big, 20, 10.0, 600_000, 4, 0.05);
    check_sgfs(&big, 20, 0.1, 1_500_000, 5, 0.05);
    let small = GaussianMean::new(40, &data_cov, &[1.0, -1.0], 100.0, 24);
    check_sgfs(&small, 20, 1e-3, 3_000_000, 6, 0.05);
}

#[test]
fn sgfs_diagonal_underestimates_a_correlated_posterior_at_alpha_zero_and_full_does_not() {
    // SGFS paper Fig. 1: at α = 0, SGFS-f matches the Gaussian posterior while SGFS-d shrinks it.
    let data_cov = DMatrix::from_row_slice(2, 2, &[1.0, 0.95, 0.95, 1.0]);
    let model = GaussianMean::new(1000, &data_cov, &[0.5, 0.5], 100.0, 25);
    let posterior = model.posterior_precision().try_inverse().unwrap();
    let params = values(sgfs::PARAMS, &[("sgfs_alpha", 0.0), ("batch_size", 20.0)]);
    let start = model.posterior_mean().as_slice().to_vec();
    let mut full = Sgfs::new(&model, start.clone(), &params, false);
    let full_trace = run(&mut full, &model, 20, 7, 20_000, 400_000, 1);
    // Model error 5 %: the without-replacement deflation (γ−2)/(γ−1) = 0.98 at γ = 51.
    assert_cov_close(&full_trace, &posterior, 4.0, 0.05, "SGFS-f at α = 0");
    let mut diag = Sgfs::new(&model, start, &params, true);
    let diag_trace = run(&mut diag, &model, 20, 8, 20_000, 2_000_000, 1);
    assert_cov_close(&diag_trace, &sgfs_law(&model, 20, 0.0, params.get("sgfs_ridge"), true), 4.0, 0.0, "SGFS-d law");
    for j in 0..2 {
        let ratio = diag_trace.cov(j, j) / posterior[(j, j)];
        assert!(ratio < 0.5, "SGFS-d variance ratio {ratio} should be well below 1");
    }
}

#[test]
fn sgfs_diagonal_at_positive_alpha_follows_its_law_with_noise_alpha_squared_gamma() {
    // At α = 0 the injected noise vanishes, so only α > 0 tests its scale α²γ·diag(I_N): at
    // α = 0.3, γ = (50 + 1000)/50 = 21 it is 21 times the scale without γ (issue 15). The
    // covariance must follow the exact SGFS-d law within 4 MCSE per entry, and the law with the
    // noise scale losing its γ must be resolved from it by more than 8 MCSE.
    let data_cov = DMatrix::from_row_slice(2, 2, &[1.0, 0.6, 0.6, 2.0]);
    let model = GaussianMean::new(1000, &data_cov, &[1.0, -1.0], 100.0, 26);
    let (batch, alpha) = (50, 0.3);
    let params = values(sgfs::PARAMS, &[("sgfs_alpha", alpha), ("batch_size", batch as f64)]);
    let start = model.posterior_mean().as_slice().to_vec();
    let mut sampler = Sgfs::new(&model, start, &params, true);
    let trace = run(&mut sampler, &model, batch, 9, 20_000, 300_000, 1);
    let law = sgfs_law(&model, batch, alpha, params.get("sgfs_ridge"), true);
    assert_cov_close(&trace, &law, 4.0, 0.0, "SGFS-d at α = 0.3");
    // Without γ in the noise: η ~ N(0, α²I_jj) = N(0, α²γI_jj) at α' = α/√γ in the noise only.
    let gamma = (batch as f64 + 1000.0) / batch as f64;
    let info = DMatrix::from_diagonal(&(model.score_covariance() * 1000.0 + DMatrix::identity(2, 2) * (1.0 / model.prior_var + params.get("sgfs_ridge"))).diagonal());
    let k_inv = (&info * ((1.0 + alpha * alpha) * gamma)).try_inverse().unwrap();
    let a = DMatrix::identity(2, 2) - &k_inv * model.posterior_precision() * 2.0;
    let q = &k_inv * (&info * (alpha * alpha) + model.gradient_noise_covariance(batch)) * &k_inv * 4.0;
    let without_gamma = discrete_lyapunov(&a, &q).unwrap();
    for j in 0..2 {
        assert!((without_gamma[(j, j)] - law[(j, j)]).abs() > 8.0 * trace.cov_se(j, j), "γ in the noise not resolved on θ{j}");
    }
}

// ---------------------------------------------------------------------------------------------
// SGHMC (docs/sghmc.md §1, §3)
// ---------------------------------------------------------------------------------------------

/// Exact stationary covariance of θ under SGHMC on N(0, P⁻¹) in 2-D: with x = (θ, v),
/// v' = (1−α)v − ηPθ + w, θ' = θ + v', w ~ N(0, q I), q = 2(α − β̂)η + η²s² (s² the gradient-noise
/// variance), i.e. A = [[I − ηP, (1−α)I], [−ηP, (1−α)I]], Q = q [[I, I], [I, I]].
fn sghmc_law(precision: &DMatrix<f64>, eta: f64, friction: f64, q: f64) -> DMatrix<f64> {
    let mut a = DMatrix::zeros(4, 4);
    let mut noise = DMatrix::zeros(4, 4);
    for r in 0..2 {
        for c in 0..2 {
            let id = if r == c { 1.0 } else { 0.0 };
            a[(r, c)] = id - eta * precision[(r, c)];
            a[(r, c + 2)] = (1.0 - friction) * id;
            a[(r + 2, c)] = -eta * precision[(r, c)];
            a[(r + 2, c + 2)] = (1.0 - friction) * id;
            for (dr, dc) in [(0, 0), (0, 2), (2, 0), (2, 2)] {
                noise[(r + dr, c + dc)] = q * id;
            }
        }
    }
    discrete_lyapunov(&a, &noise).unwrap().view((0, 0), (2, 2)).into_owned()
}

#[test]
fn sghmc_stationary_covariance_follows_its_discretised_law_and_beta_hat_corrects_noise() {
    let (eta, friction, s) = (0.05, 0.2, 2.0);
    let run_sghmc = |noise_sd: f64, beta_hat: f64, seed: u64| {
        let model = CorrelatedGaussian::new(1.0, 1.0, 0.5, noise_sd);
        let params = values(sghmc::PARAMS, &[("sghmc_lr", eta), ("friction", friction), ("beta_hat", beta_hat)]);
        let mut sampler = Sghmc::new(vec![0.0, 0.0], &params);
        // Full batch of the toy's pseudo-data: its own minibatch noise is zero, only s remains.
        (run(&mut sampler, &model, 100, seed, 5_000, 600_000, 1), gaussian_precision(&model))
    };
    // No gradient noise: the discretised law (tolerance 4 MCSE per entry).
    let (clean, precision) = run_sghmc(0.0, 0.0, 31);
    let clean_law = sghmc_law(&precision, eta, friction, 2.0 * friction * eta);
    assert_cov_close(&clean, &clean_law, 4.0, 0.0, "SGHMC without gradient noise");
    // Gradient noise s² and β̂ = 0: inflated law, resolved from the clean one.
    let (noisy, _) = run_sghmc(s, 0.0, 32);
    let noisy_law = sghmc_law(&precision, eta, friction, 2.0 * friction * eta + eta * eta * s * s);
    assert_cov_close(&noisy, &noisy_law, 4.0, 0.0, "SGHMC with noise, β̂ = 0");
    assert!((noisy_law[(0, 0)] - clean_law[(0, 0)]).abs() > 10.0 * noisy.cov_se(0, 0));
    // β̂ = ηV/2 removes exactly the extra noise: back to the clean law.
    let (corrected, _) = run_sghmc(s, eta * s * s / 2.0, 33);
    assert_cov_close(&corrected, &clean_law, 4.0, 0.0, "SGHMC with noise, β̂ = ηV/2");
}

#[test]
fn sghmc_with_momentum_resampled_every_step_follows_its_langevin_law() {
    // With L = 1, v ~ N(0, ηI) is redrawn before each step, so θ' = θ + (1−α)v + η∇log π(θ) + w,
    // w ~ N(0, 2(α−β̂)η): a linear recursion A = I − ηP, Q = η((1−α)² + 2α)I. A wrong momentum
    // variance, or θ moved before v, breaks this. Tolerance: 4 MCSE per entry.
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.5, 0.0);
    let (eta, friction) = (0.2, 0.3);
    let params = values(sghmc::PARAMS, &[("sghmc_lr", eta), ("friction", friction), ("resample_every", 1.0)]);
    let mut sampler = Sghmc::new(vec![0.0, 0.0], &params);
    let trace = run(&mut sampler, &model, 100, 34, 2_000, 400_000, 1);
    let precision = gaussian_precision(&model);
    let a = DMatrix::identity(2, 2) - &precision * eta;
    let q = DMatrix::identity(2, 2) * (eta * ((1.0 - friction).powi(2) + 2.0 * friction));
    assert_cov_close(&trace, &discrete_lyapunov(&a, &q).unwrap(), 4.0, 0.0, "SGHMC with L = 1");
}

/// The θ-covariance of SGHMC with v ~ N(0, ηI) redrawn before every `period`-th step, averaged over
/// the period's phases (what a trace that keeps every step estimates), computed here by plain
/// iteration of the (θ, v) covariance, independently of src/law.rs. One step of the SGAIS paper's
/// eq. 3 on a Gaussian with precision P, full batch (β̂ = 0): v' = (1−α)v − ηPθ + w, θ' = θ + v',
/// w ~ N(0, 2αηI), so z' = Tz + (w, w) with T = [[I − ηP, (1−α)I], [−ηP, (1−α)I]].
fn sghmc_periodic_law(precision: &DMatrix<f64>, eta: f64, friction: f64, period: usize) -> DMatrix<f64> {
    let d = precision.nrows();
    let id = DMatrix::<f64>::identity(d, d);
    let mut t = DMatrix::<f64>::zeros(2 * d, 2 * d);
    t.view_mut((0, 0), (d, d)).copy_from(&(&id - precision * eta));
    t.view_mut((0, d), (d, d)).copy_from(&(&id * (1.0 - friction)));
    t.view_mut((d, 0), (d, d)).copy_from(&(-precision * eta));
    t.view_mut((d, d), (d, d)).copy_from(&(&id * (1.0 - friction)));
    let w = &id * (2.0 * friction * eta);
    let mut noise = DMatrix::<f64>::zeros(2 * d, 2 * d);
    for (r, c) in [(0, 0), (0, d), (d, 0), (d, d)] {
        noise.view_mut((r, c), (d, d)).copy_from(&w);
    }
    // One period from θ-covariance `s` at its start (v redrawn, independent of θ); returns the
    // θ-covariance after the period and the sum over its `period` recorded phases.
    let one_period = |s: &DMatrix<f64>| {
        let mut z = DMatrix::<f64>::zeros(2 * d, 2 * d);
        z.view_mut((0, 0), (d, d)).copy_from(s);
        z.view_mut((d, d), (d, d)).copy_from(&(&id * eta));
        let mut sum = DMatrix::<f64>::zeros(d, d);
        for _ in 0..period {
            z = &t * z * t.transpose() + &noise;
            sum += z.view((0, 0), (d, d));
        }
        (z.view((0, 0), (d, d)).into_owned(), sum / period as f64)
    };
    let mut s = id.clone();
    for _ in 0..20_000 {
        s = one_period(&s).0;
    }
    let (next, average) = one_period(&s);
    assert!((&next - &s).norm() < 1e-12, "the period map has converged");
    average
}

#[test]
fn sghmc_without_resampling_starts_at_rest() {
    // L = 0 (never resample, the default): v starts at 0, so with no friction (no injected noise)
    // and a full batch the first step is exactly θ₁ = θ₀ + η∇log π(θ₀) (SGAIS paper eq. 3 with
    // v₀ = 0). A momentum drawn before the first step (`resample_every > 0` → `>= 0`, where
    // t.is_multiple_of(0) is t == 0) moves θ₁ by about √η.
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.5, 0.0);
    let eta = 0.2;
    let params = values(sghmc::PARAMS, &[("sghmc_lr", eta), ("friction", 0.0), ("resample_every", 0.0), ("batch_size", 100.0)]);
    let start = [1.0, -0.5];
    let mut sampler = Sghmc::new(start.to_vec(), &params);
    let mut oracle = GradientOracle::new(&model, 100);
    sampler.step(&model, &mut oracle, &mut chain_rng(36));
    // ∇log π(θ) = −Pθ with P = [[4/3, −2/3], [−2/3, 4/3]] (ρ = 0.5): at (1, −0.5) it is (−5/3, 4/3).
    let expected = [1.0 - eta * 5.0 / 3.0, -0.5 + eta * 4.0 / 3.0];
    for (got, want) in sampler.position().iter().zip(expected) {
        assert!((got - want).abs() < 1e-9, "first step {:?} vs {expected:?}", sampler.position());
    }
}

#[test]
fn sghmc_with_momentum_resampled_every_five_steps_follows_its_periodic_law() {
    // L = 5 (the page's "Momentum resampling" slider off its default 0): between redraws the
    // momentum carries over, so the law is periodic, not the L = 1 recursion. Redrawing at every
    // step instead (a `resample_every > 0 &&` → `||` slip) gives θ-variance 0.56 instead of 0.99.
    // Two oracles, both computed here: the trace within 4 MCSE per entry, and src/law.rs's
    // prediction (the page's dotted ellipse) to 1e-6.
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.5, 0.0);
    let (eta, friction, period) = (0.2, 0.05, 5);
    // Full batch (n = N = 100): no gradient noise, in the law as in the run below.
    let params = values(sghmc::PARAMS, &[("sghmc_lr", eta), ("friction", friction), ("resample_every", period as f64), ("batch_size", 100.0)]);
    let oracle = sghmc_periodic_law(&gaussian_precision(&model), eta, friction, period);
    assert!((oracle[(0, 0)] - 0.987).abs() < 0.005, "hand-checked θ₁ variance 0.987, got {}", oracle[(0, 0)]);
    let law = sgviz::law::predicted_law("sghmc", &params, &model).unwrap();
    for (a, b) in [(0, 0), (0, 1), (1, 1)] {
        assert!((law.cov[(a, b)] - oracle[(a, b)]).abs() < 1e-6, "law.rs cov[{a}][{b}] = {} vs {}", law.cov[(a, b)], oracle[(a, b)]);
    }
    let mut sampler = Sghmc::new(vec![0.0, 0.0], &params);
    let trace = run(&mut sampler, &model, 100, 35, 2_000, 400_000, 1);
    assert_cov_close(&trace, &oracle, 4.0, 0.0, "SGHMC with L = 5");
}
