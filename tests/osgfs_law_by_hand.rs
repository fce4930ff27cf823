//! OSGFS's predicted law (src/law.rs `osgfs_chain`) against a 1-D case worked by hand (issue 21,
//! stop 52: is the law's "surplus −DFD" a slip?).
//!
//! The sampler (src/sampler/osgfs.rs, El hanchi 2018 eq. 8–10) moves θ' = θ + D ĝ(θ) + η with
//! D = (k/2)/H, H = F + G, η ~ N(0, 2D − (N²/n)D²C − D²H) and C → F/N. Its minibatch is drawn
//! WITHOUT replacement (gradient.rs `next_batch`), so ĝ = −P(θ − μ) + ξ with
//! Var ξ = (N/n − 1)F (finite-population factor), not the (N²/n)C = (N/n)F that eq. 8's
//! correction assumes. On paper, with A = 1 − DP and Q = D²(N/n − 1)F + 2D − (N/n)D²F − D²H
//! = 2D − D²F − D²H, the stationary variance is V = Q/(1 − A²) = Q/(DP(2 − DP)); at P = H,
//!     V = (1/H)·(2 − DF − DH)/(2 − DH)   (corrected),
//!     V = (1/H)·(2 − DF)/(2 − DH)        (uncorrected, no −D²H).
//! Numbers: F = 4, G = 1 (H = P = 5), N = 100, n = 50, c = 0.4. Eq. 16's bound
//! 4n/(N + n) = 4/3 > c, so k = 0.4 and D = 0.04, DF = 0.16, DH = 0.2:
//!     corrected V = 0.2·1.64/1.8 = 0.182222…, uncorrected V = 0.2·1.84/1.8 = 0.204444….
//! The injected variance 0.08 − 2·0.0064 − 0.008 = 0.0592 > 0, so nothing is clipped. A law with
//! Σ_ξ = (N/n)F (the slip suspected at stop 52) would give 1/H = 0.2 and fail the first check.
//! Tolerance: 1e-12 relative (a 1-D Lyapunov solve, rounding only).

use nalgebra::{DMatrix, DVector};
use sgviz::law::{law_on_summary, GaussianSummary};
use sgviz::params::ParamValues;
use sgviz::sampler::osgfs;

fn summary() -> GaussianSummary {
    GaussianSummary {
        mean: DVector::zeros(1),
        precision: DMatrix::from_element(1, 1, 5.0),
        fisher: DMatrix::from_element(1, 1, 4.0),
        prior: DMatrix::from_element(1, 1, 1.0),
        n_data: 100.0,
        synthetic: 0.0,
        exact: true,
        source: "test",
        without_gradient_noise: false,
        posterior_fisher: None,
    }
}

fn variance(variant: f64) -> f64 {
    let mut params = ParamValues::defaults(osgfs::PARAMS);
    for (name, value) in [("osgfs_c", 0.4), ("batch_size", 50.0), ("osgfs_variant", variant)] {
        params.set(osgfs::PARAMS, name, value).unwrap();
    }
    let law = law_on_summary("osgfs", &params, &summary()).unwrap();
    assert!(law.exact, "nothing clipped at these settings: {}", law.note);
    law.cov[(0, 0)]
}

#[test]
fn the_corrected_law_keeps_the_without_replacement_surplus() {
    let v = variance(0.0);
    let oracle = 0.2 * 1.64 / 1.8;
    assert!((v - oracle).abs() <= 1e-12 * oracle, "corrected OSGFS law {v} vs hand-worked {oracle}");
}

#[test]
fn the_uncorrected_law_inflates_by_the_missing_minus_dhd() {
    let v = variance(1.0);
    let oracle = 0.2 * 1.84 / 1.8;
    assert!((v - oracle).abs() <= 1e-12 * oracle, "uncorrected OSGFS law {v} vs hand-worked {oracle}");
}
