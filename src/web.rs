//! The `#[wasm_bindgen]` surface: it only marshals between JavaScript and the pure core
//! ([`crate::lab::Lab`]). JavaScript owns the animation loop and calls [`WebLab::run`] with a
//! bounded number of steps per frame, then blits the density image straight out of wasm memory.

use crate::chain::ChainConfig;
use crate::lab::Lab;
use crate::plot::chart::draw_chart;
use crate::plot::marginal2d::draw_static;
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Install a panic hook that keeps the message for the page's error banner and logs it.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        web_sys::console::error_1(&JsValue::from_str(&format!("sgviz panicked: {message}")));
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(message));
    }));
}

/// The message of the last panic, if any (after which the instance must be treated as dead).
#[wasm_bindgen]
pub fn last_panic() -> Option<String> {
    LAST_PANIC.with(|p| p.borrow().clone())
}

/// The registry as JSON: targets, samplers and every parameter's spec.
#[wasm_bindgen]
pub fn registry_json() -> String {
    crate::registry::to_json().to_string()
}

fn js_error(message: impl AsRef<str>) -> JsError {
    JsError::new(message.as_ref())
}

/// What the page says when plotters fails to draw on a canvas: a sentence naming what to do, never
/// the backend's Debug text (issue 26: no library text on screen).
const DRAWING_FAILED: &str = "This chart could not be drawn; resize the window or press Reset.";

/// What the page says when a link's or preset's settings are not JSON (issue 26: every message names
/// the control that fixes it; the parser's own text never reaches the screen).
const SETTINGS_UNREADABLE: &str = "The settings in this link could not be read: choose a preset, or press Reset for the defaults.";

/// An SGAIS run or its replicas' summaries could not be read back (the page writes them; a stale tab
/// after an update is the way here).
pub(crate) const SGAIS_UNREADABLE: &str = "This SGAIS run could not be set up: choose an SGAIS preset and press Start.";

/// A data set prepared in a worker could not be adopted (its header did not parse).
const MODEL_UNREADABLE: &str = "The prepared data could not be read: press Reset, or choose the target again.";

fn drawing_failed<E>(_error: E) -> JsError {
    js_error(DRAWING_FAILED)
}

fn canvas_root(canvas: web_sys::HtmlCanvasElement) -> Result<plotters::drawing::DrawingArea<CanvasBackend, plotters::coord::Shift>, JsError> {
    Ok(CanvasBackend::with_canvas_object(canvas).ok_or_else(|| js_error("This chart could not be drawn: the browser gave it no canvas to draw on; reload the page."))?.into_drawing_area())
}

/// One chain and its panels, for JavaScript (exported as `Lab`).
#[wasm_bindgen(js_name = Lab)]
pub struct WebLab {
    pub(crate) lab: Lab,
}

#[wasm_bindgen(js_class = Lab)]
impl WebLab {
    /// `settings_json` is an object `{name: value}` over the target's and sampler's parameters.
    #[wasm_bindgen(constructor)]
    pub fn new(target: &str, sampler: &str, settings_json: &str, seed: f64, width: u32, height: u32, scale: f64) -> Result<WebLab, JsError> {
        if !(seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0 && seed <= 9.007_199_254_740_991e15) {
            return Err(js_error(format!("seed: {seed} is not allowed; expected a whole number in [0, 2^53]")));
        }
        let mut config = ChainConfig::new(target, sampler, seed as u64);
        config.settings = parse_settings(settings_json)?;
        Ok(WebLab { lab: Lab::new(config, width, height, scale).map_err(js_error)? })
    }

    pub fn run(&mut self, steps: u32) -> u32 {
        self.lab.run(steps as u64) as u32
    }

    pub fn set_param(&mut self, name: &str, value: f64) -> Result<(), JsError> {
        self.lab.set_param(name, value).map_err(js_error)
    }

    /// Parse a CSV (header row, numeric columns, response last) and load it, optionally
    /// standardising the features; on error nothing changes. Returns a one-line summary.
    pub fn set_data(&mut self, bytes: &[u8], standardise: bool) -> Result<String, JsError> {
        let parsed = crate::data::parse_csv(bytes).map_err(js_error)?;
        let data = if standardise { parsed.standardised() } else { parsed };
        let summary = format!(
            "{} rows × {} features{}, response '{}'",
            data.len(),
            data.n_features(),
            if standardise { " (standardised)" } else { "" },
            data.response_name
        );
        self.lab.set_data(Some(data)).map_err(js_error)?;
        Ok(summary)
    }

