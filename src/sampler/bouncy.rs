//! Pieces shared by the bouncy particle samplers (exact BPS, SBPS, pSBPS, lipSBPS):
//! reflections, velocity refreshes, closed-form event times of an affine rate, and exact sampling
//! of the first event of a piecewise-linear proposal intensity (docs/bouncy.md §2, §5).

use crate::model::Model;
use crate::rng::{standard_exponential, standard_normal, uniform, ChainRng};

/// Law of a refreshed velocity (docs/bouncy.md §2). Both are rotation invariant, hence invariant
/// under every reflection, as BPS requires (the reference SBPS code's normalised uniform-in-cube
/// draw is not, docs/bouncy.md §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefreshLaw {
    /// v ~ N(0, I_D): "global" refresh; the speed varies.
    Gaussian,
    /// v = z/‖z‖, z ~ N(0, I_D): uniform on the unit sphere ("restricted" refresh).
    Sphere,
}

/// Names of the refresh laws, in the order of the `refresh_law` choice parameter.
pub const REFRESH_LAWS: &[&str] = &["gaussian", "sphere"];

impl RefreshLaw {
    /// The law selected by the index of a `refresh_law` choice parameter.
    pub fn from_index(index: usize) -> Self {
        if index == 1 {
            RefreshLaw::Sphere
        } else {
            RefreshLaw::Gaussian
        }
    }

    /// Overwrite `v` with a fresh draw.
    pub fn draw(self, rng: &mut ChainRng, v: &mut [f64]) {
        for x in v.iter_mut() {
            *x = standard_normal(rng);
        }
        if self == RefreshLaw::Sphere {
            let norm = dot(v, v).sqrt();
            v.iter_mut().for_each(|x| *x /= norm);
        }
    }
}

/// Euclidean inner product.
#[inline]
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Reflect `v` in the hyperplane orthogonal to `normal` (docs/bouncy.md §2):
/// v′ = v − 2 (v·n)/(n·n) n, so that v′·n = −v·n and ‖v′‖ = ‖v‖. A zero normal leaves v alone.
pub fn reflect(v: &mut [f64], normal: &[f64]) {
    let nn = dot(normal, normal);
    if nn > 0.0 {
        let factor = 2.0 * dot(v, normal) / nn;
        for (x, n) in v.iter_mut().zip(normal) {
            *x -= factor * n;
        }
    }
}

/// Counts of a thinned event process: accepted bounces, rejected proposals, and proposals whose
/// rate exceeded the bound they were drawn from (zero for a valid bound).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ThinningCounts {
    pub bounces: u64,
    pub rejections: u64,
    pub violations: u64,
}

impl ThinningCounts {
    /// Thinning at a proposal drawn from bound λ̄ (docs/bouncy.md §2): accept with probability
    /// rate/λ̄ (without a draw when `exact`), reflecting v on ∇U; a rate above λ̄ is counted as a
    /// violation. Returns whether the particle bounced.
    pub fn thin(&mut self, v: &mut [f64], grad_u: &[f64], rate: f64, bound: f64, exact: bool, rng: &mut ChainRng) -> bool {
        if rate > bound * (1.0 + 1e-9) {
            self.violations += 1;
        }
        if exact || uniform(rng) * bound < rate {
            reflect(v, grad_u);
            self.bounces += 1;
            true
        } else {
            self.rejections += 1;
            false
        }
    }
}

/// First arrival time of a Poisson process with rate (a + b t)₊, b ≥ 0, from one Exp(1) draw `e`
/// (docs/bouncy.md (BPS.3)): τ = (−a + √(a² + 2be))/b for a ≥ 0 (written in its cancellation-free
/// form 2e/(a + √(a² + 2be))) and τ = −a/b + √(2e/b) for a < 0. Infinite when the rate stays 0.
pub fn affine_event_time(a: f64, b: f64, e: f64) -> f64 {
    if a >= 0.0 {
        let root = (a * a + 2.0 * b * e).sqrt();
        if a + root > 0.0 {
            2.0 * e / (a + root)
        } else {
            f64::INFINITY
        }
    } else if b > 0.0 {
        -a / b + (2.0 * e / b).sqrt()
    } else {
        f64::INFINITY
    }
}

