//! Gaussian mixture model with diagonal covariances, SGAIS paper Appendix B.3 (Cameron, Eggers,
//! Kroon 2019), in the unconstrained parameterisation of docs/sgais.md §8.
//!
//! p(y | θ) = Σ_k β_k Π_j N(y_j; μ_kj, σ²_kj); priors β ~ Dir(1), μ_kj | σ²_kj ~ N(0, 4σ²_kj),
//! σ²_kj ~ InvGamma(1, 1). The paper uses K = 5 components on 2-D data: 25 parameters, 24 degrees
//! of freedom.
//!
//! Unconstrained coordinates (log-Jacobians folded into the prior so the evidence is unchanged):
//! θ = [z_1..z_{K−1}, μ_{1,1..p}, …, μ_{K,1..p}, ρ_{1,1..p}, …, ρ_{K,1..p}], β = softmax(z, z_K ≡ 0),
//! σ²_kj = e^{ρ_kj}. Dimension (K − 1) + 2Kp.
//! - log p(z) = log Γ(K) + Σ_k log β_k (Dir(1) times the Jacobian Π_k β_k); ∂/∂z_j = 1 − K β_j.
//! - log p(ρ) = −ρ − e^{−ρ} (InvGamma(1, 1) with the Jacobian e^ρ); ∂/∂ρ = −1 + e^{−ρ}.
//! - log p(μ | ρ) = −½ log(2π · 4e^ρ) − μ²/(8e^ρ); ∂/∂μ = −μ/(4e^ρ), ∂/∂ρ = −½ + μ²/(8e^ρ).
//! - log p(y | θ) = logsumexp_k [log β_k + Σ_j (−½ log 2π − ρ_kj/2 − (y_j − μ_kj)²/(2e^{ρ_kj}))].

use super::{Model, View};
use crate::rng::{chain_rng, index_below, standard_exponential, standard_normal, ChainRng};

/// Largest number of mixture components (fixed-size scratch buffers on the hot path).
pub const MAX_COMPONENTS: usize = 16;

const LOG_2PI: f64 = 1.837_877_066_409_345_5;

/// Observations y_1..y_N in R^p (row-major) and a K-component diagonal mixture.
#[derive(Clone, Debug)]
pub struct GaussianMixture {
    p: usize,
    components: usize,
    points: Vec<f64>,
}

impl GaussianMixture {
    pub fn new(p: usize, components: usize, points: Vec<f64>) -> Result<Self, String> {
        if components == 0 || components > MAX_COMPONENTS {
            return Err(format!("number of mixture components must be in 1..={MAX_COMPONENTS}, got {components}"));
        }
        if p == 0 || !points.len().is_multiple_of(p) {
            return Err(format!("{} numbers do not form points of dimension {p}", points.len()));
        }
        Ok(GaussianMixture { p, components, points })
    }

    pub fn n_components(&self) -> usize {
        self.components
    }
    pub fn point_dim(&self) -> usize {
        self.p
    }
    pub fn point(&self, i: usize) -> &[f64] {
        &self.points[i * self.p..(i + 1) * self.p]
    }

    fn means_offset(&self) -> usize {
        self.components - 1
    }
    fn log_var_offset(&self) -> usize {
        self.components - 1 + self.components * self.p
    }

    /// log β_k for every component (β = softmax(z_1..z_{K−1}, 0)).
    fn log_weights(&self, theta: &[f64], out: &mut [f64]) {
        let k = self.components;
        out[..k - 1].copy_from_slice(&theta[..k - 1]);
        out[k - 1] = 0.0;
        let log_norm = log_sum_exp(&out[..k]);
        for v in out[..k].iter_mut() {
            *v -= log_norm;
        }
    }

    /// t_k = log β_k + log N(y; μ_k, diag σ²_k) for every component; returns logsumexp_k t_k.
    fn component_terms(&self, y: &[f64], theta: &[f64], out: &mut [f64]) -> f64 {
        self.log_weights(theta, out);
        let (mo, vo, p) = (self.means_offset(), self.log_var_offset(), self.p);
        for (k, t) in out[..self.components].iter_mut().enumerate() {
            for j in 0..p {
                let (mu, rho) = (theta[mo + k * p + j], theta[vo + k * p + j]);
                let r = y[j] - mu;
                *t += -0.5 * LOG_2PI - 0.5 * rho - 0.5 * r * r * (-rho).exp();
            }
        }
        log_sum_exp(&out[..self.components])
    }

