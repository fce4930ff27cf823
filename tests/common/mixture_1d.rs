//! The 1-D, K = 3 mixture the invariance checks of tests/sgais_reseed_weight.rs and
//! tests/sgais_reseed_split.rs share: 6 history points in two clusters (−2, +0.5), 5 chunk points
//! near +3, the likelihood written apart from src/model/gmm.rs, and the five statistics the paired
//! check (common/paired.rs) reads.

pub const K: usize = 3;
pub const HISTORY: [f64; 6] = [-2.3, -1.8, -2.1, 0.4, 0.7, 0.3];
pub const CHUNK: [f64; 5] = [2.6, 3.3, 2.9, 3.4, 3.0];

/// log p(y | θ) of the 1-D, K-component mixture: θ = [z_1..z_{K−1}, μ_1..μ_K, ρ_1..ρ_K], β =
/// softmax(z, 0), σ²_k = e^{ρ_k} (docs/sgais.md (SGAIS.10)), written apart from src/model/gmm.rs.
pub fn log_lik(y: f64, theta: &[f64]) -> f64 {
    let logits: Vec<f64> = (0..K).map(|k| if k + 1 == K { 0.0 } else { theta[k] }).collect();
    let m = logits.iter().cloned().fold(f64::MIN, f64::max);
    let norm = m + logits.iter().map(|l| (l - m).exp()).sum::<f64>().ln();
    let density: f64 = (0..K)
        .map(|k| {
            let (mu, rho) = (theta[K - 1 + k], theta[2 * K - 1 + k]);
            (logits[k] - norm - 0.5 * (2.0 * std::f64::consts::PI).ln() - 0.5 * rho - 0.5 * (y - mu).powi(2) * (-rho).exp()).exp()
        })
        .sum();
    density.ln()
}

pub fn weights(theta: &[f64]) -> Vec<f64> {
    let e: Vec<f64> = (0..K).map(|k| if k + 1 == K { 1.0 } else { theta[k].exp() }).collect();
    let total: f64 = e.iter().sum();
    e.iter().map(|v| v / total).collect()
}

/// β_0², the largest weight, component 0 near the chunk (0/1), μ_0 and ρ_0. (E β_0 itself is 1/K
/// under any kernel that treats the labels alike, so it could not see a wrong Jacobian.)
pub fn statistics(theta: &[f64]) -> [f64; 5] {
    let (mu, rho) = (theta[K - 1], theta[2 * K - 1]);
    let beta = weights(theta);
    [beta[0] * beta[0], beta.iter().cloned().fold(0.0, f64::max), f64::from(u8::from((mu - 3.0).abs() < 1.0)), mu.clamp(-10.0, 10.0), rho.clamp(-10.0, 10.0)]
}
