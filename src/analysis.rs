//! Background analysis of the current setting: the noise-vs-step-size phase picture of SGLD and a
//! bias–mixing sweep at equal gradient budget. Built from a chain's configuration, advanced in
//! bounded slices, and turned into chart specifications.

use crate::chain::{Chain, ChainConfig};
use crate::diagnostics::Moments;
use crate::params::ParamSpec;
use crate::phase::{log_grid, mh_rejection_probability, noise_scale, NoiseScale};
use crate::error_split::PredictedError;
use crate::law::predicted_law;
use crate::plot::analysis_panels::{bias_chart, noise_chart, tradeoff_chart, BiasCurves, Measured};
use crate::plot::chart::ChartSpec;
use crate::registry::{self, SamplerKind};
use crate::rng::{chain_rng, index_below};
use crate::sweep::{Sweep, SweepCurve};

/// Points of a sweep curve (odd, so the current value is the middle one).
const SWEEP_POINTS: usize = 7;
/// Step sizes at which the MH rejection probability is estimated.
const REJECTION_GRID: usize = 10;
/// Cap on per-datum gradient evaluations spent on the rejection curve.
const REJECTION_BUDGET: f64 = 1e7;

pub struct Analysis {
    sweep: Sweep,
    predictions: Predictions,
    noise: NoiseScale,
    rejection: Vec<(f64, f64)>,
    step_range: (f64, f64),
    current_step: f64,
    current: (String, String, f64),
}

impl Analysis {
    /// Set up the analysis of `chain` (built from `config`) against `truth`, giving every sweep
    /// chain `budget` per-datum gradient evaluations.
    pub fn new(config: &ChainConfig, chain: &Chain, truth: Moments, budget: u64) -> Result<Analysis, String> {
        let sampler = chain.sampler_spec();
        let sgld = registry::sampler("sgld")?;
        let step_spec = param(sgld.params, "step_size")?;
        // SGLD's own sweep centres on the current ε, or on SGLD's derived default for this target
        // (a fixed ε would be thousands of times too large at N = 10⁶).
        let sgld_default = |name: &str, fallback: f64| {
            let derived = (sgld.derive)(chain.model(), &crate::params::ParamValues::defaults(sgld.params));
            derived.iter().find(|d| d.name == name).map_or(fallback, |d| d.default)
        };
        let current_step = if sampler.name == "sgld" { chain.sampler_params().get("step_size") } else { sgld_default("step_size", step_spec.default) };
        let step_range = ((current_step / 100.0).max(step_spec.min), (current_step * 100.0).min(step_spec.max));
        let batch = chain.sampler_params().try_get("batch_size").unwrap_or_else(|| sgld_default("batch_size", 10.0));
        let batch_setting = vec![("batch_size".to_string(), batch.to_string())];
        let mut curves = vec![SweepCurve {
            sampler: "sgld".into(),
            param: "step_size".into(),
            values: knob_values(step_spec, current_step),
            settings: batch_setting,
        }];
        let mut current = ("sgld".to_string(), "step_size".to_string(), current_step);
        if let Some(knob) = main_knob(sampler.params).filter(|_| sampler.name != "sgld" && sampler.kind != SamplerKind::Bouncy) {
            let value = chain.sampler_params().get(knob.name);
            let settings = chain.sampler_params().iter().filter(|(n, _)| *n != knob.name).map(|(n, v)| (n.to_string(), v.to_string())).collect();
            curves.push(SweepCurve { sampler: sampler.name.into(), param: knob.name.into(), values: knob_values(knob, value), settings });
            current = (sampler.name.to_string(), knob.name.to_string(), value);
        }
        let mut base = config.clone();
        base.settings.retain(|(n, _)| chain.target_spec().params.iter().any(|p| p.name == n));
        let sweep = Sweep::new(&base, Some(chain.shared_model()), curves, budget, truth)?;
        let (noise, rejection) = phase_picture(chain, batch as usize, step_range, config.seed);
        #[cfg(test)]
        let started = std::time::Instant::now();
        let predictions = Predictions::of(&sweep, chain, step_range, sweep.truth());
        #[cfg(test)]
        eprintln!("Predictions::of: {:?}", started.elapsed());
        Ok(Analysis { sweep, predictions, noise, rejection, step_range, current_step, current })
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
        match kind {
            "noise" => Some(noise_chart(&self.noise, self.step_range, self.current_step)),
            "bias" => {
                let measured: Vec<Measured> = self.sweep.results().iter().filter(|r| r.sampler == "sgld").filter_map(Measured::of).collect();
                let p = &self.predictions;
                Some(bias_chart(&BiasCurves { bias: &p.bias, mc: &p.mc, budget: self.sweep.budget(), reason: p.reason.as_deref() }, &measured, &self.rejection, self.step_range, self.current_step))
            }
            "sweep" => {
                let (sampler, param, _) = &self.current;
                let measured: Vec<Measured> =
                    self.sweep.results().iter().filter(|r| r.sampler == *sampler && r.param == *param).filter_map(Measured::of).collect();
                let p = &self.predictions;
                Some(tradeoff_chart(&p.knob_symbol, &p.tradeoff, &measured, self.sweep.budget(), p.tradeoff_reason.as_deref()))
            }
            _ => None,
        }
    }

