//! The diagnostics panel: trace plot, autocorrelation and effective sample size of the retained
//! samples (docs/diagnostics.md), built as [`ChartSpec`]s so any backend can draw them.

use super::chart::{ChartSpec, Series, Style, PALETTE};
use crate::acf_fft::{autocorrelation_fft, effective_sample_size_fft, effective_sample_sizes_fft};
use crate::ring::RingBuffer;
use serde_json::{json, Value};

/// Trace of the displayed pair over the most recent `max_points` retained samples.
pub fn trace_chart(ring: &RingBuffer, names: &[String], pair: (usize, usize), max_points: usize) -> ChartSpec {
    trace_chart_from(ring, names, pair, max_points, f64::INFINITY)
}

/// How far back (in windows of `max_points` samples) the trace reaches for a marker: beyond it the
/// latest window would be a smear under a tenth of the axis (issue 26: OSGFS lesson step 3's axis
/// ran 0…240,000 to keep the step-167 marker, its last 2,000 samples ≈ 10 px wide).
pub const MARKER_REACH: usize = 10;

/// Like [`trace_chart`], but reaching back to sample index `keep_from` (a marker: the OSGFS
/// burn-in, a dragged restart) while the ring still holds it and it is at most [`MARKER_REACH`]
/// windows back, thinned to at most `max_points` points per coordinate, so that a recent marker
/// does not scroll out of the window.
pub fn trace_chart_from(ring: &RingBuffer, names: &[String], pair: (usize, usize), max_points: usize, keep_from: f64) -> ChartSpec {
    if ring.len() == 0 {
        return super::analysis_panels::note_chart(NO_SAMPLE_TRACE);
    }
    let oldest = ring.total_pushed() as usize - ring.len();
    let latest_window = ring.len().saturating_sub(max_points);
    let near = keep_from.is_finite() && (ring.total_pushed() as f64 - keep_from) <= (MARKER_REACH * max_points) as f64;
    // Reach back to a little before the marker (a tenth of the span since it) when it is retained.
    let start = if near && keep_from >= oldest as f64 {
        let marker = keep_from as usize - oldest;
        let margin = (ring.len().saturating_sub(marker)) / 10;
        marker.saturating_sub(margin).min(latest_window)
    } else {
        latest_window
    };
    let stride = (ring.len() - start).div_ceil(max_points.max(1)).max(1);
    let series = [pair.0, pair.1]
        .iter()
        .enumerate()
        .map(|(k, &j)| {
            let points = (start..ring.len()).step_by(stride).map(|i| ((oldest + i) as f64, ring.get(i)[j])).collect();
            Series::new(names[j].clone(), points, PALETTE[k], Style::Line)
        })
        .collect();
    ChartSpec { title: "Trace".into(), x_label: "sample".into(), y_label: "value".into(), series, ..Default::default() }
}

/// What an empty trace says instead of empty axes (review s42: OSGFS at c = 0.001 kept no sample
/// in 24,292 steps and drew a 0…1 frame with nothing in it).
pub const NO_SAMPLE_TRACE: &str = "Trace: no sample kept yet; the trace is drawn here from the first sample the chain keeps";
/// Fewest samples the autocorrelation chart is drawn from, as the ESS beside it ([`recent_ess`]).
pub const MIN_ACF_SAMPLES: usize = 20;

/// Autocorrelation up to `max_lag` of each coordinate of the pair, over the last `window` samples.
pub fn autocorrelation_chart(ring: &RingBuffer, names: &[String], pair: (usize, usize), window: usize, max_lag: usize) -> ChartSpec {
    autocorrelation_chart_at_scale(ring, names, pair, window, max_lag, 0.0)
}

