//! Minibatch gradient estimation shared by every stochastic-gradient sampler (docs/README.md, Notation):
//! ∇log π̂(θ) = ∇log p(θ) + (N/n) Σ_{i∈S} ∇ℓ_i(θ), with S drawn without replacement within a step,
//! plus the synthetic noise ξ ~ N(0, s² I) of toy targets. The oracle also counts per-datum
//! gradient evaluations, the fair cost unit across samplers.

use crate::model::Model;
use crate::rng::{index_below, standard_normal, uniform, ChainRng};

/// Batches of at least N/SELECTION_RATIO data are drawn by selection sampling (see
/// [`GradientOracle::next_batch`]).
pub const SELECTION_RATIO: usize = 16;

/// Draws minibatches and evaluates gradient estimates; counts per-datum gradient evaluations.
#[derive(Clone, Debug)]
pub struct GradientOracle {
    batch_size: usize,
    n_data: usize,
    /// A permutation of 0..N whose first `batch_size` entries are the current minibatch.
    order: Vec<usize>,
    grad_evals: u64,
}

impl GradientOracle {
    /// `batch_size` is clamped to [1, N].
    pub fn new(model: &dyn Model, batch_size: usize) -> Self {
        let n_data = model.n_data().max(1);
        GradientOracle { batch_size: batch_size.clamp(1, n_data), n_data, order: (0..n_data).collect(), grad_evals: 0 }
    }

    /// Minibatch size n actually used.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }
    /// Number of data N.
    pub fn n_data(&self) -> usize {
        self.n_data
    }
    /// Per-datum gradient evaluations so far.
    pub fn grad_evals(&self) -> u64 {
        self.grad_evals
    }
    /// Record evaluations done outside the oracle's own methods.
    pub fn count(&mut self, evals: u64) {
        self.grad_evals += evals;
    }

    /// A fresh minibatch of distinct indices, uniform over the subsets of size n: a partial
    /// Fisher–Yates shuffle (O(n)) for small batches; for batches of at least N/[`SELECTION_RATIO`]
    /// Knuth's selection sampling (TAOCP vol. 2, §3.4.2, Algorithm S: keep datum i with probability
    /// (n − kept)/(N − i)), whose O(N) uniforms buy indices in increasing order and a streaming pass
    /// over the data — much faster than random access when n is a sizeable share of a large N.
    pub fn next_batch(&mut self, rng: &mut ChainRng) -> &[usize] {
        let (n, big_n) = (self.batch_size, self.n_data);
        if n < big_n {
            if n * SELECTION_RATIO >= big_n {
                let mut kept = 0;
                for i in 0..big_n {
                    if kept == n {
                        break;
                    }
                    if ((big_n - i) as f64) * uniform(rng) < (n - kept) as f64 {
                        self.order[kept] = i;
                        kept += 1;
                    }
                }
            } else {
                for j in 0..n {
                    let k = j + index_below(rng, big_n - j);
                    self.order.swap(j, k);
                }
            }
        }
        &self.order[..n]
    }

    /// out = ∇log p(θ) + (N/n) Σ_{i∈S} ∇ℓ_i(θ) + ξ on a fresh minibatch S.
    pub fn stochastic_gradient(&mut self, model: &dyn Model, theta: &[f64], rng: &mut ChainRng, out: &mut [f64]) {
        out.fill(0.0);
        let scale = self.n_data as f64 / self.batch_size as f64;
        let n = self.batch_size;
        self.next_batch(rng);
        model.add_grad_log_lik_batch(&self.order[..n], theta, out);
        for o in out.iter_mut() {
            *o *= scale;
        }
        model.add_grad_log_prior(theta, out);
        self.grad_evals += n as u64;
        add_synthetic_noise(model.synthetic_noise_sd(), rng, out);
    }

