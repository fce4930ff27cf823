//! A read-only view of SBPS's current regression and band (Pakman et al. 2017, §4 eqs. 11–15,
//! docs/bouncy.md §4–§5), for drawing the paper's Fig. 2 live: the fitted projected gradient Ĝ(t)
//! and the upper band λ⁺(t) over the time since the last bounce, where the particle is now and
//! when its next proposal falls. Nothing here changes the sampler.

use super::regression::SlopeRegression;

/// A copy of what the band is made of at this moment.
#[derive(Clone, Debug)]
pub struct BandView {
    /// Time travelled since the last bounce or refresh (the regression's time origin).
    pub elapsed: f64,
    /// The planned flight from now: to the next proposal, refresh or horizon.
    pub next_flight: f64,
    pub band_k: f64,
    /// The learned slope prior mean μ_β.
    pub prior_mean: f64,
    pub regression: SlopeRegression,
}

impl BandView {
    /// The fitted projected gradient Ĝ(t) (eq. 13).
    pub fn line(&self, t: f64) -> f64 {
        self.regression.mean_at(t, self.prior_mean)
    }

    /// The upper band λ⁺(t) = Ĝ(t) + k √(φᵀΣφ + σ²) (eq. 14–15, docs/bouncy.md §5).
    pub fn band(&self, t: f64) -> f64 {
        self.regression.upper_band(t, self.band_k, self.prior_mean)
    }

    /// The observations' weighted mean (t̄, Ḡ) (weights 1/σ_j²): the fitted line passes through it.
    pub fn weighted_mean(&self) -> (f64, f64) {
        (self.regression.t_mean, self.regression.g_mean)
    }
}
