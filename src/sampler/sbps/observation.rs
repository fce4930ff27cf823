//! One minibatch observation on SBPS's current ray and its projection on the direction of motion:
//! the projected gradient G̃ and its noise sd σ with the finite-population factor (Pakman et al.
//! 2017, §3.2 eqs. 9–10 and §4 eq. 12). Below the sampler: it knows nothing of it.

use crate::model::Model;
use crate::rng::ChainRng;
use crate::sampler::bouncy::dot;
use crate::sampler::GradientOracle;

/// Floor of the per-datum projected-score variance (`min_var`, docs/bouncy.md §3). Applied after the
/// finite-population factor, so that n = N (σ = 0 otherwise) keeps finite regression weights.
pub const MIN_SCORE_VARIANCE: f64 = 1e-15;

/// One minibatch observation at a point of the current ray.
#[derive(Clone, Debug, Default)]
#[doc(hidden)] // pub for tests/unit (issue 23)
pub struct Observation {
    /// Full-scale potential gradient ∇Ũ = −∇log p − (N/n) Σ_{i∈S} ∇ℓ_i − ξ.
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub grad_u: Vec<f64>,
    /// Per-datum scores ∇ℓ_i (without synthetic noise), row-major n × D.
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub scores: Vec<f64>,
    /// Synthetic gradient noise ξ ~ N(0, s² I) of data-free toys (zeros otherwise).
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub noise: Vec<f64>,
    /// s².
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub noise_var: f64,
}

/// (G̃, σ) of one observation along a direction, and whether σ² hit the floor.
#[doc(hidden)] // pub for tests/unit (issue 23)
pub struct Projected {
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub g: f64,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub sd: f64,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub clamped: bool,
}

impl Observation {
    /// Draw a fresh minibatch at `w` (or, `reuse_batch`, evaluate the last one there: App. E).
    pub(super) fn take(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng, w: &[f64], reuse_batch: bool) {
        let dim = w.len();
        self.noise.resize(dim, 0.0);
        let n = if reuse_batch {
            grads.current_batch_scores_and_noise(model, w, rng, &mut self.scores, &mut self.noise)
        } else {
            grads.minibatch_scores_and_noise(model, w, rng, &mut self.scores, &mut self.noise)
        };
        self.noise_var = model.synthetic_noise_sd().powi(2);
        let scale = grads.n_data() as f64 / n as f64;
        let mut grad_log = vec![0.0; dim];
        model.add_grad_log_prior(w, &mut grad_log);
        for row in self.scores.chunks(dim) {
            for (g, s) in grad_log.iter_mut().zip(row) {
                *g += scale * s;
            }
        }
        self.grad_u = grad_log.iter().zip(&self.noise).map(|(g, xi)| -(g + xi)).collect();
    }

    /// Per coordinate j, the population variance over the minibatch of the per-datum scores
    /// ∂ℓ_i/∂w_j (the spread that sets the minibatch gradient's noise, before the
    /// finite-population factor; 0 for a minibatch of one).
    pub fn score_variance(&self) -> Vec<f64> {
        let dim = self.grad_u.len();
        let n = (self.scores.len() / dim.max(1)) as f64;
        (0..dim)
            .map(|j| {
                let mean = self.scores.chunks(dim).map(|row| row[j]).sum::<f64>() / n;
                self.scores.chunks(dim).map(|row| (row[j] - mean).powi(2)).sum::<f64>() / n
            })
            .collect()
    }

    /// G̃ = u·∇Ũ and its noise sd σ along u (docs/bouncy.md §3, corrected): with p_i = u·∇ℓ_i and s²_pop their
    /// population variance over the minibatch, σ² = N²(1 − n/N) s²_pop / n + s²‖u‖². Only the
    /// minibatch part is finite-population sampling; the synthetic noise is fresh at every step and
    /// is added without the factor. σ² is floored at N²·[`MIN_SCORE_VARIANCE`]/n.
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub fn project(&self, u: &[f64], n_data: usize) -> Projected {
        let dim = u.len();
        let n = (self.scores.len() / dim) as f64;
        let mean = self.scores.chunks(dim).map(|row| dot(row, u)).sum::<f64>() / n;
        let pop_var = self.scores.chunks(dim).map(|row| (dot(row, u) - mean).powi(2)).sum::<f64>() / n;
        let n_data = n_data as f64;
        // Both parts in per-datum units (σ² = N² · per_datum / n).
        let synthetic = self.noise_var * dot(u, u) * n / (n_data * n_data);
        let per_datum = (1.0 - n / n_data) * pop_var + synthetic;
        let clamped = per_datum < MIN_SCORE_VARIANCE;
        let per_datum = per_datum.max(MIN_SCORE_VARIANCE);
        Projected { g: dot(u, &self.grad_u), sd: n_data * (per_datum / n).sqrt(), clamped }
    }
}