    pub fn clear_data(&mut self) -> Result<(), JsError> {
        self.lab.set_data(None).map_err(js_error)
    }

    pub fn reset(&mut self) -> Result<(), JsError> {
        self.lab.reset().map_err(js_error)
    }

    /// Remove the samples recorded since a confirmed runaway began (`state_json().runaway`) and
    /// move the particle back to where it began; errs when there is no runaway.
    pub fn discard_since_runaway(&mut self) -> Result<(), JsError> {
        self.lab.discard_since_runaway().map_err(js_error)
    }

    /// Forget the samples so far (discard burn-in) without moving the chain.
    pub fn discard_samples(&mut self) {
        self.lab.discard_samples()
    }

    pub fn resize(&mut self, width: u32, height: u32, scale: f64) {
        self.lab.resize(width, height, scale)
    }

    pub fn set_pair(&mut self, i: u32, j: u32) -> Result<(), JsError> {
        self.lab.set_pair(i as usize, j as usize).map_err(js_error)
    }

    /// `[i, j]` of a preset pair (most_correlated, largest_difference, smallest_difference).
    pub fn preset_pair(&self, kind: &str) -> Result<Vec<u32>, JsError> {
        let (i, j) = self.lab.preset_pair(kind).map_err(js_error)?;
        Ok(vec![i as u32, j as u32])
    }

    /// Advance a pending reference computation of the truth; JSON `{running, fraction, text}`.
    pub fn advance_truth(&mut self, steps: u32) -> String {
        self.lab.advance_truth(steps as u64).to_string()
    }

    /// Draw axes, contours and the truth ellipse on the static canvas.
    pub fn draw_static(&self, canvas: web_sys::HtmlCanvasElement) -> Result<(), JsError> {
        let names = self.lab.chain().model().coordinate_names();
        let truth = self.lab.truth_pair_moments();
        let layer = self.lab.static_layer(&names, truth.as_ref());
        draw_static(&canvas_root(canvas)?, &layer).map_err(drawing_failed)
    }

    /// A secondary chart's specification as JSON (its series, for tests and workers).
    pub fn chart_json(&self, kind: &str) -> Result<String, JsError> {
        let spec = self.lab.chart(kind).map_err(js_error)?;
        serde_json::to_string(&spec).map_err(|_| js_error(DRAWING_FAILED))
    }

    /// Draw a secondary chart: trace, acf, or noise/bias/sweep while an analysis exists.
    pub fn draw_chart(&self, kind: &str, canvas: web_sys::HtmlCanvasElement) -> Result<(), JsError> {
        let spec = self.lab.chart(kind).map_err(js_error)?;
        draw_chart(&canvas_root(canvas)?, &spec, self.lab.scale()).map_err(drawing_failed)
    }

    /// `events`: a bouncy sampler's events per sweep point (the page's speed × 1,200 frames);
    /// omitted, the default speed's.
    pub fn start_analysis(&mut self, budget: f64, events: Option<f64>) -> Result<(), JsError> {
        let budget = if budget.is_finite() { budget.clamp(1e3, 1e8) as u64 } else { 200_000 };
        let events = events.filter(|e| e.is_finite()).map(|e| e.clamp(1e3, 1e7) as u64);
        self.lab.start_analysis_events(budget, events).map_err(js_error)
    }

    /// Progress in [0, 1] of the analysis after spending up to `max_grad_evals`, or −1 without one.
    pub fn advance_analysis(&mut self, max_grad_evals: f64) -> f64 {
        self.lab.advance_analysis(max_grad_evals.clamp(1.0, 1e9) as u64).unwrap_or(-1.0)
    }

    pub fn analysis_json(&self) -> String {
        self.lab.analysis_json().to_string()
    }

