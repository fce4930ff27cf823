//! pSBPS's diagonal preconditioner (Pakman et al. 2017, §5): an exponential moving average of
//! squared mean gradients, inverted and normalised to mean 1. Below the sampler: it knows nothing
//! of it.



/// Diagonal preconditioner of pSBPS (docs/bouncy.md §8): ĝ²_t = β ĝ²_{t−1} + (1 − β) ḡ⊙ḡ, a_i ∝ 1/(√ĝ²_i + ε),
/// normalised to mean 1.
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

    /// Update with the mean per-datum gradient ḡ of the latest minibatch.
    pub fn update(&mut self, mean_gradient: &[f64]) {
        for (s, g) in self.squared_average.iter_mut().zip(mean_gradient) {
            *s = PRECONDITIONER_BETA * *s + (1.0 - PRECONDITIONER_BETA) * g * g;
        }
        for (a, s) in self.diagonal.iter_mut().zip(&self.squared_average) {
            *a = 1.0 / (s.sqrt() + PRECONDITIONER_EPSILON);
        }
        let mean = self.diagonal.iter().sum::<f64>() / self.diagonal.len() as f64;
        self.diagonal.iter_mut().for_each(|a| *a /= mean);
    }
}
