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
    sweep: Sweep,
    /// The running sampler's knob; None for the bouncy samplers.
    knob: Option<Knob>,
    sampler_label: String,
    predictions: Predictions,
    noise: NoisePicture,
    rejection: Vec<(f64, f64)>,
    /// SGLD's polynomial schedule, when it has one, and the chain's iteration when the analysis
    /// began: the noise chart is then drawn over iterations (docs/sgld.md §6).
    schedule: Option<(Schedule, f64)>,
    /// Under the schedule the sweep varies its scale a, not the ignored ε (docs/sgld.md §8).
    schedule_knob: Option<Knob>,
}

impl Analysis {
    /// Set up the analysis of `chain` (built from `config`) against `truth`, giving every sweep
    /// chain `budget` per-datum gradient evaluations. The charts follow the running sampler: they
    /// vary its own knob (SGLD's ε, SGFS's α, SGHMC's η, …) over the range of its slider.
    pub fn new(config: &ChainConfig, chain: &Chain, truth: Moments, budget: u64) -> Result<Analysis, String> {
        let sampler = chain.sampler_spec();
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
        Ok(Analysis { sweep, knob, sampler_label: sampler.label.to_string(), predictions, noise, rejection, schedule, schedule_knob })
    }

    /// Spend up to `max_grad_evals` on the sweep; returns the fraction done.
    pub fn advance(&mut self, max_grad_evals: u64) -> f64 {
        self.sweep.advance(max_grad_evals);
        self.sweep.progress()
    }

    pub fn is_done(&self) -> bool {
        self.sweep.is_done()
    }