    /// Colour the density image; returns a pointer to its RGBA bytes in wasm memory.
    pub fn render_density(&mut self) -> *const u8 {
        self.lab.render_density().as_ptr()
    }
    pub fn density_width(&self) -> u32 {
        self.lab.density().width()
    }
    pub fn density_height(&self) -> u32 {
        self.lab.density().height()
    }
    /// Samples binned per pixel row of the density image, bottom to top (tests read the image's
    /// state through it: issue 26's resize kept only the ring's samples).
    pub fn density_rows(&self) -> Vec<f64> {
        self.lab.density().row_counts().into_iter().map(|c| c as f64).collect()
    }
    pub fn plot_left(&self) -> u32 {
        self.lab.projection().frame.left
    }
    pub fn plot_top(&self) -> u32 {
        self.lab.projection().frame.top
    }
    /// The data area of the 2-D panel in backing pixels: [left, top, width, height] (the overlay
    /// clips the trail, path and ellipses to it).
    pub fn plot_frame(&self) -> Vec<u32> {
        let f = self.lab.projection().frame;
        vec![f.left, f.top, f.inner_width(), f.inner_height()]
    }

    pub fn marginals_json(&self) -> String {
        self.lab.marginals().to_string()
    }
    pub fn trail(&self, k: u32) -> Vec<f64> {
        self.lab.trail(k as usize)
    }
    pub fn path_json(&self) -> String {
        self.lab.path().to_string()
    }
    pub fn position_pixel(&self) -> Vec<f64> {
        self.lab.position_pixel().to_vec()
    }
    /// Restart the chain where the point was dropped (canvas pixels); returns the new start.
    pub fn restart_at_pixel(&mut self, px: f64, py: f64) -> Result<Vec<f64>, JsError> {
        self.lab.restart_at_pixel(px, py).map_err(js_error)
    }
    /// Record each step's parts (slow motion) or stop.
    pub fn set_slow_motion(&mut self, on: bool) {
        self.lab.set_slow_motion(on);
    }
    /// The latest step's parts (see `Lab::step_parts`), "null" when none are recorded.
    pub fn step_parts_json(&self) -> String {
        self.lab.step_parts().to_string()
    }
    pub fn sampler_ellipse(&self) -> Vec<f64> {
        self.lab.sampler_ellipse()
    }
    /// The 2σ ellipse of the sampler's predicted stationary law, in pixels (empty without one).
    pub fn predicted_ellipse(&self) -> Vec<f64> {
        self.lab.predicted_ellipse()
    }
    pub fn state_json(&self) -> String {
        self.lab.state().to_string()
    }
    /// ESS of the displayed pair and ESS per 1,000 gradient evaluations (O(window · log window)).
    pub fn mixing_json(&self) -> String {
        self.lab.mixing().to_string()
    }
    /// Samples recorded (and binned into the density image) so far: a cheap read for every frame.
    pub fn n_recorded(&self) -> f64 {
        self.lab.chain().n_recorded() as f64
    }
    /// Steps taken so far (a cheap read for the compared chain's every frame; `state_json` is not).
    pub fn steps(&self) -> f64 {
        self.lab.chain().steps() as f64
    }
    /// Whether the chain has stopped on a divergence (its message is in `state_json`).
    pub fn diverged(&self) -> bool {
        !matches!(self.lab.chain().status(), crate::chain::ChainStatus::Running)
    }
    /// Per-datum gradient evaluations so far.
    pub fn grad_evals(&self) -> f64 {
        self.lab.chain().grad_evals() as f64
    }
    pub fn samples_csv(&self) -> String {
        self.lab.samples_csv()
    }
    /// Go to step `n` of this run (back: replayed from the seed, exactly as it was); returns the
    /// step reached. Refused, with the reason, when the run cannot be replayed.
    pub fn seek(&mut self, n: f64) -> Result<f64, JsError> {
        if !(n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= 1e12) {
            return Err(js_error(format!("step: {n} is not allowed; expected a whole number of steps ≥ 0")));
        }
        self.lab.seek(n as u64).map(|s| s as f64).map_err(js_error)
    }
    /// `chains` chains of `steps` steps from over-dispersed starts at this setting: per coordinate
    /// R̂, bulk and tail ESS, mean and its MCSE (JSON; `Lab::multichain_json`).
    pub fn multichain_json(&self, chains: u32, steps: f64) -> Result<String, JsError> {
        if !(steps.is_finite() && steps >= 0.0 && steps.fract() == 0.0 && steps <= 1e9) {
            return Err(js_error(format!("steps: {steps} is not allowed; expected a whole number of steps per chain")));
        }
        self.lab.multichain_json(chains as usize, steps as u64).map(|v| v.to_string()).map_err(js_error)
    }
    /// Steps taken so far and the furthest step of this run's timeline: `[steps, furthest]`.
    pub fn timeline_position(&self) -> Vec<f64> {
        vec![self.lab.chain().steps() as f64, self.lab.timeline().furthest() as f64]
    }
    /// The retained samples in ArviZ's long format: `chain,draw,<one column per parameter>`.
    pub fn samples_long_csv(&self) -> String {
        let chain = self.lab.chain();
        crate::export::long_format_csv(&chain.model().coordinate_names(), &[chain.samples()])
    }
    /// The 2-D panel as SVG text: the static layer's drawing code, then the sample density (as
    /// rectangles of pixel blocks), the sampler's dashed ellipse and the current point.
    pub fn panel_svg(&self) -> Result<String, JsError> {
        use crate::plot::svg::{pairs, panel_svg, PanelOverlay};
        use crate::plot::svg_marks::{block_side, density_rects};
        let names = self.lab.chain().model().coordinate_names();
        let truth = self.lab.truth_pair_moments();
        let layer = self.lab.static_layer(&names, truth.as_ref());
        let position = self.lab.position_pixel();
        let overlay = PanelOverlay {
            density: density_rects(self.lab.density(), block_side(self.lab.density().width())),
            sampler_ellipse: pairs(&self.lab.sampler_ellipse()),
            current: Some((position[0], position[1])),
            marginals: marginal_bands(&self.lab.marginals()),
        };
        panel_svg(&layer, &overlay).map_err(js_error)
    }
    /// A secondary chart (trace, acf, …) as SVG text of `width × height` pixels.
    pub fn chart_svg(&self, kind: &str, width: u32, height: u32) -> Result<String, JsError> {
        let spec = self.lab.chart(kind).map_err(js_error)?;
        crate::plot::svg::chart_svg(&spec, width, height, self.lab.scale()).map_err(js_error)
    }
}

