//! Diagnostic for why the in-order shift run is the lower one (issue 22; docs/sgais.md §10, "Why
//! in order is lower"): SGAIS on the shift data in order (or shuffled with `ORDERS=shuffled`),
//! one seed, printing per chunk the log Ẑ increment, and inside every chunk that starts a new
//! phase (n = 1,000 and 10,000) one line per annealing step: λ, the ESS of the weights, and for
//! each cluster that the phase brings the median over the particles of the weight β of the
//! component nearest its centre and that component's distance to it. The tempered posterior at λ
//! gives such a cluster a weight of about (1 + λ m_c)/(K + n + λ m) (Dir(1) prior, m_c of the
//! chunk's m points in it, none of the n before), printed beside the median.
//! With `LAPLACE=1` the Laplace reference of the whole prefix is printed at the end (K ≥ the
//! clusters present).
//!
//! `cargo run --release --example shift_diagnose -- N K SEED [name=value ...]` (as shift_probe).

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture, CLUSTERS};
use sgviz::sgais::laplace_reference::laplace_log_evidence;
use sgviz::sgais::models::EvidenceModel;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use std::sync::Arc;

mod shift_common;
use shift_common::shift_args;

/// (β, distance) of the component of `theta` nearest `centre`.
fn nearest(theta: &[f64], k: usize, centre: [f64; 2]) -> (f64, f64) {
    let mut z: Vec<f64> = theta[..k - 1].to_vec();
    z.push(0.0);
    let max = z.iter().copied().fold(f64::MIN, f64::max);
    let total: f64 = z.iter().map(|v| (v - max).exp()).sum();
    let mu = &theta[k - 1..k - 1 + 2 * k];
    (0..k)
        .map(|c| ((z[c] - max).exp() / total, ((mu[2 * c] - centre[0]).powi(2) + (mu[2 * c + 1] - centre[1]).powi(2)).sqrt()))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Chunk points within 2 sd of cluster `c`'s centre (its share of the chunk, roughly).
fn count_near(model: &GaussianMixture, range: std::ops::Range<usize>, c: usize) -> usize {
    let (centre, sd) = CLUSTERS[c];
    range.filter(|&j| {
        let y = model.point(j);
        ((y[0] - centre[0]).powi(2) + (y[1] - centre[1]).powi(2)).sqrt() < 2.0 * sd
    }).count()
}

fn main() {
    let (n, k, seed, config) = shift_args(2_000, 5, 7);
    let shuffled = std::env::var("ORDERS").as_deref() == Ok("shuffled");
    let mixture = GaussianMixture::new(2, k, generate_cluster_data(n, ClusterSchedule::Shift { shuffled }, 1)).expect("mixture");
    let model: Arc<dyn EvidenceModel> = Arc::new(mixture.clone());
    let chunk = config.chunk_size;
    let mut run = SgaisRun::new(model, config, n, seed);
    let mut previous = 0.0;
    while *run.status() == RunStatus::Running {
        let state = run.annealing_state();
        for r in run.advance(1) {
            println!("n = {}: log Ẑ {:.1} (+{:.1}), {} steps, ESS {:.1}, boosted {}, {:.2e} evals", r.n, r.log_z, r.log_z - previous, r.annealing_steps, r.ess, r.boosted, r.datum_evals as f64);
            previous = r.log_z;
        }
        let Some((range, lambda)) = run.annealing_state().or(state) else { continue };
        let new_clusters: &[usize] = match range.start { 1_000 if !shuffled => &[3, 4], 10_000 if !shuffled => &[5, 6], _ => &[] };
        if new_clusters.is_empty() || range.start + chunk != range.end {
            continue;
        }
        let mut line = format!("   λ {lambda:.4}");
        for &c in new_clusters {
            let near: Vec<(f64, f64)> = run.particles().iter().map(|p| nearest(p, k, CLUSTERS[c].0)).collect();
            let m_c = count_near(&mixture, range.clone(), c) as f64;
            let target = (1.0 + lambda * m_c) / (k as f64 + range.start as f64 + lambda * chunk as f64);
            line += &format!(" | cluster {c}: β median {:.4} (tempered ≈ {target:.4}), distance median {:.2}", median(near.iter().map(|x| x.0).collect()), median(near.iter().map(|x| x.1).collect()));
        }
        println!("{line}");
    }
    println!("final log Ẑ {:.1}, {} reseeds accepted", run.log_z(), run.reseeds_accepted());
    if std::env::var("LAPLACE").as_deref() == Ok("1") {
        println!("Laplace reference of the {n} points: {:.1}", laplace_log_evidence(&mixture));
    }
}