    /// Chart for `kind` ∈ {noise, bias, sweep}.
    pub fn chart(&self, kind: &str) -> Option<ChartSpec> {
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
            .tradeoff_values()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analysis_of_an_exact_sampler_sweeps_its_own_knob_and_has_no_noise_picture() {
        let config = ChainConfig::new("gaussian", "mala", 1);
        let mut chain = Chain::new(&config).unwrap();
        chain.run(500);
        let truth = chain.model().exact_moments().unwrap();
        let mut analysis = Analysis::new(&config, &chain, truth, 20_000).unwrap();
        assert_eq!(analysis.sweep.curves().len(), 1);
        assert_eq!(analysis.sweep.curves()[0].param, "mala_step");
        while analysis.advance(50_000) < 1.0 {}
        assert!(analysis.is_done());
        let noise = analysis.chart("noise").unwrap();
        assert!(noise.series.is_empty() && noise.title.contains("exact gradients"), "{}", noise.title);
    }

    #[test]
    fn a_bouncy_sampler_says_it_has_no_knob_instead_of_showing_sgld() {
        let config = ChainConfig::new("gaussian", "sbps", 1);
        let mut chain = Chain::new(&config).unwrap();
        chain.run(200);
        let truth = chain.model().exact_moments().unwrap();
        let mut analysis = Analysis::new(&config, &chain, truth, 20_000).unwrap();
        assert_eq!(analysis.advance(1000), 1.0);
        for kind in ["noise", "bias", "sweep"] {
            let spec = analysis.chart(kind).unwrap();
            assert!(spec.series.is_empty() && spec.title.starts_with("No ") && !spec.title.contains("SGLD"), "{kind}: {}", spec.title);
        }
    }

    /// SGFS-f on the ρ = 0.9 Gaussian at noise level `alpha`, its sweep run to the end.
    fn sgfs_analysis(alpha: f64) -> Analysis {
        let config = ChainConfig::new("gaussian", "sgfs_f", 1).with("rho", 0.9).with("sgfs_alpha", alpha).with("batch_size", 10);
        let mut chain = Chain::new(&config).unwrap();
        chain.run(300);
        let truth = chain.model().exact_moments().unwrap();
        let mut analysis = Analysis::new(&config, &chain, truth, 20_000).unwrap();
        while analysis.advance(100_000) < 1.0 {}
        analysis
    }

    fn marker<'a>(spec: &'a ChartSpec, prefix: &str) -> &'a crate::plot::chart::Marker {
        spec.markers.iter().find(|m| m.label.starts_with(prefix)).unwrap_or_else(|| panic!("no marker '{prefix}' in {:?}", spec.markers))
    }

    /// The SGFS class: moving α left SGLD's ε charts unchanged. Now the noise and bias
    /// charts are over α, mark the current α, and the measured points follow it.
    #[test]
    fn sgfs_noise_and_bias_charts_are_over_alpha_and_follow_it() {
        let (low, high) = (sgfs_analysis(0.0), sgfs_analysis(3.0));
        for (analysis, alpha) in [(&low, 0.0), (&high, 3.0)] {
            let noise = analysis.chart("noise").unwrap();
            assert_eq!(noise.x_label, "α");
            assert_eq!(marker(&noise, "current α").x, alpha);
            let bias = analysis.chart("bias").unwrap();
            assert_eq!(bias.x_label, "α");
            assert_eq!(marker(&bias, "current α").x, alpha);
            assert!(bias.series.iter().all(|s| !s.label.contains("MH rejection")), "SGFS has no Langevin MH curve");
            let (lo, hi) = bias.x_range.unwrap();
            for s in bias.series.iter().chain(&analysis.chart("noise").unwrap().series) {
                assert!(s.points.iter().all(|p| p.0 >= lo && p.0 <= hi), "{}: {:?} outside [{lo}, {hi}]", s.label, s.points);
            }
        }
        // α = 0 injects nothing: the ratio at the marker is infinite; α = 3 injects.
        assert!(marker(&low.chart("noise").unwrap(), "current α").label.contains("∞"));
        assert!(!marker(&high.chart("noise").unwrap(), "current α").label.contains("∞"));
        // The measured sweep points are centred on each α.
        let xs = |a: &Analysis| series(&a.chart("bias").unwrap(), "measured").points.iter().map(|p| p.0).collect::<Vec<_>>();
        assert!(xs(&low).contains(&0.0) && !xs(&low).contains(&5.0), "{:?}", xs(&low));
        assert!(xs(&high).contains(&3.0) && xs(&high).contains(&5.0), "{:?}", xs(&high));
        // Larger α, smaller steps: the injected noise's share grows with α (h²α²γ against h²).
        let noise = high.chart("noise").unwrap();
        let (injected, gradient) = (&series(&noise, "injected").points, &series(&noise, "gradient").points);
        let ratio_at = |k: usize| gradient.iter().find(|g| g.0 == injected[k].0).unwrap().1 / injected[k].1;
        assert!(ratio_at(5) > ratio_at(50), "gradient/injected must fall with α");
    }

    #[test]
    fn sghmc_charts_are_over_eta() {
        let config = ChainConfig::new("gaussian", "sghmc", 1).with("batch_size", 10);
        let mut chain = Chain::new(&config).unwrap();
        chain.run(300);
        let truth = chain.model().exact_moments().unwrap();
        let analysis = Analysis::new(&config, &chain, truth, 20_000).unwrap();
        for kind in ["noise", "bias"] {
            let spec = analysis.chart(kind).unwrap();
            assert_eq!(spec.x_label, "η", "{kind}");
            assert!(spec.log_x);
        }
    }

    /// With the polynomial schedule the noise chart is over the run's iterations (docs/sgld.md §6),
    /// spanning b(100^(1/γ) − 1) = 10 · 99 = 990 iterations at b = 10, γ = 1; with a
    /// constant step it stays over ε.
    #[test]
    fn sgld_noise_chart_is_over_iterations_with_the_polynomial_schedule() {
        let spec = scheduled_sgld_analysis().chart("noise").unwrap();
        assert_eq!(spec.x_label, "iteration t");
        let injected = &series(&spec, "injected").points;
        assert!((injected.last().unwrap().0 - 990.0).abs() < 1e-9, "{:?}", injected.last());
        assert!((injected[0].1 - 0.1 / 11.0).abs() < 1e-12, "ε_1 = 0.1/11: {:?}", injected[0]);
        assert_eq!(sgld_gaussian_analysis().chart("noise").unwrap().x_label, "step size ε");
    }

    /// The bias chart follows the schedule (a = 0.1, b = 10, γ = 1: ε_0 = 0.01, ε = 10⁻⁴ at the
    /// span end t = 990): no constant "current ε" that the run ignores.
    #[test]
    fn sgld_bias_chart_marks_the_schedule_span_not_a_constant_step() {
        let spec = scheduled_sgld_analysis().chart("bias").unwrap();
        let xs: Vec<f64> = spec.markers.iter().map(|m| m.x).collect();
        assert_eq!(xs.len(), 2, "{:?}", spec.markers);
        assert!((xs[0] - 0.01).abs() < 1e-12 && (xs[1] - 1e-4).abs() < 1e-12, "{xs:?}");
        assert!(spec.markers.iter().all(|m| !m.label.contains("current")), "{:?}", spec.markers);
    }

    /// SGLD on the ρ = 0.9 Gaussian at its derived defaults: the analysis the page starts.
    /// SGLD on the Gaussian under the polynomial schedule a = 0.1, b = 10, γ = 1 (minibatch 10),
    /// after 300 steps: the chain both schedule tests read.
    fn scheduled_sgld_analysis() -> Analysis {
        let config = ChainConfig::new("gaussian", "sgld", 1).with("batch_size", 10).with("sgld_schedule", 1).with("sgld_a", 0.1).with("sgld_b", 10).with("sgld_gamma", 1);
        let mut chain = Chain::new(&config).unwrap();
        chain.run(300);
        let truth = chain.model().exact_moments().unwrap();
        Analysis::new(&config, &chain, truth, 20_000).unwrap()
    }

    fn sgld_gaussian_analysis() -> Analysis {
        let config = ChainConfig::new("gaussian", "sgld", 1).with("rho", 0.9);
        let mut chain = Chain::new(&config).unwrap();
        chain.run(500);
        let truth = chain.model().exact_moments().unwrap();
        let started = std::time::Instant::now();
        let analysis = Analysis::new(&config, &chain, truth, 200_000).unwrap();
        eprintln!("Analysis::new (predictions included): {:?}", started.elapsed());
        analysis
    }

    fn series<'a>(spec: &'a ChartSpec, label: &str) -> &'a crate::plot::chart::Series {
        spec.series.iter().find(|s| s.label.starts_with(label)).unwrap_or_else(|| panic!("no series '{label}' in {:?}", spec.series.iter().map(|s| &s.label).collect::<Vec<_>>()))
    }

    #[test]
    fn bias_chart_separates_a_bias_rising_with_the_step_from_a_monte_carlo_error_falling_with_it() {
        let analysis = sgld_gaussian_analysis();
        let spec = analysis.chart("bias").unwrap();
        let bias = &series(&spec, "bias of the sampler's law").points;
        assert!(bias.len() >= 20, "{bias:?}");
        assert!(bias.windows(2).all(|w| w[1].1 > w[0].1), "bias must rise with ε: {bias:?}");
        // Up to ε = 2/λ_max (λ_max = 1/(1 − ρ) = 10) every direction's factor 1 − ελ/2 stays ≥ 0;
        // beyond it the short axis oscillates towards the stability limit 4/λ_max and mixes worse.
        let mc: Vec<(f64, f64)> = series(&spec, "Monte Carlo error").points.iter().copied().filter(|p| p.0 <= 0.2).collect();
        assert!(mc.len() >= 6 && mc.windows(2).all(|w| w[1].1 < w[0].1), "Monte Carlo error must fall with ε: {mc:?}");
        // At the largest stable ε bias dominates, at the smallest the Monte Carlo error does.
        assert!(bias.last().unwrap().1 > mc.last().unwrap().1 && bias[0].1 < mc[0].1, "{bias:?} {mc:?}");
        let rejection = &analysis.rejection;
        assert!(rejection.first().unwrap().1 < rejection.last().unwrap().1, "{rejection:?}");
    }

    #[test]
    fn tradeoff_curves_cross_small_steps_win_large_budgets() {
        let analysis = sgld_gaussian_analysis();
        let spec = analysis.chart("sweep").unwrap();
        let curves: Vec<_> = spec.series.iter().filter(|s| s.label.ends_with("(predicted)")).collect();
        assert!((3..=5).contains(&curves.len()), "{:?}", spec.series.iter().map(|s| &s.label).collect::<Vec<_>>());
        let best = |index: fn(&[(f64, f64)]) -> (f64, f64)| curves.iter().enumerate().min_by(|a, b| index(&a.1.points).1.total_cmp(&index(&b.1.points).1)).unwrap().0;
        let (at_small, at_large) = (best(|p| p[0]), best(|p| *p.last().unwrap()));
        // Curves are in increasing ε: the largest wins at the smallest budget, the smallest at the largest.
        assert_eq!(at_small, curves.len() - 1, "largest ε should win at a small budget");
        assert_eq!(at_large, 0, "smallest ε should win at a large budget");
        assert!(curves.iter().all(|c| c.point_labels.first().is_some_and(|l| l.starts_with("ε = "))));
    }

    /// The SGLD Fig. 1–2 presets' run (tied-means mixture, n = 1, ε_t = a(b + t)^−0.55 with
    /// a = 0.323, b = 554.5: ε from 0.01) and its analysis at the page's budget, run to the end.
    fn preset_schedule_analysis() -> Analysis {
        let config = ChainConfig::new("mixture", "sgld", 1).with("batch_size", 1).with("sgld_schedule", 1).with("sgld_a", 0.323).with("sgld_b", 554.5).with("sgld_gamma", 0.55);
        let mut chain = Chain::new(&config).unwrap();
        chain.run(300);
        let truth = crate::truth::truth_for(chain.model()).moments.unwrap();
        let mut analysis = Analysis::new(&config, &chain, truth, 200_000).unwrap();
        while analysis.advance(1_000_000) < 1.0 {}
        analysis
    }

    /// Issue 26: under the schedule every sweep chain ran the same schedule (ε ignored), so the
    /// trade-off chart stacked identical points at one budget. Now the sweep varies a inside its
    /// slider's stable range and the chart is error against ESS per 1,000 gradients (SGFS Fig. 2):
    /// from the current a up, larger steps mix faster and carry more bias (docs/sgld.md §8).
    #[test]
    fn schedule_sweep_varies_a_larger_steps_mix_faster_and_are_more_biased() {
        let analysis = preset_schedule_analysis();
        let spec = analysis.chart("sweep").unwrap();
        assert_eq!(spec.x_label, "ESS per 1,000 gradient evaluations");
        let runs = &spec.series[0];
        let a: Vec<f64> = runs.point_labels.iter().map(|l| l.trim_start_matches("a = ").parse().unwrap()).collect();
        assert!(a.len() == 5 && a.windows(2).all(|w| w[1] > w[0]), "five distinct a, in order: {:?}", runs.point_labels);
        // Every a is on the slider and its first step ε_0 = a·b^−0.55 stays below the step
        // slider's shaded (unstable) end, 4/λ_max.
        let chain = Chain::new(&ChainConfig::new("mixture", "sgld", 1).with("batch_size", 1).with("sgld_schedule", 1).with("sgld_b", 554.5)).unwrap();
        let slider = |name: &str| chain.derived().iter().find(|d| d.name == name).cloned().unwrap();
        let unstable = slider("step_size").unstable_above.unwrap();
        assert!(a.iter().all(|&v| v >= slider("sgld_a").min && v * 554.5f64.powf(-0.55) <= unstable * (1.0 + 1e-9)), "{a:?} vs ε_0 ≤ {unstable}");
        let current = a.iter().position(|&v| (v - 0.323).abs() < 1e-3).expect("the current a is swept");
        // From the current a up: faster mixing (ESS per 1,000 gradients rises at each step) and more
        // error: the largest a's error exceeds the current one's by more than the one-sided 95 %
        // bound of their difference, 1.645·√(MCSE₁² + MCSE₂²) (DIAG.3's MCSEs).
        let (p, se) = (&runs.points, &runs.error_bars);
        assert!(p[current..].windows(2).all(|w| w[1].0 > w[0].0), "ESS per 1,000 gradients must rise with a: {p:?}");
        let last = p.len() - 1;
        let margin = 1.645 * (se[current].powi(2) + se[last].powi(2)).sqrt();
        assert!(p[last].1 - p[current].1 > margin, "larger steps, more bias: {:?} vs {:?} (± {margin})", p[last], p[current]);
        // Below it the chain has not crossed between the modes in the budget: a larger error.
        assert!(p[0].1 - p[current].1 > 1.645 * (se[0].powi(2) + se[current].powi(2)).sqrt(), "{p:?}");
        // The bias chart puts each run at its first step ε_0 = a·b^−0.55, inside the chart's range.
        let bias = analysis.chart("bias").unwrap();
        let xs: Vec<f64> = series(&bias, "bias estimate").points.iter().map(|q| q.0).collect();
        for (x, v) in xs.iter().zip(&a) {
            assert!((x / (v * 554.5f64.powf(-0.55)) - 1.0).abs() < 5e-3, "{xs:?} vs {a:?} (labels: 3 digits)");
        }
    }
}
