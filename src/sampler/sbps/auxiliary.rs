//! SBPS's auxiliary observations (Pakman et al. 2017, App. E): while the band's slope far ahead is
//! negative, observe ahead on the ray with the last minibatch before proposing.

use super::Sbps;
use crate::model::Model;
use crate::rng::ChainRng;
use crate::sampler::GradientOracle;

impl Sbps {
    /// Paper App. E: while the upper band's asymptotic slope β̂₁ + k√Σ₁₁ is negative (a strongly
    /// negative fitted slope: the band would fall below 0 and propose a very long flight with no
    /// observation), observe G̃ ahead on the current ray with the last minibatch, at t̄, 2t̄, 4t̄, …
    /// past the current point (t̄ the mean past proposal time), up to `aux_points` times.
    pub(super) fn auxiliary_observations(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) {
        let mut lead = self.mean_proposal_time();
        for _ in 0..self.auxiliary_points {
            if self.regression.asymptotic_band_slope(self.band_k, self.slope_prior_mean()) >= 0.0 {
                break;
            }
            let point: Vec<f64> = self.w.iter().zip(&self.motion).map(|(w, m)| w + m * lead).collect();
            self.auxiliary.take(model, grads, rng, &point, true);
            let p = self.auxiliary.project(&self.motion, grads.n_data());
            self.regression.add(self.elapsed + lead, p.g, p.sd);
            self.counters.auxiliary_observations += 1;
            lead *= 2.0;
        }
    }
}
