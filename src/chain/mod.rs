//! A chain: one target, one sampler, one seeded RNG, the minibatch oracle, running moments and a
//! fixed-size ring of retained samples. Both the CLI and the page drive chains through this type.

use crate::diagnostics::{Moments, RunningMoments};
use crate::model::Model;
use std::sync::Arc;
use crate::params::ParamValues;
use crate::registry::{self, SamplerSpec, TargetSpec};
use crate::ring::RingBuffer;
use crate::rng::{chain_rng, ChainRng};
use crate::sampler::{Diagnostic, Emitted, GradientOracle, Sampler};
use crate::runaway::{inner_radius, RunawayWatch};
use crate::spec::DerivedParam;

mod config;
pub use config::{ChainConfig, DEFAULT_CAPACITY};

/// A state further than this many view-widths from the view is declared divergent.
const DIVERGENCE_VIEW_WIDTHS: f64 = 1e4;

/// Number of trajectory pieces kept for drawing the recent path of continuous-time samplers.
const PATH_PIECES: usize = 120;

/// One linear piece of a continuous trajectory, for drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct PathPiece {
    pub start: Vec<f64>,
    pub end: Vec<f64>,
    /// The piece ended in a reflection (thinning rejections and refreshes are not bounces).
    pub bounce: bool,
}

/// Whether a chain can keep running.
#[derive(Clone, Debug, PartialEq)]
pub enum ChainStatus {
    Running,
    /// Stopped: the state became non-finite or ran away. The message says what to change.
    Diverged(String),
}

/// A running chain.
pub struct Chain {
    target_spec: &'static TargetSpec,
    sampler_spec: &'static SamplerSpec,
    target_params: ParamValues,
    sampler_params: ParamValues,
    /// The sampler's defaults and slider ranges derived from this target.
    derived: Vec<DerivedParam>,
    /// Why the derived defaults cannot meet their criteria on this target, when they cannot.
    warning: Option<String>,
    /// The target's part of that warning alone (separated modes), for a setting the sampler's own
    /// law does not describe: SGLD's law is constant-step SGLD's ([`Chain::warning`]).
    modes_warning: Option<String>,
    /// The sampler's own pairing law fires (src/pairing.rs [`crate::pairing::Pairing`]`::own`).
    own_pairing_law: bool,
    /// The law-based promise of the current setting (src/promise.rs).
    promise: crate::promise_live::LivePromise,
    /// The bouncy samplers' refresh law on this target, where it applies (src/refresh_law.rs).
    refresh_law: Option<crate::refresh_law::RefreshLaw>,
    /// MALA's and HMC's step law on this target, where it applies (src/step_law.rs).
    step_law: Option<crate::step_law::StepLaw>,
    /// The exact sampler a stochastic-gradient sampler's measured warning names on a target without a Gaussian summary (src/chain/promise_count.rs).
    exact_remedy: Option<&'static str>,
    seed: u64,
    burn_in: u64,
    model: Arc<dyn Model>,
    sampler: Box<dyn Sampler>,
    oracle: GradientOracle,
    rng: ChainRng,
    moments: RunningMoments,
    samples: RingBuffer,
    steps: u64,
    status: ChainStatus,
    divergence_bound: f64,
    /// Spacing in time at which continuous trajectories are discretised into samples.
    sample_spacing: f64,
    /// Time left along the path until the next discretised sample.
    time_to_next_sample: f64,
    /// Gradient evaluations when the statistics were last cleared (for cost per sample).
    grad_evals_at_clear: u64,
    /// Samples pushed to the ring when the statistics were last cleared.
    pushed_at_clear: u64,
    /// Recording steps (events, for continuous-time samplers) done when the statistics were cleared.
    steps_at_clear: u64,
    /// How many times the statistics were cleared (the page drops mixing numbers taken before).
    clears: u64,
    /// The most recent trajectory pieces (continuous-time samplers only), oldest first.
    path: std::collections::VecDeque<PathPiece>,
    /// Runaway detection against the truth (all but the exact samplers, once a truth is known).
    watch: Option<RunawayWatch>,
    excursion: Option<Excursion>,
    /// Whether the sampler records each step's parts (slow motion).
    recording_parts: bool,
    /// The chain's latest start (see [`Chain::restart_at`]).
    start: Vec<f64>,
    /// Ring pushes at each restart.
    restarts: Vec<u64>,
}

