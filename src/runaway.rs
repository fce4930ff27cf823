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
}

impl RunawayWatch {
    /// None when the truth's covariance is not positive definite.
    pub fn new(truth: &Moments) -> Option<Self> {
        let dim = truth.mean.len();
        let cov = DMatrix::from_fn(dim, dim, |a, b| truth.cov[a][b]);
        let factor = cov.cholesky()?.l();
        Some(RunawayWatch { mean: truth.mean.clone(), factor, reference_log_density: None, whitened: DVector::zeros(dim), armed: false })
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

/// What the page should say about a confirmed runaway.
pub fn runaway_message(sampler: &str, since_step: u64, distance_sd: f64) -> String {
    let advice = match sampler {
        "sbps" | "psbps" => {
            "Its statistical upper band under-covered the gradient there: raise the band multiple k or the minibatch size, or lower the horizon."
        }
        _ => "This sampler is exact, so this is a rare visit to the far tails or the truth is wrong; if it happens again, check the truth.",
    };
    format!(
        "Runaway: from step {} the trajectory left the region where the target has its mass (it reached {distance_sd:.0} truth standard deviations from the truth's mean). The samples since then are suspect: they shift the mean and inflate the covariance. {advice} \"Discard since runaway\" removes them and moves the particle back to where the excursion began.",
        crate::sgais::format::group_digits(since_step as f64, 0)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::gaussian::CorrelatedGaussian;

    #[test]
    fn distance_is_mahalanobis_in_truth_sds() {
        let truth = Moments { mean: vec![1.0, -1.0], cov: vec![vec![4.0, 1.2], vec![1.2, 1.0]] };
        let mut watch = RunawayWatch::new(&truth).unwrap();
        let x = [3.0, 0.5];
        let (dx, dy): (f64, f64) = (2.0, 1.5);
        let det: f64 = 4.0 - 1.44;
        let expected = ((1.0 * dx * dx - 2.0 * 1.2 * dx * dy + 4.0 * dy * dy) / det).sqrt();
        assert!((watch.distance(&x) - expected).abs() < 1e-12);
        // A point whose first whitened coordinate is not ±1 (at (3, 0.5) it is 1, where L₂₁·w₁ and
        // L₂₁/w₁ agree): (5, 0.5), d² = (16 − 2.4·4·1.5 + 4·2.25)/2.56 = 10.6/2.56 = 4.140625
        // (by hand; L = [[2, 0], [0.6, 0.8]], w = (2, (1.5 − 0.6·2)/0.8) = (2, 0.375)).
        assert!((watch.distance(&[5.0, 0.5]) - 4.140625f64.sqrt()).abs() < 1e-12);
        assert_eq!(watch.distance(&[f64::NAN, 0.0]), f64::INFINITY);
    }

    #[test]
    fn radii_grow_with_the_dimension_only_when_the_typical_set_does() {
        assert_eq!(outer_radius(2), 8.0);
        assert_eq!(outer_radius(4), 8.0);
        assert!((outer_radius(65) - (65f64.sqrt() + 6.0)).abs() < 1e-12);
        assert!((inner_radius(2) - (2f64.sqrt() + 3.0)).abs() < 1e-12);
        assert!(inner_radius(65) < outer_radius(65));
    }

    #[test]
    fn log_density_test_confirms_a_gaussian_at_the_outer_radius() {
        // N(0, I₂): log π drops by r²/2 at radius r, so 8 sd (drop 32) is far below, 5 sd (12.5) is not.
        let model = CorrelatedGaussian::new(1.0, 1.0, 0.0, 0.0);
        let mut watch = RunawayWatch::new(&model.exact_moments().unwrap()).unwrap();
        assert!(watch.far_below_the_mass(&model, &[8.0, 0.0]));
        assert!(!watch.far_below_the_mass(&model, &[5.0, 0.0]));
    }
}
