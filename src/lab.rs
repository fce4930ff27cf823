//! The state behind one 2-D panel of the page, as plain Rust (no web-sys), so all of it is tested
//! natively: a chain, the displayed coordinate pair and its view, the sample-density image, the
//! truth (closed form, grid quadrature, or a chunked reference run cached per data set), and the
//! background analysis. `web.rs` wraps it for JavaScript and only marshals.

use crate::analysis::Analysis;
use crate::chain::{Chain, ChainConfig, ChainStatus};
use crate::diagnostics::{relative_errors, two_sigma_ellipse, Moments};
use crate::law::{predicted_law, Law};
use crate::model::laplace::laplace_approximation;
use crate::model::{Model, View};
use crate::plot::chart::ChartSpec;
use crate::plot::contours::DensityGrid;
use crate::plot::density::DensityImage;
use crate::plot::diagnostics_panel::{autocorrelation_chart, recent_ess, trace_chart_from};
use crate::plot::marginal2d::StaticLayer;
use crate::plot::marginals::{self, AxisDensity};
use crate::plot::{PlotFrame, Projection};
use crate::registry::SamplerKind;
use crate::truth::{truth_for, ReferenceRun, Truth, TruthSource};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashMap;

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
        };
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
    pub fn run(&mut self, steps: u64) -> u64 {
        let ran = self.chain.run(steps);
        self.bin_new_samples();
        ran
    }

    /// Like [`Lab::run`], passing every recorded trajectory piece of a continuous-time sampler
    /// to `on_segment(start, velocity, duration)` (e.g. for time-batch standard errors).
    pub fn run_segments(&mut self, steps: u64, on_segment: &mut dyn FnMut(&[f64], &[f64], f64)) -> u64 {
        let ran = self.chain.run_segments(steps, on_segment);
        self.bin_new_samples();
        ran
    }

    /// Bin the samples pushed since the last call; keep a copy of the image as it was when the
    /// chain's current excursion began, so that a runaway can be undone exactly.
    fn bin_new_samples(&mut self) {
        let total = self.chain.samples().total_pushed();
        match self.chain.excursion_pushed() {
            Some(at) if self.density_before_excursion.as_ref().map(|(p, _)| *p) != Some(at) => {
                // An excursion that began before what is already binned cannot be snapshotted
                // exactly; undoing it then re-bins the retained samples.
                self.density_before_excursion = (at >= self.binned).then(|| {
                    self.bin_samples_until(at);
                    (at, self.density.clone())
                });
            }
            Some(_) => {}
            None => self.density_before_excursion = None,
        }
        self.bin_samples_until(total);
    }

    /// Bin the samples pushed after `self.binned` and up to push count `until` (those still in the ring).
    fn bin_samples_until(&mut self, until: u64) {
        let ring = self.chain.samples();
        let oldest = ring.total_pushed() - ring.len() as u64;
        let (i, j) = self.pair;
        for pushed in self.binned.max(oldest)..until {
            let p = ring.get((pushed - oldest) as usize);
            self.density.add(p[i], p[j]);
        }
        self.binned = until;
    }

    /// Rebuild the density image from every retained sample (after the view changed).
    fn rebin_all(&mut self) {
        self.density = DensityImage::new(self.projection);
        self.density_before_excursion = None;
        self.binned = self.chain.samples().total_pushed() - self.chain.samples().len() as u64;
        self.bin_new_samples();
    }

    /// The samples recorded since a confirmed runaway began are removed (moments, retained
    /// samples, density image, as if never recorded) and the particle goes back to where the
    /// excursion began (see [`Chain::discard_since_runaway`]). Errs when there is no runaway.
    pub fn discard_since_runaway(&mut self) -> Result<(), String> {
        let snapshot = self.density_before_excursion.take();
        self.chain.discard_since_runaway()?;
        match snapshot {
            Some((at, density)) if at == self.chain.samples().total_pushed() => {
                self.density = density;
                self.binned = at;
            }
            _ => self.rebin_all(),
        }
        Ok(())
    }

    /// Let the chain watch for runaways once the truth's moments are known.
    fn watch_for_runaway(&mut self) {
        if let Some(m) = self.truth.moments.as_ref().filter(|_| self.truth.source != TruthSource::NeedsReferenceRun) {
            self.chain.watch_for_runaway(m);
        }
    }

    /// Change one parameter. Sampler parameters apply live (statistics restart, position kept);
    /// target parameters rebuild the chain. On error nothing changes.
    pub fn set_param(&mut self, name: &str, value: f64) -> Result<(), String> {
        if self.chain.sampler_spec().params.iter().any(|p| p.name == name) {
            self.chain.set_sampler_param(name, value)?;
            self.chain.clear_statistics();
            set_setting(&mut self.config, name, value);
            self.rebin_all();
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
        self.refresh_truth();
        self.refresh_view();
        self.watch_for_runaway();
        Ok(())
    }

    /// Forget the samples so far (e.g. the burn-in) but keep the chain where it is.
    pub fn discard_samples(&mut self) {
        self.chain.clear_statistics();
        self.rebin_all();
    }

    /// Start again from the initial point with the same seed and settings.
    pub fn reset(&mut self) -> Result<(), String> {
        let recording = self.chain.recording_parts();
        self.chain = Chain::new(&self.config)?;
        self.chain.record_parts(recording);
        self.watch_for_runaway();
        self.rebin_all();
        Ok(())
    }

    /// New canvas size in backing pixels (and device-pixel ratio).
    pub fn resize(&mut self, width: u32, height: u32, scale: f64) {
        self.scale = scale_or_one(scale);
        self.projection.frame = PlotFrame::new(width.max(64), height.max(64), self.scale);
        self.rebin_all();
    }

    /// Show coordinates (i, j) on the 2-D panel.
    pub fn set_pair(&mut self, i: usize, j: usize) -> Result<(), String> {
        let dim = self.chain.model().dim();
        if i >= dim || j >= dim || i == j {
            return Err(format!("pair ({i}, {j}) is not allowed; expected two different coordinates below {dim}"));
        }
        self.pair = (i, j);
        self.refresh_view();
        Ok(())
    }

    /// Indices of a preset pair: `most_correlated` (under the truth, or the chain when the truth
    /// is not known yet), `largest_difference` / `smallest_difference` (truth vs sampler).
    pub fn preset_pair(&self, kind: &str) -> Result<(usize, usize), String> {
        let sampler = self.chain.moments();
        let truth = self.truth.moments.as_ref();
        let pair = match kind {
            "most_correlated" => crate::truth::most_correlated_pair(&truth.unwrap_or(&sampler).cov),
            "largest_difference" => truth.and_then(|t| crate::truth::largest_difference_pair(&t.cov, &sampler.cov)),
            "smallest_difference" => truth.and_then(|t| crate::truth::smallest_difference_pair(&t.cov, &sampler.cov)),
            other => return Err(format!("unknown pair preset '{other}'; allowed: most_correlated, largest_difference, smallest_difference")),
        };
        pair.ok_or_else(|| "this preset needs the truth and at least two coordinates".to_string())
    }

    /// The truth for the current model, from the cache, in closed form / by quadrature, or by
    /// starting a reference run.
    fn refresh_truth(&mut self) {
        self.reference = None;
        self.awaiting_truth = false;
        let key = truth_key(&self.config, self.chain.target_params());
        if let Some(cached) = TRUTH_CACHE.with(|c| c.borrow().get(&key).cloned()) {
            self.truth = cached;
            return;
        }
        if self.deferred {
            // Closed-form moments cost nothing: E1/E2 work at once; the worker's truth (with its
            // marginal curves) replaces this one when it arrives.
            self.truth = match self.chain.model().exact_moments() {
                Some(moments) => Truth { moments: Some(moments), marginals: Vec::new(), source: TruthSource::ClosedForm, error_bound: 0.0, error: "closed form".into() },
                None => placeholder_truth(),
            };
            self.awaiting_truth = true;
            return;
        }
        crate::entry_counts::count("truth");
        let model = self.chain.model();
        self.truth = if crate::truth::truth_cost(model) > GRID_TRUTH_BUDGET { laplace_truth(model) } else { truth_for(model) };
        if self.truth.source == TruthSource::NeedsReferenceRun {
            if let Ok(model) = self.build_model() {
                self.reference = Some(ReferenceRun::new(model, self.config.seed ^ 0x5eed, REFERENCE_WARM_UP, REFERENCE_SAMPLING));
            }
        } else {
            TRUTH_CACHE.with(|c| c.borrow_mut().insert(key, self.truth.clone()));
        }
    }

    fn build_model(&self) -> Result<Box<dyn Model>, String> {
        (self.chain.target_spec().build)(self.chain.target_params(), self.config.data.as_ref())
    }

    /// Advance a pending reference run by up to `steps`; returns `{running, fraction, text}`.
    /// A truth that another lab on the same target, settings and data has finished in the meantime
    /// is adopted at once (so a compared chain shows the main chain's truth without its own run).
    pub fn advance_truth(&mut self, steps: u64) -> Value {
        if self.reference.is_some() {
            if let Some(cached) = TRUTH_CACHE.with(|c| c.borrow().get(&truth_key(&self.config, self.chain.target_params())).cloned()) {
                self.truth = cached;
                self.reference = None;
                self.refresh_view();
            }
        }
        let Some(run) = self.reference.as_mut() else {
            return json!({ "running": false, "fraction": 1.0, "text": self.truth.error });
        };
        if steps > 0 {
            crate::entry_counts::count("truth");
        }
        let progress = run.advance(steps);
        let fraction = progress.steps_done as f64 / progress.total_steps.max(1) as f64;
        if progress.finished {
            if let Some(result) = run.result() {
                self.truth = result.to_truth();
                TRUTH_CACHE.with(|c| c.borrow_mut().insert(truth_key(&self.config, self.chain.target_params()), self.truth.clone()));
            }
            self.reference = None;
            self.refresh_view();
            self.watch_for_runaway();
            return json!({ "running": false, "fraction": 1.0, "text": self.truth.error });
        }
        json!({ "running": true, "fraction": fraction, "text": format!("computing the exact MALA reference: {:.0} %", 100.0 * fraction) })
    }

    fn key(&self) -> String {
        truth_key(&self.config, self.chain.target_params())
    }

    /// What a Web Worker hands to the page once the truth is known: `{key, truth, grid}` (grid:
    /// the contour grid of a 2-D target at pair (0, 1), else null), for [`adopt_prepared`].
    pub fn export_prepared(&self) -> Value {
        let grid = (self.pair == (0, 1)).then_some(self.grid.as_ref()).flatten().map(|g| json!({"view": g.view, "nx": g.nx, "ny": g.ny, "log_density": g.log_density}));
        json!({ "key": self.key(), "truth": self.truth, "grid": grid, "pending": self.reference.is_some() })
    }

    /// The built target as transferable parts when it is large and can be exported, for
    /// [`adopt_model`] on the page's main thread.
    pub fn export_model(&self) -> Option<crate::model::ExportedModel> {
        (self.chain.model().n_data() > crate::entry_counts::LARGE_BUILD_DATA).then(|| self.chain.model().export_parts()).flatten()
    }

    /// Take the truth (and grid) from the caches when a deferred lab is still waiting for them;
    /// true when something changed (redraw the static layer).
    pub fn adopt_cached_truth(&mut self) -> bool {
        if !self.deferred {
            return false;
        }
        let key = self.key();
        let mut truth_arrived = false;
        let mut moments_changed = false;
        if self.awaiting_truth {
            if let Some(truth) = TRUTH_CACHE.with(|c| c.borrow().get(&key).cloned()) {
                moments_changed = !same_moments(truth.moments.as_ref(), self.truth.moments.as_ref());
                self.truth = truth;
                self.awaiting_truth = false;
                truth_arrived = true;
            }
        }
        let grid_arrived = self.grid.is_none() && self.chain.model().dim() == 2 && self.pair == (0, 1) && GRID_CACHE.with(|c| c.borrow().contains_key(&key));
        if truth_arrived || grid_arrived {
            self.refresh_view();
        }
        // Only new truth moments restart the runaway watch: a contour grid, or the worker's copy
        // of closed-form moments the lab already watched with, must not forget an excursion
        // already under way.
        if moments_changed {
            self.watch_for_runaway();
        }
        truth_arrived || grid_arrived
    }

    /// Recompute view, contour grid and true marginals for the pair.
    fn refresh_view(&mut self) {
        let model = self.chain.model();
        let (i, j) = self.pair;
        let view = pair_view(model, self.truth.moments.as_ref(), self.pair);
        self.projection.view = view;
        self.grid = if model.dim() != 2 || self.pair != (0, 1) {
            None
        } else if self.deferred {
            let cached = GRID_CACHE.with(|c| c.borrow().get(&self.key()).cloned());
            let cheap = 161.0 * 161.0 * model.density_cost().max(1) as f64 <= DEFERRED_GRID_BUDGET;
            cached.or_else(|| cheap.then(|| std::rc::Rc::new(contour_grid(model, self.truth.moments.as_ref(), view))))
        } else {
            Some(std::rc::Rc::new(contour_grid(model, self.truth.moments.as_ref(), view)))
        };
        let curve = |coordinate: usize, lo: f64, hi: f64| -> Option<AxisDensity> {
            if let Some(m) = self.truth.marginals.iter().find(|m| m.coordinate == coordinate) {
                return Some(marginals::resample(&m.points, &m.density, lo, hi, 161));
            }
            let gaussian_posterior = self.truth.source == TruthSource::ClosedForm && model.gaussian_precision().is_some();
            let m = self.truth.moments.as_ref().filter(|_| gaussian_posterior)?;
            Some(marginals::normal_marginal(m.mean[coordinate], m.cov[coordinate][coordinate].sqrt(), lo, hi, 161))
        };
        self.truth_marginals = [curve(i, view.x_min, view.x_max), curve(j, view.y_min, view.y_max)];
        self.rebin_all();
    }

    /// Parts of the static layer (axes, contours, truth ellipse) for drawing on any backend.
    pub fn static_layer<'a>(&'a self, names: &'a [String], truth_pair: Option<&'a Moments>) -> StaticLayer<'a> {
        StaticLayer {
            frame: self.projection.frame,
            view: self.projection.view,
            grid: self.grid.as_deref(),
            truth: truth_pair,
            x_name: &names[self.pair.0],
            y_name: &names[self.pair.1],
            scale: self.scale,
        }
    }

    /// The truth's moments restricted to the displayed pair.
    pub fn truth_pair_moments(&self) -> Option<Moments> {
        self.truth.moments.as_ref().map(|m| restrict(m, self.pair))
    }

    /// Colour the density image and return its RGBA bytes.
    pub fn render_density(&mut self) -> &[u8] {
        self.density.render()
    }
    pub fn density(&self) -> &DensityImage {
        &self.density
    }

    /// Marginal histograms (from the density image) and true marginal curves as pixel polylines.
    pub fn marginals(&self) -> Value {
        let v = self.projection.view;
        let bins = (self.density.width() as usize / 6).clamp(10, 80);
        let hx = marginals::histogram_density(&self.density.column_counts(), bins, v.x_min, v.x_max);
        let hy = marginals::histogram_density(&self.density.row_counts(), bins, v.y_min, v.y_max);
        let [tx, ty] = &self.truth_marginals;
        let (x, y) = marginals::layout(&self.projection, self.projection.frame.band as f64, (&hx, tx.as_ref()), (&hy, ty.as_ref()));
        json!({ "x": x, "y": y })
    }

    /// Pixel coordinates (x, y, x, y, …) of the last `k` samples, oldest first.
    pub fn trail(&self, k: usize) -> Vec<f64> {
        let ring = self.chain.samples();
        (ring.len().saturating_sub(k)..ring.len()).flat_map(|i| self.pixel(ring.get(i))).collect()
    }

    /// The recent continuous trajectory in pixels (bouncy samplers): `{kind, path, bounces}`.
    pub fn path(&self) -> Value {
        let pieces: Vec<_> = self.chain.path().collect();
        let mut path = Vec::with_capacity(2 * pieces.len() + 2);
        if let Some(first) = pieces.first() {
            path.extend(self.pixel(&first.start));
        }
        let mut bounces = Vec::new();
        for piece in &pieces {
            let end = self.pixel(&piece.end);
            path.extend(end);
            if piece.bounce {
                bounces.extend(end);
            }
        }
        let kind = if self.chain.sampler_spec().kind == SamplerKind::Bouncy { "path" } else { "samples" };
        let proposal = self.chain.last_proposal().map(|p| {
            let points: Vec<f64> = p.iter().flat_map(|x| self.pixel(x)).collect();
            json!({ "points": points, "accepted": p.accepted })
        });
        json!({ "kind": kind, "path": path, "bounces": bounces, "proposal": proposal })
    }

    /// Pixel coordinates of the current position.
    pub fn position_pixel(&self) -> [f64; 2] {
        self.pixel(self.chain.position())
    }

    /// Restart the chain at `point` (see [`Chain::restart_at`]).
    pub fn restart_at(&mut self, point: &[f64]) -> Result<(), String> {
        self.chain.restart_at(point)
    }

    /// Restart the chain where the current point was dropped on the 2-D panel: the displayed pair
    /// takes the pixel's data coordinates, the other coordinates keep their current values.
    pub fn restart_at_pixel(&mut self, px: f64, py: f64) -> Result<Vec<f64>, String> {
        if !(px.is_finite() && py.is_finite()) {
            return Err("the drop point must be finite".into());
        }
        let (x, y) = self.projection.to_data(px, py);
        let mut point = self.chain.position().to_vec();
        point[self.pair.0] = x;
        point[self.pair.1] = y;
        self.restart_at(&point)?;
        Ok(point)
    }

    /// Record each step's parts (slow motion) or stop.
    pub fn set_slow_motion(&mut self, on: bool) {
        self.chain.record_parts(on);
    }

    /// The latest step's parts in data coordinates and, for drawing head to tail, in pixels on the
    /// displayed pair: `{start, start_pixel, parts: [{name, label, vector, from, to}], end}`, or
    /// null when the sampler records none.
    pub fn step_parts(&self) -> Value {
        let Some(parts) = self.chain.last_parts() else { return Value::Null };
        let mut at = parts.start.clone();
        let pieces: Vec<Value> = parts
            .parts
            .iter()
            .map(|part| {
                let from = self.pixel(&at);
                at.iter_mut().zip(&part.vector).for_each(|(a, v)| *a += v);
                let to = self.pixel(&at);
                json!({ "name": part.name, "label": part.label, "vector": part.vector, "from": from, "to": to })
            })
            .collect();
        json!({ "start": parts.start, "start_pixel": self.pixel(&parts.start), "parts": pieces, "end": parts.end() })
    }

    /// Pixel polyline of the sampler's 2σ ellipse (empty until there are enough samples).
    pub fn sampler_ellipse(&self) -> Vec<f64> {
        if self.chain.n_recorded() < 10 {
            return Vec::new();
        }
        self.ellipse_pixels(&restrict(&self.chain.moments(), self.pair))
    }

    /// Pixel polyline of the 2σ ellipse of the sampler's predicted stationary law on the displayed
    /// pair (empty when there is none).
    pub fn predicted_ellipse(&self) -> Vec<f64> {
        self.with_law(|law| law.ok().map(|l| self.ellipse_pixels(&restrict(&law_moments(l), self.pair)))).unwrap_or_default()
    }

    /// The sampler's predicted law at the current settings (computed once per setting and target).
    pub fn with_law<T>(&self, f: impl FnOnce(Result<&Law, &String>) -> T) -> T {
        let key = format!("{}|{}|{}", self.chain.sampler_spec().name, self.chain.sampler_params().to_json(), self.chain.target_params().to_json());
        let mut cache = self.law.borrow_mut();
        if cache.as_ref().is_none_or(|(k, _)| *k != key) {
            let law = predicted_law(self.chain.sampler_spec().name, self.chain.sampler_params(), self.chain.model());
            *cache = Some((key, law));
        }
        f(cache.as_ref().map(|(_, l)| l.as_ref()).expect("just filled"))
    }

    fn ellipse_pixels(&self, m: &Moments) -> Vec<f64> {
        let cov = [[m.cov[0][0], m.cov[0][1]], [m.cov[1][0], m.cov[1][1]]];
        if cov.iter().flatten().any(|c| !c.is_finite()) {
            return Vec::new();
        }
        two_sigma_ellipse([m.mean[0], m.mean[1]], cov, 90)
            .into_iter()
            .flat_map(|(x, y)| {
                let (px, py) = self.projection.to_pixel(x, y);
                [px, py]
            })
            .collect()
    }

    fn pixel(&self, theta: &[f64]) -> [f64; 2] {
        let (x, y) = self.projection.to_pixel(theta[self.pair.0], theta[self.pair.1]);
        [x, y]
    }

    /// Chart for `kind`: trace, acf, or noise/bias/sweep while an analysis exists.
    pub fn chart(&self, kind: &str) -> Result<ChartSpec, String> {
        let names = self.chain.model().coordinate_names();
        let ring = self.chain.samples();
        match kind {
            "trace" => {
                let fired = self.chain.diagnostics().into_iter().find(|d| d.name == "burn_in_over_step").map(|d| d.value);
                // Trace positions count recorded samples; with burn-in b, step t is sample t − b.
                let burn_in = fired.filter(|s| s.is_finite()).map(|step| step - self.config.burn_in as f64);
                let restarts = self.chain.restarts().iter().map(|&r| r as f64);
                let first_marker = burn_in.into_iter().chain(restarts.clone()).fold(f64::INFINITY, f64::min);
                let mut spec = trace_chart_from(ring, &names, self.pair, TRACE_POINTS, first_marker);
                let mut markers = Vec::new();
                if let Some(sample) = burn_in {
                    markers.push(crate::plot::chart::Marker { x: sample, label: "burn-in over (eq. 17)".into(), colour: plotters::style::RGBColor(209, 73, 91) });
                }
                for r in restarts {
                    markers.push(crate::plot::chart::Marker { x: r, label: "restart (dragged)".into(), colour: plotters::style::RGBColor(46, 125, 50) });
                }
                spec.markers.extend(markers);
                Ok(spec)
            }
            "acf" => Ok(autocorrelation_chart(ring, &names, self.pair, ESS_WINDOW, ACF_LAGS)),
            other => self
                .analysis
                .as_ref()
                .and_then(|a| a.chart(other))
                .ok_or_else(|| format!("chart '{other}' is not available; allowed: trace, acf, and noise, bias, sweep while an analysis exists")),
        }
    }

    /// Start the background analysis (phase picture and bias–mixing sweep); needs the truth.
    pub fn start_analysis(&mut self, budget: u64) -> Result<(), String> {
        self.analysis = None;
        crate::entry_counts::count("sweep");
        let truth = self.truth.moments.clone().ok_or("no ground truth for this target yet: the sweep needs one")?;
        self.analysis = Some(Analysis::new(&self.config, &self.chain, truth, budget)?);
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
    /// gradient evaluations: `{ess: [..], ess_per_1000_grads: [..]}`. Costs O(window · τ), so
    /// the page asks for it a few times a second, not every frame.
    pub fn mixing(&self) -> Value {
        let chain = &self.chain;
        let ring = chain.samples();
        let window = ring.len().min(ESS_WINDOW) as f64;
        let ess: Vec<f64> = [self.pair.0, self.pair.1].iter().map(|&j| recent_ess(ring, j, ESS_WINDOW)).collect();
        let per_1000: Vec<Value> = ess.iter().map(|e| finite(1000.0 * e / (window * chain.grad_evals_per_sample()))).collect();
        json!({ "ess": ess.iter().map(|e| finite(*e)).collect::<Vec<_>>(), "ess_per_1000_grads": per_1000 })
    }

    /// Counters, moments, errors against the truth, status, diagnostics and parameters (cheap:
    /// fine to call every frame).
    pub fn state(&self) -> Value {
        let chain = &self.chain;
        let m = chain.moments();
        let ring = chain.samples();
        let diagnostics: Vec<Value> =
            chain.diagnostics().iter().map(|d| json!({"name": d.name, "label": d.label, "value": finite(d.value)})).collect();
        let errors = self.truth.moments.as_ref().filter(|_| chain.n_recorded() > 1).map(|t| relative_errors(&m, t));
        json!({
            "steps": chain.steps(),
            "n_samples": chain.samples_since_clear(),
            "n_recorded": chain.n_recorded(),
            "retained": ring.len(),
            "grad_evals": chain.grad_evals(),
            "mean": m.mean.iter().map(|x| finite(*x)).collect::<Vec<_>>(),
            "cov": m.cov.iter().map(|r| r.iter().map(|x| finite(*x)).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "position": chain.position().iter().map(|x| finite(*x)).collect::<Vec<_>>(),
            "diverged": match chain.status() { ChainStatus::Running => Value::Null, ChainStatus::Diverged(msg) => json!(msg) },
            "runaway": chain.runaway(),
            "diagnostics": diagnostics,
            "truth": self.truth.moments,
            "truth_source": self.truth.source,
            "truth_error": self.truth.error,
            "truth_pending": self.reference.is_some() || self.awaiting_truth,
            "e1": errors.map(|e| finite(e.0)),
            "e2": errors.map(|e| finite(e.1)),
            "e1_in_sd": self.truth.moments.as_ref().is_some_and(crate::diagnostics::e1_in_posterior_sd),
            "pair": [self.pair.0, self.pair.1],
            "start": chain.start().iter().map(|x| finite(*x)).collect::<Vec<_>>(),
            "restarts": chain.restarts(),
            "dim": chain.model().dim(),
            "names": chain.model().coordinate_names(),
            "n_data": chain.model().n_data(),
            "has_data": self.config.data.is_some(),
            "outside": self.density.outside(),
            "target_params": chain.target_params().to_json(),
            "sampler_params": chain.sampler_params().to_json(),
            "derived": chain.derived().iter().map(|d| (d.name.to_string(), json!(d))).collect::<serde_json::Map<_, _>>(),
            "warning": chain.warning(),
            "setting_warning": chain.setting_warning(),
            "predicted": self.with_law(|law| law.map_or(Value::Null, |l| l.to_json())),
            "predicted_reason": self.with_law(|law| law.err().cloned()),
        })
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

/// A law's mean and covariance as [`Moments`].
fn law_moments(law: &Law) -> Moments {
    let d = law.cov.nrows();
    Moments { mean: law.mean.clone(), cov: (0..d).map(|a| (0..d).map(|b| law.cov[(a, b)]).collect()).collect() }
}

fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

/// Laplace approximation as the truth for 2-D targets too large for a quick grid: with N ≥ 10⁵
/// data the Bernstein–von Mises error of the moments is O(1/N) relative.
fn laplace_truth(model: &dyn Model) -> Truth {
    match model.laplace_moments().or_else(|| laplace_approximation(model)) {
        Some(moments) => Truth {
            moments: Some(moments),
            marginals: Vec::new(),
            source: TruthSource::Laplace,
            error_bound: f64::NAN,
            error: format!(
                "Laplace approximation at the mode (N = {}: grid quadrature would stall the page; the Bernstein–von Mises error is O(1/N) relative)",
                model.n_data()
            ),
        },
        None => truth_for(model),
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

/// Whether two truths have the same moments (both absent counts as the same).
fn same_moments(a: Option<&Moments>, b: Option<&Moments>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.mean == b.mean && a.cov == b.cov,
        (None, None) => true,
        _ => false,
    }
}

/// Adopt what a worker's [`Lab::export_prepared`] produced: the truth (unless still pending) and
/// the contour grid go into the caches, keyed as the worker computed them.
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

/// Adopt a large target a worker built (its [`Lab::export_model`] parts) for `config`'s target
/// settings and data, so [`Lab::new_deferred`] does not build it again.
pub fn adopt_model(config: &ChainConfig, parts: crate::model::ExportedModel) -> Result<(), String> {
    let target_spec = crate::registry::target(&config.target)?;
    let sampler_spec = crate::registry::sampler(&config.sampler)?;
    let (target_params, _) = crate::registry::split_settings(target_spec, sampler_spec, &config.settings)?;
    let model: std::sync::Arc<dyn Model> = std::sync::Arc::from(crate::model::import_parts(parts)?);
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

/// The contour grid of a 2-D target: its log density on up to 161² nodes within a budget of
/// per-datum evaluations; for very large N the Gaussian of the truth's moments (Laplace) instead.
fn contour_grid(model: &dyn Model, truth: Option<&Moments>, view: View) -> DensityGrid {
    let affordable = (CONTOUR_BUDGET / model.density_cost().max(1) as f64).sqrt() as usize;
    match truth {
        Some(m) if affordable < 41 => {
            let gaussian = crate::model::gaussian::CorrelatedGaussian::from_moments(
                [m.mean[0], m.mean[1]],
                [[m.cov[0][0], m.cov[0][1]], [m.cov[1][0], m.cov[1][1]]],
            );
            DensityGrid::evaluate(&gaussian, view, 161, 161)
        }
        _ => {
            let nodes = affordable.clamp(41, 161);
            DensityGrid::evaluate(model, view, nodes, nodes)
        }
    }
}

/// Mean and covariance of coordinates (i, j).
fn restrict(m: &Moments, (i, j): (usize, usize)) -> Moments {
    Moments { mean: vec![m.mean[i], m.mean[j]], cov: vec![vec![m.cov[i][i], m.cov[i][j]], vec![m.cov[j][i], m.cov[j][j]]] }
}

/// The window for coordinates (i, j): the model's own for (0, 1); otherwise ±4.5 sd of the truth,
/// or of a Laplace approximation, around its mean.
fn pair_view(model: &dyn Model, truth: Option<&Moments>, (i, j): (usize, usize)) -> View {
    if (i, j) == (0, 1) {
        return model.view();
    }
    let laplace;
    let moments = match truth {
        Some(m) => Some(m),
        None => {
            laplace = laplace_approximation(model);
            laplace.as_ref()
        }
    };
    match moments {
        Some(m) => View::centred(m.mean[i], m.mean[j], VIEW_SDS * m.cov[i][i].sqrt().max(1e-9), VIEW_SDS * m.cov[j][j].sqrt().max(1e-9)),
        None => View::centred(0.0, 0.0, 3.0, 3.0),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lab(target: &str, sampler: &str) -> Lab {
        Lab::new(ChainConfig::new(target, sampler, 1), 400, 400, 1.0).unwrap()
    }

    #[test]
    fn samples_land_in_the_density_image_and_marginals() {
        let mut lab = lab("gaussian", "sgld");
        lab.run(2_000);
        assert_eq!(lab.density().total_inside() + lab.density().outside(), 2_000);
        let m = lab.marginals();
        assert!(m["x"]["histogram"].as_array().unwrap().len() > 20);
        assert!(m["x"]["truth"].as_array().unwrap().len() > 20, "closed-form truth gives a marginal curve");
        let state = lab.state();
        assert!(state["e2"].as_f64().unwrap() < 1.0);
        assert_eq!(state["truth_source"], "closed_form");
    }

    #[test]
    fn state_carries_the_predicted_law_or_why_there_is_none() {
        let gaussian = lab("gaussian", "sgld");
        let state = gaussian.state();
        assert_eq!(state["predicted"]["exact"], true);
        assert_eq!(state["predicted"]["cov"].as_array().unwrap().len(), 2);
        assert!(state["predicted_reason"].is_null());
        assert!(gaussian.predicted_ellipse().len() > 100, "a 2σ ellipse in pixels");
        let bouncy = lab("gaussian", "sbps");
        assert!(bouncy.state()["predicted"].is_null());
        assert!(bouncy.state()["predicted_reason"].as_str().unwrap().contains("no closed-form"));
        assert!(bouncy.predicted_ellipse().is_empty());
    }

    #[test]
    fn exact_samplers_expose_their_last_proposal_for_animation() {
        let mut mala = lab("gaussian", "mala");
        mala.run(1);
        let p = &mala.path()["proposal"];
        assert_eq!(p["points"].as_array().unwrap().len(), 4, "from and to, in pixels");
        let mut hmc = Lab::new(ChainConfig::new("gaussian", "hmc", 1).with("leapfrog_steps", 7), 300, 300, 1.0).unwrap();
        hmc.run(3);
        let p = &hmc.path()["proposal"];
        assert_eq!(p["points"].as_array().unwrap().len(), 2 * 8, "start plus 7 leapfrog positions");
        assert!(p["accepted"].is_boolean());
        assert!(lab("gaussian", "sgld").path()["proposal"].is_null());
    }

    #[test]
    fn bad_parameter_or_pair_changes_nothing() {
        let mut lab = lab("gaussian", "sgld");
        lab.run(100);
        assert!(lab.set_param("rho", 3.0).is_err());
        assert!(lab.set_param("step_size", f64::NAN).is_err());
        assert!(lab.set_pair(0, 0).is_err());
        assert!(lab.set_pair(0, 5).is_err());
        assert_eq!(lab.chain().steps(), 100);
        assert_eq!(lab.pair(), (0, 1));
    }

    #[test]
    fn a_million_point_logistic_target_gets_a_labelled_laplace_truth_without_a_grid() {
        let config = ChainConfig::new("logreg", "sgld", 1).with("n_points", 1_000_000);
        let lab = Lab::new(config, 200, 200, 1.0).unwrap();
        assert_eq!(lab.truth().source, TruthSource::Laplace);
        assert!(lab.truth().error.contains("Laplace approximation"));
        assert!(lab.truth().moments.is_some());
    }

    #[test]
    fn reference_run_provides_a_cached_truth_for_a_high_dimensional_target() {
        let config = ChainConfig::new("logreg", "sgld", 2).with("dataset", "breast_cancer").with("n_features", 3);
        let mut lab = Lab::new(config.clone(), 300, 300, 1.0).unwrap();
        assert_eq!(lab.truth().source, TruthSource::NeedsReferenceRun);
        assert!(lab.preset_pair("largest_difference").is_err(), "needs the truth");
        let mut rounds = 0;
        while lab.advance_truth(5_000)["running"] == true {
            rounds += 1;
            assert!(rounds < 100);
        }
        assert_eq!(lab.truth().source, TruthSource::ReferenceRun);
        assert!(lab.truth_pair_moments().is_some());
        lab.set_pair(1, 3).unwrap();
        lab.run(500);
        assert!(lab.preset_pair("most_correlated").is_ok());
        // A second lab on the same data gets the truth from the cache.
        let again = Lab::new(config, 300, 300, 1.0).unwrap();
        assert_eq!(again.truth().source, TruthSource::ReferenceRun);
    }

    #[test]
    fn a_compared_lab_adopts_the_truth_the_main_lab_finished() {
        let config = ChainConfig::new("logreg", "sgld", 4).with("dataset", "breast_cancer").with("n_features", 2);
        let mut main = Lab::new(config.clone().with("step_size", 0.001), 300, 300, 1.0).unwrap();
        let mut compared = Lab::new(ChainConfig { sampler: "sghmc".into(), ..config }, 300, 300, 1.0).unwrap();
        assert_eq!(compared.truth().source, TruthSource::NeedsReferenceRun);
        assert_eq!(compared.advance_truth(0)["running"], true, "nothing to adopt yet");
        while main.advance_truth(20_000)["running"] == true {}
        assert_eq!(compared.advance_truth(0)["running"], false, "adopted without running");
        assert_eq!(compared.truth().moments, main.truth().moments);
        compared.run(200);
        assert!(compared.state()["e2"].is_number(), "errors against the shared truth");
    }
}

#[cfg(test)]
mod runaway_tests {
    use super::*;

    /// SBPS with a thin band (k = 1) and a horizon of 1,000 distances: a negative fitted slope
    /// sends the particle far away with no observation, the runaway this detector is for.
    fn reckless_sbps(seed: u64) -> ChainConfig {
        ChainConfig::new("gaussian", "sbps", seed).with("grad_noise", 1.0).with("band_k", 1.0).with("horizon", 1000.0).with("aux_points", 0)
    }

    #[test]
    fn forced_excursion_is_flagged_with_its_start() {
        let mut lab = Lab::new(reckless_sbps(3), 200, 200, 1.0).unwrap();
        let mut ran = 0;
        while lab.state()["runaway"].is_null() && ran < 200_000 {
            ran += lab.run(100);
        }
        let runaway = lab.state()["runaway"].clone();
        assert!(!runaway.is_null(), "no runaway in {ran} steps");
        let since = runaway["since_step"].as_u64().unwrap();
        assert!(since <= lab.chain().steps());
        assert!(runaway["distance_sd"].as_f64().unwrap() > 8.0);
        assert!(runaway["message"].as_str().unwrap().contains("raise the band multiple k"), "{runaway}");
    }

    #[test]
    fn discarding_a_runaway_restores_exactly_the_statistics_before_it() {
        // The first seed whose runaway begins well after the burn-in (seeded, so always the same).
        let (config, mut lab, since) = (1..)
            .find_map(|seed| {
                let mut config = reckless_sbps(seed);
                config.burn_in = 50;
                let mut lab = Lab::new(config.clone(), 200, 200, 1.0).unwrap();
                while lab.state()["runaway"].is_null() && lab.chain().steps() < 100_000 {
                    lab.run(37);
                }
                let since = lab.state()["runaway"]["since_step"].as_u64()?;
                (since > 100).then_some((config, lab, since))
            })
            .unwrap();
        let where_it_began = lab.chain().samples().total_pushed();
        assert!(lab.discard_since_runaway().is_ok());
        assert!(lab.state()["runaway"].is_null());
        assert!(lab.discard_since_runaway().is_err(), "nothing left to discard");
        // The same chain stopped just before the excursion's first step.
        let mut before = Lab::new(config, 200, 200, 1.0).unwrap();
        before.run(since - 1);
        let (a, b) = (lab.chain(), before.chain());
        assert!(a.samples().total_pushed() < where_it_began, "the excursion's samples are gone: since {since}, {} vs {where_it_began}", a.samples().total_pushed());
        assert_eq!(a.moments(), b.moments());
        assert_eq!(a.n_recorded(), b.n_recorded());
        assert_eq!(a.samples_since_clear(), b.samples_since_clear());
        assert_eq!(a.samples().iter().collect::<Vec<_>>(), b.samples().iter().collect::<Vec<_>>());
        assert_eq!(lab.density().column_counts(), before.density().column_counts());
        assert_eq!(lab.density().row_counts(), before.density().row_counts());
        assert_eq!(lab.density().outside(), before.density().outside());
        assert_eq!(a.position(), b.position(), "the particle is back where the excursion began");
        // since_step is the first event outside the bulk (√D + 3 truth-sd): the one before is inside.
        let mut watch = crate::runaway::RunawayWatch::new(lab.truth().moments.as_ref().unwrap()).unwrap();
        let inner = crate::runaway::inner_radius(2);
        assert!(watch.distance(b.position()) <= inner);
        before.run(1);
        assert!(watch.distance(before.chain().position()) > inner);
        // And it runs on from there.
        assert_eq!(lab.run(1_000), 1_000);
    }

    #[test]
    fn a_healthy_long_run_raises_no_runaway() {
        // Exact BPS on the correlated Gaussian (its truth in closed form): 10⁶ events.
        let mut lab = Lab::new(ChainConfig::new("gaussian", "bps", 4), 200, 200, 1.0).unwrap();
        lab.run(1_000_000);
        assert!(lab.state()["runaway"].is_null());
        assert!(lab.discard_since_runaway().is_err());
    }

    #[test]
    fn discrete_time_samplers_are_not_watched() {
        let mut lab = Lab::new(ChainConfig::new("gaussian", "sgld", 4).with("step_size", 1.9), 200, 200, 1.0).unwrap();
        lab.run(1_000);
        assert!(lab.state()["runaway"].is_null());
    }

    #[test]
    fn the_way_in_from_a_distant_start_is_not_a_runaway() {
        // The synthetic logistic target starts at the origin, ≈ 15 posterior sd from the mode.
        let mut lab = Lab::new(ChainConfig::new("logreg", "bps", 4), 200, 200, 1.0).unwrap();
        lab.run(20_000);
        assert!(lab.state()["runaway"].is_null());
    }
}