/// A stretch of the trajectory outside the bulk of the truth (see [`crate::runaway`]), with what
/// the chain looked like just before it began, so that it can be undone.
#[derive(Clone, Debug)]
struct Excursion {
    /// The step whose event first lay outside [`inner_radius`].
    since_step: u64,
    /// Where that step started.
    start_position: Vec<f64>,
    moments: RunningMoments,
    pushed: u64,
    time_to_next_sample: f64,
    /// Largest distance reached, in truth standard deviations.
    distance: f64,
    /// Confirmed: it went beyond its watch's `confirm_radius` and far below the truth's mass.
    confirmed: bool,
}

/// A confirmed runaway, for the page's status line.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Runaway {
    pub since_step: u64,
    pub distance_sd: f64,
    pub message: String,
}

impl Chain {
    /// Build a chain from names and textual settings; every error says what is allowed.
    pub fn new(config: &ChainConfig) -> Result<Chain, String> {
        Self::build(config, None)
    }

    /// Like [`Chain::new`] but on an already built target with the same target settings (several
    /// chains on one large data set share it instead of each building it again).
    pub fn with_model(config: &ChainConfig, model: Arc<dyn Model>) -> Result<Chain, String> {
        Self::build(config, Some(model))
    }

    fn build(config: &ChainConfig, shared: Option<Arc<dyn Model>>) -> Result<Chain, String> {
        let target_spec = registry::target(&config.target)?;
        let sampler_spec = registry::sampler(&config.sampler)?;
        let (target_params, mut sampler_params) = registry::split_settings(target_spec, sampler_spec, &config.settings)?;
        let model: Arc<dyn Model> = match shared {
            Some(model) => model,
            None => Arc::from((target_spec.build)(&target_params, config.data.as_ref())?),
        };
        let mut derived = apply_derived_defaults(sampler_spec, model.as_ref(), &mut sampler_params, &config.settings)?;
        let promise = crate::promise_live::LivePromise::new(sampler_spec, model.as_ref(), &mut sampler_params, &mut derived, |n| config.settings.iter().any(|(s, _)| s == n));
        let pairing = crate::pairing::pairing(sampler_spec.name, model.as_ref());
        let own_pairing_law = pairing.own.is_some();
        let warning = pairing.text();
        let modes_warning = pairing.modes.clone();
        let start = model.initial_point();
        let sampler = (sampler_spec.build)(&sampler_params, model.as_ref(), &start);
        if let Some(reason) = sampler.unsupported_reason() {
            return Err(cannot_run(sampler_spec, target_spec, &reason));
        }
        let oracle = GradientOracle::new(model.as_ref(), batch_size(&sampler_params, model.as_ref()));
        let dim = model.dim();
        let view = model.view();
        Ok(Chain {
            target_spec,
            sampler_spec,
            target_params,
            sampler_params,
            derived,
            warning,
            modes_warning,
            own_pairing_law,
            promise,
            refresh_law: crate::refresh_law::RefreshLaw::new(sampler_spec.name, model.as_ref()),
            step_law: crate::step_law::StepLaw::new(sampler_spec.name, model.as_ref()),
            exact_remedy: crate::step_law::exact_remedy(sampler_spec, model.as_ref()),
            seed: config.seed,
            burn_in: config.burn_in,
            divergence_bound: DIVERGENCE_VIEW_WIDTHS * view.span(),
            sample_spacing: view.span() / 200.0,
            time_to_next_sample: 0.0,
            grad_evals_at_clear: 0,
            pushed_at_clear: 0,
            steps_at_clear: config.burn_in,
            clears: 0,
            path: std::collections::VecDeque::with_capacity(PATH_PIECES),
            watch: None,
            excursion: None,
            recording_parts: false,
            start: start.clone(),
            restarts: Vec::new(),
            model,
            sampler,
            oracle,
            rng: chain_rng(config.seed),
            moments: RunningMoments::new(dim),
            samples: RingBuffer::new(dim, config.capacity),
            steps: 0,
            status: ChainStatus::Running,
        })
    }

