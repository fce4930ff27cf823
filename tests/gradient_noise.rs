//! Gradient noise as it is drawn (issue 26): minibatches are drawn without replacement
//! (src/sampler/gradient.rs), so the minibatch gradient (N/n)Σ_{i∈S} g_i has covariance
//! (N²/n)·((N − n)/(N − 1))·Cov_N(g) — the finite-population factor — and the full batch has none.
//! The oracle enumerates every subset of a tiny data set and computes the exact covariance of the
//! minibatch gradient over them, without any of the code under test.

use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::model::Model;
use sgviz::phase::noise_scale;
use sgviz::rng::chain_rng;
use sgviz::sampler::gradient::score_mean_and_covariance;
use sgviz::sampler::sgld::drawn_noise_covariance;

/// Every size-`n` subset of 0..`big_n`, in lexicographic order.
fn subsets(big_n: usize, n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current: Vec<usize> = (0..n).collect();
    loop {
        out.push(current.clone());
        let Some(i) = (0..n).rev().find(|&i| current[i] < big_n - n + i) else { return out };
        current[i] += 1;
        for j in i + 1..n {
            current[j] = current[j - 1] + 1;
        }
    }
}

/// The exact 2 × 2 covariance of (N/n)Σ_{i∈S} g_i over all equally likely subsets S of size n.
fn exact_minibatch_covariance(scores: &[[f64; 2]], n: usize) -> [f64; 3] {
    let big_n = scores.len();
    let sums: Vec<[f64; 2]> = subsets(big_n, n)
        .iter()
        .map(|s| {
            let scale = big_n as f64 / n as f64;
            [scale * s.iter().map(|&i| scores[i][0]).sum::<f64>(), scale * s.iter().map(|&i| scores[i][1]).sum::<f64>()]
        })
        .collect();
    let k = sums.len() as f64;
    let mean = [sums.iter().map(|v| v[0]).sum::<f64>() / k, sums.iter().map(|v| v[1]).sum::<f64>() / k];
    let cov = |a: usize, b: usize| sums.iter().map(|v| (v[a] - mean[a]) * (v[b] - mean[b])).sum::<f64>() / k;
    [cov(0, 0), cov(0, 1), cov(1, 1)]
}

fn largest_eigenvalue_2x2([a, b, c]: [f64; 3]) -> f64 {
    0.5 * (a + c) + (0.25 * (a - c) * (a - c) + b * b).sqrt()
}

/// Hand-worked tiny data set: five 2-D scores.
const SCORES: [[f64; 2]; 5] = [[1.0, 0.0], [-2.0, 1.0], [0.5, -1.5], [3.0, 2.0], [-1.0, 0.5]];

#[test]
fn enumeration_oracle_itself_matches_the_hand_worked_one_dimensional_case() {
    // N = 3 scores {0, 3, 6} (mean 3, divisor-N variance 6), n = 2: the three pair sums ×3/2 are
    // 4.5, 9, 13.5 with mean 9 and variance ((−4.5)² + 0 + 4.5²)/3 = 13.5
    // = (N²/n)·((N − n)/(N − 1))·6 = 4.5·0.5·6.
    let scores = [[0.0, 0.0], [3.0, 0.0], [6.0, 0.0]];
    let cov = exact_minibatch_covariance(&scores, 2);
    assert!((cov[0] - 13.5).abs() < 1e-12, "{cov:?}");
}

#[test]
fn the_drawn_noise_covariance_averaged_over_every_minibatch_is_the_exact_one() {
    // The SGLD diagnostic estimates the covariance from the step's own minibatch; over all equally
    // likely minibatches its N²/n-scaled estimate must average to the exact covariance (it is
    // linear in the scores' covariance), for every n, and vanish at n = N.
    let big_n = SCORES.len();
    for n in 2..=big_n {
        let exact = exact_minibatch_covariance(&SCORES, n);
        let all = subsets(big_n, n);
        let mut average = [0.0; 3];
        for s in &all {
            let rows: Vec<f64> = s.iter().flat_map(|&i| SCORES[i]).collect();
            let (_, cov) = score_mean_and_covariance(&rows, 2);
            let drawn = drawn_noise_covariance(&cov, n as f64 / big_n as f64, 0.0);
            let scale = (big_n * big_n) as f64 / n as f64 / all.len() as f64;
            for (a, k) in [0, 1, 3].into_iter().enumerate() {
                average[a] += scale * drawn[k];
            }
        }
        for a in 0..3 {
            assert!((average[a] - exact[a]).abs() < 1e-9 * (1.0 + exact[a].abs()), "n = {n}: {average:?} vs exact {exact:?}");
        }
        if n == big_n {
            assert!(exact.iter().all(|c| c.abs() < 1e-12), "n = N: no gradient noise ({exact:?})");
        }
    }
}

/// The correlated Gaussian's N = 100 pseudo-data scores, read through the model.
fn pseudo_scores(model: &CorrelatedGaussian, theta: &[f64]) -> Vec<[f64; 2]> {
    (0..model.n_data())
        .map(|i| {
            let mut g = [0.0; 2];
            model.add_grad_log_lik(i, theta, &mut g);
            g
        })
        .collect()
}

#[test]
fn the_noise_chart_scale_is_lambda_max_of_the_exact_minibatch_covariance() {
    // The noise-vs-step chart's gradient-noise line is (ε²/4)·scale: scale must be λ_max of the
    // exact covariance of the minibatch gradient, enumerated over all C(100, n) subsets (n = 2, 3;
    // 4,950 and 161,700 subsets), and zero at n = N.
    let model = CorrelatedGaussian::new(1.0, 2.0, 0.6, 0.0);
    let theta = [0.3, -0.4];
    let scores = pseudo_scores(&model, &theta);
    for n in [2, 3] {
        let exact = largest_eigenvalue_2x2(exact_minibatch_covariance(&scores, n));
        let scale = noise_scale(&model, &[theta.to_vec()], n, 1000, &mut chain_rng(1)).gradient_noise_scale;
        assert!((scale - exact).abs() < 1e-9 * exact, "n = {n}: chart scale {scale} vs exact {exact}");
    }
    let full = noise_scale(&model, &[theta.to_vec()], model.n_data(), 1000, &mut chain_rng(1));
    assert_eq!(full.gradient_noise_scale, 0.0);
    assert!(full.crossing().is_none(), "no threshold crossing without gradient noise");
}
