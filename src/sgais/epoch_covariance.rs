//! The covariance of log Ẑ's epoch terms (docs/sgais.md §15, "A variance that sees correlated
//! epochs (stop 48)"). log Ẑ = Σ_t log(mean_i w_{i,t}) over resampling epochs t; the weights'
//! variance Σ_t v_t, v_t = 1/ESS_t − 1/M = (1/M²) Σ_i (W̃_{i,t} − 1)² (W̃ the weights normalised to
//! mean 1), treats the epochs as independent. When the moves between resamplings leave copies
//! near their ancestor, an epoch's error is inherited by the next ones. Linearising the SMC error
//! (the Feynman–Kac variance of Del Moral 2004, the cross term of one epoch's cloud error with a
//! later epoch's weights): c_{s,t} ≈ (1/M²) Σ_j (W̃_{a(j),s} − 1)(W̃_{j,t} − 1), with a(j) particle
//! j's ancestor at epoch s. Each particle carries its ancestors' deviations W̃ − 1 of the last
//! [`LAGS`] epochs, copied with it when it is resampled.

/// Epochs back whose covariance with the current epoch is counted.
pub const LAGS: usize = 8;

/// Per particle, its ancestors' W̃ − 1 at 1, 2, … epochs back (index 0 = the parent's epoch).
#[derive(Clone, Debug, Default)]
pub struct Ancestry {
    deviations: Vec<Vec<f64>>,
    /// Per particle, the index of its parent at the last resampling (empty before the first).
    parents: Vec<usize>,
}

impl Ancestry {
    /// M particles without ancestors (the prior's draws).
    pub fn new(particles: usize) -> Self {
        Ancestry { deviations: vec![Vec::new(); particles], parents: Vec::new() }
    }

    /// c_{t−k,t} for k = 1..=LAGS between the current epoch's normalised log-weights and the
    /// ancestors' (0 where the run has fewer epochs).
    pub fn cross_terms(&self, log_weights: &[f64]) -> [f64; LAGS] {
        let u = deviations(log_weights);
        let m2 = (u.len() * u.len()) as f64;
        let mut terms = [0.0; LAGS];
        for (ancestors, uj) in self.deviations.iter().zip(&u) {
            for (term, a) in terms.iter_mut().zip(ancestors) {
                *term += a * uj / m2;
            }
        }
        terms
    }

    /// The covariance between copies of one parent within the current epoch, 2 Σ_{j<k, a(j)=a(k)}
    /// (W̃_j − 1)(W̃_k − 1)/M² = (1/M²)[Σ_families (Σ_j (W̃_j − 1))² − Σ_j (W̃_j − 1)²]: the inherited
    /// term the weights' variance (which counts the M particles as independent) leaves out. Pairs
    /// of distinct copies only, so a copy's own move noise does not bias it (docs/sgais.md §15,
    /// "stop 49"). 0 before the first resampling.
    pub fn sibling_term(&self, log_weights: &[f64]) -> f64 {
        if self.parents.len() != log_weights.len() {
            return 0.0;
        }
        let u = deviations(log_weights);
        let mut family_sums = vec![0.0; u.len()];
        self.parents.iter().zip(&u).for_each(|(&p, uj)| family_sums[p] += uj);
        let m2 = (u.len() * u.len()) as f64;
        (family_sums.iter().map(|s| s * s).sum::<f64>() - u.iter().map(|x| x * x).sum::<f64>()) / m2
    }

    /// After resampling: particle k is a copy of `chosen[k]`, whose own deviation this epoch (from
    /// `log_weights`, before the reset) becomes its copies' lag-1 entry.
    pub fn resampled(&mut self, chosen: &[usize], log_weights: &[f64]) {
        let u = deviations(log_weights);
        self.deviations = chosen
            .iter()
            .map(|&i| std::iter::once(u[i]).chain(self.deviations[i].iter().copied()).take(LAGS).collect())
            .collect();
        self.parents = chosen.to_vec();
    }
}

/// W̃_i − 1 = M w_i/Σw − 1 (0 for every particle when no weight is finite).
fn deviations(log_weights: &[f64]) -> Vec<f64> {
    let max = log_weights.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if !max.is_finite() {
        return vec![0.0; log_weights.len()];
    }
    let w: Vec<f64> = log_weights.iter().map(|lw| (lw - max).exp()).collect();
    let mean = w.iter().sum::<f64>() / w.len() as f64;
    w.iter().map(|x| x / mean - 1.0).collect()
}

/// 2 Σ_{k ≤ lags} of the cross terms accumulated by lag (the variance's correction for `lags`).
pub fn correction(by_lag: &[f64; LAGS], lags: usize) -> f64 {
    2.0 * by_lag.iter().take(lags).sum::<f64>()
}