    /// Run up to `steps` steps; returns how many ran (fewer if the chain diverged).
    pub fn run(&mut self, steps: u64) -> u64 {
        self.run_observed(steps, &mut |_| {})
    }

    /// Like [`Chain::run`], calling `on_segment(start, velocity, duration)` with every recorded
    /// (post-burn-in) trajectory piece of a continuous-time sampler.
    pub fn run_segments(&mut self, steps: u64, on_segment: &mut dyn FnMut(&[f64], &[f64], f64)) -> u64 {
        let mut on_segment = Some(on_segment);
        self.run_with(steps, &mut |_| {}, &mut on_segment)
    }

    /// Like [`Chain::run`], calling `on_sample` with every recorded (post-burn-in) sample.
    pub fn run_observed(&mut self, steps: u64, on_sample: &mut dyn FnMut(&[f64])) -> u64 {
        self.run_with(steps, on_sample, &mut None)
    }

    fn run_with(&mut self, steps: u64, on_sample: &mut dyn FnMut(&[f64]), on_segment: &mut Option<&mut dyn FnMut(&[f64], &[f64], f64)>) -> u64 {
        for done in 0..steps {
            if self.status != ChainStatus::Running {
                return done;
            }
            let emitted = self.sampler.step(self.model.as_ref(), &mut self.oracle, &mut self.rng);
            self.steps += 1;
            if let Err(message) = self.check_divergence() {
                self.status = ChainStatus::Diverged(message);
                return done + 1;
            }
            let distance = self.watch.is_some().then(|| self.watch_before_recording(&emitted));
            if self.steps > self.burn_in {
                if let (Some(observe), Emitted::Segment { start, velocity, duration, .. }) = (on_segment.as_mut(), &emitted) {
                    observe(start, velocity, *duration);
                }
                self.record(emitted, on_sample);
            }
            if let Some(distance) = distance {
                self.watch_after_recording(distance);
            }
        }
        steps
    }

    /// Before the event's segment is recorded: its end's distance from the truth, and a snapshot
    /// if it opens an excursion.
    fn watch_before_recording(&mut self, emitted: &Emitted) -> f64 {
        let watch = self.watch.as_mut().expect("called with a watch");
        let distance = watch.distance(self.sampler.position());
        let outside = distance > inner_radius(self.model.dim());
        // The way in from a distant start is not an excursion: arm once inside the bulk.
        if !watch.armed {
            watch.armed = !outside;
            return distance;
        }
        match (&self.excursion, outside) {
            (None, true) => {
                let start_position = match emitted {
                    Emitted::Segment { start, .. } => start.clone(),
                    _ => self.sampler.position().to_vec(),
                };
                self.excursion = Some(Excursion {
                    since_step: self.steps,
                    start_position,
                    moments: self.moments.clone(),
                    pushed: self.samples.total_pushed(),
                    time_to_next_sample: self.time_to_next_sample,
                    distance,
                    confirmed: false,
                })
            }
            (Some(e), false) if !e.confirmed => self.excursion = None,
            _ => {}
        }
        distance
    }

    /// After recording: confirm an open excursion that went beyond the outer radius and far below
    /// the truth's mass (see [`crate::runaway`]).
    fn watch_after_recording(&mut self, distance: f64) {
        let Some(e) = self.excursion.as_mut() else { return };
        e.distance = e.distance.max(distance);
        let watch = self.watch.as_mut().expect("excursions need a watch");
        if !e.confirmed && distance > watch.confirm_radius {
            e.confirmed = watch.far_below_the_mass(self.model.as_ref(), self.sampler.position());
        }
    }

