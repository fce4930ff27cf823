//! Unit tests of src/sampler/gradient.rs (`sampler::gradient::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::rng::standard_normal;
use sgviz::sampler::gradient::*;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::rng::chain_rng;

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
