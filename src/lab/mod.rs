//! The state behind one 2-D panel of the page, as plain Rust (no web-sys), so all of it is tested
//! natively: a chain, the displayed coordinate pair and its view, the sample-density image, the
//! truth (closed form, grid quadrature, or a chunked reference run cached per data set), and the
//! background analysis. `web.rs` wraps it for JavaScript and only marshals.
//!
//! This file owns the [`Lab`] itself (its chain and settings, building, running, parameter
//! changes, reset) and the per-thread caches of truths, contour grids and large targets that
//! workers fill ([`adopt_prepared`], [`adopt_model`]). The rest lives beside it, one concern per
//! file, each adding methods to [`Lab`]: `density.rs` (the sample-density image and marginals),
//! `view.rs` (the displayed pair and everything in pixels), `truth.rs` (the truth and the
//! reference run), `handover.rs` (what workers hand over), `runaway.rs` (the runaway hand-over),
//! `analysis.rs` (charts, ESS and the background analysis), `state.rs` (the state JSON and the
//! predicted law), `export.rs` (CSV) and `multichain.rs` (several chains' R̂ and ESS).

use crate::analysis::Analysis;
use crate::chain::{Chain, ChainConfig};
use crate::law::Law;
use crate::model::{Model, View};
use crate::plot::contours::DensityGrid;
use crate::plot::density::DensityImage;
use crate::plot::marginals::AxisDensity;
use crate::plot::{PlotFrame, Projection};
use crate::truth::{ReferenceRun, Truth, TruthSource};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;

mod analysis;
mod density;
mod export;
mod handover;
mod heldout;
mod multichain;
mod rewind;
mod runaway;
mod state;
mod truth;
mod view;


/// Samples shown in the trace plot.
const TRACE_POINTS: usize = 2_000;
/// Recent samples used for ESS and autocorrelation.
const ESS_WINDOW: usize = 20_000;
/// Largest lag in the autocorrelation plot.
const ACF_LAGS: usize = 100;
/// Reference-run length for targets without a closed form in d > 2 (warm-up, then sampling).
const REFERENCE_WARM_UP: u64 = 5_000;
const REFERENCE_SAMPLING: u64 = 50_000;
/// Largest grid-quadrature truth (per-datum evaluations) computed while the page waits; beyond it
/// (N ≳ 10⁵ on a 2-D target) the truth is a Laplace approximation, labelled as such.
const GRID_TRUTH_BUDGET: f64 = 5e7;
/// Per-datum evaluations allowed for the contour grid of the static layer.
const CONTOUR_BUDGET: f64 = 2e7;
/// Per-datum evaluations a deferred lab may spend on its own contour grid (a closed-form 2-D
/// target's 161² nodes); costlier grids come from a worker.
const DEFERRED_GRID_BUDGET: f64 = 1e5;
/// Half-width of a pair's view, in posterior standard deviations.
const VIEW_SDS: f64 = 4.5;

thread_local! {
    /// Truths computed once per (target, target settings, data set).
    static TRUTH_CACHE: RefCell<HashMap<String, Truth>> = RefCell::new(HashMap::new());
    /// Contour grids of 2-D targets, per truth key (computed by a Web Worker on the page).
    static GRID_CACHE: RefCell<HashMap<String, std::rc::Rc<DensityGrid>>> = RefCell::new(HashMap::new());
    /// Large targets built elsewhere (a Web Worker) and adopted here, per truth key.
    static MODEL_CACHE: RefCell<HashMap<String, std::sync::Arc<dyn Model>>> = RefCell::new(HashMap::new());
}

/// One chain with everything its panels show.
pub struct Lab {
    chain: Chain,
    config: ChainConfig,
    pair: (usize, usize),
    projection: Projection,
    scale: f64,
    density: DensityImage,
    /// Samples of the ring already binned into the density image.
    binned: u64,
    /// log π on a grid over the view (2-D targets only), for contours.
    grid: Option<std::rc::Rc<DensityGrid>>,
    truth: Truth,
    /// True marginal densities along the displayed x and y, when known.
    truth_marginals: [Option<AxisDensity>; 2],
    /// A running reference computation when the truth needs one.
    reference: Option<ReferenceRun>,
    analysis: Option<Analysis>,
    /// The density image as it was when the chain's current excursion began (see
    /// [`Chain::excursion_pushed`]), keyed by the ring's push count there.
    density_before_excursion: Option<(u64, DensityImage)>,
    /// The sampler's predicted stationary law ([`crate::law`]) for the settings of its key.
    law: RefCell<Option<(String, Result<Law, String>)>>,
    /// Built by [`Lab::new_deferred`]: the truth and contour grid come only from the caches (filled
    /// by [`adopt_prepared`]); nothing costly is computed here.
    deferred: bool,
    /// Deferred and the truth has not arrived yet.
    awaiting_truth: bool,
    /// What was done to the chain since it was built, to replay it (see [`Lab::seek`]).
    timeline: crate::timeline::Timeline,
    /// Held-out test curves over the run, for targets with a test set (SGLD paper Fig. 3).
    heldout: Option<crate::heldout::HeldOut>,
}