    /// The number of samples the ring had received when the current excursion (confirmed or not)
    /// began: the page snapshots its density image there.
    pub fn excursion_pushed(&self) -> Option<u64> {
        self.excursion.as_ref().map(|e| e.pushed)
    }

    /// Undo a confirmed runaway: the moments and the retained samples return to what they were
    /// just before it began (samples it overwrote in a full ring stay lost), and the particle
    /// restarts where the excursion began (a new sampler state there: velocity, band and
    /// adaptation start afresh). Errs when there is no runaway.
    pub fn discard_since_runaway(&mut self) -> Result<(), String> {
        let e = match self.excursion.take() {
            Some(e) if e.confirmed => e,
            other => {
                self.excursion = other;
                return Err("there is no runaway to discard".into());
            }
        };
        self.moments = e.moments;
        self.samples.truncate_to(e.pushed);
        self.time_to_next_sample = e.time_to_next_sample;
        self.path.clear();
        self.sampler = (self.sampler_spec.build)(&self.sampler_params, self.model.as_ref(), &e.start_position);
        Ok(())
    }

    fn record(&mut self, emitted: Emitted, on_sample: &mut dyn FnMut(&[f64])) {
        match emitted {
            Emitted::Sample { weight } => {
                let theta = self.sampler.position();
                self.moments.add(theta, weight);
                self.samples.push(theta);
                on_sample(theta);
            }
            Emitted::Segment { start, velocity, duration, bounce } => {
                self.moments.add_segment(&start, &velocity, duration);
                self.remember_piece(&start, &velocity, duration, bounce);
                self.discretise_segment(&start, &velocity, duration, on_sample);
            }
            Emitted::Nothing => {}
        }
    }

    fn remember_piece(&mut self, start: &[f64], velocity: &[f64], duration: f64, bounce: bool) {
        if self.path.len() == PATH_PIECES {
            self.path.pop_front();
        }
        let end = start.iter().zip(velocity).map(|(x, v)| x + v * duration).collect();
        self.path.push_back(PathPiece { start: start.to_vec(), end, bounce });
    }