    /// Draw θ from the prior (β ~ Dir(1) via normalised Exp(1) draws, σ² = 1/Gamma(1, 1),
    /// μ | σ² ~ N(0, 4σ²)), expressed in the unconstrained coordinates.
    pub fn sample_prior(&self, rng: &mut ChainRng) -> Vec<f64> {
        let (k, p) = (self.components, self.p);
        let gammas: Vec<f64> = (0..k).map(|_| standard_exponential(rng)).collect();
        let mut theta: Vec<f64> = (0..k - 1).map(|j| gammas[j].ln() - gammas[k - 1].ln()).collect();
        let log_vars: Vec<f64> = (0..k * p).map(|_| -standard_exponential(rng).ln()).collect();
        theta.extend(log_vars.iter().map(|rho| 2.0 * (0.5 * rho).exp() * standard_normal(rng)));
        theta.extend(log_vars);
        theta
    }
}

/// Per-θ quantities shared by every datum: β_k, log β_k − (p/2) log 2π − Σ_j ρ_kj/2, μ, e^{−ρ}.
struct ComponentCache<'a> {
    components: usize,
    p: usize,
    weights: [f64; MAX_COMPONENTS],
    offsets: [f64; MAX_COMPONENTS],
    means: &'a [f64],
    inv_vars: Vec<f64>,
}

impl<'a> ComponentCache<'a> {
    fn new(model: &GaussianMixture, theta: &'a [f64]) -> Self {
        let (k, p) = (model.components, model.p);
        let mut log_beta = [0.0; MAX_COMPONENTS];
        model.log_weights(theta, &mut log_beta);
        let log_vars = &theta[model.log_var_offset()..model.log_var_offset() + k * p];
        let mut weights = [0.0; MAX_COMPONENTS];
        let mut offsets = [0.0; MAX_COMPONENTS];
        for c in 0..k {
            weights[c] = log_beta[c].exp();
            offsets[c] = log_beta[c] - 0.5 * p as f64 * LOG_2PI - 0.5 * log_vars[c * p..(c + 1) * p].iter().sum::<f64>();
        }
        ComponentCache {
            components: k,
            p,
            weights,
            offsets,
            means: &theta[model.means_offset()..model.means_offset() + k * p],
            inv_vars: log_vars.iter().map(|rho| (-rho).exp()).collect(),
        }
    }

    /// Same as [`GaussianMixture::component_terms`], from the cache.
    fn terms(&self, y: &[f64], out: &mut [f64]) -> f64 {
        for (c, t) in out[..self.components].iter_mut().enumerate() {
            let mut quad = 0.0;
            for (j, y_j) in y.iter().enumerate() {
                let r = y_j - self.means[c * self.p + j];
                quad += r * r * self.inv_vars[c * self.p + j];
            }
            *t = self.offsets[c] - 0.5 * quad;
        }
        log_sum_exp(&out[..self.components])
    }
}

/// log Σ exp(x_i), stable; −∞ for an empty slice or all −∞.
pub fn log_sum_exp(x: &[f64]) -> f64 {
    let max = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return max;
    }
    max + x.iter().map(|v| (v - max).exp()).sum::<f64>().ln()
}

/// log Γ(x) for x > 0 by the Lanczos approximation (g = 7, 9 coefficients; relative error
/// ≈ 1e-15 for x ≥ ½; below ½ through Γ(x) = Γ(x + 1)/x). Reference values: Python's math.lgamma.
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Γ(x) = Γ(x + 1)/x.
        return ln_gamma(x + 1.0) - x.ln();
    }
    let x = x - 1.0;
    let t = x + G + 0.5;
    let series = C[1..].iter().enumerate().fold(C[0], |acc, (i, c)| acc + c / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + series.ln()
}

