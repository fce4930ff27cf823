//! Unit tests of src/sampler/osgfs.rs (`sampler::osgfs::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use nalgebra::DMatrix;
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::sampler::{GradientOracle, Sampler};
use sgviz::sampler::osgfs::*;
use sgviz::model::View;
use sgviz::rng::chain_rng;

/// N = 1000 copies of one datum x = (0.5, −0.5), ℓ_i = −‖θ − x‖²/2000, under a N(0, I) prior:
/// every score is the same, so C = 0 and H = G = I.
struct SameDatum;

impl Model for SameDatum {
    fn dim(&self) -> usize {
        2
    }
    fn n_data(&self) -> usize {
        1000
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        sgviz::model::isotropic_normal_log_density(theta, 1.0)
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        sgviz::model::add_isotropic_normal_gradient(theta, 1.0, out);
    }
    fn log_lik(&self, _i: usize, theta: &[f64]) -> f64 {
        -((theta[0] - 0.5).powi(2) + (theta[1] + 0.5).powi(2)) / 2000.0
    }
    fn add_grad_log_lik(&self, _i: usize, theta: &[f64], out: &mut [f64]) {
        out[0] -= (theta[0] - 0.5) / 1000.0;
        out[1] -= (theta[1] + 0.5) / 1000.0;
    }
    fn view(&self) -> View {
        View::centred(0.0, 0.0, 3.0, 3.0)
    }
}

#[test]
fn k_takes_the_cap_when_r_is_infinite() {
    // Eq. 16 with NC = 0: r = λ_min(H⁻¹)/0 = ∞, r/(r + N/|S|) → 1, so k = min{c, 4} = c = 0.1.
    // Treating r = ∞ as 0 (the old code) gave 4|S|/(N + |S|) = 40/1010 ≈ 0.040 instead.
    let params = ParamValues::defaults(PARAMS);
    let mut sampler = Osgfs::new(&SameDatum, vec![0.1, 0.2], &params);
    let mut oracle = GradientOracle::new(&SameDatum, 10);
    sampler.step(&SameDatum, &mut oracle, &mut chain_rng(1));
    assert_eq!(sampler.k(), 0.1);
}

#[test]
fn strong_prior_share_is_r_over_r_plus_n_over_batch() {
    // NC = diag(2, 1), G = diag(6, 3): H⁻¹ = diag(1/8, 1/4), H⁻¹NCH⁻¹ = diag(1/32, 1/16),
    // r = (1/8)/(1/16) = 2; with N/|S| = 10 the share is 2/12.
    let h_inverse = DMatrix::from_diagonal(&nalgebra::DVector::from_vec(vec![0.125, 0.25]));
    let n_c = DMatrix::from_diagonal(&nalgebra::DVector::from_vec(vec![2.0, 1.0]));
    assert!((strong_prior_share(&h_inverse, &n_c, 1000.0, 100.0) - 2.0 / 12.0).abs() < 1e-12);
    // r = ∞ (no data information) gives 1; an undefined H⁻¹ gives 0 (the weak-prior bound alone).
    assert_eq!(strong_prior_share(&h_inverse, &DMatrix::zeros(2, 2), 1000.0, 100.0), 1.0);
    assert_eq!(strong_prior_share(&DMatrix::from_element(2, 2, f64::NAN), &n_c, 1000.0, 100.0), 0.0);
}
