//! Background analysis of the current setting: the noise-vs-step-size phase picture of SGLD and a
//! bias–mixing sweep at equal gradient budget. Built from a chain's configuration, advanced in
//! bounded slices, and turned into chart specifications.

use crate::chain::{Chain, ChainConfig};
use crate::diagnostics::Moments;
use crate::error_split::PredictedError;
use crate::knob::Knob;
use crate::knob_noise::{noise_over_knob, UpdateNoise};
use crate::law::{predicted_law, GaussianSummary};
use crate::phase::{log_grid, mh_rejection_probability, noise_scale, NoiseScale};
use crate::plot::annealed_noise::{annealed_noise_chart, follow_schedule, Schedule};
use crate::plot::analysis_panels::{bias_chart, knob_noise_chart, noise_chart, note_chart, tradeoff_chart, BiasCurves, Measured};
use crate::plot::chart::ChartSpec;
use crate::plot::schedule_tradeoff::{schedule_tradeoff_chart, ScheduleRun};
use crate::registry;
use crate::rng::{chain_rng, index_below};
use crate::sweep::{Sweep, SweepCurve};
use crate::bouncy_sweep::{BouncyKnob, BouncySweep};

/// Step sizes at which the MH rejection probability is estimated.
const REJECTION_GRID: usize = 10;
/// Cap on per-datum gradient evaluations spent on the rejection curve.
const REJECTION_BUDGET: f64 = 1e7;
/// Points of the noise-per-update curves over a knob.
const NOISE_GRID: usize = 60;

/// What the noise chart shows for the running sampler.
enum NoisePicture {
    /// SGLD: the measured score covariance (Welling & Teh Fig. 2, left).
    Sgld(NoiseScale),
    /// Another stochastic-gradient sampler: its own law's noise split over its knob.
    Law(Vec<(f64, UpdateNoise)>),
    /// No picture, and why.
    None(String),
}

pub struct Analysis {
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub sweep: Sweep,
    /// The running sampler's knob; None for the bouncy samplers.
    knob: Option<Knob>,
    sampler_label: String,
    predictions: Predictions,
    noise: NoisePicture,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub rejection: Vec<(f64, f64)>,
    /// SGLD's polynomial schedule, when it has one, and the chain's iteration when the analysis
    /// began: the noise chart is then drawn over iterations (docs/sgld.md §6).
    schedule: Option<(Schedule, f64)>,
    /// Under the schedule the sweep varies its scale a, not the ignored ε (docs/sgld.md §8).
    schedule_knob: Option<Knob>,
    /// A bouncy sampler's sweep over its own knobs (docs/bouncy.md §15), instead of `sweep`.
    bouncy: Option<BouncySweep>,
}

impl Analysis {
    /// Set up the analysis of `chain` (built from `config`) against `truth`, giving every sweep
    /// chain `budget` per-datum gradient evaluations. The charts follow the running sampler: they
    /// vary its own knob (SGLD's ε, SGFS's α, SGHMC's η, …) over the range of its slider.
    pub fn new(config: &ChainConfig, chain: &Chain, truth: Moments, budget: u64) -> Result<Analysis, String> {
        Self::with_events(config, chain, truth, budget, crate::bouncy_sweep::DEFAULT_SPEED * crate::bouncy_sweep::FRAMES)
    }

