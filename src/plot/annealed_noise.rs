//! The noise chart of an annealed SGLD run over its iterations (Welling & Teh 2011, Fig. 2 left;
//! docs/sgld.md §6): with the polynomial schedule ε_t = a(b + t)^(−γ) (SGLD.3), the injected
//! variance ε_t and the stochastic-gradient-noise variance (ε_t²/4)·S (SGLD.6; S the
//! score-covariance scale of src/phase.rs) against the iteration t, with the iteration at which
//! they cross (SGLD.9; the sampling threshold of eq. 10 falls through 1): before it stochastic
//! optimisation, after it sampling. Pure: numbers in, a [`ChartSpec`] out.

use super::chart::{ChartSpec, Marker, Series, Style, PALETTE};
use crate::phase::{log_grid, NoiseScale};
use plotters::style::RGBColor;

#[doc(hidden)] // pub for tests/unit (issue 23)
pub const GREY: RGBColor = RGBColor(120, 120, 120);
/// Points of the two curves (log-spaced iterations).
const GRID: usize = 60;
/// The chart spans the iterations over which ε_t falls by this factor (the paper's run: from 0.01
/// to 0.0001), or further when the run has gone on longer.
const SPAN: f64 = 100.0;

/// The polynomial step-size schedule ε_t = a(b + t)^(−γ), t = 0, 1, 2, … (SGLD.6).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub a: f64,
    pub b: f64,
    pub gamma: f64,
}

impl Schedule {
    /// ε_t.
    pub fn step(&self, t: f64) -> f64 {
        self.a * (self.b + t).powf(-self.gamma)
    }

    /// The (real) iteration t at which ε_t = `step`, the inverse of [`Schedule::step`] (SGLD.9).
    pub fn iteration_at(&self, step: f64) -> f64 {
        (self.a / step).powf(1.0 / self.gamma) - self.b
    }

    /// The iteration at which ε_t has fallen to ε_0 / SPAN: b (SPAN^(1/γ) − 1) (SGLD.10).
    pub fn span_end(&self) -> f64 {
        self.b * (SPAN.powf(1.0 / self.gamma) - 1.0)
    }
}

/// Injected vs stochastic-gradient noise variance over iterations 1 … max(span end, `iterations`)
/// of the annealed run, with the iteration at which the threshold crosses 1 marked when it falls
/// in that range.
pub fn annealed_noise_chart(scale: &NoiseScale, schedule: &Schedule, iterations: f64) -> ChartSpec {
    let end = schedule.span_end().max(iterations).max(10.0);
    let grid = log_grid(1.0, end, GRID);
    let injected = grid.iter().map(|&t| (t, scale.injected(schedule.step(t)))).collect();
    let gradient = grid.iter().map(|&t| (t, scale.gradient_noise(schedule.step(t)))).filter(|p| p.1 > 0.0).collect();
    let crossing = scale.crossing().map(|eps| schedule.iteration_at(eps)).filter(|t| (1.0..=end).contains(t));
    let markers = crossing
        .map(|t| vec![Marker { x: t, label: format!("threshold = 1 at t ≈ {}", three_figures(t)), colour: GREY }])
        .unwrap_or_default();
    ChartSpec {
        title: "Noise over the annealed run (Welling & Teh Fig. 2)".into(),
        x_label: "iteration t".into(),
        y_label: "variance per update".into(),
        log_x: true,
        log_y: true,
        series: vec![
            Series::new("injected εₜ", injected, PALETTE[0], Style::Line),
            Series::new(
                if scale.gradient_noise_scale > 0.0 { "gradient noise εₜ²/4·(N²/n·(N − n)/(N − 1)·λ + s²)" } else { "gradient noise: none (full batch or exact gradients)" },
                gradient,
                PALETTE[1],
                Style::Dashed,
            ),
        ],
        markers,
        ..Default::default()
    }
}

/// A chart over the step size ε (the bias chart) for a chain that runs the schedule: no single
/// "current ε" exists, so the markers show the span the run sweeps — ε_0 = a·b^(−γ) at its start
/// and ε_t at the last iteration the annealed noise chart draws (max(span end, `iterations`),
/// SGLD.10) — and the x range is widened to contain both (a chart follows the sampler in view).
pub fn follow_schedule(chart: &mut ChartSpec, schedule: &Schedule, iterations: f64, colour: RGBColor) {
    let end = schedule.span_end().max(iterations).max(10.0);
    let (start, last) = (schedule.step(0.0), schedule.step(end));
    chart.markers = vec![
        Marker { x: start, label: format!("ε₀ = a·b⁻ᵞ = {} (schedule start)", three_figures(start)), colour },
        Marker { x: last, label: format!("εₜ = {} at t = {}", three_figures(last), three_figures(end)), colour },
    ];
    if let Some((lo, hi)) = chart.x_range {
        chart.x_range = Some((lo.min(last / 1.5), hi.max(start * 1.5)));
    }
}

/// `x` to three significant figures as a lecturer reads it, the sliders' rule (src/promise.rs
/// `show`): "0.01", "990", "2,400,000", "0.0001", "1.5·10⁻⁷" (no float noise such as
/// 0.00009999999999999999 on a chart, and no "e-4").
#[doc(hidden)] // pub for tests/unit (issue 23)
pub fn three_figures(x: f64) -> String {
    crate::promise::show(x)
}
