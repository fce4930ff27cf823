//! Whether SBPS's statistical upper band still covers the bounce intensity (Pakman et al. 2017,
//! §3.3, eq. 15–16, and its "quick bias diagnostic": the rate at which the bound is violated).
//!
//! Thinning proposals from a rate λ̄ and accepting with probability min(1, G/λ̄) bounces at rate
//! min(G, λ̄) instead of G⁺: the band misses the intensity (G − λ̄)⁺. Proposals arrive at rate λ̄,
//! so Σ_proposals (G̃/λ̄ − 1)⁺ estimates ∫ (G − λ̄)⁺ dt as the bounce count estimates
//! ∫ min(G, λ̄)⁺ dt, and their ratio is the share of the wanted bounce intensity the band missed.
//! Unlike the raw violation count it weighs a violation by how far G̃ exceeded the band.
//!
//! The threshold [`MISSED_SHARE_LIMIT`] is measured (400k-event and 100k-event runs, synthetic
//! logistic regression N = 1,000 and the Gaussian toy, against grid quadrature; tests/band_check.rs):
//! settings that keep the bias within SBPS's promise (E2 ≤ 0.1, means within 0.25 sd) missed at
//! most 3.2 % (k = 3 with n ≥ 50; k = 10 at n = 20; the toys at their defaults), while those
//! outside it missed 5 % or more (logistic n ≤ 35: means 0.3–38 sd off; Gaussian n ≤ 5: E2 ≥ 0.5).
//! The share is a sufficient sign of bias, not a necessary one: the Gaussian at n = 7 (3.3–4.0 %
//! missed, E2 ≈ 0.2) and the banana at n = 10 (1.7–1.9 % missed, E2 0.45–0.74 at 100k events) are
//! biased and not warned; the noise of G̃ itself (clipped at 0 in the acceptance) is not measured.

use crate::setting_warning::{Failure, SettingWarning};

/// Largest share of the bounce intensity the band may miss before the page warns of bias.
pub const MISSED_SHARE_LIMIT: f64 = 0.04;
/// Bounces since the last change before the share is read (its estimate is noisy before).
pub const MIN_BOUNCES: u64 = 200;
/// The paper's confidence multiple (k = 3 in its experiments): the band's slider default.
const PAPER_K: f64 = 3.0;

/// Share of the wanted bounce intensity the band missed: missed / (missed + bounces), from
/// Σ (G̃/λ̄ − 1)⁺ over proposals and the bounce count. NaN before the first proposal.
pub fn missed_share(missed_intensity: f64, bounces: u64) -> f64 {
    missed_intensity / (missed_intensity + bounces as f64)
}

/// The band's coverage since the parameters last changed.
#[derive(Clone, Debug, Default)]
pub struct BandCheck {
    missed_intensity: f64,
    bounces: u64,
    violations: u64,
}

impl BandCheck {
    /// One thinning proposal with acceptance ratio G̃/λ̄, and whether it bounced.
    pub fn record(&mut self, ratio: f64, bounced: bool) {
        self.missed_intensity += (ratio - 1.0).max(0.0);
        if bounced {
            self.bounces += 1;
            self.violations += u64::from(ratio > 1.0);
        }
    }

    /// Start over (a slider moved: the share describes the new setting only).
    pub fn reset(&mut self) {
        *self = BandCheck::default();
    }

    pub fn missed_share(&self) -> f64 {
        missed_share(self.missed_intensity, self.bounces)
    }

    /// The bias warning, once [`MIN_BOUNCES`] bounces show the band missing more than
    /// [`MISSED_SHARE_LIMIT`] of the bounce intensity. It names k when k is below the paper's 3,
    /// else the minibatch size n, whose small values make G̃'s noise heavy-tailed (§3.3).
    pub fn warning(&self, sampler: &str, band_k: f64, batch: usize) -> Option<SettingWarning> {
        let share = self.missed_share();
        if self.bounces < MIN_BOUNCES || !(share > MISSED_SHARE_LIMIT) {
            return None;
        }
        let param = if band_k < PAPER_K { "band_k" } else { "batch_size" };
        let rate = self.violations as f64 / self.bounces as f64;
        Some(SettingWarning {
            param,
            failure: Failure::Bias,
            text: format!(
                "{sampler}'s band misses {:.0} % of the bounce intensity (bound violations G̃/λ̄ > 1 on {:.0} % of the bounces since the last change; Pakman et al. 2017 §3.3): the samples are biased, and more of them will not help. Raise the minibatch size n (now {batch}) or the confidence multiple k (now {band_k}) until this warning goes.",
                100.0 * share,
                100.0 * rate
            ),
        })
    }
}
