//! The `#[wasm_bindgen]` surface: it only marshals between JavaScript and the pure core.
//! JavaScript owns the animation loop and calls [`Lab::run`] with a bounded number of steps per
//! frame, then blits the density image straight out of wasm memory.

use crate::chain::{Chain, ChainConfig, ChainStatus};
use crate::diagnostics::two_sigma_ellipse;
use crate::plot::contours::DensityGrid;
use crate::plot::density::DensityImage;
use crate::plot::marginal2d::{draw_static, StaticLayer};
use crate::plot::{PlotFrame, Projection};
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

/// One chain with its 2-D panel state.
#[wasm_bindgen]
pub struct Lab {
    chain: Chain,
    config: ChainConfig,
    projection: Projection,
    scale: f64,
    density: DensityImage,
    /// Samples of the ring already binned into the density image.
    binned: u64,
}

fn js_error(message: String) -> JsError {
    JsError::new(&message)
}

#[wasm_bindgen]
impl Lab {
    /// `settings_json` is an object `{name: value}` over the target's and sampler's parameters.
    #[wasm_bindgen(constructor)]
    pub fn new(target: &str, sampler: &str, settings_json: &str, seed: f64, width: u32, height: u32, scale: f64) -> Result<Lab, JsError> {
        if !(seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0 && seed <= 9.007_199_254_740_991e15) {
            return Err(js_error(format!("seed: {seed} is not allowed; expected a whole number in [0, 2^53]")));
        }
        let mut config = ChainConfig::new(target, sampler, seed as u64);
        config.settings = parse_settings(settings_json)?;
        let chain = Chain::new(&config).map_err(js_error)?;
        let frame = PlotFrame::new(width.max(64), height.max(64), scale_or_one(scale));
        let projection = Projection { view: chain.model().view(), frame };
        Ok(Lab { density: DensityImage::new(projection), chain, config, projection, scale: scale_or_one(scale), binned: 0 })
    }

    /// Advance at most `steps` steps; returns how many ran (fewer once the chain diverged).
    pub fn run(&mut self, steps: u32) -> u32 {
        let ran = self.chain.run(steps as u64) as u32;
        self.bin_new_samples();
        ran
    }

    fn bin_new_samples(&mut self) {
        let ring = self.chain.samples();
        let fresh = (ring.total_pushed() - self.binned).min(ring.len() as u64) as usize;
        for k in ring.len() - fresh..ring.len() {
            let p = ring.get(k);
            self.density.add(p[0], p[1]);
        }
        self.binned = ring.total_pushed();
    }

    /// Change one parameter. Sampler parameters apply live (statistics restart, position kept);
    /// target parameters rebuild the chain from the start.
    pub fn set_param(&mut self, name: &str, value: f64) -> Result<(), JsError> {
        let is_sampler_param = self.chain.sampler_spec().params.iter().any(|p| p.name == name);
        if is_sampler_param {
            self.chain.set_sampler_param(name, value).map_err(js_error)?;
            self.chain.clear_statistics();
        } else {
            let mut config = self.config.clone();
            config.settings.retain(|(n, _)| n != name);
            config.settings.push((name.to_string(), value.to_string()));
            let chain = Chain::new(&config).map_err(js_error)?;
            self.chain = chain;
            self.config = config;
            self.projection.view = self.chain.model().view();
        }
        self.remember_setting(name, value);
        self.restart_density();
        Ok(())
    }

    fn remember_setting(&mut self, name: &str, value: f64) {
        self.config.settings.retain(|(n, _)| n != name);
        self.config.settings.push((name.to_string(), value.to_string()));
    }

    fn restart_density(&mut self) {
        self.density = DensityImage::new(self.projection);
        self.binned = self.chain.samples().total_pushed();
    }

    /// Start again from the initial point with the same seed and settings.
    pub fn reset(&mut self) -> Result<(), JsError> {
        self.chain = Chain::new(&self.config).map_err(js_error)?;
        self.restart_density();
        Ok(())
    }

    /// New canvas size in backing pixels (and device-pixel ratio).
    pub fn resize(&mut self, width: u32, height: u32, scale: f64) {
        self.scale = scale_or_one(scale);
        self.projection.frame = PlotFrame::new(width.max(64), height.max(64), self.scale);
        self.density = DensityImage::new(self.projection);
        self.binned = 0;
        self.bin_new_samples();
    }

    /// Draw axes, contours and the truth ellipse on the static canvas.
    pub fn draw_static(&self, canvas: web_sys::HtmlCanvasElement) -> Result<(), JsError> {
        let backend = CanvasBackend::with_canvas_object(canvas).ok_or_else(|| js_error("canvas has no 2-D context".into()))?;
        let root = backend.into_drawing_area();
        let model = self.chain.model();
        let grid = DensityGrid::evaluate(model, self.projection.view, 121, 121);
        let truth = model.exact_moments();
        let names = model.coordinate_names();
        let layer = StaticLayer { frame: self.projection.frame, grid: &grid, truth: truth.as_ref(), x_name: &names[0], y_name: &names[1], scale: self.scale };
        draw_static(&root, &layer).map_err(|e| js_error(format!("drawing failed: {e:?}")))
    }

