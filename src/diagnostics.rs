//! Diagnostics (docs/diagnostics.md): running moments (weighted Welford, and exact segment
//! integrals for continuous trajectories), batch-means Monte-Carlo standard errors, integrated
//! autocorrelation time and ESS, the SGFS errors E1/E2, and 2σ ellipses.

use serde::Serialize;

/// A mean vector and covariance matrix.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Moments {
    pub mean: Vec<f64>,
    pub cov: Vec<Vec<f64>>,
}

/// Weighted running mean and covariance (West's weighted Welford update; Chan et al.'s merge for
/// whole segments).
#[derive(Clone, Debug)]
pub struct RunningMoments {
    dim: usize,
    total_weight: f64,
    count: u64,
    mean: Vec<f64>,
    /// Σ w (x − mean)(x − mean)ᵀ, row-major D × D.
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub scatter: Vec<f64>,
    delta: Vec<f64>,
}

impl RunningMoments {
    pub fn new(dim: usize) -> Self {
        RunningMoments { dim, total_weight: 0.0, count: 0, mean: vec![0.0; dim], scatter: vec![0.0; dim * dim], delta: vec![0.0; dim] }
    }

    /// Number of points (or segments) added.
    pub fn count(&self) -> u64 {
        self.count
    }
    /// Sum of weights (the total time for trajectories).
    pub fn total_weight(&self) -> f64 {
        self.total_weight
    }

    /// Add one point with weight w > 0.
    pub fn add(&mut self, x: &[f64], weight: f64) {
        self.merge(x, weight, None);
    }

    /// Add the segment x(s) = start + v·s, s ∈ [0, τ], weighted by its duration (docs/bouncy.md
    /// §10): its time average is start + vτ/2 and its own scatter is τ · v vᵀ τ²/12, exactly.
    pub fn add_segment(&mut self, start: &[f64], velocity: &[f64], duration: f64) {
        let mid: Vec<f64> = start.iter().zip(velocity).map(|(x, v)| x + 0.5 * v * duration).collect();
        let spread = duration * duration * duration / 12.0;
        self.merge(&mid, duration, Some((velocity, spread)));
    }

    /// Merge a group of total weight `w`, mean `x`, and optional internal scatter c·v vᵀ.
    fn merge(&mut self, x: &[f64], weight: f64, internal: Option<(&[f64], f64)>) {
        if !(weight > 0.0) {
            return;
        }
        let d = self.dim;
        let new_total = self.total_weight + weight;
        for ((delta, x), mean) in self.delta.iter_mut().zip(&x[..d]).zip(&self.mean) {
            *delta = x - mean;
        }
        let between = self.total_weight * weight / new_total;
        // Row a gets (between·δ_a)·δ_b: the same products as the textbook double loop, with the
        // row factor hoisted and no index arithmetic (this runs once per sample).
        add_scaled_outer(&mut self.scatter, between, &self.delta);
        if let Some((v, c)) = internal {
            add_scaled_outer(&mut self.scatter, c, &v[..d]);
        }
        for (mean, delta) in self.mean.iter_mut().zip(&self.delta) {
            *mean += delta * weight / new_total;
        }
        self.total_weight = new_total;
        self.count += 1;
    }

    pub fn mean(&self) -> &[f64] {
        &self.mean
    }

    /// Covariance with the population divisor (total weight); the right estimator for weighted
    /// points and time integrals, and within 1/n of the unbiased one for equal weights.
    pub fn cov(&self) -> Vec<Vec<f64>> {
        let d = self.dim;
        let w = self.total_weight.max(f64::MIN_POSITIVE);
        (0..d).map(|a| (0..d).map(|b| self.scatter[a * d + b] / w).collect()).collect()
    }

    pub fn moments(&self) -> Moments {
        Moments { mean: self.mean.clone(), cov: self.cov() }
    }
}

/// scatter += c·u uᵀ (row-major), each entry as (c·u_a)·u_b.
fn add_scaled_outer(scatter: &mut [f64], c: f64, u: &[f64]) {
    for (row, &ua) in scatter.chunks_exact_mut(u.len()).zip(u) {
        let row_factor = c * ua;
        for (entry, &ub) in row.iter_mut().zip(u) {
            *entry += row_factor * ub;
        }
    }
}

