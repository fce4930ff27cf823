//! Marginal histograms on both axes of the 2-D panel, each with the true marginal density curve.
//! The histograms come straight from the density image's pixel counts (no pass over the samples);
//! the truth comes from grid quadrature of a 2-D target's density or, for d > 2, from the normal
//! marginal of closed-form Gaussian posterior moments.

use super::contours::DensityGrid;
use super::Projection;

/// Polylines in canvas pixels for one axis: a step outline of the histogram and the truth curve.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct MarginalLines {
    pub histogram: Vec<f64>,
    pub truth: Vec<f64>,
}

/// Densities along one axis on equal-width bins spanning the view.
#[derive(Clone, Debug, PartialEq)]
pub struct AxisDensity {
    pub lo: f64,
    pub hi: f64,
    pub values: Vec<f64>,
}

/// Normalised histogram (a density: integrates to 1 over the view) of per-pixel column sums.
pub fn histogram_density(column_counts: &[u64], bins: usize, lo: f64, hi: f64) -> AxisDensity {
    let bins = bins.clamp(1, column_counts.len().max(1));
    let mut sums = vec![0.0; bins];
    for (k, &c) in column_counts.iter().enumerate() {
        sums[k * bins / column_counts.len()] += c as f64;
    }
    let total: f64 = sums.iter().sum();
    let width = (hi - lo) / bins as f64;
    let values = sums.iter().map(|s| if total > 0.0 { s / (total * width) } else { 0.0 }).collect();
    AxisDensity { lo, hi, values }
}

/// True marginal densities of a 2-D target by quadrature on its grid (trapezoid rule), for the
/// x axis (`axis = 0`) or the y axis (`axis = 1`), normalised over the view.
pub fn grid_marginal(grid: &DensityGrid, axis: usize) -> AxisDensity {
    let top = grid.max_log_density();
    let (n_along, n_across) = if axis == 0 { (grid.nx, grid.ny) } else { (grid.ny, grid.nx) };
    let density = |along: usize, across: usize| {
        let (ix, iy) = if axis == 0 { (along, across) } else { (across, along) };
        let v = grid.log_density[iy * grid.nx + ix];
        if v.is_finite() { (v - top).exp() } else { 0.0 }
    };
    let raw: Vec<f64> = (0..n_along).map(|a| trapezoid((0..n_across).map(|c| density(a, c)))).collect();
    let (lo, hi) = if axis == 0 { (grid.view.x_min, grid.view.x_max) } else { (grid.view.y_min, grid.view.y_max) };
    let step = (hi - lo) / (n_along - 1) as f64;
    let mass = trapezoid(raw.iter().copied()) * step;
    AxisDensity { lo, hi, values: raw.iter().map(|r| if mass > 0.0 { r / mass } else { 0.0 }).collect() }
}

/// Normal density N(mean, sd²) sampled at `points` nodes over [lo, hi].
pub fn normal_marginal(mean: f64, sd: f64, lo: f64, hi: f64, points: usize) -> AxisDensity {
    let values = (0..points)
        .map(|k| {
            let x = lo + (hi - lo) * k as f64 / (points - 1) as f64;
            (-0.5 * ((x - mean) / sd).powi(2)).exp() / (sd * (2.0 * std::f64::consts::PI).sqrt())
        })
        .collect();
    AxisDensity { lo, hi, values }
}

/// A density known at increasing `points` re-sampled at `count` equally spaced nodes over
/// [lo, hi] (zero outside the known points). Between nodes the log density is interpolated by the
/// parabola through the three nearest nodes: exact for a Gaussian marginal, and smooth where the
/// quadrature grid is coarse next to the view (h ≈ 1 posterior sd for N ≥ 10⁵, where linear
/// interpolation drew a Gaussian as a triangle). Where one of the three is zero, linear.
pub fn resample(points: &[f64], density: &[f64], lo: f64, hi: f64, count: usize) -> AxisDensity {
    let values = (0..count)
        .map(|k| {
            let x = lo + (hi - lo) * k as f64 / (count - 1).max(1) as f64;
            let upper = points.partition_point(|p| *p < x);
            if upper == 0 || upper == points.len() {
                return if points.get(upper) == Some(&x) { density[upper] } else { 0.0 };
            }
            log_quadratic(points, density, upper, x).unwrap_or_else(|| {
                let (x0, x1) = (points[upper - 1], points[upper]);
                let t = if x1 > x0 { (x - x0) / (x1 - x0) } else { 0.0 };
                density[upper - 1] + t * (density[upper] - density[upper - 1])
            })
        })
        .collect();
    AxisDensity { lo, hi, values }
}