/// The marginal bands of `Lab::marginals` (`{x: {histogram, truth}, y: …}`, flat pixel lists).
fn marginal_bands(marginals: &serde_json::Value) -> Vec<crate::plot::svg::MarginalBand> {
    let flat = |v: &serde_json::Value| -> Vec<f64> { v.as_array().map_or_else(Vec::new, |a| a.iter().filter_map(|x| x.as_f64()).collect()) };
    ["x", "y"]
        .iter()
        .map(|axis| crate::plot::svg::MarginalBand {
            histogram: crate::plot::svg::pairs(&flat(&marginals[axis]["histogram"])),
            truth: crate::plot::svg::pairs(&flat(&marginals[axis]["truth"])),
        })
        .collect()
}

/// `{name: value}` with numbers or strings (choice names) as values.
fn parse_settings(json: &str) -> Result<Vec<(String, String)>, JsError> {
    if json.trim().is_empty() {
        return Ok(Vec::new());
    }
    let value: serde_json::Value = serde_json::from_str(json).map_err(|_| js_error(SETTINGS_UNREADABLE))?;
    let object = value.as_object().ok_or_else(|| js_error("settings must be a JSON object"))?;
    object
        .iter()
        .map(|(name, v)| match v {
            serde_json::Value::Number(n) => Ok((name.clone(), n.to_string())),
            serde_json::Value::String(s) => Ok((name.clone(), s.clone())),
            other => Err(js_error(format!("{name}: {other} is not a number"))),
        })
        .collect()
}

/// A live SGAIS evidence job for JavaScript (exported as `EvidenceLab`).
#[wasm_bindgen(js_name = EvidenceLab)]
pub struct WebEvidenceLab {
    job: crate::sgais::job::EvidenceJob,
    scale: f64,
}

#[wasm_bindgen(js_class = EvidenceLab)]
impl WebEvidenceLab {
    /// `settings_json`: `{name: value}` over SGAIS and target parameters; `variants_json`: a list
    /// of `{label, settings: [[name, value], …]}` (empty list = one run); `csv`: optional data.
    #[wasm_bindgen(constructor)]
    pub fn new(target: &str, settings_json: &str, seed: f64, variants_json: &str, with_ais: bool, csv: Option<Vec<u8>>, scale: f64) -> Result<WebEvidenceLab, JsError> {
        crate::entry_counts::count("sgais");
        if !(seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0 && seed <= 9.007_199_254_740_991e15) {
            return Err(js_error(format!("seed: {seed} is not allowed; expected a whole number in [0, 2^53]")));
        }
        let settings = parse_settings(settings_json)?;
        let variants: Vec<crate::sgais::job::Variant> = if variants_json.trim().is_empty() {
            Vec::new()
        } else {
            serde_json::from_str(variants_json).map_err(|_| js_error(SGAIS_UNREADABLE))?
        };
        let data = match csv {
            Some(bytes) => Some(crate::data::parse_csv(&bytes).map_err(js_error)?),
            None => None,
        };
        let job = crate::sgais::job::EvidenceJob::new(target, &settings, data.as_ref(), seed as u64, &variants, with_ais).map_err(js_error)?;
        Ok(WebEvidenceLab { job, scale: if scale.is_finite() && scale > 0.0 { scale.clamp(0.5, 4.0) } else { 1.0 } })
    }

