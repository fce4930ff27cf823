//! SBPS's thinning at a proposal (Pakman et al. 2017, §3.2 and §4): accept with probability G̃/λ̄ (a
//! ratio above 1 is a bound violation, the sampler's bias diagnostic) and reflect on acceptance.

use super::Sbps;
use crate::rng::{uniform, ChainRng};
use crate::sampler::bouncy::reflect;

impl Sbps {
    /// Thinning at a proposal with bound λ̄ (docs/bouncy.md §6). On acceptance v is reflected on A∇Ũ with the
    /// A of the segment that ends here, then the regression restarts. Returns whether it bounced.
    pub(super) fn accept_or_reject(&mut self, bound: f64, n_data: usize, rng: &mut ChainRng) -> bool {
        let (g, sd) = self.projected_observation(n_data);
        self.regression.add(self.elapsed, g, sd);
        let ratio = g / bound;
        let bounced = uniform(rng) < ratio;
        self.band_check.record(ratio, bounced);
        if bounced {
            if ratio > 1.0 {
                self.counters.violations += 1;
            }
            let normal: Vec<f64> = self.obs.grad_u.iter().zip(&self.scaling).map(|(g, a)| g * a).collect();
            reflect(&mut self.v, &normal);
            self.restart(n_data);
            self.counters.bounces += 1;
            true
        } else {
            self.counters.rejections += 1;
            false
        }
    }
}
