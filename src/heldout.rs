//! Welling & Teh 2011 Fig. 3 over a run: the average log joint probability per training datum at
//! the chain's current θ_t, (log p(θ_t) + Σᵢ log p(yᵢ | xᵢ, θ_t)) / N, and the accuracy on the
//! held-out test set of the posterior predictive averaged over the run so far, p̄ᵢ = mean_t σ(x̃ᵢᵀθ_t),
//! both against the number of sweeps through the training data (steps × n / N). Pure: the lab
//! calls [`HeldOut::observe`] at the steps [`HeldOut::next_step`] asks for. docs/sgld.md §7.

use crate::model::test_set::TestSet;
use crate::model::Model;
use crate::plot::chart::{ChartSpec, Series, Style, PALETTE};
use serde_json::{json, Value};

/// Checkpoints per sweep through the training data.
pub const PER_SWEEP: f64 = 10.0;
/// At most this many checkpoints are kept: beyond it every other one is dropped and the spacing doubles.
pub const MAX_POINTS: usize = 1_000;

/// One checkpoint of the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub sweeps: f64,
    pub log_joint: f64,
    pub accuracy: f64,
}

/// The log joint per datum (1/N) log π(θ) of `model` at `theta` (its training data only).
pub fn log_joint_per_datum(model: &dyn Model, theta: &[f64]) -> f64 {
    model.log_density(theta) / model.n_data() as f64
}

/// The held-out curves of one run.
#[derive(Clone, Debug)]
pub struct HeldOut {
    steps_per_sweep: f64,
    every: u64,
    next: u64,
    /// Σ weight · σ(x̃ᵢᵀθ_t) per test row, and Σ weight (the steps each checkpoint stands for).
    sum_p: Vec<f64>,
    weight: f64,
    points: Vec<Point>,
    baseline: f64,
}

impl HeldOut {
    /// For a target with a test set, run with minibatches of `batch` (the full data when None).
    pub fn of(model: &dyn Model, batch: Option<f64>) -> Option<HeldOut> {
        let test = model.test_set()?;
        let n = model.n_data() as f64;
        let steps_per_sweep = n / batch.unwrap_or(n).clamp(1.0, n);
        let every = (steps_per_sweep / PER_SWEEP).round().max(1.0) as u64;
        Some(HeldOut { steps_per_sweep, every, next: 0, sum_p: vec![0.0; test.len()], weight: 0.0, points: Vec::new(), baseline: test.majority_accuracy() })
    }

    /// The chain step at which the next checkpoint is due.
    pub fn next_step(&self) -> u64 {
        self.next
    }

    /// Record θ at chain step `step` (the lab calls this when `step` ≥ [`Self::next_step`]).
    pub fn observe(&mut self, model: &dyn Model, test: &TestSet, theta: &[f64], step: u64) {
        let w = self.every as f64;
        for (s, p) in self.sum_p.iter_mut().zip(test.probabilities(theta)) {
            *s += w * p;
        }
        self.weight += w;
        let mean: Vec<f64> = self.sum_p.iter().map(|s| s / self.weight).collect();
        self.points.push(Point { sweeps: step as f64 / self.steps_per_sweep, log_joint: log_joint_per_datum(model, theta), accuracy: test.accuracy(&mean) });
        if self.points.len() > MAX_POINTS {
            self.thin();
        }
        self.next = step + self.every;
    }

    /// Keep every other checkpoint and double the spacing (each later one then stands for twice the steps).
    fn thin(&mut self) {
        self.points = self.points.iter().step_by(2).copied().collect();
        self.every *= 2;
    }

    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The first checkpoint at or after `sweeps` sweeps.
    fn at(&self, sweeps: f64) -> Option<&Point> {
        self.points.iter().find(|p| p.sweeps >= sweeps)
    }

    /// What the claims read: the last checkpoint, the first, and those at 1 and 10 sweeps.
    pub fn summary(&self) -> Value {
        let (Some(first), Some(last)) = (self.points.first(), self.points.last()) else { return Value::Null };
        json!({
            "sweeps": last.sweeps,
            "log_joint": last.log_joint,
            "log_joint_start": first.log_joint,
            "log_joint_rise": last.log_joint - first.log_joint,
            "log_joint_at_10": self.at(10.0).map(|p| p.log_joint),
            "plateau_change": self.at(10.0).map(|p| (last.log_joint - p.log_joint).abs()),
            "accuracy": last.accuracy,
            "accuracy_at_1": self.at(1.0).map(|p| p.accuracy),
            "baseline": self.baseline,
        })
    }

    /// The chart: both curves over sweeps (log axis: the first sweep is where the paper's point
    /// is; the start θ₀ at sweep 0 is left off), with the majority-class baseline dashed.
    pub fn chart(&self) -> ChartSpec {
        let drawn = || self.points.iter().filter(|p| p.sweeps > 0.0);
        let over = |f: fn(&Point) -> f64| drawn().map(|p| (p.sweeps, f(p))).collect::<Vec<_>>();
        let start = drawn().next().map_or(0.1, |p| p.sweeps);
        let end = self.points.last().map_or(1.0, |p| p.sweeps.max(10.0 * start));
        ChartSpec {
            title: "Held-out test (SGLD paper Fig. 3)".into(),
            x_label: "sweeps through the training data".into(),
            y_label: "log joint per datum · test accuracy".into(),
            series: vec![
                Series::new("test accuracy (averaged predictive)", over(|p| p.accuracy), PALETTE[0], Style::Line),
                Series::new("log joint per training datum at θₜ", over(|p| p.log_joint), PALETTE[1], Style::Line),
                Series::new(format!("majority-class accuracy {:.2}", self.baseline), vec![(start, self.baseline), (end, self.baseline)], PALETTE[2], Style::Dashed),
            ],
            log_x: true,
            ..Default::default()
        }
    }
}
