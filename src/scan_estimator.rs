//! The continuous-trajectory against the discrete estimator of a fast-varying test function
//! (SBPS paper §6.3 and Fig. 5; docs/bouncy.md §14): along a bouncy sampler's path x(t), the
//! continuous estimator of E[f] is (1/T)∫₀^T f(x(t)) dt, computed exactly per linear piece, and the
//! discrete one the mean of f at the path's points every Δ of time. The test function is
//! f(x) = cos((x_i − c)/ℓ), whose mean under a Gaussian marginal N(c, σ²) is exp(−σ²/(2ℓ²)).

/// Running sums of both estimators over the pieces seen so far.
#[derive(Clone, Debug, Default)]
pub struct CosineEstimator {
    pub coordinate: usize,
    pub center: f64,
    pub length: f64,
    /// Time between the discrete estimator's points.
    pub spacing: f64,
    integral: f64,
    time: f64,
    discrete_sum: f64,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub discrete_count: u64,
    /// Path time of the next discrete point.
    next_point: f64,
}

impl CosineEstimator {
    pub fn new(coordinate: usize, center: f64, length: f64, spacing: f64) -> Self {
        CosineEstimator { coordinate, center, length, spacing, ..Default::default() }
    }

    /// One linear piece x(s) = start + s·velocity, 0 ≤ s ≤ duration.
    pub fn add_piece(&mut self, start: &[f64], velocity: &[f64], duration: f64) {
        let a = (start[self.coordinate] - self.center) / self.length;
        let b = velocity[self.coordinate] / self.length;
        // ∫₀^T cos(a + b s) ds = (sin(a + bT) − sin a)/b, or T cos a when b = 0.
        self.integral += if b.abs() * duration > 1e-12 { ((a + b * duration).sin() - a.sin()) / b } else { duration * a.cos() };
        while self.next_point < self.time + duration {
            self.discrete_sum += (a + b * (self.next_point - self.time)).cos();
            self.discrete_count += 1;
            self.next_point += self.spacing;
        }
        self.time += duration;
    }

    /// (1/T)∫ f(x(t)) dt.
    pub fn continuous(&self) -> f64 {
        self.integral / self.time
    }

    /// The mean of f at the points every Δ.
    pub fn discrete(&self) -> f64 {
        self.discrete_sum / self.discrete_count as f64
    }

    /// E[f] under N(center, σ²) on the coordinate: exp(−σ²/(2ℓ²)).
    pub fn gaussian_truth(&self, sd: f64) -> f64 {
        (-(sd * sd) / (2.0 * self.length * self.length)).exp()
    }
}