/// Monte-Carlo standard error of the mean of a correlated series by non-overlapping batch means
/// (`batches` batches; the tail that does not fill a batch is dropped).
pub fn batch_means_standard_error(series: &[f64], batches: usize) -> f64 {
    let size = series.len() / batches;
    assert!(size >= 1 && batches >= 2, "batch means need at least two non-empty batches");
    let means: Vec<f64> = series.chunks_exact(size).take(batches).map(|c| c.iter().sum::<f64>() / size as f64).collect();
    let grand = means.iter().sum::<f64>() / batches as f64;
    let var = means.iter().map(|m| (m - grand).powi(2)).sum::<f64>() / (batches - 1) as f64;
    (var / batches as f64).sqrt()
}

/// Batch means over TIME of a continuous piecewise-linear trajectory (bouncy samplers): the path
/// is cut into batches of equal travel time and each batch keeps the exact time averages
/// (segment integrals, docs/bouncy.md §10) of x_j and of (x_j − c_j)(x_k − c_k) about a fixed
/// centre c. Batching over time, not over events, is what makes the batch means equally weighted
/// and their spread a Monte-Carlo standard error of the time average. Memory stays bounded: when
/// 2B batches are full, neighbours merge and the batch time doubles, so between B and 2B remain.
#[derive(Clone, Debug)]
pub struct TimeBatchMeans {
    centre: Vec<f64>,
    target_batches: usize,
    batch_time: f64,
    /// Integrals of the batch being filled: D first moments, then D² second moments.
    current: Vec<f64>,
    current_time: f64,
    /// Finished batches' time averages.
    batches: Vec<Vec<f64>>,
}

impl TimeBatchMeans {
    /// Start with batches of `initial_batch_time`; keep between `batches` and 2·`batches`.
    pub fn new(centre: &[f64], batches: usize, initial_batch_time: f64) -> Self {
        let d = centre.len();
        TimeBatchMeans { centre: centre.to_vec(), target_batches: batches.max(2), batch_time: initial_batch_time, current: vec![0.0; d + d * d], current_time: 0.0, batches: Vec::new() }
    }

    /// Add the segment x(s) = start + v·s, s ∈ [0, τ], splitting it at batch boundaries.
    pub fn add_segment(&mut self, start: &[f64], velocity: &[f64], duration: f64) {
        let mut from = 0.0;
        while from < duration {
            let until = duration.min(from + self.batch_time - self.current_time);
            self.integrate(start, velocity, from, until);
            self.current_time += until - from;
            from = until;
            if self.current_time >= self.batch_time * (1.0 - 1e-12) {
                self.close_batch();
            }
        }
    }

    /// Exact integrals over s ∈ [a, b] of y + v s and (y + v s)(y + v s)ᵀ, y = start − c.
    fn integrate(&mut self, start: &[f64], v: &[f64], a: f64, b: f64) {
        let d = self.centre.len();
        let (l1, l2, l3) = (b - a, (b * b - a * a) / 2.0, (b * b * b - a * a * a) / 3.0);
        let y: Vec<f64> = start.iter().zip(&self.centre).map(|(x, c)| x - c).collect();
        for j in 0..d {
            self.current[j] += y[j] * l1 + v[j] * l2;
            for k in 0..d {
                self.current[d + j * d + k] += y[j] * y[k] * l1 + (y[j] * v[k] + v[j] * y[k]) * l2 + v[j] * v[k] * l3;
            }
        }
    }

    fn close_batch(&mut self) {
        let averages = self.current.iter().map(|x| x / self.current_time).collect();
        self.batches.push(averages);
        self.current.fill(0.0);
        self.current_time = 0.0;
        if self.batches.len() == 2 * self.target_batches {
            self.batches = self.batches.chunks(2).map(|p| p[0].iter().zip(&p[1]).map(|(a, b)| 0.5 * (a + b)).collect()).collect();
            self.batch_time *= 2.0;
        }
    }