    /// [`Analysis::new`], with a bouncy sampler's points run for `events` events each (the page's
    /// speed × 1,200 frames: what the page draws in 20 s at 60 fps; docs/bouncy.md §15).
    pub fn with_events(config: &ChainConfig, chain: &Chain, truth: Moments, budget: u64, events: u64) -> Result<Analysis, String> {
        let sampler = chain.sampler_spec();
        let knobs = BouncyKnob::of(chain, events);
        let bouncy = (!knobs.is_empty()).then(|| BouncySweep::new(config, chain, knobs, truth.clone(), events));
        let knob = Knob::of(chain);
        let schedule_knob = Knob::schedule_scale(chain);
        let curves = knob
            .iter()
            .map(|k| {
                let (swept, values) = match &schedule_knob {
                    Some(s) => (s, s.schedule_sweep_values()),
                    None => (k, k.sweep_values()),
                };
                let settings = chain.sampler_params().iter().filter(|(n, _)| *n != swept.param).map(|(n, v)| (n.to_string(), v.to_string())).collect();
                SweepCurve { sampler: swept.sampler.into(), param: swept.param.into(), values, settings, whole_run: schedule_knob.is_some() }
            })
            .collect();
        let mut base = config.clone();
        base.settings.retain(|(n, _)| chain.target_spec().params.iter().any(|p| p.name == n));
        let sweep = Sweep::new(&base, Some(chain.shared_model()), curves, budget, truth)?;
        let batch = chain.sampler_params().try_get("batch_size").unwrap_or(chain.model().n_data() as f64);
        let (noise, rejection) = match &knob {
            Some(k) if k.sampler == "sgld" => {
                let (noise, rejection) = phase_picture(chain, batch as usize, k.range, config.seed);
                (NoisePicture::Sgld(noise), rejection)
            }
            Some(_) if sampler.kind == registry::SamplerKind::Exact => (NoisePicture::None(format!("{}: exact gradients, no gradient noise to compare with the injected noise", sampler.label)), Vec::new()),
            Some(k) => (law_noise(chain, k), Vec::new()),
            None => (NoisePicture::None(format!("{}: no step size to vary (a continuous-time sampler)", sampler.label)), Vec::new()),
        };
        let predictions = match &knob {
            Some(k) => Predictions::of(&sweep, chain, k, sweep.truth()),
            None => Predictions::none(format!("{} has no step size or noise level to sweep", sampler.label)),
        };
        let schedule = polynomial_schedule(chain).map(|s| (s, chain.steps() as f64));
        Ok(Analysis { sweep, knob, sampler_label: sampler.label.to_string(), predictions, noise, rejection, schedule, schedule_knob, bouncy })
    }

    /// Spend up to `max_grad_evals` on the sweep; returns the fraction done.
    pub fn advance(&mut self, max_grad_evals: u64) -> f64 {
        if let Some(bouncy) = &mut self.bouncy {
            return bouncy.advance(max_grad_evals);
        }
        self.sweep.advance(max_grad_evals);
        self.sweep.progress()
    }

    pub fn is_done(&self) -> bool {
        self.bouncy.as_ref().map_or_else(|| self.sweep.is_done(), |b| b.is_done())
    }

    /// Chart for `kind` ∈ {noise, bias, sweep}.
    pub fn chart(&self, kind: &str) -> Option<ChartSpec> {
        if let Some(bouncy) = &self.bouncy {
            return crate::plot::bouncy_panels::chart(&self.sampler_label, bouncy, kind);
        }
        let Some(knob) = &self.knob else {
            let why = self.predictions.reason.as_deref().unwrap_or("nothing to sweep");
            return matches!(kind, "noise" | "bias" | "sweep").then(|| note_chart(&format!("No {kind} chart: {why}")));
        };
        let measured = || -> Vec<Measured> {
            let results = self.sweep.results();
            match (&self.schedule, &self.schedule_knob) {
                // Each schedule run at its first step ε_0 = a·b^(−γ) on the bias chart's ε axis.
                (Some((s, _)), Some(sk)) => results.iter().filter(|r| r.param == sk.param).filter_map(Measured::of).map(|m| Measured { value: Schedule { a: m.value, ..*s }.step(0.0), ..m }).collect(),
                _ => results.iter().filter(|r| r.sampler == knob.sampler && r.param == knob.param).filter_map(Measured::of).collect(),
            }
        };
        let p = &self.predictions;
        match kind {
            "noise" => Some(match &self.noise {
                NoisePicture::Sgld(scale) => match &self.schedule {
                    Some((schedule, iterations)) => annealed_noise_chart(scale, schedule, *iterations),
                    None => noise_chart(scale, knob.range, knob.value),
                },
                NoisePicture::Law(points) => knob_noise_chart(knob, &self.sampler_label, points),
                NoisePicture::None(why) => note_chart(&format!("No noise chart: {why}")),
            }),
            "bias" => {
                let mut chart = bias_chart(&BiasCurves { bias: &p.bias, mc: &p.mc, budget: self.sweep.budget(), reason: p.reason.as_deref() }, &measured(), &self.rejection, knob);
                if let Some((schedule, iterations)) = &self.schedule {
                    follow_schedule(&mut chart, schedule, *iterations, crate::plot::analysis_panels::CURRENT);
                }
                Some(chart)
            }
            "sweep" if self.schedule_knob.is_some() => {
                let sk = self.schedule_knob.as_ref()?;
                let runs: Vec<ScheduleRun> = self.sweep.results().iter().filter(|r| r.param == sk.param).filter_map(ScheduleRun::of).collect();
                Some(schedule_tradeoff_chart(&runs, sk.value, self.sweep.budget()))
            }
            "sweep" => Some(tradeoff_chart(knob.symbol, &p.tradeoff, &measured(), self.sweep.budget(), p.tradeoff_reason.as_deref())),
            _ => None,
        }
    }

