//! The bouncy samplers' analysis (issues 21 and 26; docs/bouncy.md §15): chains at several values
//! of the sampler's own knobs — SBPS's and pSBPS's minibatch n and band k, BPS's refresh rate λ_ref,
//! lipSBPS's minibatch n — each run for the same number of events (the page's speed × 1,200
//! frames), measuring per point
//!
//! - the covariance error E2 = Σ|C − Σ|/Σ|Σ| (SGFS eq. 14) of the segment-integral moments
//!   (BPS.11) against the truth, with its Monte-Carlo error Σ_jk se_jk / Σ|Σ_jk| from batch means
//!   over travel time (docs/bouncy.md §10), an upper bound by the triangle inequality;
//! - SBPS's bias diagnostics: bound violations G̃/λ̄ > 1 per bounce (BPS.8) and the share of the
//!   bounce intensity the band missed (src/sampler/band_check.rs), whose warning limit the chart
//!   draws;
//! - the cost: per-datum gradient evaluations per event, and the ESS of the slowest coordinate's
//!   mean per 1,000 events, Σ_jj / se_j², from the same batches.
//!
//! The points run one after another, nearest the current value first, so the marked point comes
//! first. Plain Rust, advanced in slices by the analysis worker.

use crate::chain::{Chain, ChainConfig, ChainStatus};
use crate::diagnostics::{relative_errors, Moments, TimeBatchMeans};
use crate::model::Model;
use crate::phase::log_grid;
use crate::registry::SamplerKind;
use std::sync::Arc;

/// Frames of class time per point (20 s at 60 fps, issue 26) times the page's speed.
pub const FRAMES: u64 = 1_200;
/// The page's default speed (www/app.js), when the caller gives no speed.
pub const DEFAULT_SPEED: u64 = 20;
/// Time batches of the Monte-Carlo error (between this and twice as many are kept).
const BATCHES: usize = 32;
/// Share of each point's events spent as burn-in.
const BURN_IN_FRACTION: u64 = 10;
/// Steps per call of `Chain::run_segments` (small enough to stop near the slice's work).
const STEPS_PER_CALL: u64 = 64;
/// Per-datum gradient evaluations one point may cost at most: the minibatch grid stops below the
/// n whose events would cost more (n = N of a large data set).
pub const GRADS_PER_POINT: f64 = 3e7;

/// One knob the sweep varies: a sampler parameter and its values.
#[derive(Clone, Debug, PartialEq)]
pub struct BouncyKnob {
    pub param: &'static str,
    /// The symbol on the charts ("n", "k", "λ_ref").
    pub symbol: &'static str,
    pub values: Vec<f64>,
    /// The chain's current value (one of `values`).
    pub current: f64,
    pub log_scale: bool,
}

/// A finished point's measurements.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BouncyResult {
    pub param: String,
    pub value: f64,
    /// Events the point's chain ran, its burn-in included (one tenth of `BouncySweep::events`
    /// more); for a chain that stopped, the events before it stopped.
    pub events: u64,
    pub diverged: bool,
    pub e2: f64,
    /// Monte-Carlo error of E2: Σ_jk se_jk / Σ|Σ_jk| (module doc).
    pub e2_mc: f64,
    /// Bound violations per bounce (BPS.8); NaN for samplers without a statistical band.
    pub violation_rate: f64,
    /// Share of the bounce intensity the band missed; NaN without a statistical band.
    pub missed_share: f64,
    pub grads_per_event: f64,
    /// ESS of the slowest coordinate's mean per 1,000 events after burn-in.
    pub ess_per_1000_events: f64,
}

struct Point {
    knob: usize,
    value: f64,
    chain: Option<Chain>,
    batches: TimeBatchMeans,
    result: Option<BouncyResult>,
}

/// The knobs' points, run one after another for `events` events each.
pub struct BouncySweep {
    pub knobs: Vec<BouncyKnob>,
    points: Vec<Point>,
    base: ChainConfig,
    model: Arc<dyn Model>,
    truth: Moments,
    events: u64,
    next: usize,
}

/// Values log-spaced over [lo, hi] with the current value added, rounded when `integer`, sorted;
/// a grid value within a factor 1.5 of the current one is left out (it would repeat its point).
fn spread(lo: f64, hi: f64, count: usize, current: f64, integer: bool) -> Vec<f64> {
    let near = |v: f64| v != current && (v / current).ln().abs() < 1.5f64.ln();
    let mut values: Vec<f64> = log_grid(lo, hi, count).into_iter().map(|v| if integer { v.round() } else { v }).filter(|v| !near(*v)).chain([current]).collect();
    values.sort_by(f64::total_cmp);
    values.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs());
    values
}

