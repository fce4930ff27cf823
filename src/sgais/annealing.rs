//! Adaptive annealing by bisection to a target effective sample size (SGAIS paper §3, Algorithm 1
//! line 6). Everything is in log space.
//!
//! The paper defines the ESS of the *incremental* weights only:
//! ESS(Δ) = (Σ_i ω_i)² / Σ_i ω_i², ω_i(Δ) = p(C | θ_i)^Δ.
//! (an earlier spec (see docs/sgais.md §2) wrote ω_i = w_i p(C|θ_i)^Δ; the paper is the authority and its form keeps
//! ESS(0) = M ≥ ESS*, so the bisection always has a bracket even after many chunks without
//! resampling.) ESS(Δ) is non-increasing in Δ: d log ESS/dΔ = 2(E_Δ[L] − E_{2Δ}[L]) ≤ 0 because a
//! tilted mean grows with the tilt.

/// log( (1/M) Σ exp(x_i) ), stable; −∞ when every x_i is −∞ (or the slice is empty).
pub fn log_mean_exp(x: &[f64]) -> f64 {
    crate::model::gmm::log_sum_exp(x) - (x.len() as f64).ln()
}

/// ESS of weights given by their logarithms: (Σ w)² / Σ w². Zero when every weight is zero.
pub fn ess_of_log_weights(log_w: &[f64]) -> f64 {
    let max = log_w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY || max.is_nan() {
        return 0.0;
    }
    let (mut sum, mut sum_sq) = (0.0, 0.0);
    for &lw in log_w {
        let w = (lw - max).exp();
        sum += w;
        sum_sq += w * w;
    }
    sum * sum / sum_sq
}

/// ESS(Δ) of the incremental weights ω_i = exp(Δ L_i), L_i = log p(C | θ_i).
/// Δ·(−∞) is taken as 0 at Δ = 0 (ω = 1) and −∞ for Δ > 0 (ω = 0), never NaN.
pub fn incremental_ess(chunk_log_lik: &[f64], delta: f64) -> f64 {
    let scaled: Vec<f64> = chunk_log_lik.iter().map(|&l| if delta == 0.0 { 0.0 } else { delta * l }).collect();
    ess_of_log_weights(&scaled)
}

/// The next annealing increment Δ ∈ (0, 1 − λ] (Algorithm 1 line 6).
///
/// - Δ = 1 − λ when ESS(1 − λ) already meets the target;
/// - otherwise the root of ESS(Δ) = ESS* by bisection (ESS is continuous and non-increasing).
///
/// Particles with L_i = −∞ get weight zero for every Δ > 0, so ESS(0⁺) is the number m of finite
/// ones. When m < M the target is scaled to the surviving fraction, ESS* m / M, which is < m and
/// hence reachable; when m = 0 nothing can be gained by waiting and Δ = 1 − λ.
pub fn next_increment(chunk_log_lik: &[f64], lambda: f64, target_ess: f64) -> f64 {
    let remaining = 1.0 - lambda;
    if remaining <= 0.0 {
        return 0.0;
    }
    let m = chunk_log_lik.len() as f64;
    let finite = chunk_log_lik.iter().filter(|l| l.is_finite()).count() as f64;
    if finite == 0.0 {
        return remaining;
    }
    let target = target_ess.min(m) * finite / m;
    if incremental_ess(chunk_log_lik, remaining) >= target {
        return remaining;
    }
    let (mut low, mut high) = (0.0, remaining);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break;
        }
        if incremental_ess(chunk_log_lik, mid) >= target {
            low = mid;
        } else {
            high = mid;
        }
    }
    // `low` meets the target (ESS ≥ ESS*). It is > 0 whenever ESS* < ESS(0⁺) = m (SgaisConfig
    // refuses ESS* ≥ M); otherwise `high`, the smallest increment tried, keeps λ moving.
    if low > 0.0 {
        low
    } else {
        high
    }
}
