//! The noise in one update of a stochastic-gradient sampler, split into the part the sampler
//! injects and the part the minibatch gradient brings, as functions of the sampler's own knob
//! (SGFS's α, SGHMC's η, OSGFS's c): the analogue, for each sampler's own law, of Welling & Teh's
//! Fig. 2 (left) for SGLD. Both are read off the sampler's linear recursion on the target's
//! Gaussian summary (src/law.rs): the θ-block of the update noise covariance Q with the gradient
//! noise Σ_ξ = (N/n − 1)F + s²I left out is the injected part, the rest is the gradient part.
//! - SGFS (Ahn et al. 2012, Algorithm 1): Q = h²I_N⁻¹(Σ_ξ + α²γI_N)I_N⁻¹, h = 2/((1 + α²)γ).
//! - SGHMC (Chen et al. 2014, eq. 15): Q_θθ = η²Σ_ξ + 2(α − β̂)ηI.
//! - OSGFS (El hanchi 2018, eq. 8): Q = DΣ_ξD + (2D − (N²/n)DCD − DHD).

use crate::knob::Knob;
use crate::law::{linear_chain, GaussianSummary};
use crate::params::ParamValues;
use crate::registry;
use nalgebra::DMatrix;

/// Largest eigenvalues of the two parts of one update's noise covariance (θ-block).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UpdateNoise {
    pub injected: f64,
    pub gradient: f64,
}

impl UpdateNoise {
    /// Gradient over injected noise (infinite when nothing is injected), the quantity whose
    /// value 1 is SGLD's sampling threshold (Welling & Teh eq. 10).
    pub fn ratio(&self) -> f64 {
        self.gradient / self.injected
    }
}

/// The split of one update's noise for `sampler` at `params` on `summary`.
pub fn update_noise(sampler: &str, params: &ParamValues, summary: &GaussianSummary) -> Result<UpdateNoise, String> {
    let (full, _) = linear_chain(sampler, params, summary)?;
    let mut quiet = summary.clone();
    quiet.without_gradient_noise = true;
    let (injected, _) = linear_chain(sampler, params, &quiet)?;
    let d = full.dim;
    let block = |q: &DMatrix<f64>| q.view((0, 0), (d, d)).into_owned();
    let largest = |m: DMatrix<f64>| m.symmetric_eigenvalues().max().max(0.0);
    let injected_block = block(&injected.noise);
    Ok(UpdateNoise { gradient: largest(block(&full.noise) - &injected_block), injected: largest(injected_block) })
}

/// The split at `count` values of `knob` over its range, the other parameters at `params`.
pub fn noise_over_knob(knob: &Knob, params: &ParamValues, summary: &GaussianSummary, count: usize) -> Result<Vec<(f64, UpdateNoise)>, String> {
    let specs = registry::sampler(knob.sampler)?.params;
    knob.grid(count)
        .into_iter()
        .map(|v| {
            let mut at = params.clone();
            at.set(specs, knob.param, v)?;
            Ok((v, update_noise(knob.sampler, &at, summary)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::gaussian::CorrelatedGaussian;
    use crate::model::toy::PSEUDO_DATA;

    use crate::registry::sampler_params as params;

    /// Hand-worked on the uncorrelated Gaussian with σ = (1, 2): precisions P = diag(1, 1/4); the
    /// pseudo-data make F = P (toy.rs), so Σ_ξ = (N/n − 1)P with N = 100.
    fn summary() -> GaussianSummary {
        GaussianSummary::of(&CorrelatedGaussian::new(1.0, 2.0, 0.0, 0.0)).unwrap()
    }

    #[test]
    fn sghmc_split_is_eta_squared_sigma_xi_against_two_alpha_eta() {
        let (eta, friction, batch) = (0.01, 0.3, 10.0);
        let split = update_noise("sghmc", &params("sghmc", &[("sghmc_lr", eta), ("friction", friction), ("batch_size", batch), ("beta_hat", 0.0)]), &summary()).unwrap();
        let n = PSEUDO_DATA as f64;
        assert!((split.gradient - eta * eta * (n / batch - 1.0) * 1.0).abs() < 1e-12, "{split:?}");
        assert!((split.injected - 2.0 * friction * eta).abs() < 1e-12, "{split:?}");
    }

    #[test]
    fn sgfs_split_over_alpha_follows_h_squared() {
        // I_N = F + G + λI ≈ P (flat prior, λ = 1e-12): injected h²α²γP⁻¹ → λ_max = h²α²γ·4;
        // gradient h²P⁻¹(N/n − 1)PP⁻¹ = h²(N/n − 1)P⁻¹ → λ_max = h²(N/n − 1)·4.
        let (batch, n) = (10.0, PSEUDO_DATA as f64);
        let gamma = (batch + n) / batch;
        for alpha in [0.0, 1.0, 3.0] {
            let split = update_noise("sgfs_f", &params("sgfs_f", &[("sgfs_alpha", alpha), ("batch_size", batch), ("sgfs_ridge", 1e-12)]), &summary()).unwrap();
            let h = 2.0 / ((1.0 + alpha * alpha) * gamma);
            let expected_injected = h * h * alpha * alpha * gamma * 4.0;
            let expected_gradient = h * h * (n / batch - 1.0) * 4.0;
            assert!((split.injected - expected_injected).abs() < 1e-9 * (1.0 + expected_injected), "α = {alpha}: {split:?} vs {expected_injected}");
            assert!((split.gradient - expected_gradient).abs() < 1e-9 * expected_gradient, "α = {alpha}: {split:?} vs {expected_gradient}");
        }
    }

    #[test]
    fn full_batch_has_no_gradient_noise() {
        let split = update_noise("sgfs_f", &params("sgfs_f", &[("sgfs_alpha", 2.0), ("batch_size", PSEUDO_DATA as f64)]), &summary()).unwrap();
        assert!(split.gradient.abs() < 1e-15 && split.injected > 0.0, "{split:?}");
    }
}