    /// Colour the density image; returns a pointer to its RGBA bytes in wasm memory.
    pub fn render_density(&mut self) -> *const u8 {
        self.density.render().as_ptr()
    }
    pub fn density_width(&self) -> u32 {
        self.density.width()
    }
    pub fn density_height(&self) -> u32 {
        self.density.height()
    }
    /// Pixel offset of the plotting rectangle (where the density image goes).
    pub fn plot_left(&self) -> u32 {
        self.projection.frame.left
    }
    pub fn plot_top(&self) -> u32 {
        self.projection.frame.top
    }

    /// Pixel coordinates (x, y, x, y, …) of the last `k` samples, oldest first.
    pub fn trail(&self, k: u32) -> Vec<f64> {
        let ring = self.chain.samples();
        let start = ring.len().saturating_sub(k as usize);
        (start..ring.len()).flat_map(|i| self.pixel(ring.get(i))).collect()
    }

    /// Pixel coordinates of the current position.
    pub fn position_pixel(&self) -> Vec<f64> {
        self.pixel(self.chain.position()).to_vec()
    }

    /// Pixel coordinates of the sampler's 2σ ellipse from its running moments (empty until there
    /// are enough samples).
    pub fn sampler_ellipse(&self) -> Vec<f64> {
        if self.chain.n_recorded() < 10 {
            return Vec::new();
        }
        let m = self.chain.moments();
        let cov = [[m.cov[0][0], m.cov[0][1]], [m.cov[1][0], m.cov[1][1]]];
        if cov.iter().flatten().any(|c| !c.is_finite()) {
            return Vec::new();
        }
        two_sigma_ellipse([m.mean[0], m.mean[1]], cov, 90).into_iter().flat_map(|(x, y)| self.pixel(&[x, y])).collect()
    }

    fn pixel(&self, theta: &[f64]) -> [f64; 2] {
        let (x, y) = self.projection.to_pixel(theta[0], theta[1]);
        [x, y]
    }

    /// Counters, moments, status, diagnostics and parameters as JSON.
    pub fn state_json(&self) -> String {
        let chain = &self.chain;
        let m = chain.moments();
        let status = match chain.status() {
            ChainStatus::Running => serde_json::Value::Null,
            ChainStatus::Diverged(msg) => serde_json::json!(msg),
        };
        let finite = |x: f64| if x.is_finite() { serde_json::json!(x) } else { serde_json::Value::Null };
        let diagnostics: Vec<serde_json::Value> =
            chain.diagnostics().iter().map(|d| serde_json::json!({"name": d.name, "label": d.label, "value": finite(d.value)})).collect();
        serde_json::json!({
            "steps": chain.steps(),
            "n_samples": chain.n_recorded(),
            "retained": chain.samples().len(),
            "grad_evals": chain.grad_evals(),
            "mean": m.mean.iter().map(|x| finite(*x)).collect::<Vec<_>>(),
            "cov": m.cov.iter().map(|r| r.iter().map(|x| finite(*x)).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "position": chain.position().iter().map(|x| finite(*x)).collect::<Vec<_>>(),
            "diverged": status,
            "diagnostics": diagnostics,
            "truth": chain.model().exact_moments(),
            "names": chain.model().coordinate_names(),
            "outside": self.density.outside(),
            "target_params": chain.target_params().to_json(),
            "sampler_params": chain.sampler_params().to_json(),
        })
        .to_string()
    }

    /// Retained samples as CSV (header: coordinate names).
    pub fn samples_csv(&self) -> String {
        let mut out = self.chain.model().coordinate_names().join(",");
        out.push('\n');
        for p in self.chain.samples().iter() {
            let row: Vec<String> = p.iter().map(|x| x.to_string()).collect();
            out.push_str(&row.join(","));
            out.push('\n');
        }
        out
    }
}

fn scale_or_one(scale: f64) -> f64 {
    if scale.is_finite() && scale > 0.0 {
        scale.clamp(0.5, 4.0)
    } else {
        1.0
    }
}

/// `{name: value}` with numbers or strings (choice names) as values.
fn parse_settings(json: &str) -> Result<Vec<(String, String)>, JsError> {
    if json.trim().is_empty() {
        return Ok(Vec::new());
    }
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| js_error(format!("settings are not valid JSON: {e}")))?;
    let object = value.as_object().ok_or_else(|| js_error("settings must be a JSON object".into()))?;
    object
        .iter()
        .map(|(name, v)| match v {
            serde_json::Value::Number(n) => Ok((name.clone(), n.to_string())),
            serde_json::Value::String(s) => Ok((name.clone(), s.clone())),
            other => Err(js_error(format!("{name}: {other} is not a number"))),
        })
        .collect()
}
