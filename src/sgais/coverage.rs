//! Which of the generating clusters (`model::gmm::CLUSTERS`) a mixture particle's components cover,
//! a diagnostic of docs/sgais.md §10: at the global defaults the K = 5 mixture's particles covered
//! one to three of five clusters after the first chunk, and log Ẑ was low; after a distribution
//! shift the counts did not explain the in-order/shuffled gap. Printed by
//! tests/sgais_shift_orders.rs and examples/gmm_modes.rs, never used by a run.
//!
//! θ is laid out as in (SGAIS.8)–(SGAIS.10): z_1..z_{K−1} (z_K ≡ 0), then μ (K × 2), then ρ.

use crate::model::gmm::CLUSTERS;

/// A component counts when its weight is at least this.
pub const MIN_WEIGHT: f64 = 0.05;
/// … and its mean is within this distance of a cluster's centre (the clusters' sds are 0.5–0.8).
pub const MAX_DISTANCE: f64 = 0.5;

/// How many of the seven generating clusters the K components of θ cover.
pub fn clusters_covered(theta: &[f64], k: usize) -> usize {
    let mut z: Vec<f64> = theta[..k - 1].to_vec();
    z.push(0.0);
    let max = z.iter().copied().fold(f64::MIN, f64::max);
    let total: f64 = z.iter().map(|v| (v - max).exp()).sum();
    let mut covered = [false; CLUSTERS.len()];
    for c in (0..k).filter(|&c| (z[c] - max).exp() / total >= MIN_WEIGHT) {
        let mu = &theta[k - 1 + 2 * c..k + 1 + 2 * c];
        for (q, (centre, _)) in CLUSTERS.iter().enumerate() {
            covered[q] |= (mu[0] - centre[0]).hypot(mu[1] - centre[1]) < MAX_DISTANCE;
        }
    }
    covered.iter().filter(|c| **c).count()
}

/// The median over particles of [`clusters_covered`].
pub fn median_clusters_covered(particles: &[Vec<f64>], k: usize) -> usize {
    let mut counts: Vec<usize> = particles.iter().map(|p| clusters_covered(p, k)).collect();
    counts.sort_unstable();
    counts[counts.len() / 2]
}
