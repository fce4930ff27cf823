//! Whether SBPS's statistical upper band still covers the bounce intensity (Pakman et al. 2017,
//! §3.3, eq. 15–16, and its "quick bias diagnostic": the rate at which the bound is violated).
//!
//! Thinning proposals from a rate λ̄ and accepting with probability min(1, G/λ̄) bounces at rate
//! min(G, λ̄) instead of G⁺: the band misses the intensity (G − λ̄)⁺. Proposals arrive at rate λ̄,
//! so Σ_proposals (G̃/λ̄ − 1)⁺ estimates ∫ (G − λ̄)⁺ dt as the bounce count estimates
//! ∫ min(G, λ̄)⁺ dt, and their ratio is the share of the wanted bounce intensity the band missed.
//! Unlike the raw violation count it weighs a violation by how far G̃ exceeded the band.
//!
//! The threshold [`MISSED_SHARE_LIMIT`] is measured (docs/diagnostics.md §9;
//! 100k- and 400k-event runs, two seeds each, against grid quadrature; tests/band_check.rs): settings
//! within SBPS's promise (means within 0.25 sd, E2 ≤ 0.1 beyond 3.7 MCSE) missed at most 3.1 %
//! (synthetic logistic regression at n = 50: 2.9–3.1 %, means 0.16–0.19 sd off; the Gaussian at
//! n = 10: 1.6 %; the banana at n = 10 … 50: ≤ 2.7 %; k = 10 at n ≥ 20), those outside it
//! 3.5 % or more (the Gaussian at n = 7: 3.5–3.9 %, E2 0.21–0.24, 0.10–0.11 beyond noise; logistic
//! n ≤ 20: 11 % and more, means 1–7 sd off). The margin between 3.1 % and 3.5 % is thin: the limit
//! sits between them. The noise of G̃ itself (clipped at 0 in the acceptance) is not measured.
//!
//! The remedy the warning names: k = 3 (the paper's) when k is below it, else the minibatch size
//! that would bring the share to half the limit if it fell as 1/n — the slowest fall measured
//! (logistic n = 10 → 20; the Gaussian falls as n^−2.4), so the value errs on the large side.

use crate::setting_warning::{Failure, SettingWarning};

/// Largest share of the bounce intensity the band may miss before the page warns of bias.
pub const MISSED_SHARE_LIMIT: f64 = 0.034;
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
    /// else the minibatch size n, whose small values make G̃'s noise heavy-tailed (§3.3), with the
    /// value to set ([`remedy_batch`]).
    pub fn warning(&self, sampler: &str, band_k: f64, batch: usize, n_data: usize) -> Option<SettingWarning> {
        let share = self.missed_share();
        if self.bounces < MIN_BOUNCES || !(share > MISSED_SHARE_LIMIT) {
            return None;
        }
        let rate = self.violations as f64 / self.bounces as f64;
        let show = crate::promise::show;
        let (param, remedy) = if band_k < PAPER_K {
            ("band_k", format!("Raise the confidence multiple k to {} (now {})", show(PAPER_K), show(band_k)))
        } else if batch >= n_data {
            // n cannot be raised past the full batch (review s52: "Raise n to 1,000 (now 1,000)").
            ("band_k", format!("Raise the confidence multiple k (now {}); n is already all N = {} data", show(band_k), show(n_data as f64)))
        } else {
            ("batch_size", format!("Raise the minibatch size n to {} (now {}) or k", show(remedy_batch(batch, share, n_data) as f64), show(batch as f64)))
        };
        Some(SettingWarning {
            param,
            failure: Failure::Bias,
            text: format!("{remedy}: biased, the band misses {:.0} % of the bounce intensity.", 100.0 * share),
            detail: format!(
                "{sampler}'s band misses {:.0} % of the bounce intensity (bound violations G̃/λ̄ > 1 on {:.0} % of the bounces since the last change; Pakman et al. 2017 §3.3): the samples are biased, and more of them will not help. {remedy} until this warning goes.",
                100.0 * share,
                100.0 * rate
            ),
        })
    }
}

/// The minibatch size at which the missed share would be half [`MISSED_SHARE_LIMIT`] if it fell
/// as 1/n (the slowest fall measured; module doc), at most N and more than the current n.
pub fn remedy_batch(batch: usize, share: f64, n_data: usize) -> usize {
    let wanted = (batch as f64 * share / (0.5 * MISSED_SHARE_LIMIT)).ceil() as usize;
    wanted.max(batch + 1).min(n_data.max(1))
}
