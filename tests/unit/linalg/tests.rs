//! Unit tests of src/linalg.rs (`linalg::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use nalgebra::DMatrix;
use sgviz::linalg::*;

#[test]
fn lyapunov_scalar_case_matches_closed_form() {
    // x' = a x + N(0, q): Σ = q / (1 − a²).
    let a = DMatrix::from_element(1, 1, 0.6);
    let q = DMatrix::from_element(1, 1, 2.0);
    let s = discrete_lyapunov(&a, &q).unwrap();
    assert!((s[(0, 0)] - 2.0 / (1.0 - 0.36)).abs() < 1e-12);
}

#[test]
fn doubling_agrees_with_the_vectorised_solution_and_refuses_unstable_recursions() {
    let a = DMatrix::from_row_slice(2, 2, &[0.5, 0.2, -0.1, 0.7]);
    let q = DMatrix::from_row_slice(2, 2, &[1.0, 0.3, 0.3, 2.0]);
    let doubled = stationary_covariance(&a, &q).unwrap();
    assert!((doubled - discrete_lyapunov(&a, &q).unwrap()).abs().max() < 1e-12);
    assert!(stationary_covariance(&(a * 2.0), &q).is_none());
}

#[test]
fn lyapunov_solution_satisfies_the_equation() {
    let a = DMatrix::from_row_slice(2, 2, &[0.5, 0.2, -0.1, 0.7]);
    let q = DMatrix::from_row_slice(2, 2, &[1.0, 0.3, 0.3, 2.0]);
    let s = discrete_lyapunov(&a, &q).unwrap();
    let residual = &s - (&a * &s * a.transpose() + &q);
    assert!(residual.abs().max() < 1e-12);
}