/// Half-decades 10^(k/2) rounded, 1, 3, 10, 32, … up to `top` (and `top` itself when it is the data size N).
fn minibatch_grid(top: f64, n_data: f64) -> (f64, usize) {
    let count = (2.0 * top.log10()).floor() as usize + 1;
    let hi = if top >= n_data { n_data } else { 10f64.powf((count - 1) as f64 / 2.0) };
    (hi, count.max(2))
}

impl BouncyKnob {
    /// The running bouncy sampler's knobs at `events` events per point; empty for other samplers.
    pub fn of(chain: &Chain, events: u64) -> Vec<BouncyKnob> {
        let spec = chain.sampler_spec();
        if spec.kind != SamplerKind::Bouncy {
            return Vec::new();
        }
        let params = chain.sampler_params();
        let n_data = chain.model().n_data() as f64;
        let minibatch = || {
            let current = params.get("batch_size").min(n_data).max(1.0);
            // The largest n a point can afford (GRADS_PER_POINT), never below the current n.
            let top = n_data.min((GRADS_PER_POINT / events.max(1) as f64).max(current));
            let (hi, count) = minibatch_grid(top.max(1.0), n_data);
            BouncyKnob { param: "batch_size", symbol: "n", values: spread(1.0, hi, count, current, true), current, log_scale: true }
        };
        match spec.name {
            "sbps" | "psbps" => {
                let k = params.get("band_k");
                let mut ks = vec![0.0, 1.0, 3.0, 6.0, 10.0, k];
                ks.sort_by(f64::total_cmp);
                ks.dedup();
                vec![minibatch(), BouncyKnob { param: "band_k", symbol: "k", values: ks, current: k, log_scale: false }]
            }
            "lipsbps" => vec![minibatch()],
            _ => {
                // BPS: λ_ref over a factor 10 either side of the current rate (slider 0 … 20; a rate
                // of 0 is not on a log axis, and the current value is raised to 0.01 there).
                let current = params.get("refresh_rate").max(0.01);
                vec![BouncyKnob { param: "refresh_rate", symbol: "λ_ref", values: spread((current / 10.0).max(0.01), (current * 10.0).min(20.0), 5, current, false), current, log_scale: true }]
            }
        }
    }
}

impl BouncySweep {
    /// Points of `knobs` on `chain`'s target (its built `model`, shared) with the chain's other
    /// sampler settings, `events` events each, measured against `truth`.
    pub fn new(config: &ChainConfig, chain: &Chain, knobs: Vec<BouncyKnob>, truth: Moments, events: u64) -> BouncySweep {
        let mut base = config.clone();
        base.settings.retain(|(n, _)| chain.target_spec().params.iter().any(|p| p.name == n));
        base.settings.extend(chain.sampler_params().iter().map(|(n, v)| (n.to_string(), v.to_string())));
        base.burn_in = events / BURN_IN_FRACTION;
        base.capacity = 1;
        let mut points: Vec<Point> = Vec::new();
        for (k, knob) in knobs.iter().enumerate() {
            let mut values = knob.values.clone();
            // Nearest the current value first (log distance on a log axis).
            let distance = |v: f64| if knob.log_scale { (v.max(1e-300) / knob.current.max(1e-300)).ln().abs() } else { (v - knob.current).abs() };
            values.sort_by(|a, b| distance(*a).total_cmp(&distance(*b)));
            // The current setting is one point: the first knob's (the same chain, seed and events).
            for value in values.into_iter().filter(|v| k == 0 || *v != knob.current) {
                points.push(Point { knob: k, value, chain: None, batches: TimeBatchMeans::new(&truth.mean, BATCHES, 1e-6), result: None });
            }
        }
        BouncySweep { knobs, points, base, model: chain.shared_model(), truth, events, next: 0 }
    }

    pub fn events(&self) -> u64 {
        self.events
    }

    /// Run up to about `max_work` (gradient evaluations plus events); returns the progress.
    pub fn advance(&mut self, max_work: u64) -> f64 {
        let mut work = 0;
        while self.next < self.points.len() && work < max_work {
            work += self.step_point();
        }
        self.progress()
    }

