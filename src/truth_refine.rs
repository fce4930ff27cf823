//! A 2-D grid truth only as fine as its stated accuracy needs (docs/truth.md §2, (TRUTH.6)).
//!
//! The trapezoid rule on a smooth posterior that has decayed at the grid's edge converges faster
//! than any power of the spacing h, so the fixed budget's grid (141² nodes for the 1,000-point
//! logistic regression: 2·10⁷ likelihood terms, 0.56 CPU s natively, ≈ 1 s in a worker) states an
//! error of 10⁻¹⁴ where 41² nodes state 3·10⁻¹⁰. Here the grid starts coarse and is refined by
//! at least ×1.5 until the stated error (TRUTH.1) is within a millionth of the smaller marginal
//! variance and the spacing is at most half of each marginal sd (the marginal curves are drawn from
//! the nodes by log-quadratic interpolation, src/plot/marginals.rs `resample`, exact for a Gaussian),
//! up to the budget's resolution.

use crate::model::{Model, View};
use crate::truth::{grid_truth, Truth};

/// The first grid's intervals per axis.
pub const START_INTERVALS: usize = 24;
/// Stop once the stated error is at most this fraction of the smaller marginal variance (TRUTH.6).
pub const RELATIVE_TOLERANCE: f64 = 1e-6;
/// … and the spacing is at most this fraction of each marginal sd (TRUTH.6).
pub const SPACING_PER_SD: f64 = 0.5;

/// Grid quadrature over `region`, refined from [`START_INTERVALS`] until (TRUTH.6) holds or the
/// grid has `max_intervals` intervals per axis (the budget's, as before).
pub fn refined_grid_truth(model: &dyn Model, region: View, max_intervals: usize) -> Truth {
    let max_intervals = max_intervals.max(4) / 2 * 2;
    let mut intervals = START_INTERVALS.min(max_intervals);
    loop {
        let truth = grid_truth(model, region, intervals);
        if intervals >= max_intervals || accurate_enough(&truth, region, intervals) {
            return truth;
        }
        intervals = next_intervals(&truth, region, intervals).min(max_intervals);
    }
}

/// The next grid: ×1.5, or at once the intervals that the measured sds ask of the spacing (even).
fn next_intervals(truth: &Truth, region: View, intervals: usize) -> usize {
    let grown = (intervals * 3 / 4 * 2).max(intervals + 2);
    let needed = truth.moments.as_ref().map_or(0.0, |m| {
        let along = |span: f64, var: f64| if var > 0.0 { span / (SPACING_PER_SD * var.sqrt()) } else { 0.0 };
        along(region.x_max - region.x_min, m.cov[0][0]).max(along(region.y_max - region.y_min, m.cov[1][1]))
    });
    let needed = if needed.is_finite() { (needed.ceil() as usize).div_ceil(2) * 2 } else { 0 };
    grown.max(needed)
}

/// (TRUTH.6): the stated error within [`RELATIVE_TOLERANCE`] of the smaller marginal variance, and
/// the spacing within [`SPACING_PER_SD`] of each marginal sd.
pub fn accurate_enough(truth: &Truth, region: View, intervals: usize) -> bool {
    let Some(m) = truth.moments.as_ref() else { return false };
    let (vx, vy) = (m.cov[0][0], m.cov[1][1]);
    let hx = (region.x_max - region.x_min) / intervals as f64;
    let hy = (region.y_max - region.y_min) / intervals as f64;
    truth.error_bound <= RELATIVE_TOLERANCE * vx.min(vy) && hx <= SPACING_PER_SD * vx.sqrt() && hy <= SPACING_PER_SD * vy.sqrt()
}