    /// Advance the next unfinished run by `budget` particle-SGHMC steps; its index, or −1 when done.
    pub fn advance(&mut self, budget: u32) -> i32 {
        crate::entry_counts::count("sgais");
        self.job.advance(budget as usize).map(|i| i as i32).unwrap_or(-1)
    }

    /// Attribute measured wall time (seconds) to run `index`.
    pub fn add_seconds(&mut self, index: u32, seconds: f64) {
        self.job.add_seconds(index as usize, seconds)
    }

    pub fn summary_json(&self) -> String {
        self.job.summary().to_string()
    }

    /// Draw `evidence` (log Ẑ/n vs n with exact curve and AIS points) or `annealing`.
    pub fn draw_chart(&self, kind: &str, canvas: web_sys::HtmlCanvasElement) -> Result<(), JsError> {
        let spec = match kind {
            "evidence" => self.job.evidence_chart(),
            "annealing" => self.job.annealing_chart(),
            other => return Err(js_error(format!("unknown chart '{other}'; allowed: evidence, annealing"))),
        };
        draw_chart(&canvas_root(canvas)?, &spec, self.scale).map_err(drawing_failed)
    }
}

/// How often each heavy entry point (sweep, truth, sgais, large_build) ran in this wasm instance,
/// as JSON `{name: calls}`: on the page's main thread these stay absent (workers do the work).
#[wasm_bindgen]
pub fn entry_counts_json() -> String {
    crate::entry_counts::to_json().to_string()
}

/// Draw a chart specification (JSON of a `ChartSpec`, e.g. computed by a Web Worker) on a canvas;
/// the main thread draws because plotters' text measurement panics in workers (WEB-NOTES.md).
#[wasm_bindgen]
pub fn draw_chart_json(spec_json: &str, canvas: web_sys::HtmlCanvasElement, scale: f64) -> Result<(), JsError> {
    // Specs are serialised finite (src/plot/finite.rs); should one still fail to parse, the page
    // says so in words, not with the parser's text.
    let spec: crate::plot::chart::ChartSpec = serde_json::from_str(spec_json).map_err(|_| js_error("A chart could not be drawn at these settings; it is redrawn when the setting changes."))?;
    let scale = if scale.is_finite() && scale > 0.0 { scale.clamp(0.5, 4.0) } else { 1.0 };
    draw_chart(&canvas_root(canvas)?, &spec, scale).map_err(drawing_failed)
}

/// The data area of a chart specification drawn at `width`×`height` and `scale`, as JSON
/// `[left, top, right, bottom]` in the canvas's pixels (for the browser tests' geometry checks).
#[wasm_bindgen]
pub fn chart_json_plot_area(spec_json: &str, width: u32, height: u32, scale: f64) -> Result<String, JsError> {
    let spec: crate::plot::chart::ChartSpec = serde_json::from_str(spec_json).map_err(|_| js_error("A chart could not be read."))?;
    let (left, top, right, bottom) = crate::plot::svg::chart_plot_area(&spec, width, height, scale).map_err(js_error)?;
    Ok(format!("[{left},{top},{right},{bottom}]"))
}

/// A chart specification (JSON of a `ChartSpec`, as the workers send them) as SVG text.
#[wasm_bindgen]
pub fn chart_json_svg(spec_json: &str, width: u32, height: u32, scale: f64) -> Result<String, JsError> {
    // Reached from "Save SVG" under a worker chart: in words, as draw_chart_json, not the parser's text.
    let spec: crate::plot::chart::ChartSpec = serde_json::from_str(spec_json).map_err(|_| js_error("This chart could not be saved at these settings; it is redrawn when the setting changes."))?;
    let scale = if scale.is_finite() && scale > 0.0 { scale.clamp(0.5, 4.0) } else { 1.0 };
    crate::plot::svg::chart_svg(&spec, width, height, scale).map_err(js_error)
}