    /// The same batches about another centre c′: (x − c′)(x − c′)ᵀ = (x − c)(x − c)ᵀ − δyᵀ − yδᵀ + δδᵀ
    /// with y = x − c and δ = c′ − c, batch by batch (exact, the batches are linear averages).
    pub fn recentred(&self, centre: &[f64]) -> TimeBatchMeans {
        let d = self.centre.len();
        let delta: Vec<f64> = centre.iter().zip(&self.centre).map(|(a, b)| a - b).collect();
        let shift = |m: &[f64]| -> Vec<f64> {
            let mut out = m.to_vec();
            for j in 0..d {
                out[j] = m[j] - delta[j];
                for k in 0..d {
                    out[d + j * d + k] = m[d + j * d + k] - delta[j] * m[k] - m[j] * delta[k] + delta[j] * delta[k];
                }
            }
            out
        };
        let mut moved = self.clone();
        moved.centre = centre.to_vec();
        moved.batches = self.batches.iter().map(|m| shift(m)).collect();
        moved.current = vec![0.0; d + d * d];
        moved.current_time = 0.0;
        moved
    }

    /// Number of full batches.
    pub fn batches(&self) -> usize {
        self.batches.len()
    }

    /// The travel time of each batch.
    pub fn batch_time(&self) -> f64 {
        self.batch_time
    }

    /// Over the full batches: (time average, Monte-Carlo standard error) of x_j − c_j (`second`
    /// None) or of (x_j − c_j)(x_k − c_k) (`second` = Some(k)). None before two batches.
    pub fn estimate(&self, j: usize, second: Option<usize>) -> Option<(f64, f64)> {
        let d = self.centre.len();
        let column = match second {
            None => j,
            Some(k) => d + j * d + k,
        };
        let b = self.batches.len();
        if b < 2 {
            return None;
        }
        let values: Vec<f64> = self.batches.iter().map(|m| m[column]).collect();
        let mean = values.iter().sum::<f64>() / b as f64;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (b - 1) as f64;
        Some((mean, (var / b as f64).sqrt()))
    }
}

/// Sample autocorrelation ρ(0..=max_lag) of a series (FFT-free, O(n · max_lag)).
pub fn autocorrelation(series: &[f64], max_lag: usize) -> Vec<f64> {
    let n = series.len();
    if n < 2 {
        return vec![1.0];
    }
    let mean = series.iter().sum::<f64>() / n as f64;
    let centred: Vec<f64> = series.iter().map(|x| x - mean).collect();
    let var = centred.iter().map(|x| x * x).sum::<f64>() / n as f64;
    if var <= 0.0 {
        return vec![1.0];
    }
    (0..=max_lag.min(n - 1))
        .map(|lag| centred[..n - lag].iter().zip(&centred[lag..]).map(|(a, b)| a * b).sum::<f64>() / (n as f64 * var))
        .collect()
}

/// Integrated autocorrelation time τ = 1 + 2 Σ ρ(s) truncated by Geyer's initial monotone
/// sequence estimator (sums of adjacent pairs must stay positive and non-increasing). Lags are
/// computed only until the truncation point, so the cost is O(n · τ).
pub fn integrated_autocorrelation_time(series: &[f64]) -> f64 {
    autocorrelation_time_within(series, series.len() / 2).0
}

/// Geyer's τ with lags up to `max_lag` only; also whether the sequence was truncated before the
/// cap (false: τ is a lower bound). Cost O(n · min(τ, max_lag)).
pub fn autocorrelation_time_within(series: &[f64], max_lag: usize) -> (f64, bool) {
    let n = series.len();
    if n < 4 {
        return (1.0, true);
    }
    let mean = series.iter().sum::<f64>() / n as f64;
    let centred: Vec<f64> = series.iter().map(|x| x - mean).collect();
    let var = centred.iter().map(|x| x * x).sum::<f64>() / n as f64;
    if !(var > 0.0) {
        return (1.0, true);
    }
    let rho = |lag: usize| centred[..n - lag].iter().zip(&centred[lag..]).map(|(a, b)| a * b).sum::<f64>() / (n as f64 * var);
    let max_lag = max_lag.min(n / 2);
    let mut tau = -1.0;
    let mut previous_pair = f64::INFINITY;
    let mut k = 0;
    let mut truncated = false;
    while 2 * k + 1 < max_lag {
        let pair = (rho(2 * k) + rho(2 * k + 1)).min(previous_pair);
        if pair <= 0.0 {
            truncated = true;
            break;
        }
        tau += 2.0 * pair;
        previous_pair = pair;
        k += 1;
    }
    (tau.max(1.0), truncated || 2 * k + 1 >= n / 2)
}