impl Lab {
    pub fn new(config: ChainConfig, width: u32, height: u32, scale: f64) -> Result<Lab, String> {
        Self::build(config, width, height, scale, false)
    }

    /// Like [`Lab::new`] but computes neither the truth nor the contour grid: both come from the
    /// caches once a Web Worker's [`Lab::export_prepared`] was adopted ([`adopt_prepared`],
    /// then [`Lab::adopt_cached_truth`]); a large target must have been adopted with
    /// [`adopt_model`] (building it here is counted as `large_build`).
    pub fn new_deferred(config: ChainConfig, width: u32, height: u32, scale: f64) -> Result<Lab, String> {
        Self::build(config, width, height, scale, true)
    }

    fn build(config: ChainConfig, width: u32, height: u32, scale: f64, deferred: bool) -> Result<Lab, String> {
        let chain = new_chain(&config)?;
        let timeline = crate::timeline::Timeline::start(&config);
        let scale = scale_or_one(scale);
        let projection = Projection { view: chain.model().view(), frame: PlotFrame::new(width.max(64), height.max(64), scale) };
        let mut lab = Lab {
            density: DensityImage::new(projection),
            chain,
            config,
            pair: (0, 1),
            projection,
            scale,
            binned: 0,
            grid: None,
            truth: placeholder_truth(),
            truth_marginals: [None, None],
            reference: None,
            analysis: None,
            density_before_excursion: None,
            law: RefCell::new(None),
            deferred,
            awaiting_truth: false,
            timeline,
            heldout: None,
        };
        lab.restart_held_out();
        lab.refresh_truth();
        lab.refresh_view();
        lab.watch_for_runaway();
        Ok(lab)
    }

    pub fn chain(&self) -> &Chain {
        &self.chain
    }
    pub fn config(&self) -> &ChainConfig {
        &self.config
    }
    pub fn pair(&self) -> (usize, usize) {
        self.pair
    }
    pub fn truth(&self) -> &Truth {
        &self.truth
    }
    pub fn projection(&self) -> &Projection {
        &self.projection
    }
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// Advance at most `steps` steps; returns how many ran (fewer once the chain diverged).
    /// Applies on the way the events of a timeline that was rewound (see [`Lab::seek`]).
    pub fn run(&mut self, steps: u64) -> u64 {
        self.run_in_binned_chunks(steps, &mut |lab, chunk| lab.run_tracking_held_out(chunk))
    }

    /// Like [`Lab::run`], passing every recorded trajectory piece of a continuous-time sampler
    /// to `on_segment(start, velocity, duration)` (e.g. for time-batch standard errors).
    pub fn run_segments(&mut self, steps: u64, on_segment: &mut dyn FnMut(&[f64], &[f64], f64)) -> u64 {
        self.run_in_binned_chunks(steps, &mut |lab, chunk| lab.chain.run_segments(chunk, on_segment))
    }

    /// Run `steps` in chunks that push fewer samples than the ring holds, binning each chunk
    /// into the density image before the ring overwrites it, so that a run longer than the ring
    /// still draws every sample. A chunk is the ring's capacity divided by four times the samples
    /// pushed per step so far (a discrete sampler pushes at most one; a bouncy path several); a
    /// chain with no samples yet (or still burning in) runs a 64th of the ring while it learns its rate.
    fn run_in_binned_chunks(&mut self, steps: u64, run: &mut dyn FnMut(&mut Lab, u64) -> u64) -> u64 {
        let mut ran = 0;
        while ran < steps {
            let chunk = self.steps_that_fit_the_ring().min(steps - ran);
            let got = run(self, chunk);
            self.bin_new_samples();
            ran += got;
            if got < chunk {
                break;
            }
        }
        ran
    }

    fn steps_that_fit_the_ring(&self) -> u64 {
        let capacity = self.chain.samples().capacity() as f64;
        let (pushed, steps) = (self.chain.samples().total_pushed() as f64, self.chain.steps() as f64);
        if pushed == 0.0 || steps == 0.0 {
            return (capacity / 64.0).floor().max(1.0) as u64;
        }
        (capacity / (4.0 * (pushed / steps).max(1.0))).floor().max(1.0) as u64
    }

