//! A 2-D grid truth only as fine as its stated accuracy needs (docs/truth.md §2, (TRUTH.6)).
//!
//! The trapezoid rule on a smooth posterior that has decayed at the grid's edge converges faster
//! than any power of the spacing h, so the fixed budget's grid (141² nodes for the 1,000-point
//! logistic regression: 2·10⁷ likelihood terms, 0.63 CPU s natively) states an error of 10⁻¹⁴
//! where 37² nodes state 5·10⁻⁹. Here the grid starts coarse and is refined by at least ×1.5 until
//! the stated error (TRUTH.1) is within a millionth of the smaller marginal variance and the
//! spacing is at most half of each marginal sd (the marginal curves are drawn from the nodes by
//! log-quadratic interpolation, src/plot/marginals.rs `resample`, exact for a Gaussian), up to the
//! budget's resolution. Generic over the grid's result (src/truth.rs `grid_truth` calls it), so
//! that this file depends on nothing of the truth's.

/// The first grid's intervals per axis.
pub const START_INTERVALS: usize = 24;
/// Stop once the stated error is at most this fraction of the smaller marginal variance (TRUTH.6).
pub const RELATIVE_TOLERANCE: f64 = 1e-6;
/// … and the spacing is at most this fraction of each marginal sd (TRUTH.6).
pub const SPACING_PER_SD: f64 = 0.5;

/// What a grid states: its error bound (TRUTH.1) and the two marginal variances (None: no moments).
pub type Stated = Option<(f64, f64, f64)>;

/// `grid(k)` on k intervals per axis, refined from [`START_INTERVALS`] until (TRUTH.6) holds for
/// what `stated` reads off it, or up to `max_intervals`; `spans` are the region's widths.
pub fn refine<T>(max_intervals: usize, spans: (f64, f64), mut grid: impl FnMut(usize) -> T, stated: impl Fn(&T) -> Stated) -> T {
    let max_intervals = max_intervals.max(4) / 2 * 2;
    let mut intervals = START_INTERVALS.min(max_intervals);
    loop {
        let result = grid(intervals);
        let now = stated(&result);
        if intervals >= max_intervals || accurate_enough(now, spans, intervals) {
            return result;
        }
        intervals = next_intervals(now, spans, intervals).min(max_intervals);
    }
}

/// (TRUTH.6): the stated error within [`RELATIVE_TOLERANCE`] of the smaller marginal variance, and
/// the spacing within [`SPACING_PER_SD`] of each marginal sd.
pub fn accurate_enough(stated: Stated, (sx, sy): (f64, f64), intervals: usize) -> bool {
    let Some((bound, vx, vy)) = stated else { return false };
    let (hx, hy) = (sx / intervals as f64, sy / intervals as f64);
    bound <= RELATIVE_TOLERANCE * vx.min(vy) && hx <= SPACING_PER_SD * vx.sqrt() && hy <= SPACING_PER_SD * vy.sqrt()
}

/// The next grid: ×1.5, or at once the intervals that the measured sds ask of the spacing (even).
fn next_intervals(stated: Stated, (sx, sy): (f64, f64), intervals: usize) -> usize {
    let grown = (intervals * 3 / 4 * 2).max(intervals + 2);
    let needed = stated.map_or(0.0, |(_, vx, vy)| {
        let along = |span: f64, var: f64| if var > 0.0 { span / (SPACING_PER_SD * var.sqrt()) } else { 0.0 };
        along(sx, vx).max(along(sy, vy))
    });
    let needed = if needed.is_finite() { (needed.ceil() as usize).div_ceil(2) * 2 } else { 0 };
    grown.max(needed)
}
