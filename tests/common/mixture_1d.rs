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

/// The names of [`statistics`]' five entries, in order, for the checks' messages.
pub const STATISTIC_NAMES: [&str; 5] = ["β_0²", "max β", "near the chunk", "μ_0", "ρ_0"];

/// The invariance check both move tests make: the move must move (more than 5 % of proposals
/// accepted, else invariance is trivial), and three moves change no statistic's expectation by
/// 5 SE or more (`changes` from common/paired.rs's `weighted_mean_changes`).
pub fn assert_invariant(label: &str, changes: &[(f64, f64)], acceptance: f64) {
    eprintln!("{label}: E_f[g(P³θ) − g(θ)] (β_0², max β, near chunk, μ_0, ρ_0) = {changes:.4?}, acceptance {acceptance:.3}");
    assert!(acceptance > 0.05, "{label}: the move must actually move ({acceptance:.3} accepted), or invariance is trivial");
    for ((change, se), name) in changes.iter().zip(STATISTIC_NAMES) {
        assert!(*se > 0.0 && change.abs() < 5.0 * se, "{label}: three moves change E_f[{name}] by {change:.4} (SE {se:.4})");
    }
}

/// The power check: a wrong move moves some statistic by more than 5 SE.
pub fn assert_check_sees(label: &str, changes: &[(f64, f64)]) {
    eprintln!("{label}: E_f[g(P³θ) − g(θ)] (β_0², max β, near chunk, μ_0, ρ_0) = {changes:.4?}");
    assert!(changes.iter().any(|(change, se)| change.abs() > 5.0 * se), "{label}: the check did not see the wrong move: {changes:.4?}");
}
