//! Bias–mixing sweeps (SGFS paper Fig. 2): chains at several values of one parameter (step size ε,
//! SGFS's α, …), each given the same budget of per-datum gradient evaluations, report their
//! error against the truth (E1/E2 of SGFS eq. 14) and their ESS per 1,000 gradient evaluations.
//! Work is done in bounded slices so the page can run a sweep in the background.

use crate::chain::{Chain, ChainConfig, ChainStatus};
use crate::diagnostics::{effective_sample_size, relative_errors, Moments};
use crate::error_split::measured_error;
use crate::model::Model;
use std::sync::Arc;

/// One curve of a sweep: a sampler and the parameter it varies.
#[derive(Clone, Debug)]
pub struct SweepCurve {
    pub sampler: String,
    pub param: String,
    pub values: Vec<f64>,
    /// Extra `name=value` settings for this sampler (e.g. the minibatch size of the main chain).
    pub settings: Vec<(String, String)>,
    /// Retain every sample after warm-up (up to [`WHOLE_RUN_CAPACITY`]) instead of the latest
    /// 20,000: under a decreasing step schedule (SGLD.3) the latest samples are not the run, so its
    /// error's MCSE and its ESS are measured over the whole run.
    pub whole_run: bool,
}

/// One finished or running point.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SweepResult {
    pub sampler: String,
    pub param: String,
    pub value: f64,
    pub grad_evals: u64,
    pub e1: f64,
    pub e2: f64,
    pub ess_per_1000_grads: f64,
    pub diverged: bool,
    /// ‖Ĉ − Σ‖_F/‖Σ‖_F and its Monte Carlo standard error ([`crate::error_split::measured_error`]).
    pub error: f64,
    pub error_mcse: f64,
}

struct SweepPoint {
    curve: usize,
    value: f64,
    chain: Chain,
    warmed_up: bool,
    /// The measured error and its MCSE, computed once when the point has used its budget.
    measured: Option<(f64, f64)>,
    /// The result of a finished point (budget spent or diverged), computed by the first
    /// [`Sweep::results`] after it finished: its chain no longer changes, so neither does its
    /// result (the ESS over up to 20,000 samples was recomputed on every results call, twice a
    /// second per finished point, issue 26).
    finished: std::cell::OnceCell<SweepResult>,
    /// How many times this point's ESS has been computed (read by [`Sweep::ess_computations`]).
    ess_computations: std::cell::Cell<u64>,
}

/// A set of chains sharing a gradient budget, advanced round-robin in slices.
pub struct Sweep {
    curves: Vec<SweepCurve>,
    points: Vec<SweepPoint>,
    budget: u64,
    truth: Moments,
    next: usize,
}

/// Fraction of each budget spent as burn-in (statistics are cleared afterwards).
const WARM_UP_FRACTION: f64 = 0.1;
/// Steps per slice of one chain; small enough to keep a slice short for exact samplers.
const STEPS_PER_SLICE: u64 = 64;
/// Samples retained by a whole-run curve's chain (200,000 SGLD steps at n = 1: the page's budget).
pub const WHOLE_RUN_CAPACITY: usize = 250_000;
/// ESS is computed on at most this many retained samples (longer rings are thinned evenly).
const ESS_POINTS: usize = 20_000;

impl Sweep {
    /// `base` fixes the target, its settings, the data and the seed; each curve adds its sampler.
    /// `model`, when given, is the already built target of `base` (shared, not rebuilt).
    pub fn new(base: &ChainConfig, model: Option<Arc<dyn Model>>, curves: Vec<SweepCurve>, budget: u64, truth: Moments) -> Result<Sweep, String> {
        let mut points = Vec::new();
        for (index, curve) in curves.iter().enumerate() {
            for &value in &curve.values {
                let mut config = base.clone();
                config.sampler = curve.sampler.clone();
                config.settings.extend(curve.settings.iter().cloned());
                config.settings.push((curve.param.clone(), value.to_string()));
                config.capacity = if curve.whole_run { WHOLE_RUN_CAPACITY.min(budget as usize).max(20_000) } else { 20_000 };
                config.burn_in = 0;
                let chain = match &model {
                    Some(m) => Chain::with_model(&config, m.clone())?,
                    None => Chain::new(&config)?,
                };
                points.push(SweepPoint { curve: index, value, chain, warmed_up: false, measured: None, finished: Default::default(), ess_computations: Default::default() });
            }
        }
        Ok(Sweep { curves, points, budget, truth, next: 0 })
    }

