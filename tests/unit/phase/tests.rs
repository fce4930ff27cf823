//! Unit tests of src/phase.rs (`phase::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::rng::standard_normal;
use sgviz::phase::*;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::rng::chain_rng;

#[test]
fn synthetic_noise_gives_scale_s_squared_and_the_threshold_crossing() {
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.5, 3.0);
    let mut rng = chain_rng(1);
    let scale = noise_scale(&model, &[vec![0.3, -0.2]], 10, 1000, &mut rng);
    // The pseudo-data scores have covariance Σ⁻¹/N (divisor N − 1; toy.rs), so with divisor N
    // λ_max(V_s) = (N − 1)λ_max(Σ⁻¹)/N², and without replacement (N²/n)((N − n)/(N − 1))λ_max(V_s)
    // = (N − n)·2/n at ρ = 0.5 (λ_max(Σ⁻¹) = 1/(1 − ρ) = 2): 90·2/10; plus s² = 9.
    let expected = 90.0 * 2.0 / 10.0 + 9.0;
    assert!((scale.gradient_noise_scale - expected).abs() < 1e-9, "{} vs {expected}", scale.gradient_noise_scale);
    let crossing = scale.crossing().unwrap();
    assert!((scale.threshold(crossing) - 1.0).abs() < 1e-12);
    assert!((crossing - 4.0 / expected).abs() < 1e-12);
}

#[test]
fn rejection_probability_grows_with_the_step() {
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.9, 0.0);
    let mut rng = chain_rng(2);
    let points: Vec<Vec<f64>> = (0..400).map(|_| vec![standard_normal(&mut rng), standard_normal(&mut rng)]).collect();
    let small = mh_rejection_probability(&model, &points, 0.01, &mut rng);
    let large = mh_rejection_probability(&model, &points, 0.5, &mut rng);
    assert!(small < 0.05, "{small}");
    assert!(large > small + 0.1, "{small} vs {large}");
}
