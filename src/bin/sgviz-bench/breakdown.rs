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

/// The bench case's model: `logreg_dd`, D = 4, N = 10⁴, default data seed.
fn case_model() -> sgviz::model::logistic::LogisticRegression {
    let mut values = ParamValues::defaults(sgviz::model::logreg_dd::PARAMS);
    values.set(sgviz::model::logreg_dd::PARAMS, "n_dims", DIM as f64).expect("n_dims");
    values.set(sgviz::model::logreg_dd::PARAMS, "n_points", N_DATA as f64).expect("n_points");
    sgviz::model::logreg_dd::synthetic(&values).expect("logreg_dd builds")
}

/// Write the case's data as CSV: a `# … mode=θ1;…;θD` line (where chains start), a header, then
/// one row `x_1,…,x_D,y` per datum with every digit needed to read back the same f64.
pub fn export_case_data(path: &str) -> std::io::Result<()> {
    use std::io::Write;
    let model = case_model();
    let (features, labels) = model.data();
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mode: Vec<String> = model.mode().iter().map(|m| format!("{m:?}")).collect();
    writeln!(out, "# logreg_dd n_dims={DIM} n_points={N_DATA} data_seed=1 prior_sd=100 mode={}", mode.join(";"))?;
    let names: Vec<String> = (1..=DIM).map(|j| format!("x{j}")).collect();
    writeln!(out, "{},y", names.join(","))?;
    for (row, y) in features.chunks(DIM).zip(labels) {
        let cells: Vec<String> = row.iter().map(|x| format!("{x:?}")).collect();
        writeln!(out, "{},{y}", cells.join(","))?;
    }
    out.flush()
}

/// Print one JSON line per part: `{"part", "ns_per_step", "what"}`.
pub fn print(min_seconds: f64) {
    let model = case_model();
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
    // The same exponentials the gradient evaluates, e^{−|z_i|} at the case's own z_i = x_iᵀθ.
    let (features, _) = model.data();
    let minus_abs_z: Vec<f64> =
        batches.iter().map(|&i| -features[i * DIM..(i + 1) * DIM].iter().zip(&theta).map(|(x, t)| x * t).sum::<f64>().abs()).collect();
    let mut at = 0;
    let exponentials = median_ns(min_seconds, || {
        let mut sum = 0.0;
        for &x in &minus_abs_z[at..at + BATCH] {
            sum += sgviz::fastmath::exp_nonpositive(black_box(x));
        }
        at = (at + BATCH) % minus_abs_z.len();
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
    let rows: [(&str, f64, &str); 11] = [
        ("index draws", index_draws, "n = 32 distinct indices (partial Fisher–Yates)"),
        ("gradient", gradient, "fused minibatch gradient: n rows, n dot products, n sigmoids, accumulation"),
        ("gradient: exponentials", exponentials, "the gradient's n exponentials e^{−|z_i|} alone"),
        ("gradient: the rest", gradient - exponentials, "row and label loads, dot products, divisions, accumulation"),
        ("normals", normal_draws, "d = 4 standard normals"),
        ("limit", limit, "index draws + gradient + normals"),
        ("moments add", moments_add, "running mean and covariance, one sample"),
        ("ring push", ring_push, "retained-sample ring, one sample"),
        ("sgld chain step", sgld, "Chain::run per step, SGLD (ε = 1e-5), including bookkeeping"),
        ("sghmc chain step", sghmc, "Chain::run per step, SGHMC (η = 1e-6), including bookkeeping"),
        ("sgld other", sgld - limit - moments_add - ring_push, "SGLD chain step − limit − moments − ring: update, noise diagnostic every 100 steps, divergence check, calls"),
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
    let clock = || sgviz::sgais::cli::thread_cpu_seconds().expect("per-thread CPU clock (/proc/thread-self/schedstat)");
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