    /// Per-datum scores on a fresh minibatch, row-major n × D in `scores` (resized), including the
    /// synthetic noise split over the batch: each score gets N(0, τ²I) with τ = s√n / N, so that
    /// (N/n) Σ g_i carries exactly N(0, s²I). Returns the batch indices' count n.
    pub fn minibatch_scores(&mut self, model: &dyn Model, theta: &[f64], rng: &mut ChainRng, scores: &mut Vec<f64>) -> usize {
        let dim = theta.len();
        let n = self.batch_size;
        scores.clear();
        scores.resize(n * dim, 0.0);
        self.next_batch(rng);
        for (row, &i) in scores.chunks_mut(dim).zip(&self.order[..n]) {
            model.add_grad_log_lik(i, theta, row);
        }
        self.grad_evals += n as u64;
        let per_datum_sd = model.synthetic_noise_sd() * (n as f64).sqrt() / self.n_data as f64;
        if per_datum_sd > 0.0 {
            for g in scores.iter_mut() {
                *g += per_datum_sd * standard_normal(rng);
            }
        }
        n
    }

    /// Per-datum scores ∇ℓ_i(θ) on a fresh minibatch, row-major n × D in `scores` (resized),
    /// WITHOUT synthetic noise; the full-scale synthetic noise ξ ~ N(0, s²I) of toy targets is
    /// drawn separately into `noise` (zeros when s = 0). SBPS needs the two apart: only the
    /// minibatch part of its noise variance carries the finite-population factor (1 − n/N),
    /// docs/bouncy.md §3. Returns n.
    pub fn minibatch_scores_and_noise(&mut self, model: &dyn Model, theta: &[f64], rng: &mut ChainRng, scores: &mut Vec<f64>, noise: &mut [f64]) -> usize {
        self.next_batch(rng);
        self.current_batch_scores_and_noise(model, theta, rng, scores, noise)
    }

    /// Like [`Self::minibatch_scores_and_noise`] but on the minibatch drawn last, at another θ
    /// (SBPS App. E: auxiliary observations reuse the last minibatch). The synthetic noise is
    /// drawn afresh. Costs n evaluations.
    pub fn current_batch_scores_and_noise(&mut self, model: &dyn Model, theta: &[f64], rng: &mut ChainRng, scores: &mut Vec<f64>, noise: &mut [f64]) -> usize {
        let dim = theta.len();
        let n = self.batch_size;
        scores.clear();
        scores.resize(n * dim, 0.0);
        for (row, &i) in scores.chunks_mut(dim).zip(&self.order[..n]) {
            model.add_grad_log_lik(i, theta, row);
        }
        self.grad_evals += n as u64;
        noise.fill(0.0);
        add_synthetic_noise(model.synthetic_noise_sd(), rng, noise);
        n
    }

    /// out = ∇log π(θ) on the full data (no noise); costs N evaluations.
    pub fn full_gradient(&mut self, model: &dyn Model, theta: &[f64], out: &mut [f64]) {
        model.grad_log_density(theta, out);
        self.grad_evals += self.n_data as u64;
    }
}

/// out += ξ, ξ ~ N(0, s² I).
pub fn add_synthetic_noise(sd: f64, rng: &mut ChainRng, out: &mut [f64]) {
    if sd > 0.0 {
        for o in out.iter_mut() {
            *o += sd * standard_normal(rng);
        }
    }
}

/// Column means and the sample covariance (divisor n − 1) of row-major n × D scores.
pub fn score_mean_and_covariance(scores: &[f64], dim: usize) -> (Vec<f64>, Vec<f64>) {
    let n = scores.len() / dim;
    let mut mean = vec![0.0; dim];
    for row in scores.chunks(dim) {
        for (m, g) in mean.iter_mut().zip(row) {
            *m += g;
        }
    }
    mean.iter_mut().for_each(|m| *m /= n as f64);
    let mut cov = vec![0.0; dim * dim];
    let mut centred = vec![0.0; dim];
    for row in scores.chunks_exact(dim) {
        for ((c, g), m) in centred.iter_mut().zip(row).zip(&mean) {
            *c = g - m;
        }
        for (cov_row, &da) in cov.chunks_exact_mut(dim).zip(&centred) {
            for (entry, &db) in cov_row.iter_mut().zip(&centred) {
                *entry += da * db;
            }
        }
    }
    let divisor = (n.max(2) - 1) as f64;
    cov.iter_mut().for_each(|c| *c /= divisor);
    (mean, cov)
}