    /// Spend up to about `max_grad_evals` gradient evaluations; returns true when every chain has
    /// used its budget (or diverged).
    pub fn advance(&mut self, max_grad_evals: u64) -> bool {
        let mut spent = 0;
        let mut idle_rounds = 0;
        while spent < max_grad_evals && idle_rounds < self.points.len() {
            let index = self.next;
            self.next = (self.next + 1) % self.points.len();
            let point = &mut self.points[index];
            if !point.is_active(self.budget) {
                idle_rounds += 1;
                continue;
            }
            idle_rounds = 0;
            let before = point.chain.grad_evals();
            point.chain.run(STEPS_PER_SLICE);
            if !point.warmed_up && point.chain.grad_evals() as f64 >= WARM_UP_FRACTION * self.budget as f64 {
                point.chain.clear_statistics();
                point.warmed_up = true;
            }
            spent += point.chain.grad_evals() - before;
            if !point.is_active(self.budget) && point.warmed_up {
                point.measured = measured_error(&point.chain.moments(), point.chain.samples(), point.chain.samples_since_clear() as f64, &self.truth);
            }
        }
        self.is_done()
    }

    pub fn is_done(&self) -> bool {
        self.points.iter().all(|p| !p.is_active(self.budget))
    }

    /// Fraction of the total budget spent.
    pub fn progress(&self) -> f64 {
        if self.points.is_empty() {
            return 1.0;
        }
        let total = self.budget as f64 * self.points.len() as f64;
        let spent: f64 = self.points.iter().map(|p| if p.is_active(self.budget) { p.chain.grad_evals().min(self.budget) as f64 } else { self.budget as f64 }).sum();
        spent / total
    }

    pub fn curves(&self) -> &[SweepCurve] {
        &self.curves
    }

    /// The resolved sampler parameters of curve `curve`'s first chain (derived defaults included).
    pub fn curve_params(&self, curve: usize) -> Option<&crate::params::ParamValues> {
        self.points.iter().find(|p| p.curve == curve).map(|p| p.chain.sampler_params())
    }

    pub fn budget(&self) -> u64 {
        self.budget
    }

    pub fn truth(&self) -> &Moments {
        &self.truth
    }

    /// Current estimates for every point (running chains report what they have so far; a finished
    /// point's result is computed once and kept).
    pub fn results(&self) -> Vec<SweepResult> {
        self.points.iter().map(|p| p.current_result(&self.curves[p.curve], &self.truth, self.budget)).collect()
    }

    /// How many ESS computations [`Sweep::results`] has made over all points (a finished point's
    /// is made once).
    pub fn ess_computations(&self) -> u64 {
        self.points.iter().map(|p| p.ess_computations.get()).sum()
    }
}

impl SweepPoint {
    fn is_active(&self, budget: u64) -> bool {
        *self.chain.status() == ChainStatus::Running && self.chain.grad_evals() < budget
    }

    /// The point's result: kept once the point has finished, computed afresh while it runs.
    fn current_result(&self, curve: &SweepCurve, truth: &Moments, budget: u64) -> SweepResult {
        if self.is_active(budget) {
            return self.result(curve, truth);
        }
        self.finished.get_or_init(|| self.result(curve, truth)).clone()
    }

    fn result(&self, curve: &SweepCurve, truth: &Moments) -> SweepResult {
        let diverged = *self.chain.status() != ChainStatus::Running;
        let usable = self.warmed_up && !diverged;
        let moments = self.chain.moments();
        let (e1, e2) = if usable { relative_errors(&moments, truth) } else { (f64::NAN, f64::NAN) };
        let (error, error_mcse) = self.measured.filter(|_| usable).unwrap_or((f64::NAN, f64::NAN));
        SweepResult {
            sampler: curve.sampler.clone(),
            param: curve.param.clone(),
            value: self.value,
            grad_evals: self.chain.grad_evals(),
            e1,
            e2,
            ess_per_1000_grads: if diverged { f64::NAN } else { self.ess_per_1000_grads() },
            diverged,
            error,
            error_mcse,
        }
    }

    /// The smaller of the two displayed coordinates' ESS, per 1,000 gradient evaluations (DIAG.2),
    /// over the retained samples, thinned evenly to at most [`ESS_POINTS`] (ESS of the thinned
    /// series, per the gradients of all the retained samples).
    fn ess_per_1000_grads(&self) -> f64 {
        let ring = self.chain.samples();
        if ring.len() < 50 {
            return f64::NAN;
        }
        self.ess_computations.set(self.ess_computations.get() + 1);
        let stride = ring.len().div_ceil(ESS_POINTS);
        let thinned = |j: usize| ring.coordinate(j).into_iter().step_by(stride).collect::<Vec<f64>>();
        let ess = (0..ring.dim().min(2)).map(|j| effective_sample_size(&thinned(j))).fold(f64::INFINITY, f64::min);
        1000.0 * ess / (ring.len() as f64 * self.chain.grad_evals_per_sample())
    }
}