    /// Change one parameter. Sampler parameters apply live (statistics restart, position kept);
    /// target parameters rebuild the chain. On error nothing changes.
    pub fn set_param(&mut self, name: &str, value: f64) -> Result<(), String> {
        if self.chain.sampler_spec().params.iter().any(|p| p.name == name) {
            self.apply_sampler_param(name, value)?;
            self.timeline.record(self.chain.steps(), crate::timeline::Event::SamplerParam(name.to_string(), value));
            Ok(())
        } else {
            let mut config = self.config.clone();
            set_setting(&mut config, name, value);
            self.replace_chain(config)
        }
    }

    /// Load user data (already parsed) into the current target; on error nothing changes.
    pub fn set_data(&mut self, data: Option<crate::data::Dataset>) -> Result<(), String> {
        let mut config = self.config.clone();
        config.data = data;
        self.replace_chain(config)
    }

    fn replace_chain(&mut self, config: ChainConfig) -> Result<(), String> {
        let chain = new_chain(&config)?;
        let dim = chain.model().dim();
        self.chain = chain;
        self.config = config;
        if self.pair.0 >= dim || self.pair.1 >= dim {
            self.pair = (0, 1);
        }
        self.analysis = None;
        self.law.replace(None);
        self.timeline = crate::timeline::Timeline::start(&self.config);
        self.restart_held_out();
        self.refresh_truth();
        self.refresh_view();
        self.watch_for_runaway();
        Ok(())
    }

    /// Forget the samples so far (e.g. the burn-in) but keep the chain where it is.
    pub fn discard_samples(&mut self) {
        self.chain.clear_statistics();
        self.rebin_all();
        self.timeline.record(self.chain.steps(), crate::timeline::Event::Discard);
    }

    /// Start again from the initial point with the same seed and settings.
    pub fn reset(&mut self) -> Result<(), String> {
        let recording = self.chain.recording_parts();
        self.chain = new_chain(&self.config)?;
        self.chain.record_parts(recording);
        self.watch_for_runaway();
        self.rebin_all();
        self.timeline = crate::timeline::Timeline::start(&self.config);
        self.restart_held_out();
        Ok(())
    }

    /// New canvas size in backing pixels (and device-pixel ratio).
    /// The density image (and its copy from before a runaway excursion) is carried over to the
    /// new frame, not rebuilt from the ring, which holds only the most recent samples (issue 26).
    pub fn resize(&mut self, width: u32, height: u32, scale: f64) {
        self.scale = scale_or_one(scale);
        let frame = PlotFrame::new(width.max(64), height.max(64), self.scale);
        if frame == self.projection.frame {
            return;
        }
        self.projection.frame = frame;
        self.resample_density();
    }

}

/// The chain for `config`, on a target adopted from a worker ([`adopt_model`]) when there is one;
/// building a large target here is counted (`large_build`).
fn new_chain(config: &ChainConfig) -> Result<Chain, String> {
    let target_spec = crate::registry::target(&config.target)?;
    let sampler_spec = crate::registry::sampler(&config.sampler)?;
    let (target_params, _) = crate::registry::split_settings(target_spec, sampler_spec, &config.settings)?;
    if let Some(model) = MODEL_CACHE.with(|c| c.borrow().get(&truth_key(config, &target_params)).cloned()) {
        return Chain::with_model(config, model);
    }
    let chain = Chain::new(config)?;
    if chain.model().n_data() > crate::entry_counts::LARGE_BUILD_DATA {
        crate::entry_counts::count("large_build");
    }
    Ok(chain)
}

/// Adopt what a worker's [`Lab::export_prepared`] produced: the truth (unless still pending) and
/// the contour grid go into the caches, keyed as the worker computed them. The page reads the
/// worker's text through [`adopt_prepared_text`] instead; this `Value` path stays as that one's
/// independent oracle (tests/workers.rs), since the caches it fills are private to this module.
pub fn adopt_prepared(prepared: &Value) -> Result<(), String> {
    let key = prepared.get("key").and_then(|k| k.as_str()).ok_or("prepared truth without a key")?.to_string();
    if !prepared.get("pending").and_then(|p| p.as_bool()).unwrap_or(false) {
        let truth: Truth = serde_json::from_value(prepared["truth"].clone()).map_err(|e| format!("prepared truth: {e}"))?;
        TRUTH_CACHE.with(|c| c.borrow_mut().insert(key.clone(), truth));
    }
    if let Some(grid) = prepared.get("grid").filter(|g| !g.is_null()) {
        let view: View = serde_json::from_value(grid["view"].clone()).map_err(|e| format!("prepared grid: {e}"))?;
        let (nx, ny) = (grid["nx"].as_u64().unwrap_or(0) as usize, grid["ny"].as_u64().unwrap_or(0) as usize);
        let log_density: Vec<f64> = serde_json::from_value(grid["log_density"].clone()).map_err(|e| format!("prepared grid: {e}"))?;
        if nx < 2 || ny < 2 || log_density.len() != nx * ny {
            return Err(format!("prepared grid: {} values for {nx} × {ny} nodes", log_density.len()));
        }
        GRID_CACHE.with(|c| c.borrow_mut().insert(key, std::rc::Rc::new(DensityGrid { view, nx, ny, log_density })));
    }
    Ok(())
}

