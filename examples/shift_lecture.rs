//! The lesson's shift runs as the page starts them (issue 26, stop 53): preset `sgais-shift-lecture`
//! (www/sgais-plan.js `shiftLecture`: N = 12,000, M = 25, ESS* = 12.5, 10 SGHMC steps per
//! temperature, lr = 0.02, surprise rule off; seed 1, replica 0, data seed 1), all six variants,
//! each built from the page's own `RunSpec`. Prints per chunk end every run's log Ẑ, the sd its
//! weights predict (√`log_z_var`), its annealing steps and cumulative datum evaluations, and, where
//! the model has as many components as the prefix has clusters, log Ẑ minus the Laplace
//! reference of the same prefix (`laplace_log_evidence`, an independent check: a local-mode
//! approximation, indicative only). Then the page's summary sentence after every run is finished.
//!
//! `cargo run --release --example shift_lecture [-- laplace=0]`
use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use sgviz::sgais::job::RunSpec;
use sgviz::sgais::laplace_reference::laplace_log_evidence;
use sgviz::sgais::run::RunStatus;
use sgviz::sgais::shift::{shift_summary, VariantRecords};

const N: usize = 12_000;
/// A slide, and the page worker's datum evaluations per second (tests/e2e/class-time.test.mjs).
const SLIDE_SECONDS: f64 = 20.0;
const WORKER_DATUM_EVALS_PER_S: f64 = 2.87e6;

/// What the page shows after `budget` evaluations of each of `workers` workers: the runs in the
/// page's order, each on the first worker free (www/jobs.js), a record shown once its run's start
/// plus its cumulative evaluations fit (class-time.test.mjs `sgaisWithin`).
fn within_budget(runs: &[VariantRecords], budget: f64, workers: usize) -> Vec<VariantRecords> {
    let mut free = vec![0.0; workers];
    runs.iter()
        .map(|r| {
            let w = (0..workers).min_by(|&a, &b| free[a].partial_cmp(&free[b]).unwrap()).unwrap();
            let start = free[w];
            free[w] += r.records.last().map_or(0.0, |c| c.datum_evals as f64);
            VariantRecords { variant: r.variant, records: r.records.iter().filter(|c| start + c.datum_evals as f64 <= budget).cloned().collect() }
        })
        .filter(|r| !r.records.is_empty())
        .collect()
}

/// The page's settings for one variant (www/sgais-plan.js `shiftLecture` and `shiftVariants`).
fn spec(k: usize, shuffled: bool) -> RunSpec {
    let pairs = [("n_points", "12000"), ("particles", "25"), ("target_ess", "12.5"), ("burn_in_steps", "10"), ("learning_rate", "0.02"), ("surprise_rule", "1")];
    let mut settings: Vec<(String, String)> = pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    settings.push(("n_components".into(), k.to_string()));
    settings.push(("scenario".into(), if shuffled { "shift_shuffled" } else { "shift" }.into()));
    RunSpec { target: "gmm".into(), preset: None, settings, seed: 1, replica: 0, ais_n: None }
}

/// Clusters present in the first n points of the data in order (src/model/gmm.rs `ClusterSchedule::Shift`).
fn clusters_in_order(n: usize) -> usize {
    if n <= 1_000 { 3 } else if n <= 10_000 { 5 } else { 7 }
}

fn main() {
    let laplace = !std::env::args().any(|a| a == "laplace=0");
    let order = [(7, false), (7, true), (3, false), (5, false), (3, true), (5, true)];
    // Two at a time, as the page's order on two threads (the machine's cores).
    let mut runs: Vec<(VariantRecords, f64)> = Vec::new();
    for pair in order.chunks(2) {
    let handles: Vec<_> = pair
        .iter()
        .map(|&(k, shuffled)| {
            std::thread::spawn(move || {
                let (mut run, _, variant) = spec(k, shuffled).build(None).expect("page spec");
                let started = std::time::Instant::now();
                while *run.status() == RunStatus::Running {
                    run.advance(1);
                }
                (VariantRecords { variant: variant.expect("shift variant"), records: run.records().to_vec() }, started.elapsed().as_secs_f64())
            })
        })
        .collect();
    runs.extend(handles.into_iter().map(|h| h.join().expect("run")));
    }
    println!("variant\tn\tlog_z\tpredicted_sd\tannealing_steps\tevals\tminus_laplace");
    for (r, seconds) in &runs {
        let data = generate_cluster_data(N, ClusterSchedule::Shift { shuffled: r.variant.shuffled }, 1);
        for c in &r.records {
            let k = r.variant.components;
            let present = if r.variant.shuffled { 7 } else { clusters_in_order(c.n) };
            let reference = (laplace && k == present).then(|| laplace_log_evidence(&GaussianMixture::new(2, k, data[..2 * c.n].to_vec()).expect("prefix")));
            let minus = reference.map_or("-".to_string(), |z| format!("{:.1}", c.log_z - z));
            println!("{}\t{}\t{:.1}\t{:.2}\t{}\t{}\t{minus}", r.variant.label(), c.n, c.log_z, c.log_z_var.sqrt(), c.annealing_steps, c.datum_evals);
        }
        println!("# {}: {:.1} CPU-thread s", r.variant.label(), seconds);
    }
    let all: Vec<VariantRecords> = runs.into_iter().map(|(r, _)| r).collect();
    for slides in [1.0, 2.0] {
        let budget = slides * SLIDE_SECONDS * WORKER_DATUM_EVALS_PER_S;
        let shown = within_budget(&all, budget, 2);
        let chunks: Vec<String> = shown.iter().map(|r| format!("{}: {}", r.variant.label(), r.records.len())).collect();
        println!("\nafter {slides} slide(s) ({budget:.3e} evaluations on each of 2 workers): {}", chunks.join("; "));
        println!("sentence: {}", shift_summary(&shown, N).sentence);
    }
    println!("\nsentence when all six are done: {}", shift_summary(&all, N).sentence);
}
