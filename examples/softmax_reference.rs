//! The independent reference log Z of softmax regression (docs/sgais.md §13): Laplace at the mode
//! and importance sampling from a Student-t centred there (`sgviz::sgais::softmax_reference`), on
//! the data `sgviz evidence --target softmax --set n_points=N --set data_seed=K` generates
//! (d = 10 features, C = 4 classes, σ_p = 1).
//!
//! `cargo run --release --example softmax_reference -- N DATA_SEED SAMPLES`

use sgviz::model::softmax::SoftmaxRegression;
use sgviz::sgais::softmax_reference::{importance_log_evidence, laplace_log_evidence};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(2_000, |s| s.parse().expect("N"));
    let data_seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("DATA_SEED"));
    let samples: usize = args.get(3).map_or(4_000, |s| s.parse().expect("SAMPLES"));
    let m = SoftmaxRegression::synthetic(n, 10, 4, 1.0, data_seed);
    println!("N = {n}, data seed {data_seed}: Laplace log Z = {:.2}", laplace_log_evidence(&m));
    for (dof, seed) in [(5, 1), (10, 2), (30, 3)] {
        let is = importance_log_evidence(&m, samples, dof, seed);
        println!("  importance sampling, t_{dof}, {samples} draws: log Z = {:.2} ± {:.2} (ESS {:.0})", is.log_z, is.se, is.ess);
    }
}
