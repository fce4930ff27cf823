//! Where one stochastic-gradient step on logistic regression spends its time (issue 16): the
//! SGLD/SGHMC minibatch step against its limit — n index draws, n dot products with n sigmoids
//! (the fused minibatch gradient), d normals — and the chain's per-sample bookkeeping (running
//! moments, ring push, divergence check), in nanoseconds per step on this thread's CPU clock.
//!
//! Target: `logreg_dd` with D = 4, N = 10⁴ (the bench case "logreg d=4"), n = 32, θ at the mode.
//! Each part is timed alone in a loop of ≥ `min_seconds` CPU time, five times; the median is
//! printed. The gradient is timed on stored fresh minibatches, so its rows come from memory in the
//! same random order as in a real run.

use sgviz::chain::{Chain, ChainConfig};
use sgviz::diagnostics::RunningMoments;
use sgviz::model::logistic::sigmoid;
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::ring::RingBuffer;
use sgviz::rng::{chain_rng, fill_standard_normal};
use sgviz::sampler::GradientOracle;
use std::hint::black_box;

const DIM: usize = 4;
const N_DATA: usize = 10_000;
const BATCH: usize = 32;
/// Minibatches drawn ahead for the gradient timing (1 MB of indices: beyond L1, like a real run).
const STORED_BATCHES: usize = 4096;

/// Print one JSON line per part: `{"part", "ns_per_step", "what"}`.
pub fn print(min_seconds: f64) {
    let mut values = ParamValues::defaults(sgviz::model::logreg_dd::PARAMS);
    values.set(sgviz::model::logreg_dd::PARAMS, "n_dims", DIM as f64).expect("n_dims");
    values.set(sgviz::model::logreg_dd::PARAMS, "n_points", N_DATA as f64).expect("n_points");
    let model = sgviz::model::logreg_dd::synthetic(&values).expect("logreg_dd builds");
    let theta = model.initial_point();
    let mut rng = chain_rng(1);
    let mut oracle = GradientOracle::new(&model, BATCH);

    let index_draws = median_ns(min_seconds, || {
        black_box(oracle.next_batch(&mut rng));
    });
    let batches: Vec<usize> = (0..STORED_BATCHES).flat_map(|_| oracle.next_batch(&mut rng).to_vec()).collect();
    let mut k = 0;
    let mut grad = vec![0.0; DIM];
    let gradient = median_ns(min_seconds, || {
        let batch = &batches[k * BATCH..(k + 1) * BATCH];
        k = (k + 1) % STORED_BATCHES;
        grad.fill(0.0);
        model.add_grad_log_lik_batch(batch, black_box(&theta), &mut grad);
        black_box(&grad);
    });
    let z: Vec<f64> = batches.iter().map(|&i| 0.1 * (i as f64 - 0.5 * N_DATA as f64) / N_DATA as f64 * 40.0).collect();
    let mut at = 0;
    let sigmoids = median_ns(min_seconds, || {
        let mut sum = 0.0;
        for &x in &z[at..at + BATCH] {
            sum += sigmoid(black_box(x));
        }
        at = (at + BATCH) % z.len();
        black_box(sum);
    });
    let mut normals = [0.0; DIM];
    let normal_draws = median_ns(min_seconds, || {
        fill_standard_normal(&mut rng, &mut normals);
        black_box(&normals);
    });
    let mut moments = RunningMoments::new(DIM);
    let moments_add = median_ns(min_seconds, || moments.add(black_box(&theta), 1.0));
    let mut ring = RingBuffer::new(DIM, sgviz::chain::DEFAULT_CAPACITY);
    let ring_push = median_ns(min_seconds, || ring.push(black_box(&theta)));
    let sgld = chain_step_ns(min_seconds, "sgld", "step_size", 1e-5);
    let sghmc = chain_step_ns(min_seconds, "sghmc", "sghmc_lr", 1e-6);

    let limit = index_draws + gradient + normal_draws;
    let rows: [(&str, f64, &str); 9] = [
        ("index draws", index_draws, "n = 32 distinct indices (partial Fisher–Yates)"),
        ("gradient", gradient, "n dot products + n sigmoids + accumulation (fused minibatch gradient)"),
        ("of which sigmoids", sigmoids, "n sigmoids alone"),
        ("normals", normal_draws, "d = 4 standard normals"),
        ("limit", limit, "index draws + gradient + normals"),
        ("moments add", moments_add, "running mean and covariance, one sample"),
        ("ring push", ring_push, "retained-sample ring, one sample"),
        ("sgld chain step", sgld, "Chain::run per step, SGLD (ε = 1e-5), including bookkeeping"),
        ("sghmc chain step", sghmc, "Chain::run per step, SGHMC (η = 1e-6), including bookkeeping"),
    ];
    for (part, ns, what) in rows {
        println!("{}", serde_json::json!({ "part": part, "ns_per_step": ns, "what": what }));
    }
}

/// Per-step cost of a whole chain (the bench case: logreg d = 4, n = 32, capacity 10⁵).
fn chain_step_ns(min_seconds: f64, sampler: &str, step_name: &str, step: f64) -> f64 {
    let config = ChainConfig::new("logreg_dd", sampler, 1)
        .with("n_dims", DIM)
        .with("n_points", N_DATA)
        .with("batch_size", BATCH)
        .with(step_name, step);
    let mut chain = Chain::new(&config).expect("bench chain builds");
    const CHUNK: u64 = 10;
    median_ns(min_seconds, || {
        chain.run(CHUNK);
    }) / CHUNK as f64
}

/// Median over five runs of the CPU nanoseconds per call of `f`, each run ≥ `min_seconds`
/// (the clock is read once per 10⁴ calls, so reading it costs < 1 %).
fn median_ns(min_seconds: f64, mut f: impl FnMut()) -> f64 {
    let clock = || crate::thread_cpu_seconds().expect("per-thread CPU clock (/proc/thread-self/schedstat)");
    const CALLS: u64 = 10_000;
    for _ in 0..CALLS {
        f();
    }
    let mut runs = Vec::with_capacity(5);
    for _ in 0..5 {
        let started = clock();
        let mut calls = 0u64;
        while clock() - started < min_seconds {
            for _ in 0..CALLS {
                f();
            }
            calls += CALLS;
        }
        runs.push((clock() - started) * 1e9 / calls as f64);
    }
    runs.sort_by(f64::total_cmp);
    runs[2]
}