/// Adopt a truth (and contour grid) a worker computed (`Lab.export_prepared_json`).
#[wasm_bindgen]
pub fn adopt_prepared(prepared_json: &str) -> Result<(), JsError> {
    crate::lab::adopt_prepared_text(prepared_json).map_err(js_error)
}

/// The promise memo of this instance (src/promise_memo.rs), for the page to import: a worker
/// builds a chain only to compute its promise off the main thread.
#[wasm_bindgen]
pub fn promise_memo_json() -> String {
    crate::promise_memo::export_json()
}

/// Import a worker's promise memo; returns the number of entries added.
#[wasm_bindgen]
pub fn adopt_promise_memo(memo_json: &str) -> Result<usize, JsError> {
    crate::promise_memo::import_json(memo_json, crate::registry::SAMPLERS).map_err(js_error)
}

/// The 2-D grid scans of this instance (src/curvature.rs), posted by a worker with its promise memo.
#[wasm_bindgen]
pub fn curvature_memo_json() -> String {
    crate::curvature::export_scans_json()
}

/// Import a worker's grid scans; returns the number of entries added.
#[wasm_bindgen]
pub fn adopt_curvature_memo(memo_json: &str) -> Result<usize, JsError> {
    crate::curvature::import_scans_json(memo_json).map_err(js_error)
}

/// Adopt a large target a worker built (`Lab.export_model_*`) for these settings, so that
/// `Lab.deferred` with the same target settings does not build it again.
#[wasm_bindgen]
pub fn adopt_model(target: &str, sampler: &str, settings_json: &str, header_json: &str, features: Vec<f64>, labels: Vec<f64>) -> Result<(), JsError> {
    let mut config = ChainConfig::new(target, sampler, 0);
    config.settings = parse_settings(settings_json)?;
    let header: serde_json::Value = serde_json::from_str(header_json).map_err(|_| js_error(MODEL_UNREADABLE))?;
    crate::lab::adopt_model(&config, crate::model::ExportedModel { header, features, labels }).map_err(js_error)
}

fn checked_seed(seed: f64) -> Result<u64, JsError> {
    if !(seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0 && seed <= 9.007_199_254_740_991e15) {
        return Err(js_error(format!("seed: {seed} is not allowed; expected a whole number in [0, 2^53]")));
    }
    Ok(seed as u64)
}

#[wasm_bindgen(js_class = Lab)]
impl WebLab {
    /// Like the constructor, but the truth and contour grid are not computed here: they arrive
    /// from a worker (`adopt_prepared`, then `adopt_cached_truth`).
    pub fn deferred(target: &str, sampler: &str, settings_json: &str, seed: f64, width: u32, height: u32, scale: f64) -> Result<WebLab, JsError> {
        let mut config = ChainConfig::new(target, sampler, checked_seed(seed)?);
        config.settings = parse_settings(settings_json)?;
        Ok(WebLab { lab: Lab::new_deferred(config, width, height, scale).map_err(js_error)? })
    }

    /// Take a truth adopted since; true when the static layer must be redrawn.
    pub fn adopt_cached_truth(&mut self) -> bool {
        self.lab.adopt_cached_truth()
    }

    /// `{key, truth, grid, pending}` for `adopt_prepared` on the page's main thread.
    pub fn export_prepared_json(&self) -> String {
        self.lab.export_prepared().to_string()
    }

    /// The JSON header of a large target's exported parts, or undefined when it offers none.
    pub fn export_model_header(&self) -> Option<String> {
        self.lab.export_model().map(|m| m.header.to_string())
    }
    pub fn export_model_features(&self) -> Vec<f64> {
        self.lab.export_model().map(|m| m.features).unwrap_or_default()
    }
    pub fn export_model_labels(&self) -> Vec<f64> {
        self.lab.export_model().map(|m| m.labels).unwrap_or_default()
    }

    /// Charts of the running analysis as JSON specs `{noise, bias, sweep}` (null when missing),
    /// for a worker to post to the page.
    pub fn analysis_charts_json(&self) -> String {
        let chart = |kind: &str| self.lab.chart(kind).ok().map(|c| serde_json::to_value(c).unwrap_or_default());
        serde_json::json!({ "noise": chart("noise"), "bias": chart("bias"), "sweep": chart("sweep") }).to_string()
    }
}

