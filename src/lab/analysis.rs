//! A panel's charts and background analysis: the trace (with burn-in and restart markers) and
//! autocorrelation charts, ESS over the recent window, and the phase picture and bias–mixing
//! sweep run in the background.

use super::{Lab, ACF_LAGS, ESS_WINDOW, TRACE_POINTS};
use crate::analysis::Analysis;
use crate::plot::chart::ChartSpec;
use crate::plot::diagnostics_panel::{autocorrelation_chart_at_scale, recent_coordinate, trace_chart_from, MixingWindow, FROZEN_SPAN};
use serde_json::Value;

/// The trace position (ring push index) of step `step`, for a sampler that emits a sample at every
/// step from `step` on (OSGFS once El hanchi eq. 17 fires): `pushed − (steps − step) − 1`.
/// It holds whether the steps before were skipped by the discard burn-in or by OSGFS collecting only
/// after eq. 17 (review s44: its burn-in marker read "at sample 167", where sample 0 was step 167).
pub fn sample_index_of_step(step: f64, steps: u64, pushed: u64) -> f64 {
    pushed as f64 - (steps as f64 - step) - 1.0
}

/// A marker's legend label when it lies before the trace's window: a burn-in marker already names
/// its step; a restart names its sample.
fn before_window(label: &str, sample: f64) -> String {
    if label.contains(" at step ") {
        format!("{label}, before this window")
    } else {
        format!("{label} at sample {}, before this window", crate::readable::group_thousands(&format!("{sample:.0}")))
    }
}

impl Lab {
    /// Chart for `kind`: trace, acf, or noise/bias/sweep while an analysis exists.
    pub fn chart(&self, kind: &str) -> Result<ChartSpec, String> {
        let names = self.chain.model().coordinate_names();
        let ring = self.chain.samples();
        match kind {
            "trace" => {
                let fired = self.chain.diagnostics().into_iter().find(|d| d.name == "burn_in_over_step").map(|d| d.value).filter(|s| s.is_finite());
                let burn_in = fired.map(|step| sample_index_of_step(step, self.chain.steps(), ring.total_pushed()));
                let restarts = self.chain.restarts().iter().map(|&r| r as f64);
                let first_marker = burn_in.into_iter().chain(restarts.clone()).fold(f64::INFINITY, f64::min);
                let mut spec = trace_chart_from(ring, &names, self.pair, TRACE_POINTS, first_marker);
                // A bouncy sampler's samples are points at equal times along its path, many per
                // event (docs/bouncy.md §6): the axis says so, beside the "events" count (issue 26:
                // "events 6,618" beside an axis "sample 426,000", one name for two counts).
                if self.chain.sampler_spec().kind == crate::registry::SamplerKind::Bouncy {
                    spec.x_label = "path sample (equal times along the path; not events)".into();
                }
                let mut markers = Vec::new();
                if let (Some(sample), Some(step)) = (burn_in, fired) {
                    let label = format!("burn-in over (eq. 17) at step {}", crate::readable::group_thousands(&format!("{step:.0}")));
                    markers.push(crate::plot::chart::Marker { x: sample, label, colour: plotters::style::RGBColor(209, 73, 91) });
                }
                for r in restarts {
                    markers.push(crate::plot::chart::Marker { x: r, label: "restart (dragged)".into(), colour: plotters::style::RGBColor(46, 125, 50) });
                }
                // A marker before the window (MARKER_REACH) is named in the legend, not drawn:
                // fitted to it the axis would squeeze the window into a smear (issue 26).
                let first = spec.series.iter().filter_map(|s| s.points.first().map(|p| p.0)).fold(f64::INFINITY, f64::min);
                let last = spec.series.iter().filter_map(|s| s.points.last().map(|p| p.0)).fold(f64::NEG_INFINITY, f64::max);
                if markers.iter().any(|m| m.x < first) && first < last {
                    spec.x_range = Some((first, last));
                    markers.iter_mut().filter(|m| m.x < first).for_each(|m| m.label = before_window(&m.label, m.x));
                }
                spec.markers.extend(markers);
                Ok(spec)
            }
            "acf" => Ok(autocorrelation_chart_at_scale(ring, &names, self.pair, ESS_WINDOW, ACF_LAGS, self.chain.model().view().span())),
            "heldout" => self.held_out_chart(),
            "band" => self.chain.band_view().map(|v| crate::plot::band_chart::band_chart(&v)).ok_or_else(|| "the band chart is SBPS's and pSBPS's (SBPS Fig. 2): pick one of them, and let it take a step".to_string()),
            other => self
                .analysis
                .as_ref()
                .and_then(|a| a.chart(other))
                .ok_or_else(|| format!("chart '{other}' is not available; allowed: trace, acf, band (SBPS), and noise, bias, sweep while an analysis exists")),
        }
    }

    /// Start the background analysis (phase picture and bias–mixing sweep); needs the truth.
    pub fn start_analysis(&mut self, budget: u64) -> Result<(), String> {
        self.start_analysis_events(budget, None)
    }

    /// [`Lab::start_analysis`] with a bouncy sampler's `events` per sweep point (docs/bouncy.md
    /// §15; None: the page's default speed × 1,200 frames).
    pub fn start_analysis_events(&mut self, budget: u64, events: Option<u64>) -> Result<(), String> {
        self.analysis = None;
        crate::entry_counts::count("sweep");
        let truth = self.truth.moments.clone().ok_or("no ground truth for this target yet: the sweep needs one")?;
        let events = events.unwrap_or(crate::bouncy_sweep::DEFAULT_SPEED * crate::bouncy_sweep::FRAMES);
        self.analysis = Some(Analysis::with_events(&self.config, &self.chain, truth, budget, events)?);
        Ok(())
    }

    /// Spend up to `max_grad_evals` on the analysis; its progress, or None without one.
    pub fn advance_analysis(&mut self, max_grad_evals: u64) -> Option<f64> {
        let analysis = self.analysis.as_mut()?;
        crate::entry_counts::count("sweep");
        Some(analysis.advance(max_grad_evals))
    }

    pub fn analysis_json(&self) -> Value {
        self.analysis.as_ref().map(|a| a.results_json()).unwrap_or(Value::Null)
    }

    /// Effective sample size of the displayed pair over the recent window, and per 1,000
    /// gradient evaluations: `{ess: [..], ess_per_1000_grads: [..]}`. Costs O(window · log window)
    /// (both coordinates in one FFT per thinning, docs/diagnostics.md §12), so the page asks for it
    /// a few times a second, not every frame.
    pub fn mixing(&self) -> Value {
        self.mixing_window().mixing()
    }

    /// What [`Lab::mixing`] is computed from: the displayed pair's last [`ESS_WINDOW`] samples, the
    /// frozen-chain resolution and the gradient cost per sample (the page sends it to a worker,
    /// www/mixing.js, and shows the worker's [`MixingWindow::mixing`]).
    pub fn mixing_window(&self) -> MixingWindow {
        let chain = &self.chain;
        let ring = chain.samples();
        MixingWindow {
            x: recent_coordinate(ring, self.pair.0, ESS_WINDOW),
            y: recent_coordinate(ring, self.pair.1, ESS_WINDOW),
            resolution: FROZEN_SPAN * chain.model().view().span(),
            grad_evals_per_sample: chain.grad_evals_per_sample(),
        }
    }
}