    pub fn results_json(&self) -> serde_json::Value {
        serde_json::json!({
            "progress": self.sweep.progress(),
            "results": self.sweep.results(),
            "noise": self.noise,
            "threshold_crossing": self.noise.crossing(),
            "rejection": self.rejection,
        })
    }
}

/// Points of the predicted bias curve over the step-size range.
const BIAS_GRID: usize = 40;
/// Points of the predicted Monte Carlo error curve (each costs an autocovariance series).
const MC_GRID: usize = 12;

/// The analysis charts' predicted parts (src/law.rs, src/error_split.rs): SGLD's bias and Monte
/// Carlo error over ε at the sweep's settings, and the error-vs-budget curves of the current
/// sampler's knob. Pure and bounded (2-D Gaussian: a few ms natively); a worker can compute it.
pub struct Predictions {
    pub bias: Vec<(f64, f64)>,
    pub mc: Vec<(f64, f64)>,
    /// Why there is no predicted bias (the measured errors then stand alone), if there is none.
    pub reason: Option<String>,
    pub knob_symbol: String,
    pub tradeoff: Vec<(f64, PredictedError)>,
    pub tradeoff_reason: Option<String>,
}

impl Predictions {
    pub fn of(sweep: &Sweep, chain: &Chain, step_range: (f64, f64), truth: &Moments) -> Predictions {
        let model = chain.model();
        let sgld_params = sweep.curve_params(0).cloned().unwrap_or_else(|| crate::params::ParamValues::defaults(crate::sampler::sgld::PARAMS));
        let at = |sampler: &str, params: &crate::params::ParamValues, name: &str, value: f64| {
            let mut params = params.clone();
            let spec = registry::sampler(sampler).ok()?;
            params.set(spec.params, name, value).ok()?;
            let law = predicted_law(sampler, &params, model).ok()?;
            let grads = params.try_get("batch_size").map_or(model.n_data() as f64, |n| n.round().clamp(1.0, model.n_data() as f64));
            Some((law, grads))
        };
        let bias: Vec<(f64, f64)> = log_grid(step_range.0, step_range.1, BIAS_GRID)
            .into_iter()
            .filter_map(|e| at("sgld", &sgld_params, "step_size", e).map(|(law, _)| (e, crate::error_split::relative_bias(&law.cov, truth))))
            .collect();
        let budget = sweep.budget() as f64;
        let mc = log_grid(step_range.0, step_range.1, MC_GRID)
            .into_iter()
            .filter_map(|e| {
                let (law, grads) = at("sgld", &sgld_params, "step_size", e)?;
                Some((e, PredictedError::of(&law, truth, grads)?.mc_error(budget)))
            })
            .collect();
        let reason = bias.is_empty().then(|| predicted_law("sgld", &sgld_params, model).err().unwrap_or_else(|| "unstable over the whole range".into()));
        let curve = sweep.curves().len() - 1;
        let own = &sweep.curves()[curve];
        let own_params = sweep.curve_params(curve).cloned().unwrap_or_else(|| sgld_params.clone());
        let knob = registry::sampler(&own.sampler).ok().and_then(|s| s.params.iter().find(|p| p.name == own.param));
        let middle = own.values[own.values.len() / 2];
        let tradeoff: Vec<(f64, PredictedError)> = knob
            .map_or_else(|| own.values.clone(), |k| tradeoff_values(k, middle))
            .into_iter()
            .filter_map(|v| {
                let (law, grads) = at(&own.sampler, &own_params, &own.param, v)?;
                Some((v, PredictedError::of(&law, truth, grads)?))
            })
            .collect();
        let tradeoff_reason = tradeoff.is_empty().then(|| predicted_law(&own.sampler, &own_params, model).err().unwrap_or_else(|| "no stable setting in the sweep".into()));
        let knob_symbol = knob.map_or(own.param.clone(), |k| k.symbol.to_string());
        Predictions { bias, mc, reason, knob_symbol, tradeoff, tradeoff_reason }
    }
}