/// ESS of a series at bounded cost, for the page's main thread: Geyer's τ with at most `max_lag`
/// lags; when the sequence is not truncated by then (τ ≳ max_lag), the series is thinned by 2, 4,
/// … until it is, and the thinned series' ESS is returned (thinning by k ≪ τ keeps the ESS:
/// τ_k ≈ τ/k). Cost O(n · max_lag) in all (a geometric sum over the thinnings).
pub fn effective_sample_size_bounded(series: &[f64], max_lag: usize) -> f64 {
    let mut stride = 1;
    loop {
        let thinned: Vec<f64> = series.iter().step_by(stride).copied().collect();
        let (tau, truncated) = autocorrelation_time_within(&thinned, max_lag);
        if truncated || thinned.len() < 4 * max_lag.max(4) {
            return thinned.len() as f64 / tau;
        }
        stride *= 2;
    }
}

/// Effective sample size T/τ of a series.
pub fn effective_sample_size(series: &[f64]) -> f64 {
    series.len() as f64 / integrated_autocorrelation_time(series)
}

/// SGFS paper eq. 14: E1 = Σ|mean − mean*| / Σ|mean*| and E2 = Σ|C − C*| / Σ|C*|, except that
/// E1 is read in posterior standard deviations, Σ|mean − mean*| / Σ√C*_jj, when the true mean is
/// near 0 ([`e1_in_posterior_sd`]): relative to a mean of ≈ 0 any error looks huge (issue 21: a chain
/// 0.08 sd off showed E1 = 0.31 on the mixture). The two agree where the rule switches.
pub fn relative_errors(estimate: &Moments, truth: &Moments) -> (f64, f64) {
    let ratio = |num: f64, den: f64| if den > 0.0 { num / den } else { num };
    let e1_num: f64 = estimate.mean.iter().zip(&truth.mean).map(|(a, b)| (a - b).abs()).sum();
    let e1_den = if e1_in_posterior_sd(truth) { posterior_sd_sum(truth) } else { truth.mean.iter().map(|b| b.abs()).sum() };
    let e2_num: f64 = estimate.cov.iter().flatten().zip(truth.cov.iter().flatten()).map(|(a, b)| (a - b).abs()).sum();
    let e2_den: f64 = truth.cov.iter().flatten().map(|b| b.abs()).sum();
    (ratio(e1_num, e1_den), ratio(e2_num, e2_den))
}

/// Whether E1 is in posterior sd: the true mean is near 0, Σ|mean*| < Σ√C*_jj (on average within
/// one posterior sd of the origin).
pub fn e1_in_posterior_sd(truth: &Moments) -> bool {
    truth.mean.iter().map(|b| b.abs()).sum::<f64>() < posterior_sd_sum(truth)
}

fn posterior_sd_sum(truth: &Moments) -> f64 {
    (0..truth.mean.len()).map(|j| truth.cov[j][j].max(0.0).sqrt()).sum()
}

/// Points on the 2σ ellipse {x : (x − m)ᵀ C⁻¹ (x − m) = 4} of a 2 × 2 covariance.
pub fn two_sigma_ellipse(mean: [f64; 2], cov: [[f64; 2]; 2], points: usize) -> Vec<(f64, f64)> {
    // Cholesky factor L with L Lᵀ = C maps the unit circle onto the 1σ ellipse.
    let l11 = cov[0][0].max(0.0).sqrt();
    let l21 = if l11 > 0.0 { cov[1][0] / l11 } else { 0.0 };
    let l22 = (cov[1][1] - l21 * l21).max(0.0).sqrt();
    (0..=points)
        .map(|k| {
            let t = 2.0 * std::f64::consts::PI * k as f64 / points as f64;
            let (c, s) = (2.0 * t.cos(), 2.0 * t.sin());
            (mean[0] + l11 * c, mean[1] + l21 * c + l22 * s)
        })
        .collect()
}
