//! The first N shift points (data seed 1), in order, one "x y" line each: the input of
//! scripts/gmm_em_modes.py and scripts/gmm_laplace_modes.py, the independent check of K = 3's
//! modes (docs/sgais.md §10, "K = 3 is a different failure").
//! `cargo run --release --example shift_points -- 2000 > points.txt`
use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule};
fn main() {
    let n: usize = std::env::args().nth(1).map_or(2_000, |s| s.parse().unwrap());
    let y = generate_cluster_data(n, ClusterSchedule::Shift { shuffled: false }, 1);
    for i in 0..n {
        println!("{} {}", y[2 * i], y[2 * i + 1]);
    }
}