/// Exact log evidence of the one-component model (K = 1) for the first n points at each
/// checkpoint. With K = 1 the paper's B.3 priors are conjugate in every coordinate j: a
/// Normal-Inverse-Gamma prior μ | σ² ~ N(0, σ²/κ₀), σ² ~ InvGamma(a₀, b₀) with κ₀ = 1/4, a₀ = b₀ = 1,
/// so p(y) = Π_j Γ(a_n)/Γ(a₀) · b₀^a₀ / b_{n,j}^a_n · (κ₀/κ_n)^½ · (2π)^(−n/2), with κ_n = κ₀ + n,
/// a_n = a₀ + n/2, b_{n,j} = b₀ + ½ Σ_i (y_ij − ȳ_j)² + κ₀ n ȳ_j² / (2κ_n) (the standard conjugate
/// update, e.g. Murphy 2007, "Conjugate Bayesian analysis of the Gaussian distribution", eq. 95).
/// None for K > 1.
pub fn one_component_log_evidence(model: &GaussianMixture, checkpoints: &[usize]) -> Option<Vec<f64>> {
    if model.components != 1 {
        return None;
    }
    let (kappa0, a0, b0) = (0.25, 1.0, 1.0);
    let p = model.p;
    let (mut sum, mut sum_sq) = (vec![0.0; p], vec![0.0; p]);
    let mut done = 0;
    let mut curve = Vec::with_capacity(checkpoints.len());
    for &n in checkpoints {
        let n = n.min(model.n_data());
        for i in done..n {
            for (j, y) in model.point(i).iter().enumerate() {
                sum[j] += y;
                sum_sq[j] += y * y;
            }
        }
        done = n;
        let count = n as f64;
        let (kappa_n, a_n) = (kappa0 + count, a0 + count / 2.0);
        let per_coordinate = |j: usize| {
            let mean = if n > 0 { sum[j] / count } else { 0.0 };
            let scatter = (sum_sq[j] - count * mean * mean).max(0.0);
            let b_n = b0 + 0.5 * scatter + kappa0 * count * mean * mean / (2.0 * kappa_n);
            ln_gamma(a_n) - ln_gamma(a0) + a0 * b0.ln() - a_n * b_n.ln() + 0.5 * (kappa0 / kappa_n).ln() - 0.5 * count * LOG_2PI
        };
        curve.push((0..p).map(per_coordinate).sum());
    }
    Some(curve)
}

/// log Γ(K) = log (K − 1)! for a whole number K ≥ 1.
fn log_factorial_minus_one(k: usize) -> f64 {
    (1..k).map(|i| (i as f64).ln()).sum()
}

impl Model for GaussianMixture {
    fn dim(&self) -> usize {
        self.components - 1 + 2 * self.components * self.p
    }
    fn n_data(&self) -> usize {
        self.points.len() / self.p
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        let mut log_beta = [0.0; MAX_COMPONENTS];
        self.log_weights(theta, &mut log_beta);
        let mut total = log_factorial_minus_one(self.components) + log_beta[..self.components].iter().sum::<f64>();
        let (mo, vo) = (self.means_offset(), self.log_var_offset());
        for c in 0..self.components * self.p {
            let (mu, rho) = (theta[mo + c], theta[vo + c]);
            total += -rho - (-rho).exp();
            total += -0.5 * (LOG_2PI + 4f64.ln() + rho) - mu * mu * (-rho).exp() / 8.0;
        }
        total
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        let k = self.components;
        let mut log_beta = [0.0; MAX_COMPONENTS];
        self.log_weights(theta, &mut log_beta);
        for j in 0..k - 1 {
            out[j] += 1.0 - k as f64 * log_beta[j].exp();
        }
        let (mo, vo) = (self.means_offset(), self.log_var_offset());
        for c in 0..k * self.p {
            let (mu, rho) = (theta[mo + c], theta[vo + c]);
            let inv_var = (-rho).exp();
            out[mo + c] -= mu * inv_var / 4.0;
            out[vo + c] += -1.0 + inv_var - 0.5 + mu * mu * inv_var / 8.0;
        }
    }
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        let mut terms = [0.0; MAX_COMPONENTS];
        self.component_terms(self.point(i), theta, &mut terms)
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        let (k, p) = (self.components, self.p);
        let y = self.point(i);
        let mut terms = [0.0; MAX_COMPONENTS];
        let log_lik = self.component_terms(y, theta, &mut terms);
        let mut log_beta = [0.0; MAX_COMPONENTS];
        self.log_weights(theta, &mut log_beta);
        let (mo, vo) = (self.means_offset(), self.log_var_offset());
        for c in 0..k {
            let responsibility = (terms[c] - log_lik).exp();
            if c < k - 1 {
                out[c] += responsibility - log_beta[c].exp();
            }
            for (j, y_j) in y.iter().enumerate() {
                let idx = c * p + j;
                let inv_var = (-theta[vo + idx]).exp();
                let r = y_j - theta[mo + idx];
                out[mo + idx] += responsibility * r * inv_var;
                out[vo + idx] += responsibility * (-0.5 + 0.5 * r * r * inv_var);
            }
        }
    }
    /// Fused loop: log β, e^{−ρ} and the normalising terms are computed once per θ, not per datum.
    fn add_grad_log_lik_batch(&self, batch: &[usize], theta: &[f64], out: &mut [f64]) {
        let (k, p) = (self.components, self.p);
        let cache = ComponentCache::new(self, theta);
        let (mo, vo) = (self.means_offset(), self.log_var_offset());
        let mut terms = [0.0; MAX_COMPONENTS];
        for &i in batch {
            let y = self.point(i);
            let log_lik = cache.terms(y, &mut terms);
            for c in 0..k {
                let responsibility = (terms[c] - log_lik).exp();
                if c < k - 1 {
                    out[c] += responsibility - cache.weights[c];
                }
                for (j, y_j) in y.iter().enumerate() {
                    let idx = c * p + j;
                    let scaled = (y_j - cache.means[idx]) * cache.inv_vars[idx];
                    out[mo + idx] += responsibility * scaled;
                    out[vo + idx] += responsibility * (-0.5 + 0.5 * (y_j - cache.means[idx]) * scaled);
                }
            }
        }
    }
    fn initial_point(&self) -> Vec<f64> {
        self.sample_prior(&mut chain_rng(0))
    }
    fn view(&self) -> View {
        View::centred(0.0, 0.0, 4.0, 4.0)
    }
    fn coordinate_names(&self) -> Vec<String> {
        let (k, p) = (self.components, self.p);
        let logits = (1..k).map(|c| format!("z{c}"));
        let means = (1..=k).flat_map(move |c| (1..=p).map(move |j| format!("μ{c}_{j}")));
        let log_vars = (1..=k).flat_map(move |c| (1..=p).map(move |j| format!("ρ{c}_{j}")));
        logits.chain(means).chain(log_vars).collect()
    }
}

