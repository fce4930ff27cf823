//! Why did the Laplace move (docs/sgais.md (SGAIS.26)) accept 0 of 128 proposals from lagging
//! particles (MUTANTS.md stop 51)? Linear regression (exact posterior, docs/truth.md §5), 5 features,
//! N = 60 in chunks of 20, M = 64, SGHMC steps so small that the particles stay near their prior
//! draws, the move on. At each chunk end it prints the particles' lag r² = (θ − m)ᵀA(θ − m) (d for
//! posterior draws), the proposal precision F̂ = n·Ŝ + I (Ŝ the per-datum score covariance at the
//! chunk's starting particles over all previous data, what the noise estimate samples) against the
//! exact A as the generalised eigenvalues of F̂ relative to A (1 = exact; > 1 = q narrower than f),
//! and the acceptance of each particle by the MH ratio written with the exact f.
//!
//! It also prints F̂ re-measured at the fitted centre θ̂ and the run's proposal F̂(θ̂)/2 (stop 53).
//!
//! `cargo run --release --example laplace_lag -- [SEED]`

use nalgebra::{DMatrix, DVector};
use sgviz::model::linear::LinearRegression;
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::rng::chain_rng;
use sgviz::sgais::laplace_move::{fisher_at, fisher_precision, AnnealedTarget, LaplaceProposal};
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::SgaisConfig;
use std::sync::Arc;

fn model() -> LinearRegression {
    let mut values = ParamValues::defaults(sgviz::model::linear::PARAMS);
    for (name, v) in [("n_points", 60.0), ("n_features", 5.0), ("noise_sd", 1.0), ("prior_sd", 1.0), ("data_seed", 4.0)] {
        values.set(sgviz::model::linear::PARAMS, name, v).unwrap();
    }
    LinearRegression::synthetic(&values)
}

/// Row-major n_prev²/|B|·Ŝ with Ŝ the mean over particles of the score covariance over data 0..n_prev.
fn score_cov(model: &LinearRegression, particles: &[Vec<f64>], n_prev: usize, batch: usize) -> Vec<f64> {
    let d = model.dim();
    let mut pooled = DMatrix::<f64>::zeros(d, d);
    for theta in particles {
        let mut scores = DMatrix::<f64>::zeros(n_prev, d);
        for k in 0..n_prev {
            let mut g = vec![0.0; d];
            model.add_grad_log_lik(k, theta, &mut g);
            scores.row_mut(k).copy_from_slice(&g);
        }
        let mean = scores.row_mean();
        for mut row in scores.row_iter_mut() {
            row -= &mean;
        }
        pooled += scores.transpose() * &scores / (n_prev - 1) as f64;
    }
    let cov = pooled * ((n_prev * n_prev) as f64 / (batch as f64 * particles.len() as f64));
    (0..d).flat_map(|i| (0..d).map(move |j| (i, j))).map(|(i, j)| cov[(i, j)]).collect()
}

fn main() {
    let seed: u64 = std::env::args().nth(1).map_or(1, |s| s.parse().unwrap());
    let lin = model();
    let d = lin.dim();
    let mut config = SgaisConfig::defaults();
    config.particles = 64;
    config.target_ess = 32.0;
    config.chunk_size = 20;
    config.batch_size = 20;
    config.learning_rate = 1e-6;
    config.laplace_move = true;
    let mut run = SgaisRun::new(Arc::new(model()), config, 60, seed);
    let mut start_particles = run.particles().to_vec();
    let mut last_chunks = 0;
    let mut moves_before = (0, 0);
    while *run.status() == RunStatus::Running {
        let chunks_before = run.records().len();
        run.advance(1);
        if run.records().len() == chunks_before {
            continue;
        }
        let n = run.processed();
        let n_prev = n - 20;
        let (a, m) = lin.posterior_after(n);
        let lag: Vec<f64> = run.particles().iter().map(|t| { let x = DVector::from_column_slice(t) - &m; x.dot(&(&a * &x)) }).collect();
        let moves = run.laplace_moves();
        println!("n = {n}: mean lag r² {:.1} (d = {d}); moves offered {} accepted {} this chunk", lag.iter().sum::<f64>() / lag.len() as f64, moves.0 - moves_before.0, moves.1 - moves_before.1);
        moves_before = moves;
        if n_prev > 0 {
            let target = AnnealedTarget { model: &lin, history_len: n_prev, chunk: n_prev..n, lambda: 1.0 };
            let chol_a = a.clone().cholesky().unwrap();
            let l_inv = chol_a.l().try_inverse().unwrap();
            let relative = |p: &DMatrix<f64>| { let eig = (&l_inv * p * l_inv.transpose()).symmetric_eigenvalues(); (eig.min(), eig.max()) };
            let log_f = |t: &[f64]| target.log_density(t);
            let hand = |q: &LaplaceProposal| {
                let mut rng = chain_rng(7);
                let lw_prop: Vec<f64> = (0..400).map(|_| q.draw(&mut rng)).map(|p| log_f(&p) - q.log_density(&p)).collect();
                start_particles.iter().map(|t| { let lw = log_f(t) - q.log_density(t); lw_prop.iter().map(|l| (l - lw).exp().min(1.0)).sum::<f64>() / 400.0 }).sum::<f64>() / start_particles.len() as f64
            };
            let mean_lag: f64 = start_particles.iter().map(|t| { let x = DVector::from_column_slice(t) - &m; x.dot(&(&a * &x)) }).sum::<f64>() / start_particles.len() as f64;
            let at_particles = fisher_precision(&score_cov(&lin, &start_particles, n_prev, 20), d, n_prev, 20, n as f64);
            for (label, precision) in [("F̂ at the chunk's start particles (old q)", at_particles.clone()), ("exact A (the Hessian)", a.clone()), ("A / 2", &a * 0.5)] {
                let (lo, hi) = relative(&precision);
                let Some((q, _)) = LaplaceProposal::fit(&target, &start_particles[0], precision) else { println!("  {label}: not positive definite"); continue };
                println!("  {label}: eigenvalues relative to A {lo:.2}–{hi:.2}; start particles' lag r² {mean_lag:.1}; hand MH acceptance from them {:.4}", hand(&q));
            }
            if let Some((fitted, _)) = LaplaceProposal::fit(&target, &start_particles[0], at_particles) {
                let centre = fisher_at(&target, fitted.mean());
                let (lo, hi) = relative(&centre);
                println!("  F̂ at the fitted centre θ̂: eigenvalues relative to A {lo:.2}–{hi:.2}");
                if let (Some(q), _) = fitted.widened_at_centre(&target) {
                    let (lo, hi) = relative(&q.precision());
                    println!("  F̂(θ̂)/2 (the run's q): eigenvalues relative to A {lo:.2}–{hi:.2}; hand MH acceptance {:.4}", hand(&q));
                }
            }
        }
        start_particles = run.particles().to_vec();
        last_chunks += 1;
    }
    let _ = last_chunks;
}
