//! SBPS's slope regression (Pakman et al. 2017, §4 eqs. 11–14; App. E for the band's
//! asymptotic slope): the weighted Bayesian line through the projected-gradient observations since the last
//! bounce, and its upper band. Below the sampler: it knows nothing of it.



/// Slope prior variance σ_β² (`prior_var`, docs/bouncy.md §6 (defaults)).
pub const SLOPE_PRIOR_VARIANCE: f64 = 1e5;

/// Weighted Bayesian linear regression G = β₀ + β₁ t + ε, ε ~ N(0, σ_j²), flat prior on β₀ and
/// N(μ_β, σ_β²) on β₁ (docs/bouncy.md §4), kept as weighted Welford sums so that the 2 × 2
/// posterior is solved in centred, well-conditioned form:
/// β̂₁ = (C_tG + μ_β/σ_β²)/(C_tt + 1/σ_β²), Ĝ(t) = Ḡ + β̂₁ (t − t̄), φᵀΣφ = 1/W + (t − t̄)²/(C_tt + 1/σ_β²).
#[derive(Clone, Debug, Default)]
pub struct SlopeRegression {
    pub(super) weight_sum: f64,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub t_mean: f64,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub g_mean: f64,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub c_tt: f64,
    pub(super) c_tg: f64,
    pub(super) last_sd: f64,
}

impl SlopeRegression {
    /// A regression holding one observation.
    pub fn seeded(t: f64, g: f64, sd: f64) -> Self {
        let mut r = SlopeRegression::default();
        r.add(t, g, sd);
        r
    }

    /// Add (t, G) with noise sd σ (weight 1/σ²).
    pub fn add(&mut self, t: f64, g: f64, sd: f64) {
        let w = 1.0 / (sd * sd);
        let total = self.weight_sum + w;
        let (dt, dg) = (t - self.t_mean, g - self.g_mean);
        self.t_mean += dt * w / total;
        self.g_mean += dg * w / total;
        self.c_tt += w * dt * (t - self.t_mean);
        self.c_tg += w * dt * (g - self.g_mean);
        self.weight_sum = total;
        self.last_sd = sd;
    }

    /// Posterior-mean slope β̂₁ under the slope prior N(μ_β, σ_β²).
    pub fn slope(&self, prior_mean: f64) -> f64 {
        let p = 1.0 / SLOPE_PRIOR_VARIANCE;
        (self.c_tg + prior_mean * p) / (self.c_tt + p)
    }

    /// Posterior mean of the line at t.
    pub fn mean_at(&self, t: f64, prior_mean: f64) -> f64 {
        self.g_mean + self.slope(prior_mean) * (t - self.t_mean)
    }

    /// φ(t)ᵀΣφ(t): posterior variance of the line at t.
    pub fn line_variance_at(&self, t: f64) -> f64 {
        let dt = t - self.t_mean;
        1.0 / self.weight_sum + dt * dt / (self.c_tt + 1.0 / SLOPE_PRIOR_VARIANCE)
    }

    /// Slope of the upper band far ahead, β̂₁ + k√Σ₁₁ (paper eq. E.63): negative when the fitted
    /// slope is so strongly negative that the band eventually falls below 0 for good.
    pub fn asymptotic_band_slope(&self, k: f64, prior_mean: f64) -> f64 {
        self.slope(prior_mean) + k / (self.c_tt + 1.0 / SLOPE_PRIOR_VARIANCE).sqrt()
    }

    /// Upper band λ⁺(t) = Ĝ(t) + k √(φᵀΣφ + σ_last²) (docs/bouncy.md §5), a predictive band for a new observation.
    pub fn upper_band(&self, t: f64, k: f64, prior_mean: f64) -> f64 {
        self.mean_at(t, prior_mean) + k * (self.line_variance_at(t) + self.last_sd * self.last_sd).sqrt()
    }
}