/// A worker's [`Lab::export_prepared`] as it is read on the page: the grid's values go straight
/// into a vector (issue 26: through a `serde_json::Value` the 2-D grid, ≈ 0.6 MB of JSON, took
/// 15–30 ms of the frame that adopted it); the truth stays a `Value` so that a pending one, which
/// [`adopt_prepared`] ignores, is ignored here too.
#[derive(serde::Deserialize)]
struct PreparedText {
    key: String,
    #[serde(default)]
    truth: Value,
    #[serde(default)]
    grid: Option<GridText>,
    #[serde(default)]
    pending: bool,
}

#[derive(serde::Deserialize)]
struct GridText {
    view: View,
    nx: usize,
    ny: usize,
    log_density: Vec<f64>,
}

/// [`adopt_prepared`] from the JSON text itself, without building a `Value` of the grid:
/// the same caches filled, the same errors for a missing key or a grid of the wrong size.
pub fn adopt_prepared_text(text: &str) -> Result<(), String> {
    let prepared: PreparedText = serde_json::from_str(text).map_err(|e| if e.to_string().contains("missing field `key`") { "prepared truth without a key".to_string() } else { format!("prepared truth is not valid JSON: {e}") })?;
    if !prepared.pending {
        let truth: Truth = serde_json::from_value(prepared.truth).map_err(|e| format!("prepared truth: {e}"))?;
        TRUTH_CACHE.with(|c| c.borrow_mut().insert(prepared.key.clone(), truth));
    }
    if let Some(GridText { view, nx, ny, log_density }) = prepared.grid {
        if nx < 2 || ny < 2 || log_density.len() != nx * ny {
            return Err(format!("prepared grid: {} values for {nx} × {ny} nodes", log_density.len()));
        }
        GRID_CACHE.with(|c| c.borrow_mut().insert(prepared.key, std::rc::Rc::new(DensityGrid { view, nx, ny, log_density })));
    }
    Ok(())
}

/// Adopt a large target a worker built (its [`Lab::export_model`] parts) for `config`'s target
/// settings and data, so [`Lab::new_deferred`] does not build it again.
pub fn adopt_model(config: &ChainConfig, parts: crate::model::ExportedModel) -> Result<(), String> {
    let target_spec = crate::registry::target(&config.target)?;
    let sampler_spec = crate::registry::sampler(&config.sampler)?;
    let (target_params, _) = crate::registry::split_settings(target_spec, sampler_spec, &config.settings)?;
    let model: std::sync::Arc<dyn Model> = std::sync::Arc::from(crate::model::import::import_parts(parts)?);
    MODEL_CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        // One large target at a time: 10⁶ rows are tens of megabytes.
        cache.clear();
        cache.insert(truth_key(config, &target_params), model);
    });
    Ok(())
}

fn placeholder_truth() -> Truth {
    Truth { moments: None, marginals: Vec::new(), source: TruthSource::NeedsReferenceRun, error_bound: f64::NAN, error: String::new() }
}

/// Cache key of a truth: target, its resolved parameters (not the sampler's: chains with other
/// sampler settings share the truth), and a fingerprint of user data.
fn truth_key(config: &ChainConfig, target_params: &crate::params::ParamValues) -> String {
    let data = config.data.as_ref().map(|d| {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for x in d.features.iter().chain(&d.responses) {
            hash = (hash ^ x.to_bits()).wrapping_mul(0x0100_0000_01b3);
        }
        format!("{}x{}:{hash:016x}", d.len(), d.n_features())
    });
    let params: Vec<(&str, f64)> = target_params.iter().collect();
    format!("{}|{:?}|{:?}", config.target, params, data)
}

/// Record `name=value` in a config, replacing an earlier setting of the same name.
pub fn set_setting(config: &mut ChainConfig, name: &str, value: f64) {
    config.settings.retain(|(n, _)| n != name);
    config.settings.push((name.to_string(), value.to_string()));
}

fn scale_or_one(scale: f64) -> f64 {
    if scale.is_finite() && scale > 0.0 {
        scale.clamp(0.5, 4.0)
    } else {
        1.0
    }
}
