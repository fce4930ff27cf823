//! Each particle's Eve (its ancestor among the M particles drawn from the prior) and the variance
//! of Ẑ that the genealogy predicts (Lee & Whiteley 2018, Biometrika 105, Theorem 1; Du & Guyader
//! 2021 for resampling at adaptive times). Unlike the weights' Σ (1/ESS − 1/M)
//! ([`super::run::ChunkRecord::log_z_var`]), it counts resampled copies that the moves did not make
//! independent: copies keep their Eve, and weight piled on few Eves is variance (docs/sgais.md §15,
//! "A variance that counts the copies").
//!
//! With normalised final weights W_i, R resamplings so far and M particles,
//! V̂ = 1 − (M/(M − 1))^(R+1) Σ_{i,j: E_i ≠ E_j} W_i W_j estimates Var(Ẑ)/Z² (unbiased for
//! multinomial resampling after multiplying by Ẑ²); it is at most 1.

use super::annealing::log_mean_exp;

/// The Eve of every particle and how many resamplings made them.
#[derive(Clone, Debug)]
pub struct Genealogy {
    eves: Vec<usize>,
    resamplings: u32,
    /// ancestors[l][k]: particle k's ancestor l + 1 resamplings back (itself before any).
    ancestors: Vec<Vec<usize>>,
    /// Σ over finished epochs of the family variance, per lag.
    family_var: Vec<f64>,
}

/// Lags measured.
pub const LAGS: usize = 3;

/// Σ_f (Σ_{i∈f} (w_i − w̄))² / (Σ w)²: the variance of log((1/M) Σ w_i) when the particles of one
/// family (same ancestor) are correlated and families are independent; 1/ESS − 1/M when every
/// family is one particle.
pub fn family_variance(log_weights: &[f64], family: &[usize]) -> f64 {
    let m = log_weights.len();
    let top = log_mean_exp(log_weights);
    if m < 2 || !top.is_finite() {
        return 0.0;
    }
    let weights: Vec<f64> = log_weights.iter().map(|lw| (lw - top).exp()).collect();
    let mean = weights.iter().sum::<f64>() / m as f64;
    let mut sums = vec![0.0; m];
    for (w, &f) in weights.iter().zip(family) {
        sums[f] += w - mean;
    }
    sums.iter().map(|s| s * s).sum::<f64>() / (m as f64 * mean).powi(2)
}

impl Genealogy {
    /// M particles, each its own Eve.
    pub fn new(m: usize) -> Self {
        Genealogy { eves: (0..m).collect(), resamplings: 0, ancestors: vec![(0..m).collect(); LAGS], family_var: vec![0.0; LAGS] }
    }

    /// After a resampling in which new particle k copies old particle `chosen[k]`.
    pub fn resampled(&mut self, chosen: &[usize], log_weights: &[f64]) {
        for l in 0..LAGS {
            self.family_var[l] += family_variance(log_weights, &self.ancestors[l]);
        }
        for l in (1..LAGS).rev() {
            self.ancestors[l] = chosen.iter().map(|&i| self.ancestors[l - 1][i]).collect();
        }
        self.ancestors[0] = chosen.to_vec();
        self.eves = chosen.iter().map(|&i| self.eves[i]).collect();
        self.resamplings += 1;
    }

    /// Variance of log Ẑ with families at each lag, finished epochs plus the current one.
    pub fn family_log_z_var(&self, log_weights: &[f64]) -> Vec<f64> {
        (0..LAGS).map(|l| self.family_var[l] + family_variance(log_weights, &self.ancestors[l])).collect()
    }

    /// Distinct Eves left.
    pub fn distinct_eves(&self) -> usize {
        let mut eves = self.eves.clone();
        eves.sort_unstable();
        eves.dedup();
        eves.len()
    }

    /// Lee & Whiteley's V̂ for the current log-weights (same order as the particles); 0 with one
    /// particle or no finite weight.
    pub fn relative_variance(&self, log_weights: &[f64]) -> f64 {
        let m = log_weights.len();
        let top = log_mean_exp(log_weights);
        if m < 2 || !top.is_finite() {
            return 0.0;
        }
        let weights: Vec<f64> = log_weights.iter().map(|lw| (lw - top).exp() / m as f64).collect();
        let mut per_eve = vec![0.0; m];
        for (w, &eve) in weights.iter().zip(&self.eves) {
            per_eve[eve] += w;
        }
        let total: f64 = weights.iter().sum();
        let same_eve: f64 = per_eve.iter().map(|w| w * w).sum::<f64>() / (total * total);
        let factor = (m as f64 / (m as f64 - 1.0)).powi(self.resamplings as i32 + 1);
        1.0 - factor * (1.0 - same_eve)
    }
}