/// exp of the Lagrange parabola through the logs of the three nodes nearest to x, which lies in
/// [points[upper − 1], points[upper]]; None where a node's density is not positive or fewer than
/// three nodes are known.
fn log_quadratic(points: &[f64], density: &[f64], upper: usize, x: f64) -> Option<f64> {
    if points.len() < 3 {
        return None;
    }
    let nearer_left = x - points[upper - 1] < points[upper] - x;
    let first = if nearer_left { upper.saturating_sub(2) } else { upper - 1 }.min(points.len() - 3);
    let (xs, ds) = (&points[first..first + 3], &density[first..first + 3]);
    if ds.iter().any(|d| !(*d > 0.0)) {
        return None;
    }
    let mut log_value = 0.0;
    for a in 0..3 {
        let basis: f64 = (0..3).filter(|&b| b != a).map(|b| (x - xs[b]) / (xs[a] - xs[b])).product();
        log_value += basis * ds[a].ln();
    }
    Some(log_value.exp())
}

fn trapezoid(values: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = values.collect();
    if v.len() < 2 {
        return v.iter().sum();
    }
    v.iter().sum::<f64>() - 0.5 * (v[0] + v[v.len() - 1])
}

/// Place the x-marginal in the band above the plot and the y-marginal in the band to its right.
/// Both densities of an axis share one vertical scale so histogram and truth are comparable.
pub fn layout(projection: &Projection, band: f64, x: (&AxisDensity, Option<&AxisDensity>), y: (&AxisDensity, Option<&AxisDensity>)) -> (MarginalLines, MarginalLines) {
    let f = projection.frame;
    let (left, right) = (f.left as f64, (f.left + f.inner_width()) as f64);
    let (top, bottom) = (f.top as f64, (f.top + f.inner_height()) as f64);
    let peak = |h: &AxisDensity, t: Option<&AxisDensity>| {
        h.values.iter().chain(t.map(|t| t.values.iter()).into_iter().flatten()).copied().fold(0.0, f64::max).max(f64::MIN_POSITIVE)
    };
    let (px, py) = (peak(x.0, x.1), peak(y.0, y.1));
    // x: positions along [left, right], heights upward from the plot's top edge.
    let x_point = |u: f64, d: f64| (left + u * (right - left), top - 2.0 - d / px * (band - 6.0));
    // y: positions along [bottom, top], heights rightward from the plot's right edge.
    let y_point = |u: f64, d: f64| (right + 2.0 + d / py * (band - 6.0), bottom - u * (bottom - top));
    let lines = |axis: (&AxisDensity, Option<&AxisDensity>), place: &dyn Fn(f64, f64) -> (f64, f64)| MarginalLines {
        histogram: step_outline(axis.0, place),
        truth: axis.1.map(|t| curve(t, place)).unwrap_or_default(),
    };
    (lines(x, &x_point), lines(y, &y_point))
}

fn step_outline(h: &AxisDensity, place: &dyn Fn(f64, f64) -> (f64, f64)) -> Vec<f64> {
    let n = h.values.len();
    let mut out = Vec::with_capacity(4 * n + 4);
    let mut push = |u: f64, d: f64| {
        let (a, b) = place(u, d);
        out.push(a);
        out.push(b);
    };
    push(0.0, 0.0);
    for (k, &d) in h.values.iter().enumerate() {
        push(k as f64 / n as f64, d);
        push((k + 1) as f64 / n as f64, d);
    }
    push(1.0, 0.0);
    out
}

fn curve(t: &AxisDensity, place: &dyn Fn(f64, f64) -> (f64, f64)) -> Vec<f64> {
    let n = t.values.len();
    t.values
        .iter()
        .enumerate()
        .flat_map(|(k, &d)| {
            let (a, b) = place(k as f64 / (n - 1) as f64, d);
            [a, b]
        })
        .collect()
}