/// One SGAIS run (a replica of a variant, or an AIS baseline) for a Web Worker: built from a
/// `RunSpec` as JSON, advanced in slices, posted as a `ReplicaResult`.
#[wasm_bindgen]
pub struct SgaisRunner {
    run: crate::sgais::run::SgaisRun,
    seed: u64,
    replica: usize,
    ais_n: Option<usize>,
    variant: Option<crate::sgais::shift::ShiftVariant>,
}

#[wasm_bindgen]
impl SgaisRunner {
    #[wasm_bindgen(constructor)]
    pub fn new(spec_json: &str, csv: Option<Vec<u8>>) -> Result<SgaisRunner, JsError> {
        crate::entry_counts::count("sgais");
        let spec: crate::sgais::job::RunSpec = serde_json::from_str(spec_json).map_err(|_| js_error(SGAIS_UNREADABLE))?;
        let data = match csv {
            Some(bytes) => Some(crate::data::parse_csv(&bytes).map_err(js_error)?),
            None => None,
        };
        let (run, seed, variant) = spec.build(data.as_ref()).map_err(js_error)?;
        Ok(SgaisRunner { run, seed, replica: spec.replica, ais_n: spec.ais_n, variant })
    }

    /// Advance by `budget` particle-SGHMC steps; false once the run ended (finished or diverged).
    pub fn advance(&mut self, budget: u32) -> bool {
        crate::entry_counts::count("sgais");
        if *self.run.status() == crate::sgais::run::RunStatus::Running {
            self.run.advance(budget.max(1) as usize);
        }
        *self.run.status() == crate::sgais::run::RunStatus::Running
    }

    /// Chunks annealed so far: the worker posts a run's part as each one ends (www/worker.js).
    pub fn chunks(&self) -> usize {
        self.run.records().len()
    }

    /// `{result, variant, ais_n, n_total, active}` with the wall time measured by the worker;
    /// `active` is the chunk being annealed in now (`from`, `to`, its λ so far and the datum
    /// evaluations so far), null between chunks: what a run shows before its first chunk ends
    /// (issue 26: the paper-scale shift run's first chunk is ≈ 10⁸ evaluations).
    pub fn result_json(&self, seconds: f64) -> String {
        let result = crate::sgais::replicas::ReplicaResult::from_run(self.replica, self.seed, &self.run, seconds.is_finite().then_some(seconds));
        let active = self.run.annealing_state().map(|(range, lambda)| serde_json::json!({ "from": range.start, "to": range.end, "lambda": lambda, "datum_evals": self.run.datum_evals() }));
        serde_json::json!({ "result": result, "variant": self.variant, "ais_n": self.ais_n, "n_total": self.run.n_total(), "active": active }).to_string()
    }
}

/// Combine the runs the workers posted (a JSON list of `{label, ais_n, variant, n_total, result}`)
/// into the panel's summary and chart specs.
#[wasm_bindgen]
pub fn sgais_combine_json(runs_json: &str) -> Result<String, JsError> {
    let runs: Vec<crate::sgais::page::PageRun> = serde_json::from_str(runs_json).map_err(|_| js_error(SGAIS_UNREADABLE))?;
    Ok(serde_json::to_string(&crate::sgais::page::combine(&runs)).unwrap_or_default())
}

/// The figures gallery's SGAIS numbers and run-cost chart (src/sgais/gallery.rs) from the same runs
/// as [`sgais_combine_json`].
#[wasm_bindgen]
pub fn sgais_gallery_json(runs_json: &str) -> Result<String, JsError> {
    let runs: Vec<crate::sgais::page::PageRun> = serde_json::from_str(runs_json).map_err(|_| js_error(SGAIS_UNREADABLE))?;
    Ok(serde_json::to_string(&crate::sgais::gallery::gallery(&runs)).unwrap_or_default())
}

/// SGAIS Fig. 1: the shift data by phase, at most `shown` points of each (src/sgais/shift_data.rs).
#[wasm_bindgen]
pub fn sgais_shift_data_json(n: u32, data_seed: u32, shuffled: bool, shown: u32) -> String {
    serde_json::to_string(&crate::sgais::shift_data::shift_data(n as usize, data_seed as u64, shuffled, shown as usize)).unwrap_or_default()
}