/// [`autocorrelation_chart`] for a target of width `scale` (the plot's span): a coordinate that
/// moved less than [`FROZEN_SPAN`] of it is frozen as well as one constant to rounding ([`is_constant`]),
/// which near 0 is relative to nothing (review s42: SGHMC at κ = 0 moved by 10⁻¹⁵ around 0 and its
/// autocorrelation was drawn as a comb of spikes).
pub fn autocorrelation_chart_at_scale(ring: &RingBuffer, names: &[String], pair: (usize, usize), window: usize, max_lag: usize, scale: f64) -> ChartSpec {
    let is_constant = |values: &[f64]| is_constant(values) || spread(values) <= FROZEN_SPAN * scale;
    let coordinates = [pair.0, pair.1].map(|j| recent_coordinate(ring, j, window));
    if coordinates[0].len() < MIN_ACF_SAMPLES {
        return super::analysis_panels::note_chart(&format!("Autocorrelation: drawn here once the chain has kept {MIN_ACF_SAMPLES} samples ({} kept so far)", coordinates[0].len()));
    }
    if coordinates.iter().all(|v| is_constant(v)) {
        return super::analysis_panels::note_chart(&format!(
            "Autocorrelation: none, the chain is constant ({} and {} have not moved over the last {} samples)",
            names[pair.0],
            names[pair.1],
            coordinates[0].len()
        ));
    }
    let series = [pair.0, pair.1]
        .iter()
        .zip(&coordinates)
        .enumerate()
        .map(|(k, (&j, values))| {
            if is_constant(values) {
                return Series::new(format!("{}: constant chain, no autocorrelation", names[j]), Vec::new(), PALETTE[k], Style::Line);
            }
            let rho = autocorrelation_fft(values, max_lag);
            Series::new(names[j].clone(), rho.iter().enumerate().map(|(lag, r)| (lag as f64, *r)).collect(), PALETTE[k], Style::Line)
        })
        .collect();
    ChartSpec {
        title: "Autocorrelation".into(),
        x_label: "lag".into(),
        y_label: "autocorrelation".into(),
        series,
        y_range: Some((-0.2, 1.0)),
        ..Default::default()
    }
}

/// Whether `values` are one number up to rounding (a spread of at most 10⁻¹⁰ of their size): the
/// autocorrelation of a constant chain is 0/0, and of rounding noise a comb of spikes (issue 26:
/// SGFS at n = N), so the chart says "constant chain" instead (docs/diagnostics.md (DIAG.8)).
pub fn is_constant(values: &[f64]) -> bool {
    let (lo, hi) = values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    hi - lo <= 1e-10 * lo.abs().max(hi.abs())
}

/// Largest minus smallest of `values`.
fn spread(values: &[f64]) -> f64 {
    values.iter().fold(f64::NEG_INFINITY, |a, &v| a.max(v)) - values.iter().fold(f64::INFINITY, |a, &v| a.min(v))
}

/// The last `window` values of coordinate `j`.
pub fn recent_coordinate(ring: &RingBuffer, j: usize, window: usize) -> Vec<f64> {
    let start = ring.len().saturating_sub(window);
    (start..ring.len()).map(|i| ring.get(i)[j]).collect()
}

/// Largest autocorrelation lag the page's ESS evaluates (beyond it the series is thinned, see
/// [`crate::diagnostics::effective_sample_size_bounded`]). The ρ come from one FFT per thinning
/// ([`effective_sample_size_fft`], docs/diagnostics.md §12): O(window · log window) per ESS on the
/// main thread, whatever τ is (issue 26: on the mixture ≈ 13 ms of CPU by direct sums, ≈ 7.5 by FFT).
pub const ESS_MAX_LAGS: usize = 200;

/// ESS of coordinate `j` over the last `window` samples (NaN with fewer than 20), at bounded cost
/// (the mixing panel uses [`recent_ess_pair`]).
pub fn recent_ess(ring: &RingBuffer, j: usize, window: usize) -> f64 {
    let values = recent_coordinate(ring, j, window);
    if values.len() < 20 {
        return f64::NAN;
    }
    effective_sample_size_fft(&values, ESS_MAX_LAGS)
}

