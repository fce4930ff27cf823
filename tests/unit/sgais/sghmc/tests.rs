//! Unit tests of src/sgais/sghmc.rs (`sgais::sghmc::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::sghmc::*;
use sgviz::rng::chain_rng;

/// The correlated injected noise has covariance 2η(αI − ηV/2) (eq. 3 with B̂ = ηV/2): 200,000
/// draws, every entry of the empirical covariance within 5 standard errors (the sd of the
/// product of two coordinates / √draws). V is strongly correlated so that a factor stored
/// transposed, or a missing off-diagonal, is off by many standard errors.
#[test]
fn correlated_noise_has_the_corrected_covariance() {
    let (eta, alpha, dim) = (0.01, 0.5, 3);
    let v = [40.0, 30.0, -10.0, 30.0, 45.0, 5.0, -10.0, 5.0, 20.0];
    let kernel = SghmcKernel::with_gradient_noise(eta, alpha, &v, dim).unwrap();
    let target: Vec<f64> = (0..9).map(|k| if k % 4 == 0 { 2.0 * eta * alpha } else { 0.0 } - eta * eta * v[k]).collect();
    let (draws, mut rng) = (200_000, chain_rng(3));
    let (mut noise, mut z) = (vec![0.0; dim], vec![0.0; dim]);
    let (mut sum, mut sum_sq) = ([0.0; 9], [0.0; 9]);
    for _ in 0..draws {
        kernel.draw_noise(&mut noise, &mut z, &mut rng);
        for k in 0..9 {
            let p = noise[k / 3] * noise[k % 3];
            sum[k] += p;
            sum_sq[k] += p * p;
        }
    }
    for k in 0..9 {
        let mean = sum[k] / draws as f64;
        let se = ((sum_sq[k] / draws as f64 - mean * mean) / draws as f64).sqrt();
        assert!((mean - target[k]).abs() < 5.0 * se, "entry {k}: {mean:.3e} vs {:.3e} (se {se:.1e})", target[k]);
    }
    for j in 0..dim {
        assert!((kernel.injected_noise_sd(j).powi(2) - target[4 * j]).abs() < 1e-12);
    }
    let scalar = SghmcKernel::with_scalar_estimate(eta, alpha, 0.1);
    assert!((scalar.injected_noise_sd(1) - (2.0 * 0.4 * eta).sqrt()).abs() < 1e-15);
}