    pub fn results_json(&self) -> serde_json::Value {
        if let Some(bouncy) = &self.bouncy {
            return serde_json::json!({ "progress": bouncy.progress(), "events": bouncy.events(), "bouncy": bouncy.results() });
        }
        serde_json::json!({
            "progress": self.sweep.progress(),
            "results": self.sweep.results(),
            "noise": match &self.noise { NoisePicture::Sgld(scale) => serde_json::to_value(scale).unwrap_or_default(), _ => serde_json::Value::Null },
            "threshold_crossing": match &self.noise { NoisePicture::Sgld(scale) => scale.crossing(), _ => None },
            "rejection": self.rejection,
        })
    }
}

/// Points of the predicted bias curve over the step-size range.
const BIAS_GRID: usize = 40;
/// Points of the predicted Monte Carlo error curve (each costs an autocovariance series).
const MC_GRID: usize = 12;

/// The analysis charts' predicted parts (src/law.rs, src/error_split.rs): the bias and Monte
/// Carlo error of the running sampler's law over its knob at the sweep's settings, and the
/// error-vs-budget curves at a few knob values. Pure and bounded (2-D Gaussian: a few ms
/// natively); a worker can compute it.
pub struct Predictions {
    pub bias: Vec<(f64, f64)>,
    pub mc: Vec<(f64, f64)>,
    /// Why there is no predicted bias (the measured errors then stand alone), if there is none.
    pub reason: Option<String>,
    pub tradeoff: Vec<(f64, PredictedError)>,
    pub tradeoff_reason: Option<String>,
}