/// Centres and standard deviations of the seven 2-D clusters used by the data generators
/// (some overlap, as in the paper's Fig. 1).
pub const CLUSTERS: [([f64; 2], f64); 7] = [
    ([-2.0, 0.0], 0.6),
    ([2.0, 0.0], 0.6),
    ([0.0, 2.5], 0.7),
    ([0.0, -2.5], 0.7),
    ([3.0, 3.0], 0.8),
    ([-3.0, 3.0], 0.8),
    ([1.0, -1.0], 0.5),
];

/// How many clusters are active when datum `i` is generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterSchedule {
    /// The first `k` clusters, equally weighted, throughout.
    Stationary(usize),
    /// SGAIS paper §6.2: 3 clusters for the first 1,000 points, 5 until 10,000, 7 afterwards
    /// (nested sets); `shuffled` permutes the result to make it stationary.
    Shift { shuffled: bool },
}

impl ClusterSchedule {
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub fn active_clusters(&self, i: usize) -> usize {
        match *self {
            ClusterSchedule::Stationary(k) => k.clamp(1, CLUSTERS.len()),
            ClusterSchedule::Shift { .. } if i < 1_000 => 3,
            ClusterSchedule::Shift { .. } if i < 10_000 => 5,
            ClusterSchedule::Shift { .. } => 7,
        }
    }
}

/// N two-dimensional points from [`CLUSTERS`] under a schedule (row-major, 2N numbers).
pub fn generate_cluster_data(n: usize, schedule: ClusterSchedule, seed: u64) -> Vec<f64> {
    let mut rng = chain_rng(seed);
    let mut points = Vec::with_capacity(2 * n);
    for i in 0..n {
        let (centre, sd) = CLUSTERS[index_below(&mut rng, schedule.active_clusters(i))];
        points.push(centre[0] + sd * standard_normal(&mut rng));
        points.push(centre[1] + sd * standard_normal(&mut rng));
    }
    if schedule == (ClusterSchedule::Shift { shuffled: true }) {
        for i in (1..n).rev() {
            let j = index_below(&mut rng, i + 1);
            points.swap(2 * i, 2 * j);
            points.swap(2 * i + 1, 2 * j + 1);
        }
    }
    points
}