    /// The most recent trajectory pieces, oldest first (empty for discrete-time samplers).
    pub fn path(&self) -> impl Iterator<Item = &PathPiece> + '_ {
        self.path.iter()
    }

    /// Equal-time samples along x(s) = start + v·s (docs/bouncy.md §6, trajectory output).
    fn discretise_segment(&mut self, start: &[f64], velocity: &[f64], duration: f64, on_sample: &mut dyn FnMut(&[f64])) {
        let mut s = self.time_to_next_sample;
        let mut point = start.to_vec();
        while s <= duration {
            for ((p, x), v) in point.iter_mut().zip(start).zip(velocity) {
                *p = x + v * s;
            }
            self.samples.push(&point);
            on_sample(&point);
            s += self.sample_spacing;
        }
        self.time_to_next_sample = s - duration;
    }

    /// Change one sampler parameter live, keeping the chain's state; target parameters need a
    /// rebuild (see [`Chain::config`]).
    pub fn set_sampler_param(&mut self, name: &str, value: f64) -> Result<(), String> {
        let mut next = self.sampler_params.clone();
        next.set(self.sampler_spec.params, name, value)?;
        if let Some(reason) = self.sampler.unsupported_with(&next) {
            return Err(cannot_run(self.sampler_spec, self.target_spec, &reason));
        }
        self.sampler_params = next;
        self.sampler.update_params(&self.sampler_params);
        let kept = self.sampler.fisher_estimate_kept();
        self.promise.update(self.sampler_spec, self.model.as_ref(), &self.sampler_params, &self.derived, kept);
        let n = batch_size(&self.sampler_params, self.model.as_ref());
        if n != self.oracle.batch_size() {
            let evals = self.oracle.grad_evals();
            self.oracle = GradientOracle::new(self.model.as_ref(), n);
            self.oracle.count(evals);
        }
        Ok(())
    }

    /// Forget recorded moments and retained samples (the position and the sampler's state stay):
    /// after a slider move the statistics describe the new setting only.
    pub fn clear_statistics(&mut self) {
        self.excursion = None;
        self.moments = RunningMoments::new(self.model.dim());
        self.samples.clear();
        self.path.clear();
        self.grad_evals_at_clear = self.oracle.grad_evals();
        self.pushed_at_clear = self.samples.total_pushed();
        self.steps_at_clear = self.steps.max(self.burn_in);
        self.clears += 1;
    }

    /// How many times [`Chain::clear_statistics`] has run: statistics read at another count describe another setting.
    pub fn clears(&self) -> u64 {
        self.clears
    }

    /// Samples recorded since the statistics were last cleared (for continuous-time samplers, the
    /// equal-time discretisation of the path).
    pub fn samples_since_clear(&self) -> u64 {
        self.samples.total_pushed() - self.pushed_at_clear
    }

    /// Per-datum gradient evaluations spent per retained sample since the statistics were cleared.
    pub fn grad_evals_per_sample(&self) -> f64 {
        let samples = self.samples_since_clear() as f64;
        if samples == 0.0 {
            return f64::NAN;
        }
        (self.oracle.grad_evals() - self.grad_evals_at_clear) as f64 / samples
    }

    /// Set the time spacing used to discretise continuous trajectories.
    pub fn set_sample_spacing(&mut self, spacing: f64) {
        if spacing > 0.0 && spacing.is_finite() {
            self.sample_spacing = spacing;
        }
    }

    pub fn model(&self) -> &dyn Model {
        self.model.as_ref()
    }

    /// The target, shareable with other chains on the same settings and data.
    pub fn shared_model(&self) -> Arc<dyn Model> {
        self.model.clone()
    }
    pub fn target_spec(&self) -> &'static TargetSpec {
        self.target_spec
    }
    pub fn sampler_spec(&self) -> &'static SamplerSpec {
        self.sampler_spec
    }
    pub fn target_params(&self) -> &ParamValues {
        &self.target_params
    }
    pub fn sampler_params(&self) -> &ParamValues {
        &self.sampler_params
    }
    /// The sampler's target-derived defaults and slider ranges.
    pub fn derived(&self) -> &[DerivedParam] {
        &self.derived
    }
    /// Why this sampler's derived defaults cannot meet their criteria on this target (issue 12:
    /// e.g. SGLD on Neal's funnel), when they cannot. SGLD's own part (its best constant step ε and minibatch, src/sampler/sgld/mod.rs `warning`)
    /// is left out while a decreasing schedule εₜ runs, which it does not describe (issue 26: the
    /// note named "minibatch 100" beside the n = 1 schedule of Welling & Teh's Fig. 1).
    /// Nor where the law predicts the error after 5,000 samples (§7: it decides at every step size;
    /// s44: mixture at ε = 0.0462 silent by the law, 0/40 over 0.3, under "cannot reach … at any step size").
    pub fn warning(&self) -> Option<&str> {
        let law_finds_a_step = self.promise.warning().is_some_and(|w| !w.text.starts_with("No single slider"));
        let law_decides = !self.promise.measures();
        if self.sampler_spec.name == "sgld" && (self.sampler_params.try_get("sgld_schedule") == Some(1.0) || law_finds_a_step || law_decides) {
            return self.modes_warning.as_deref();
        }
        self.warning.as_deref()
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn position(&self) -> &[f64] {
        self.sampler.position()
    }
    pub fn steps(&self) -> u64 {
        self.steps
    }
    pub fn grad_evals(&self) -> u64 {
        self.oracle.grad_evals()
    }
    pub fn status(&self) -> &ChainStatus {
        &self.status
    }
    pub fn samples(&self) -> &RingBuffer {
        &self.samples
    }
    /// Number of recorded samples (or trajectory pieces) that entered the moments.
    pub fn n_recorded(&self) -> u64 {
        self.moments.count()
    }
    pub fn moments(&self) -> Moments {
        self.moments.moments()
    }
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.sampler.diagnostics()
    }
    /// The last Metropolis–Hastings proposal of an exact sampler.
    /// SBPS's current regression line and band (None for other samplers).
    pub fn band_view(&self) -> Option<crate::sampler::sbps::view::BandView> {
        self.sampler.band_view()
    }
    pub fn last_proposal(&self) -> Option<&crate::sampler::Proposal> {
        self.sampler.last_proposal()
    }

    /// Record every step's parts from now on (slow motion), or stop.
    pub fn record_parts(&mut self, on: bool) {
        self.recording_parts = on;
        self.sampler.record_parts(on);
    }

    /// Whether the sampler records each step's parts.
    pub fn recording_parts(&self) -> bool {
        self.recording_parts
    }

    /// The latest step's parts while recording (SGLD, SGHMC, SGFS).
    pub fn last_parts(&self) -> Option<&crate::sampler::StepParts> {
        self.sampler.last_parts()
    }

    /// Restart the sampler at `point` (dragged there): a fresh sampler state with the same
    /// parameters, seed stream and statistics; the retained samples stay, so the trace shows the
    /// jump, and the sample index of the restart is remembered for its marker. A diverged chain
    /// runs again. Refuses a point of the wrong dimension or with a non-finite coordinate.
    pub fn restart_at(&mut self, point: &[f64]) -> Result<(), String> {
        if point.len() != self.model.dim() {
            return Err(format!("a start needs {} coordinates, got {}", self.model.dim(), point.len()));
        }
        if let Some(bad) = point.iter().find(|x| !x.is_finite()) {
            return Err(format!("a start must be finite, got {bad}"));
        }
        self.sampler = (self.sampler_spec.build)(&self.sampler_params, self.model.as_ref(), point);
        self.sampler.record_parts(self.recording_parts);
        self.status = ChainStatus::Running;
        self.excursion = None;
        self.path.clear();
        self.time_to_next_sample = 0.0;
        self.start = point.to_vec();
        self.restarts.push(self.samples.total_pushed());
        Ok(())
    }

    /// Where the chain (last) started: the target's initial point or a dragged start.
    pub fn start(&self) -> &[f64] {
        &self.start
    }

    /// Sample indices (ring pushes) at which the chain was restarted by a drag.
    pub fn restarts(&self) -> &[u64] {
        &self.restarts
    }
}