/// The trade-off chart's knob values around the current `value`: × {1/4, 1/2, 1, 2, 4} on a log
/// scale, ± {2, 1, 0}·max(1, |value|/3) on a linear one (SGFS's α), within the knob's range.
fn tradeoff_values(spec: &ParamSpec, value: f64) -> Vec<f64> {
    let step = (value.abs() / 3.0).max(1.0);
    let mut values: Vec<f64> = (-2..=2)
        .map(|k| if spec.log_scale { value * 2f64.powi(k) } else { value + k as f64 * step })
        .filter(|v| (spec.min..=spec.max).contains(v))
        .collect();
    values.dedup();
    values
}

fn param(specs: &'static [ParamSpec], name: &str) -> Result<&'static ParamSpec, String> {
    specs.iter().find(|p| p.name == name).ok_or_else(|| format!("parameter {name} missing"))
}

/// A sampler's main knob: its first numeric parameter that is not the minibatch size.
fn main_knob(params: &'static [ParamSpec]) -> Option<&'static ParamSpec> {
    params.iter().find(|p| p.name != "batch_size" && p.choices.is_empty())
}

/// Sweep values with the current `value` in the middle: log-spaced over a factor 30 either side
/// for log-scale knobs, evenly spaced steps of max(1, |value|/3) otherwise; clamped to the range.
fn knob_values(spec: &ParamSpec, value: f64) -> Vec<f64> {
    let half = (SWEEP_POINTS / 2) as f64;
    let mut values: Vec<f64> = (0..SWEEP_POINTS)
        .map(|k| {
            let offset = k as f64 - half;
            let v = if spec.log_scale { value * 30f64.powf(offset / half) } else { value + offset * (value.abs() / 3.0).max(1.0) };
            v.clamp(spec.min, spec.max)
        })
        .collect();
    values.dedup();
    values
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
    fn analysis_of_an_exact_sampler_sweeps_sgld_and_its_own_knob() {
        let config = ChainConfig::new("gaussian", "mala", 1);
        let mut chain = Chain::new(&config).unwrap();
        chain.run(500);
        let truth = chain.model().exact_moments().unwrap();
        let mut analysis = Analysis::new(&config, &chain, truth, 20_000).unwrap();
        assert_eq!(analysis.sweep.curves().len(), 2);
        assert_eq!(analysis.sweep.curves()[1].param, "mala_step");
        while analysis.advance(50_000) < 1.0 {}
        assert!(analysis.is_done());
        for kind in ["noise", "bias", "sweep"] {
            assert!(analysis.chart(kind).is_some());
        }
        let rejection = &analysis.rejection;
        assert!(rejection.first().unwrap().1 < rejection.last().unwrap().1, "{rejection:?}");
    }

    /// SGLD on the ρ = 0.9 Gaussian at its derived defaults: the analysis the page starts.
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
        let mc = &series(&spec, "Monte Carlo error").points;
        assert!(mc.len() >= 6 && mc.windows(2).all(|w| w[1].1 < w[0].1), "Monte Carlo error must fall with ε: {mc:?}");
        // At the largest stable ε bias dominates, at the smallest the Monte Carlo error does.
        assert!(bias.last().unwrap().1 > mc.last().unwrap().1 && bias[0].1 < mc[0].1, "{bias:?} {mc:?}");
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
}
