//! Runaway detector for continuous-time samplers (issue 11): the trajectory left the region where
//! the truth has its mass. SBPS's statistical upper band can under-cover (docs/bouncy.md §5), and
//! then the particle may fly far away with no observation; every sample recorded from then on is
//! suspect. [`crate::chain::Chain`] checks every event against a [`RunawayWatch`] built from the
//! truth's moments, remembers when the excursion began, and can discard what was recorded since.
//!
//! Two tests, cheapest first:
//! 1. Mahalanobis distance from the truth's mean in truth standard deviations, d = ‖L⁻¹(x − μ)‖
//!    with L Lᵀ the truth's covariance. An excursion *opens* when d first exceeds [`inner_radius`]
//!    (the chain left the bulk) and is *confirmed* once d exceeds [`outer_radius`] (8 sd; √D + 6
//!    in high dimension, where the typical distance √D approaches 8). The watch arms only once the
//!    chain has been inside the inner radius: the way in from a distant start is not an excursion.
//! 2. Confirmation also needs log π to have dropped by more than r_out²/4 below its value at the
//!    truth's mean or the start (a Gaussian drops by r_out²/2 there): heavy-tailed targets (the
//!    funnel's mouth, the banana's arms) reach 8 sd in their own tails without leaving their mass.

use crate::diagnostics::Moments;
use crate::model::Model;
use nalgebra::{DMatrix, DVector};

/// Mahalanobis radius at which an excursion opens: √D + 3, outside the bulk of a D-dimensional
/// near-Gaussian posterior (probability ≈ 6·10⁻⁵ for D = 2).
pub fn inner_radius(dim: usize) -> f64 {
    (dim as f64).sqrt() + 3.0
}

/// Mahalanobis radius that confirms a runaway: 8 truth-sd, or √D + 6 when that is larger.
pub fn outer_radius(dim: usize) -> f64 {
    ((dim as f64).sqrt() + 6.0).max(8.0)
}

/// Mahalanobis radius that confirms a stochastic-gradient chain's runaway: 100 truth-sd. Its
/// stationary law is wider than the truth by design (the gradient noise's and the step's bias,
/// which the promise's law and warnings speak of), so on the Gaussian SGLD at ε = 0.05, n = 5
/// (the SGLD lesson's steps 3–4) went past [`outer_radius`]'s 8 sd within its class-time run and
/// was called a runaway. What the watch is for there is a chain that settled out of the mass
/// (SGHMC at η's max on logreg_sgfs: ≈ 1,265 sd, docs/diagnostics.md §7 "s49").
pub const STOCHASTIC_GRADIENT_CONFIRM_SD: f64 = 100.0;

/// The truth's moments in a form that measures distances quickly.
#[derive(Clone, Debug)]
pub struct RunawayWatch {
    mean: Vec<f64>,
    /// Lower Cholesky factor of the truth's covariance.
    factor: DMatrix<f64>,
    /// max(log π(mean), log π(start)), computed on first use.
    reference_log_density: Option<f64>,
    whitened: DVector<f64>,
    /// Set once the chain has been inside [`inner_radius`]: the way in from a distant start is
    /// not an excursion.
    pub armed: bool,
    /// The distance that confirms an excursion: [`outer_radius`], or
    /// [`STOCHASTIC_GRADIENT_CONFIRM_SD`] for a stochastic-gradient chain.
    pub confirm_radius: f64,
}

impl RunawayWatch {
    /// None when the truth's covariance is not positive definite.
    pub fn new(truth: &Moments) -> Option<Self> {
        let dim = truth.mean.len();
        let cov = DMatrix::from_fn(dim, dim, |a, b| truth.cov[a][b]);
        let factor = cov.cholesky()?.l();
        Some(RunawayWatch { mean: truth.mean.clone(), factor, reference_log_density: None, whitened: DVector::zeros(dim), armed: false, confirm_radius: outer_radius(dim) })
    }

    /// Mahalanobis distance of x from the truth's mean, in truth standard deviations.
    pub fn distance(&mut self, x: &[f64]) -> f64 {
        // Forward substitution L w = x − μ.
        let dim = self.mean.len();
        for a in 0..dim {
            let mut r = x[a] - self.mean[a];
            for b in 0..a {
                r -= self.factor[(a, b)] * self.whitened[b];
            }
            self.whitened[a] = r / self.factor[(a, a)];
        }
        let d = self.whitened.norm();
        if d.is_nan() {
            f64::INFINITY
        } else {
            d
        }
    }

    /// Whether log π(x) lies more than r_out²/4 below the reference (test 2).
    pub fn far_below_the_mass(&mut self, model: &dyn Model, x: &[f64]) -> bool {
        let reference = match self.reference_log_density {
            Some(r) => r,
            None => *self.reference_log_density.insert(model.log_density(&self.mean).max(model.log_density(&model.initial_point()))),
        };
        let drop = reference - model.log_density(x);
        !(drop <= 0.25 * outer_radius(x.len()).powi(2))
    }
}

/// What the page should say about a confirmed runaway; `own_advice` (a stochastic-gradient
/// sampler's divergence advice, naming its control) replaces the advice by sampler.
pub fn runaway_message(sampler: &str, own_advice: Option<&str>, since_step: u64, distance_sd: f64) -> String {
    let advice = own_advice.unwrap_or(match sampler {
        "sbps" | "psbps" => {
            "Its statistical upper band under-covered the gradient there: raise the band multiple k or the minibatch size, or lower the horizon."
        }
        _ => "This sampler is exact, so this is a rare visit to the far tails or the truth is wrong; if it happens again, check the truth.",
    });
    format!(
        "Runaway: from step {} the trajectory left the target's mass (it reached {} truth standard deviations from its mean), so the samples since then are suspect. {advice} \"Discard since then\" removes them and moves the particle back.",
        crate::sgais::format::group_digits(since_step as f64, 0),
        crate::sgais::format::group_digits(distance_sd, 0)
    )
}
