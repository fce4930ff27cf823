//! Scan charts (issue 27; SBPS paper Fig. 1, 10 and 11, docs/bouncy.md §13): one measured number
//! per value of a knob, x = the knob, y = the number, one curve per sampler. Each point is the mean
//! over `replicas` independently seeded chains (seeds `seed`, `seed + 1`, …), each run for the same
//! per-datum gradient budget (or, for a sampler without gradient evaluations such as exact BPS on a
//! Gaussian, the same number of steps), with ± its standard error over the replicas as error bars.
//! Plain Rust: a Web Worker advances a [`Scan`] in slices and posts its [`ChartSpec`].

use crate::chain::{Chain, ChainConfig, ChainStatus};
use crate::scan_estimator::CosineEstimator;
use crate::plot::chart::{ChartSpec, Series, Style, PALETTE};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What each run measures, read from the finished chain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Measure {
    /// A sampler diagnostic, or the ratio of two (bounces per unit time: `bounces` / `total_time`).
    Diagnostic { numerator: String, denominator: Option<String> },
    /// The sample variance of one coordinate (segment-integral moments for the bouncy samplers).
    Variance { coordinate: usize },
    /// SBPS Fig. 5: |estimate − exp(−σ²/(2ℓ²))| of E[cos((x_i − center)/ℓ)] on a Gaussian marginal
    /// N(center, σ²), with ℓ the scan's value (the knob is the test function's, not the chain's):
    /// the continuous-trajectory estimator, or (`discrete`) the points every `spacing` of time.
    CosineError { coordinate: usize, center: f64, sd: f64, spacing: f64, discrete: bool },
}

/// One curve: a sampler and the settings it adds to the scan's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    pub label: String,
    pub sampler: String,
    #[serde(default)]
    pub settings: BTreeMap<String, f64>,
    /// The knob is not applied to this curve: a reference sampler run alike at every x (exact
    /// MALA beside SGLD's step-size scan).
    #[serde(default)]
    pub fixed: bool,
    /// This curve's own measure (the discrete estimator beside the continuous one of SBPS Fig. 5).
    #[serde(default)]
    pub measure: Option<Measure>,
}

/// A horizontal reference line (e.g. the truth's variance).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    pub label: String,
    pub y: f64,
}

/// The whole scan, as the page sends it (a figure preset's `scan` field plus its target and seed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScanSpec {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    #[serde(default)]
    pub log_x: bool,
    #[serde(default)]
    pub log_y: bool,
    pub target: String,
    /// Settings shared by every run (target and sampler parameters).
    #[serde(default)]
    pub settings: BTreeMap<String, f64>,
    /// The knob: a target or sampler parameter, and its values (the x axis); "length" is the test
    /// function's ℓ of [`Measure::CosineError`] and is not given to the chain.
    pub param: String,
    pub values: Vec<f64>,
    pub curves: Vec<Curve>,
    pub measure: Measure,
    pub seed: u64,
    pub replicas: usize,
    /// Per-datum gradient evaluations per run.
    pub budget: u64,
    /// Steps per run at most (ends runs of samplers that evaluate no gradients).
    pub max_steps: u64,
    #[serde(default)]
    pub reference: Option<Reference>,
}

/// One point of a curve: the mean over the replicas and its standard error.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScanPoint {
    pub x: f64,
    pub y: f64,
    pub se: f64,
    pub replicas: usize,
}

/// A scan in progress: the runs are done in order (curve, value, replica), one chain at a time.
pub struct Scan {
    spec: ScanSpec,
    /// results[curve][value] = the measured number of each finished replica.
    results: Vec<Vec<Vec<f64>>>,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub next: usize,
    running: Option<Chain>,
    /// The running chain's test-function estimator (SBPS Fig. 5 only).
    estimator: Option<CosineEstimator>,
    /// A run that failed to build or diverged: its message (the scan stops).
    failure: Option<String>,
}

