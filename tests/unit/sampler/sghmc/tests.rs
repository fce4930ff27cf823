//! Unit tests of src/sampler/sghmc.rs (`sampler::sghmc::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sampler::sghmc::*;
use nalgebra::DMatrix;

#[test]
fn closed_form_law_matches_the_lyapunov_solution_and_friction_damps_critically() {
    let (eta, friction, precision, noise) = (0.02, 0.3, 3.0, 40.0);
    let (variance, radius) = sghmc_law(eta, friction, precision, noise);
    let a = DMatrix::from_row_slice(2, 2, &[1.0 - eta * precision, 1.0 - friction, -eta * precision, 1.0 - friction]);
    let q = DMatrix::from_element(2, 2, 2.0 * friction * eta + eta * eta * noise);
    let full = sgviz::linalg::discrete_lyapunov(&a, &q).unwrap();
    assert!((variance - full[(0, 0)]).abs() < 1e-12 * full[(0, 0)]);
    let largest = a.complex_eigenvalues().iter().map(|z| z.norm()).fold(0.0, f64::max);
    assert!((radius - largest).abs() < 1e-12);
    // Critical damping: A's two eigenvalues coincide (zero discriminant).
    let alpha = critical_friction(eta, precision);
    let (trace, det) = (2.0 - alpha - eta * precision, 1.0 - alpha);
    assert!((trace * trace / 4.0 - det).abs() < 1e-12);
    // Unstable beyond η = (4 − 2α)/λ (Jury): infinite variance.
    assert!(sghmc_law(1.01 * (4.0 - 2.0 * friction) / precision, friction, precision, 0.0).0.is_infinite());
    assert!(sghmc_law(0.99 * (4.0 - 2.0 * friction) / precision, friction, precision, 0.0).0.is_finite());
}