/// Waiting time until the next refresh, Exp(λ_ref) (infinite when λ_ref = 0). Redrawing it at
/// every event is valid by memorylessness (docs/bouncy.md §2).
pub fn refresh_time(rate: f64, rng: &mut ChainRng) -> f64 {
    if rate > 0.0 {
        standard_exponential(rng) / rate
    } else {
        f64::INFINITY
    }
}

/// The first event of a piecewise-linear intensity, or the horizon reached without one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ProposalTime {
    /// An event after `time`, where the (clipped, interpolated) intensity equals `bound` > 0.
    Event { time: f64, bound: f64 },
    /// No event before the horizon (docs/bouncy.md §5 fix (c): travel there, no accept test).
    Horizon,
}

/// Exact first event of the intensity s ↦ max(0, ℓ(s)), where ℓ linearly interpolates
/// `band(j·dt)` on the grid j = 0, 1, … (docs/bouncy.md §5), given `exp1` ~ Exp(1). Cells whose
/// band is negative at both ends carry no mass; a cell that changes sign is integrated from its
/// zero crossing (fix (b)); flat cells are handled by the cancellation-free root (fix (a)).
pub fn sample_piecewise_linear(band: impl Fn(f64) -> f64, dt: f64, horizon: f64, exp1: f64) -> ProposalTime {
    let mut remaining = exp1;
    let mut s = 0.0;
    let mut left = band(0.0);
    while s < horizon {
        let width = dt.min(horizon - s);
        let right = band(s + width);
        match first_event_in_cell(left, right, width, remaining) {
            Ok(offset) => {
                let bound = left + (right - left) * offset / width;
                return ProposalTime::Event { time: s + offset, bound };
            }
            Err(mass) => remaining -= mass,
        }
        s += width;
        left = right;
    }
    ProposalTime::Horizon
}

/// Within one cell of width w where the intensity is max(0, linear from `left` to `right`):
/// `Ok(offset)` of the point where the integrated intensity reaches `target`, or `Err(mass)`, the
/// cell's whole integral, when it stays below.
#[doc(hidden)] // pub for tests/unit (issue 23)
pub fn first_event_in_cell(left: f64, right: f64, width: f64, target: f64) -> Result<f64, f64> {
    let slope = (right - left) / width;
    // Sub-interval [start, end] of the cell where the linear piece is positive.
    let (start, end) = match (left > 0.0, right > 0.0) {
        (false, false) => return Err(0.0),
        (true, true) => (0.0, width),
        (false, true) => (-left / slope, width),
        (true, false) => (0.0, -left / slope),
    };
    let rate_at_start = (left + slope * start).max(0.0);
    let rate_at_end = (left + slope * end).max(0.0);
    let mass = 0.5 * (rate_at_start + rate_at_end) * (end - start);
    if mass < target {
        return Err(mass);
    }
    // Solve rate_at_start·ℓ + slope·ℓ²/2 = target for the smallest ℓ ≥ 0, without cancellation.
    let discriminant = (rate_at_start * rate_at_start + 2.0 * slope * target).max(0.0);
    let offset = 2.0 * target / (rate_at_start + discriminant.sqrt());
    Ok((start + offset).min(end))
}

/// Length scales of the target where chains start, from the eigenvalues of ∇²log π(θ₀):
/// `(stiffest, widest)` = (1/√max|λ|, 1/√min|λ|). On a Gaussian they are σ_min and σ_max exactly, at
/// a mode the extreme Laplace sds, elsewhere local widths (e.g. across the hyperbola's ridge).
/// They are the natural units of how far a bouncy particle may travel without looking at the
/// gradient, and of how often it should refresh. Costs 2D full gradients. None when the
/// curvature is not finite or vanishes.
pub fn length_scales(model: &dyn Model) -> Option<(f64, f64)> {
    let hessian = crate::model::laplace::hessian(model, &model.initial_point());
    let magnitudes: Vec<f64> = hessian.symmetric_eigenvalues().iter().map(|e| e.abs()).collect();
    let largest = magnitudes.iter().copied().fold(0.0, f64::max);
    let smallest = magnitudes.iter().copied().fold(f64::INFINITY, f64::min);
    (largest.is_finite() && smallest > 0.0).then(|| (1.0 / largest.sqrt(), 1.0 / smallest.sqrt()))
}
