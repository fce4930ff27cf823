//! Diagnostic for the distribution-shift gap (docs/sgais.md §10, "what decides a run at the change
//! point"): SGAIS on the shift data *in order* with K components, one seed, printing after every
//! chunk log Ẑ, its increment and annealing steps, and for every 12th particle each component's
//! weight, mean and standard deviations (θ laid out as in src/model/gmm.rs). It shows whether the
//! components that the new clusters need reached them or one broad component covers them.
//!
//! `cargo run --release --example shift_probe -- N K SEED [name=value ...]` (SGAIS settings over the
//! mixture's own defaults), e.g. `-- 2000 5 2`.

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use sgviz::sgais::models::EvidenceModel;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use std::sync::Arc;

mod shift_common;
use shift_common::shift_args;

/// "w… m(…) s(…)" for each of the K components of one particle.
fn describe(theta: &[f64], k: usize) -> String {
    let mut z: Vec<f64> = theta[..k - 1].to_vec();
    z.push(0.0);
    let max = z.iter().copied().fold(f64::MIN, f64::max);
    let total: f64 = z.iter().map(|v| (v - max).exp()).sum();
    let (mu, rho) = (&theta[k - 1..k - 1 + 2 * k], &theta[k - 1 + 2 * k..]);
    let parts: Vec<String> = (0..k)
        .map(|c| format!("w{:.3} m({:.1},{:.1}) s({:.2},{:.2})", (z[c] - max).exp() / total, mu[2 * c], mu[2 * c + 1], (rho[2 * c] / 2.0).exp(), (rho[2 * c + 1] / 2.0).exp()))
        .collect();
    parts.join(" | ")
}

fn main() {
    let (n, k, seed, config) = shift_args(2_000, 5, 1);
    let model: Arc<dyn EvidenceModel> = Arc::new(GaussianMixture::new(2, k, generate_cluster_data(n, ClusterSchedule::Shift { shuffled: false }, 1)).expect("mixture"));
    let mut run = SgaisRun::new(model, config, n, seed);
    let mut previous = 0.0;
    while *run.status() == RunStatus::Running {
        for r in run.advance(1) {
            println!("n = {}: log Ẑ {:.1} (+{:.1}), {} steps, {:.2e} evals", r.n, r.log_z, r.log_z - previous, r.annealing_steps, r.datum_evals as f64);
            previous = r.log_z;
            run.particles().iter().step_by(12).for_each(|p| println!("   {}", describe(p, k)));
        }
    }
}