/// Steps per call of `Chain::run` while advancing (small enough to stop near the budget).
#[doc(hidden)] // pub for tests/unit (issue 23)
pub const STEPS_PER_CALL: u64 = 200;

impl Scan {
    pub fn new(spec: ScanSpec) -> Result<Scan, String> {
        if spec.values.is_empty() || spec.curves.is_empty() {
            return Err("a scan needs at least one value and one curve".into());
        }
        if spec.replicas == 0 || (spec.budget == 0 && spec.max_steps == 0) {
            return Err("a scan needs at least one replica and a budget".into());
        }
        let results = spec.curves.iter().map(|_| vec![Vec::new(); spec.values.len()]).collect();
        Ok(Scan { spec, results, next: 0, running: None, estimator: None, failure: None })
    }

    pub fn spec(&self) -> &ScanSpec {
        &self.spec
    }

    fn total_runs(&self) -> usize {
        self.spec.curves.len() * self.spec.values.len() * self.spec.replicas
    }

    /// (curve, value index, replica) of run number `k`.
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub fn run_index(&self, k: usize) -> (usize, usize, usize) {
        let per_curve = self.spec.values.len() * self.spec.replicas;
        (k / per_curve, (k % per_curve) / self.spec.replicas, k % self.spec.replicas)
    }

    /// The chain of run `k`: the scan's settings, the curve's, the knob's value, seed + replica.
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub fn build(&self, k: usize) -> Result<Chain, String> {
        let (c, v, r) = self.run_index(k);
        let curve = &self.spec.curves[c];
        let mut config = ChainConfig::new(&self.spec.target, &curve.sampler, self.spec.seed + r as u64);
        for (name, value) in self.spec.settings.iter().chain(curve.settings.iter()) {
            crate::lab::set_setting(&mut config, name, *value);
        }
        if !curve.fixed && !self.knob_is_the_measures() {
            crate::lab::set_setting(&mut config, &self.spec.param, self.spec.values[v]);
        }
        Chain::new(&config)
    }

    /// The measure of curve `c`: its own, or the scan's.
    fn measure_of(&self, c: usize) -> &Measure {
        self.spec.curves[c].measure.as_ref().unwrap_or(&self.spec.measure)
    }

    fn knob_is_the_measures(&self) -> bool {
        matches!(self.spec.measure, Measure::CosineError { .. }) && self.spec.param == "length"
    }

    /// The test-function estimator of run `k` (SBPS Fig. 5), when the measure needs one.
    fn estimator(&self, k: usize) -> Option<CosineEstimator> {
        match *self.measure_of(self.run_index(k).0) {
            Measure::CosineError { coordinate, center, spacing, .. } => Some(CosineEstimator::new(coordinate, center, self.spec.values[self.run_index(k).1], spacing)),
            _ => None,
        }
    }

    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub fn finished_run(&self, chain: &Chain) -> bool {
        (self.spec.budget > 0 && chain.grad_evals() >= self.spec.budget) || chain.steps() >= self.spec.max_steps
    }

