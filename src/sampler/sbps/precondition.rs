//! pSBPS's diagonal preconditioner (Pakman et al. 2017, §5, eq. 19–20, corrected): an exponential
//! moving average of squared mean gradients plus the minibatch's per-datum score spread, inverted
//! and normalised to mean 1. Below the sampler: it knows nothing of it.



/// Diagonal preconditioner of pSBPS (docs/bouncy.md §8, (BPS.9) corrected):
/// ĝ²_t = β ĝ²_{t−1} + (1 − β)(ḡ⊙ḡ + s²), a_i ∝ 1/(√ĝ²_i + ε), normalised to mean 1, with s²_j
/// the minibatch's population variance of the per-datum scores ∂ℓ_i/∂w_j.
///
/// Why s² (not in eq. 19): the paper drops the time-dependent preconditioner's correction term
/// because A then changes slowly as a function of w (§5, after Li et al. 2016). That holds while
/// ḡ⊙ḡ is mostly minibatch noise (its size set by the score spread, not by where the particle
/// is). At n → N the noise vanishes (factor 1 − n/N), ḡ ≈ Σ⁻¹(w − m)/N follows the position,
/// and A slows the particle in exactly the coordinates where it is far out: on the linear
/// regression at n = N the covariance came out 2–10× too wide. The spread keeps A independent of
/// the position at every n; where the noise dominates (n ≪ N) it has the same shape.
#[derive(Clone, Debug)]
pub struct DiagonalPreconditioner {
    squared_average: Vec<f64>,
    pub diagonal: Vec<f64>,
}

/// EMA weight β of the old average (SBPS-public form, docs/bouncy.md §8).
pub const PRECONDITIONER_BETA: f64 = 0.99;

/// ε added to √ĝ² (relative to the per-datum gradient scale).
pub const PRECONDITIONER_EPSILON: f64 = 1e-4;

impl DiagonalPreconditioner {
    pub fn new(dim: usize) -> Self {
        DiagonalPreconditioner { squared_average: vec![0.0; dim], diagonal: vec![1.0; dim] }
    }

    /// Update with the mean per-datum gradient ḡ of the latest minibatch and its per-datum
    /// score variance s² (per coordinate).
    pub fn update(&mut self, mean_gradient: &[f64], score_variance: &[f64]) {
        for ((s, g), v) in self.squared_average.iter_mut().zip(mean_gradient).zip(score_variance) {
            *s = PRECONDITIONER_BETA * *s + (1.0 - PRECONDITIONER_BETA) * (g * g + v);
        }
        for (a, s) in self.diagonal.iter_mut().zip(&self.squared_average) {
            *a = 1.0 / (s.sqrt() + PRECONDITIONER_EPSILON);
        }
        let mean = self.diagonal.iter().sum::<f64>() / self.diagonal.len() as f64;
        self.diagonal.iter_mut().for_each(|a| *a /= mean);
    }
}
