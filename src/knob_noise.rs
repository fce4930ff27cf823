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
    // NaN (a non-finite noise at a slider's far end) stays NaN: max(0.0) would hide it as 0.
    let largest = |m: DMatrix<f64>| {
        let lambda = crate::linalg::largest_symmetric_eigenvalue(&m);
        if lambda.is_nan() { lambda } else { lambda.max(0.0) }
    };
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
