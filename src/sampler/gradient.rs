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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::gaussian::CorrelatedGaussian;
    use crate::rng::chain_rng;

    #[test]
    fn batches_are_distinct_indices() {
        let model = CorrelatedGaussian::new(1.0, 1.0, 0.0, 0.0);
        let mut oracle = GradientOracle::new(&model, 30);
        let mut rng = chain_rng(3);
        for _ in 0..50 {
            let mut batch = oracle.next_batch(&mut rng).to_vec();
            batch.sort_unstable();
            batch.dedup();
            assert_eq!(batch.len(), 30);
        }
    }

    #[test]
    fn score_covariance_is_bit_identical_to_the_textbook_double_loop() {
        let mut rng = chain_rng(11);
        for dim in 1..=6 {
            for n in [1, 2, 33] {
                let scores: Vec<f64> = (0..n * dim).map(|_| 1e3 * standard_normal(&mut rng)).collect();
                let (mean, cov) = score_mean_and_covariance(&scores, dim);
                let mut expected = vec![0.0; dim * dim];
                for row in scores.chunks(dim) {
                    for a in 0..dim {
                        for b in 0..dim {
                            expected[a * dim + b] += (row[a] - mean[a]) * (row[b] - mean[b]);
                        }
                    }
                }
                expected.iter_mut().for_each(|c| *c /= (n.max(2) - 1) as f64);
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&cov), bits(&expected), "dim {dim}, n {n}");
                let direct: Vec<f64> = (0..dim).map(|j| scores.chunks(dim).map(|r| r[j]).sum::<f64>() / n as f64).collect();
                assert!(mean.iter().zip(&direct).all(|(m, d)| (m - d).abs() <= 1e-12 * (1.0 + d.abs())));
            }
        }
    }

    #[test]
    fn synthetic_noise_in_scores_has_the_stated_full_scale_variance() {
        // (N/n) Σ g_i must carry N(0, s²) synthetic noise on top of the pseudo-data's own minibatch
        // noise, (N²/n)(1 − n/N)·Cov(g_i) = (N/n − 1)·P₀₀ (toy.rs; P = I here): check the variance
        // of the first coordinate over many draws at θ = μ.
        let s = 3.0;
        let model = CorrelatedGaussian::new(1.0, 1.0, 0.0, s);
        let mut oracle = GradientOracle::new(&model, 10);
        let mut rng = chain_rng(7);
        let mut scores = Vec::new();
        let draws = 20_000;
        let mut sum_sq = 0.0;
        for _ in 0..draws {
            let n = oracle.minibatch_scores(&model, &[0.0, 0.0], &mut rng, &mut scores);
            let est: f64 = scores.chunks(2).map(|r| r[0]).sum::<f64>() * 100.0 / n as f64;
            sum_sq += est * est;
        }
        let var = sum_sq / draws as f64;
        let expected = s * s + (100.0 / 10.0 - 1.0);
        // Var of a sample variance of near-normal draws: 2σ⁴/draws; allow 5 standard errors.
        let se = (2.0f64).sqrt() * expected / (draws as f64).sqrt();
        assert!((var - expected).abs() < 5.0 * se, "variance {var} vs {expected}");
        assert_eq!(oracle.grad_evals(), 10 * draws as u64);
    }

    #[test]
    fn every_datum_and_pair_is_drawn_equally_often_by_both_batch_methods() {
        // Uniform subsets of size n: P(i ∈ S) = n/N and P(i, j ∈ S) = n(n − 1)/(N(N − 1)), for the
        // Fisher–Yates path (n = 3 < N/16) and the selection-sampling path (n = 40 ≥ N/16).
        // Tolerance: 5 binomial standard errors.
        let model = CorrelatedGaussian::new(1.0, 1.0, 0.0, 0.0);
        let big_n = 100.0;
        for n in [3usize, 40] {
            let mut oracle = GradientOracle::new(&model, n);
            let mut rng = chain_rng(11);
            let draws = 40_000;
            let (mut single, mut pair) = (vec![0u32; 100], 0u32);
            for _ in 0..draws {
                let batch = oracle.next_batch(&mut rng).to_vec();
                batch.iter().for_each(|&i| single[i] += 1);
                pair += (batch.contains(&17) && batch.contains(&83)) as u32;
            }
            let p1 = n as f64 / big_n;
            let p2 = p1 * (n as f64 - 1.0) / (big_n - 1.0);
            for (i, &count) in single.iter().enumerate() {
                let se = (p1 * (1.0 - p1) / draws as f64).sqrt();
                assert!((count as f64 / draws as f64 - p1).abs() < 5.0 * se, "n = {n}: datum {i} drawn {count} times");
            }
            let se = (p2 * (1.0 - p2) / draws as f64).sqrt();
            assert!((pair as f64 / draws as f64 - p2).abs() < 5.0 * se + 1e-12, "n = {n}: pair drawn {pair} times");
        }
    }
}