/// Give the parameters the user did not set their target-derived defaults
/// ([`crate::spec::SamplerSpec::derive`]); returns what was derived.
fn apply_derived_defaults(
    spec: &SamplerSpec,
    model: &dyn Model,
    values: &mut ParamValues,
    settings: &[(String, String)],
) -> Result<Vec<DerivedParam>, String> {
    let derived = (spec.derive)(model, values);
    for d in &derived {
        if !settings.iter().any(|(name, _)| name == d.name) {
            values
                .set(spec.params, d.name, d.default)
                .map_err(|e| format!("internal error: the derived default of {} is not allowed ({e})", d.name))?;
        }
    }
    Ok(derived)
}

/// The minibatch size a sampler asks for (its `batch_size` parameter), or full batch.
fn batch_size(params: &ParamValues, model: &dyn Model) -> usize {
    params.iter().find(|(n, _)| *n == "batch_size").map(|(_, v)| v as usize).unwrap_or(model.n_data())
}

mod divergence;
mod promise_count;

/// The core's refusal, which the page words with its menus' labels (www/format.js `withLabels`).
fn cannot_run(sampler: &SamplerSpec, target: &TargetSpec, reason: &str) -> String {
    format!("sampler '{}' cannot run on target '{}': {reason}", sampler.name, target.name)
}
