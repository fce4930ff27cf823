//! SBPS's proposal from the upper band (Pakman et al. 2017, §4 eq. 15): the band on a grid of at most
//! [`MAX_BAND_CELLS`] cells up to the horizon, its first event drawn exactly, against a refresh.

use super::{Plan, Sbps};
use crate::rng::{standard_exponential, ChainRng};
use crate::sampler::bouncy::{dot, refresh_time, sample_piecewise_linear, ProposalTime};

/// Most grid cells of the band walked for one proposal: a coarser dt beyond (the band is a
/// heuristic; a horizon of 10³ with dt = 10⁻⁵ would otherwise cost 10⁸ band evaluations).
#[doc(hidden)] // pub for tests/unit (issue 23)
pub const MAX_BAND_CELLS: f64 = 10_000.0;

/// The grid spacing actually walked: dt, coarsened to at most [`MAX_BAND_CELLS`] cells up to the
/// horizon.
#[doc(hidden)] // pub for tests/unit (issue 23)
pub fn band_resolution(dt: f64, horizon: f64) -> f64 {
    dt.max(horizon / MAX_BAND_CELLS)
}

impl Sbps {
    /// Next flight: the band's first proposal (docs/bouncy.md §5) or a refresh, whichever comes first.
    pub(super) fn plan_flight(&mut self, rng: &mut ChainRng) {
        let (k, mu, t0) = (self.band_k, self.slope_prior_mean(), self.elapsed);
        let regression = &self.regression;
        // The horizon is a distance: the longest flight without an observation at speed ‖A v‖.
        let horizon = self.horizon / dot(&self.motion, &self.motion).sqrt().max(f64::MIN_POSITIVE);
        let dt = band_resolution(self.band_dt, horizon);
        let proposal = sample_piecewise_linear(|s| regression.upper_band(t0 + s, k, mu), dt, horizon, standard_exponential(rng));
        let (t_proposal, plan) = match proposal {
            ProposalTime::Event { time, bound } => {
                self.proposal_time_sum += time;
                self.proposal_count += 1;
                (time, Plan::Proposal { bound })
            }
            ProposalTime::Horizon => (horizon, Plan::Horizon),
        };
        let t_refresh = refresh_time(self.refresh_rate, rng);
        (self.flight, self.plan) = if t_refresh < t_proposal { (t_refresh, Plan::Refresh) } else { (t_proposal, plan) };
    }
}
