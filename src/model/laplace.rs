//! Laplace approximation: the mode of log π by damped Newton steps and the inverse negative
//! Hessian there (by central differences of the exact gradient). Used to frame the 2-D view of
//! targets without closed-form moments and as a cheap starting scale for reference runs.

use super::{Model, View};
use crate::diagnostics::Moments;
use crate::linalg::matrix_to_rows;
use nalgebra::{DMatrix, DVector};

/// Mode and inverse negative Hessian of log π, or None if Newton's method fails (improper or
/// non-log-concave targets, where a Laplace approximation would mislead anyway).
pub fn laplace_approximation(model: &dyn Model) -> Option<Moments> {
    let mut theta = DVector::from_vec(model.initial_point());
    let mut value = model.log_density(theta.as_slice());
    for _ in 0..100 {
        let grad = gradient(model, theta.as_slice());
        let neg_hessian = -hessian(model, theta.as_slice());
        let step = neg_hessian.clone().cholesky()?.solve(&grad);
        let mut scale = 1.0;
        loop {
            let candidate = &theta + &step * scale;
            let candidate_value = model.log_density(candidate.as_slice());
            if candidate_value.is_finite() && candidate_value >= value - 1e-12 {
                theta = candidate;
                value = candidate_value;
                break;
            }
            scale *= 0.5;
            if scale < 1e-8 {
                return None;
            }
        }
        if (&step * scale).norm() < 1e-10 * (1.0 + theta.norm()) {
            break;
        }
    }
    let neg_hessian = -hessian(model, theta.as_slice());
    let cov = neg_hessian.cholesky()?.inverse();
    Some(Moments { mean: theta.as_slice().to_vec(), cov: matrix_to_rows(&cov) })
}

/// A view of coordinates (0, 1) spanning ±`widths` standard deviations around the mean.
pub fn view_from_moments(m: &Moments, widths: f64) -> View {
    View::centred(m.mean[0], m.mean[1], widths * m.cov[0][0].sqrt(), widths * m.cov[1][1].sqrt())
}

fn gradient(model: &dyn Model, theta: &[f64]) -> DVector<f64> {
    let mut g = vec![0.0; theta.len()];
    model.grad_log_density(theta, &mut g);
    DVector::from_vec(g)
}

/// ∇²log π at θ by central differences of the exact gradient (2D full-gradient evaluations).
pub fn hessian(model: &dyn Model, theta: &[f64]) -> DMatrix<f64> {
    let dim = theta.len();
    let mut h = DMatrix::zeros(dim, dim);
    let mut point = theta.to_vec();
    for j in 0..dim {
        let step = 1e-5 * (1.0 + theta[j].abs());
        point[j] = theta[j] + step;
        let up = gradient(model, &point);
        point[j] = theta[j] - step;
        let down = gradient(model, &point);
        point[j] = theta[j];
        h.set_column(j, &((up - down) / (2.0 * step)));
    }
    (&h + h.transpose()) * 0.5
}