/// [`recent_ess`] of both coordinates of the displayed pair, transformed together
/// ([`effective_sample_sizes_fft`], docs/diagnostics.md (DIAG.13)): the same numbers at half the
/// FFTs (issue 26: the mixture's two ESS were ≈ 7.5 ms of main-thread CPU a call).
///
/// A coordinate whose window spans at most `resolution` (the target's plot span × [`FROZEN_SPAN`])
/// has not moved: its ESS is 1, one draw's worth. Geyer's estimator on such a series reads the
/// rounding noise of a deterministic map as a moving chain (issue 21, review s42: SGHMC at κ = 0
/// with exact gradients on the Gaussian toy, started at the mean, wanders by 10⁻¹⁵ and had ESS 224
/// of 20,000, "ESS per 1,000 gradients 0.112 ✓"; docs/diagnostics.md §12).
pub fn recent_ess_pair(ring: &RingBuffer, pair: (usize, usize), window: usize, resolution: f64) -> [f64; 2] {
    ess_pair(&recent_coordinate(ring, pair.0, window), &recent_coordinate(ring, pair.1, window), resolution)
}

/// [`recent_ess_pair`] of two windows already taken from the ring (the page's ESS worker receives
/// them by message, www/mixing.js): NaN with fewer than 20 samples.
pub fn ess_pair(x: &[f64], y: &[f64], resolution: f64) -> [f64; 2] {
    if x.len() < 20 {
        return [f64::NAN; 2];
    }
    let ess = effective_sample_sizes_fft(x, y, ESS_MAX_LAGS);
    let frozen = |v: &[f64]| spread(v) <= resolution;
    [if frozen(x) { 1.0 } else { ess[0] }, if frozen(y) { 1.0 } else { ess[1] }]
}

/// The share of a target's plot span below which a coordinate's window counts as not moving in
/// [`recent_ess_pair`]: 10⁻⁹, a millionth of a pixel on the page and ten million times the
/// rounding of positions in the plot (10⁻¹⁶ of their size).
pub const FROZEN_SPAN: f64 = 1e-9;

/// A chain's mixing inputs, taken on the main thread in O(window) and turned into its ESS elsewhere
/// (`Lab::mixing_window`); packed into one array of numbers for a worker message.
#[derive(Debug, Clone, PartialEq)]
pub struct MixingWindow {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub resolution: f64,
    pub grad_evals_per_sample: f64,
}

impl MixingWindow {
    /// ESS of the pair over the window and per 1,000 gradient evaluations: `{ess, ess_per_1000_grads, window}`
    /// (a number that is not finite is `null`).
    /// O(window · log window): both coordinates in one FFT per thinning (docs/diagnostics.md §12).
    pub fn mixing(&self) -> Value {
        let window = self.x.len() as f64;
        let ess = ess_pair(&self.x, &self.y, self.resolution);
        let per_1000: Vec<Value> = ess.iter().map(|e| Value::from(1000.0 * e / (window * self.grad_evals_per_sample))).collect();
        json!({ "ess": ess.iter().map(|&e| Value::from(e)).collect::<Vec<_>>(), "ess_per_1000_grads": per_1000, "window": window })
    }

    /// `[resolution, grad_evals_per_sample, x…, y…]`.
    pub fn packed(&self) -> Vec<f64> {
        [self.resolution, self.grad_evals_per_sample].into_iter().chain(self.x.iter().copied()).chain(self.y.iter().copied()).collect()
    }

    /// The inverse of [`MixingWindow::packed`]; None when `packed` is not of that shape.
    pub fn unpacked(packed: &[f64]) -> Option<MixingWindow> {
        let (head, values) = packed.split_at_checked(2)?;
        if values.len() % 2 != 0 {
            return None;
        }
        let (x, y) = values.split_at(values.len() / 2);
        Some(MixingWindow { x: x.to_vec(), y: y.to_vec(), resolution: head[0], grad_evals_per_sample: head[1] })
    }
}