    /// Run up to about `max_work` units (per-datum gradient evaluations, or steps when a run
    /// evaluates none); returns the fraction of runs done, 1 when complete, −1 after a failure.
    pub fn advance(&mut self, max_work: u64) -> f64 {
        let mut work = 0u64;
        while self.failure.is_none() && self.next < self.total_runs() && work < max_work {
            if self.running.is_none() {
                match self.build(self.next) {
                    Ok(chain) => {
                        self.running = Some(chain);
                        self.estimator = self.estimator(self.next);
                    }
                    Err(message) => self.failure = Some(message),
                }
                continue;
            }
            let chain = self.running.as_mut().expect("a running chain");
            let (grads, steps) = (chain.grad_evals(), chain.steps());
            match self.estimator.as_mut() {
                Some(estimator) => chain.run_segments(STEPS_PER_CALL, &mut |start, velocity, duration| estimator.add_piece(start, velocity, duration)),
                None => chain.run(STEPS_PER_CALL),
            };
            work += (chain.grad_evals() - grads).max(chain.steps() - steps);
            if let ChainStatus::Diverged(message) = chain.status() {
                self.failure = Some(message.clone());
            } else if self.finished_run(self.running.as_ref().expect("a running chain")) {
                let chain = self.running.take().expect("a running chain");
                let (c, v, _) = self.run_index(self.next);
                let value = match (self.measure_of(c), &self.estimator) {
                    (Measure::CosineError { sd, discrete, .. }, Some(e)) => ((if *discrete { e.discrete() } else { e.continuous() }) - e.gaussian_truth(*sd)).abs(),
                    (other, _) => measure(other, &chain),
                };
                self.results[c][v].push(value);
                self.next += 1;
            }
        }
        if self.failure.is_some() {
            -1.0
        } else {
            self.next as f64 / self.total_runs() as f64
        }
    }

    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// The finished points of each curve (values whose replicas are all done).
    pub fn points(&self) -> Vec<Vec<ScanPoint>> {
        self.results
            .iter()
            .map(|curve| {
                curve
                    .iter()
                    .zip(&self.spec.values)
                    .filter(|(runs, _)| runs.len() == self.spec.replicas)
                    .map(|(runs, &x)| {
                        let (y, se) = mean_and_se(runs);
                        ScanPoint { x, y, se, replicas: runs.len() }
                    })
                    .collect()
            })
            .collect()
    }

    /// The chart: one line with points and ± SE bars per curve, the reference dashed.
    pub fn chart(&self) -> ChartSpec {
        let s = &self.spec;
        let mut series: Vec<Series> = self
            .points()
            .into_iter()
            .zip(&s.curves)
            .enumerate()
            .map(|(k, (points, curve))| {
                let bars = points.iter().map(|p| p.se).collect();
                Series::new(&curve.label, points.iter().map(|p| (p.x, p.y)).collect(), PALETTE[k % PALETTE.len()], Style::LineAndPoints).with_error_bars(bars)
            })
            .collect();
        if let Some(reference) = &s.reference {
            let (lo, hi) = s.values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
            series.push(Series::new(&reference.label, vec![(lo, reference.y), (hi, reference.y)], RGB_BLACK, Style::Dashed));
        }
        ChartSpec { title: s.title.clone(), x_label: s.x_label.clone(), y_label: s.y_label.clone(), log_x: s.log_x, log_y: s.log_y, series, markers: Vec::new(), x_range: None, y_range: None }
    }
}

const RGB_BLACK: plotters::style::RGBColor = plotters::style::RGBColor(0, 0, 0);

/// The measured number of a finished run (NaN when the chain lacks the diagnostic).
pub fn measure(measure: &Measure, chain: &Chain) -> f64 {
    match measure {
        Measure::Diagnostic { numerator, denominator } => {
            let diagnostics = chain.diagnostics();
            let read = |name: &str| diagnostics.iter().find(|d| d.name == name).map_or(f64::NAN, |d| d.value);
            let top = read(numerator);
            denominator.as_deref().map_or(top, |d| top / read(d))
        }
        Measure::CosineError { .. } => f64::NAN, // needs the run's pieces: Scan::advance
        Measure::Variance { coordinate } => {
            let moments = chain.moments();
            moments.cov.get(*coordinate).and_then(|row| row.get(*coordinate)).copied().unwrap_or(f64::NAN)
        }
    }
}

/// Mean and standard error (sd/√R; 0 for one replica) of the finite values.
fn mean_and_se(values: &[f64]) -> (f64, f64) {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let n = finite.len() as f64;
    if finite.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mean = finite.iter().sum::<f64>() / n;
    if finite.len() < 2 {
        return (mean, 0.0);
    }
    let var = finite.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}