impl Predictions {
    pub fn of(sweep: &Sweep, chain: &Chain, knob: &Knob, truth: &Moments) -> Predictions {
        let model = chain.model();
        // Where the promise does not judge by the law's bias (src/promise.rs `bias_is_sound`: OSGFS
        // on the tied-means mixture, docs/diagnostics.md §7 "s53"), neither does this chart: the
        // sweep's runs estimate the bias instead.
        if knob.sampler == "osgfs" && crate::law::GaussianSummary::of(model).is_ok_and(|s| !crate::promise::bias_is_sound(knob.sampler, &s)) {
            return Predictions::none("OSGFS's linearised law misjudges its bias on this target".into());
        }
        let params = sweep.curve_params(0).cloned().unwrap_or_else(|| chain.sampler_params().clone());
        let at = |value: f64| {
            let mut params = params.clone();
            let spec = registry::sampler(knob.sampler).ok()?;
            params.set(spec.params, knob.param, value).ok()?;
            let law = predicted_law(knob.sampler, &params, model).ok()?;
            let grads = params.try_get("batch_size").map_or(model.n_data() as f64, |n| n.round().clamp(1.0, model.n_data() as f64));
            Some((law, grads))
        };
        let bias: Vec<(f64, f64)> = knob.grid(BIAS_GRID).into_iter().filter_map(|v| at(v).map(|(law, _)| (v, crate::error_split::relative_bias(&law.cov, truth)))).collect();
        let budget = sweep.budget() as f64;
        let mc = knob
            .grid(MC_GRID)
            .into_iter()
            .filter_map(|v| {
                let (law, grads) = at(v)?;
                Some((v, PredictedError::of(&law, truth, grads)?.mc_error(budget)))
            })
            .collect();
        let why = || predicted_law(knob.sampler, &params, model).err();
        let reason = bias.is_empty().then(|| why().unwrap_or_else(|| "unstable over the whole range".into()));
        let tradeoff: Vec<(f64, PredictedError)> = knob
            .sweep_values()
            .into_iter()
            .filter_map(|v| {
                let (law, grads) = at(v)?;
                Some((v, PredictedError::of(&law, truth, grads)?))
            })
            .collect();
        let tradeoff_reason = tradeoff.is_empty().then(|| why().unwrap_or_else(|| "no stable setting in the sweep".into()));
        Predictions { bias, mc, reason, tradeoff, tradeoff_reason }
    }

    /// No predictions, for `reason`.
    pub fn none(reason: String) -> Predictions {
        Predictions { bias: Vec::new(), mc: Vec::new(), reason: Some(reason.clone()), tradeoff: Vec::new(), tradeoff_reason: Some(reason) }
    }
}

/// SGLD's polynomial step-size schedule (SGLD.3), if the chain runs one.
fn polynomial_schedule(chain: &Chain) -> Option<Schedule> {
    let params = chain.sampler_params();
    (chain.sampler_spec().name == "sgld" && params.try_get("sgld_schedule") == Some(1.0))
        .then(|| Schedule { a: params.get("sgld_a"), b: params.get("sgld_b"), gamma: params.get("sgld_gamma") })
}

/// The noise split of a stochastic-gradient sampler's own law over its knob, or why there is none.
fn law_noise(chain: &Chain, knob: &Knob) -> NoisePicture {
    let split = GaussianSummary::of(chain.model()).and_then(|summary| noise_over_knob(knob, chain.sampler_params(), &summary, NOISE_GRID));
    match split {
        Ok(points) => NoisePicture::Law(points),
        Err(why) => NoisePicture::None(why),
    }
}

/// Noise scale at up to 20 retained samples (or the current point), and the MH rejection curve.
fn phase_picture(chain: &Chain, batch: usize, range: (f64, f64), seed: u64) -> (NoiseScale, Vec<(f64, f64)>) {
    let model = chain.model();
    let mut rng = chain_rng(seed ^ 0x9e37_79b9_7f4a_7c15);
    let ring = chain.samples();
    let mut points: Vec<Vec<f64>> = if ring.is_empty() {
        vec![chain.position().to_vec()]
    } else {
        (0..20).map(|_| ring.get(index_below(&mut rng, ring.len())).to_vec()).collect()
    };
    let noise = noise_scale(model, &points, batch, 500, &mut rng);
    // Keep 2 · N · points · grid full-data evaluations within the budget: fewer points first
    // (down to one), then a coarser grid (down to three step sizes).
    let per_point = 2.0 * model.n_data() as f64 * REJECTION_GRID as f64;
    points.truncate(((REJECTION_BUDGET / per_point) as usize).clamp(1, 20));
    let grid = ((REJECTION_BUDGET / (2.0 * model.n_data() as f64)) as usize).clamp(3, REJECTION_GRID);
    let rejection = log_grid(range.0, range.1, grid)
        .into_iter()
        .map(|e| (e, mh_rejection_probability(model, &points, e, &mut rng)))
        .filter(|p| p.1.is_finite())
        .collect();
    (noise, rejection)
}