    /// One slice of the current point; its work.
    fn step_point(&mut self) -> u64 {
        let (events, burn_in) = (self.events, self.base.burn_in);
        let point = &mut self.points[self.next];
        if point.chain.is_none() {
            let mut config = self.base.clone();
            config.settings.retain(|(n, _)| n != self.knobs[point.knob].param);
            config.settings.push((self.knobs[point.knob].param.to_string(), point.value.to_string()));
            match Chain::with_model(&config, self.model.clone()) {
                Ok(chain) => point.chain = Some(chain),
                Err(_) => {
                    point.result = Some(failed(&self.knobs[point.knob], point.value));
                    self.next += 1;
                    return 1;
                }
            }
        }
        let chain = point.chain.as_mut().expect("built above");
        let (grads, steps) = (chain.grad_evals(), chain.steps());
        let batches = &mut point.batches;
        chain.run_segments(STEPS_PER_CALL.min(events + burn_in - steps), &mut |start, velocity, duration| batches.add_segment(start, velocity, duration));
        let work = (chain.grad_evals() - grads) + (chain.steps() - steps);
        if chain.steps() >= events + burn_in || *chain.status() != ChainStatus::Running {
            point.result = Some(measure(point, &self.knobs[point.knob], &self.truth, events));
            point.chain = None;
            self.next += 1;
        }
        work.max(1)
    }

    /// Fraction of the points' events run.
    pub fn progress(&self) -> f64 {
        if self.points.is_empty() {
            return 1.0;
        }
        let total = (self.events + self.base.burn_in) as f64;
        let running = self.points.get(self.next).and_then(|p| p.chain.as_ref()).map_or(0.0, |c| c.steps() as f64 / total);
        (self.next as f64 + running) / self.points.len() as f64
    }

    pub fn is_done(&self) -> bool {
        self.next >= self.points.len()
    }

    /// The finished points' results, sorted by knob and value (the current setting's under every
    /// knob).
    pub fn results(&self) -> Vec<BouncyResult> {
        let mut out: Vec<(usize, BouncyResult)> = self.points.iter().filter_map(|p| p.result.clone().map(|r| (p.knob, r))).collect();
        let current = self.points.iter().find(|p| p.knob == 0 && p.value == self.knobs[0].current).and_then(|p| p.result.clone());
        for (k, knob) in self.knobs.iter().enumerate().skip(1) {
            out.extend(current.clone().map(|r| (k, BouncyResult { param: knob.param.into(), value: knob.current, ..r })));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.value.total_cmp(&b.1.value)));
        out.into_iter().map(|(_, r)| r).collect()
    }
}

fn failed(knob: &BouncyKnob, value: f64) -> BouncyResult {
    BouncyResult { param: knob.param.into(), value, events: 0, diverged: true, e2: f64::NAN, e2_mc: f64::NAN, violation_rate: f64::NAN, missed_share: f64::NAN, grads_per_event: f64::NAN, ess_per_1000_events: f64::NAN }
}

/// A finished point's numbers (module doc).
fn measure(point: &Point, knob: &BouncyKnob, truth: &Moments, events: u64) -> BouncyResult {
    let chain = point.chain.as_ref().expect("a finished point's chain");
    if *chain.status() != ChainStatus::Running || point.batches.batches() < 2 {
        return BouncyResult { events: chain.steps(), ..failed(knob, point.value) };
    }
    let (_, e2) = relative_errors(&chain.moments(), truth);
    let d = truth.mean.len();
    let scale: f64 = truth.cov.iter().flatten().map(|c| c.abs()).sum();
    let se = |j: usize, k: usize| point.batches.estimate(j.min(k), Some(j.max(k))).map_or(f64::NAN, |(_, se)| se);
    let e2_mc = (0..d).flat_map(|j| (0..d).map(move |k| (j, k))).map(|(j, k)| se(j, k)).sum::<f64>() / scale;
    let ess = (0..d).map(|j| point.batches.estimate(j, None).map_or(f64::NAN, |(_, se)| truth.cov[j][j] / (se * se))).fold(f64::INFINITY, f64::min);
    let diagnostic = |name: &str| chain.diagnostics().into_iter().find(|g| g.name == name).map_or(f64::NAN, |g| g.value);
    let band = matches!(chain.sampler_spec().name, "sbps" | "psbps");
    BouncyResult {
        param: knob.param.into(),
        value: point.value,
        events: chain.steps(),
        diverged: false,
        e2,
        e2_mc,
        violation_rate: if band { diagnostic("violation_rate") } else { f64::NAN },
        missed_share: if band { diagnostic("missed_bounce_share") } else { f64::NAN },
        grads_per_event: chain.grad_evals() as f64 / chain.steps().max(1) as f64,
        ess_per_1000_events: 1000.0 * ess / events as f64,
    }
}
