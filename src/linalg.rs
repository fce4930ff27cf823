//! Small dense linear-algebra helpers over row-major `Vec<f64>` matrices, backed by nalgebra.

use nalgebra::{DMatrix, DVector};

/// A D × D row-major slice as an nalgebra matrix.
pub fn to_matrix(values: &[f64], dim: usize) -> DMatrix<f64> {
    DMatrix::from_row_slice(dim, dim, values)
}

/// Nested rows as an nalgebra matrix.
pub fn rows_to_matrix(rows: &[Vec<f64>]) -> DMatrix<f64> {
    let dim = rows.len();
    DMatrix::from_fn(dim, dim, |a, b| rows[a][b])
}

/// An nalgebra matrix as nested rows.
pub fn matrix_to_rows(m: &DMatrix<f64>) -> Vec<Vec<f64>> {
    (0..m.nrows()).map(|a| (0..m.ncols()).map(|b| m[(a, b)]).collect()).collect()
}

/// Solve A x = b for symmetric positive-definite A (Cholesky); None if A is not SPD.
pub fn solve_spd(a: DMatrix<f64>, b: &[f64]) -> Option<Vec<f64>> {
    let chol = a.cholesky()?;
    Some(chol.solve(&DVector::from_column_slice(b)).as_slice().to_vec())
}

/// Iterations the symmetric eigen-decomposition may take ([`bounded_symmetric_eigen`]).
pub const EIGEN_ITERATIONS: usize = 10_000;

/// nalgebra's symmetric eigen-decomposition with its iteration bounded: `symmetric_eigen` and
/// `symmetric_eigenvalues` iterate without limit (issue 21, s43: the unbounded Schur iteration
/// froze a test on a law at a slider's far end; on a NaN or ∞ entry the symmetric solver returns
/// NaN eigenvalues or does not return; docs/diagnostics.md §7 addendum "s44"). None for a
/// non-finite or empty matrix and where [`EIGEN_ITERATIONS`] do not converge; each caller turns
/// None into a defined answer.
pub fn bounded_symmetric_eigen(m: &DMatrix<f64>) -> Option<nalgebra::SymmetricEigen<f64, nalgebra::Dyn>> {
    if m.nrows() == 0 || m.iter().any(|x| !x.is_finite()) {
        return None;
    }
    m.clone().try_symmetric_eigen(f64::EPSILON, EIGEN_ITERATIONS)
}

/// The largest eigenvalue of a symmetric matrix by [`bounded_symmetric_eigen`]; NaN where it gives none.
pub fn largest_symmetric_eigenvalue(m: &DMatrix<f64>) -> f64 {
    bounded_symmetric_eigen(m).map_or(f64::NAN, |e| e.eigenvalues.max())
}

/// The smallest eigenvalue of a symmetric matrix by [`bounded_symmetric_eigen`]; NaN where it gives none.
pub fn smallest_symmetric_eigenvalue(m: &DMatrix<f64>) -> f64 {
    bounded_symmetric_eigen(m).map_or(f64::NAN, |e| e.eigenvalues.min())
}

/// The principal variances (negative rounding set to 0) and axes of a covariance, symmetrised;
/// a covariance without eigenvalues (a non-finite entry) has ∞ variances along the coordinate
/// axes: no law then predicts a finite error from it.
pub fn principal_axes(cov: &DMatrix<f64>) -> (Vec<f64>, DMatrix<f64>) {
    match bounded_symmetric_eigen(&((cov + cov.transpose()) * 0.5)) {
        Some(eigen) => (eigen.eigenvalues.iter().map(|v| v.max(0.0)).collect(), eigen.eigenvectors),
        None => (vec![f64::INFINITY; cov.nrows()], DMatrix::identity(cov.nrows(), cov.nrows())),
    }
}

/// Stationary covariance Σ of the linear recursion x' = A x + N(0, Q): the solution of
/// Σ = A Σ Aᵀ + Q (discrete Lyapunov equation), by vectorisation (fine for small D).
pub fn discrete_lyapunov(a: &DMatrix<f64>, q: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let d = a.nrows();
    let kron = a.kronecker(a);
    let system = DMatrix::<f64>::identity(d * d, d * d) - kron;
    let q_vec = DVector::from_iterator(d * d, q.iter().copied());
    let solution = system.lu().solve(&q_vec)?;
    Some(DMatrix::from_iterator(d, d, solution.iter().copied()))
}

/// The same Σ = AΣAᵀ + Q by doubling (Smith's method): Σ ← Σ + A_kΣA_kᵀ, A_k ← A_k², O(D³) per
/// doubling, so it suits any D; None when A is not stable (the series does not converge within
/// 64 doublings, i.e. 2⁶⁴ steps).
pub fn stationary_covariance(a: &DMatrix<f64>, q: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let (mut sigma, mut power) = (q.clone(), a.clone());
    for _ in 0..64 {
        sigma += &power * &sigma * power.transpose();
        power = &power * &power;
        let size = power.abs().max();
        if !size.is_finite() || sigma.iter().any(|x| !x.is_finite()) {
            return None;
        }
        if size < 1e-14 {
            return Some(sigma);
        }
    }
    None
}
