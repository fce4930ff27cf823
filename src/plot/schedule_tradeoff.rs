//! The trade-off chart of SGLD under a decreasing step schedule (docs/sgld.md §8): no stationary
//! law exists, so no error-vs-budget law is drawn; instead each sweep chain, run at one value of the
//! schedule's scale a at the sweep's gradient budget, is one point of error against mixing, as in
//! the SGFS paper's Fig. 2 (Ahn et al. 2012: final error against the mixing rate): x its ESS per
//! 1,000 gradient evaluations (DIAG.2), y its error ‖Ĉ − Σ‖/‖Σ‖ ± MCSE (DIAG.3). Pure.

use super::analysis_panels::CURRENT;
use super::chart::{ChartSpec, Series, Style, PALETTE};
use crate::sweep::SweepResult;

/// One finished schedule run: its scale a, mixing and error.
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleRun {
    pub a: f64,
    pub ess_per_1000_grads: f64,
    pub error: f64,
    pub mcse: f64,
}

impl ScheduleRun {
    /// A sweep result with finite error, MCSE and a positive ESS (log axes), if it has them.
    pub fn of(r: &SweepResult) -> Option<ScheduleRun> {
        let finite = r.error.is_finite() && r.error_mcse.is_finite() && r.ess_per_1000_grads.is_finite() && r.ess_per_1000_grads > 0.0;
        finite.then(|| ScheduleRun { a: r.value, ess_per_1000_grads: r.ess_per_1000_grads, error: r.error, mcse: r.error_mcse })
    }
}

/// Error against mixing for the schedule runs, in increasing a, labelled "a = …", joined by a line;
/// the run at the current a (`current`) drawn again in the highlight colour.
pub fn schedule_tradeoff_chart(runs: &[ScheduleRun], current: f64, budget: u64) -> ChartSpec {
    let mut runs = runs.to_vec();
    runs.sort_by(|p, q| p.a.total_cmp(&q.a));
    let label = |a: f64| format!("a = {}", crate::promise::show(a));
    let points = runs.iter().map(|r| (r.ess_per_1000_grads, r.error)).collect();
    let mut series = vec![Series::new(format!("one run per a, {} gradient evaluations each", crate::promise::show(budget as f64)), points, PALETTE[2], Style::LineAndPoints)
        .labelled(runs.iter().map(|r| label(r.a)).collect())
        .with_error_bars(runs.iter().map(|r| r.mcse).collect())];
    if let Some(now) = runs.iter().find(|r| (r.a - current).abs() <= 1e-9 * current.abs()) {
        series.push(Series::new(format!("current {}", label(now.a)), vec![(now.ess_per_1000_grads, now.error)], CURRENT, Style::Points));
    }
    ChartSpec {
        title: "Error vs mixing over the schedule's scale a (decreasing steps: no predicted law)".into(),
        x_label: "ESS per 1,000 gradient evaluations".into(),
        y_label: "error ‖Ĉ − Σ‖/‖Σ‖ ± MCSE".into(),
        log_x: true,
        log_y: true,
        series,
        ..Default::default()
    }
}
