//! Chart specifications for the analysis panels: the noise-vs-step-size phase picture
//! (Welling & Teh 2011, Fig. 2), the bias and MH-rejection curves against ε, and the bias–mixing
//! sweep (Ahn et al. 2012, Fig. 2). Pure functions from numbers to [`ChartSpec`]s.

use super::chart::{ChartSpec, Marker, Series, Style, PALETTE};
use crate::phase::{log_grid, NoiseScale};
use crate::error_split::PredictedError;
use crate::knob::Knob;
use crate::knob_noise::UpdateNoise;
use crate::sweep::SweepResult;
use plotters::style::RGBColor;

pub(crate) const CURRENT: RGBColor = RGBColor(209, 73, 91);
const GREY: RGBColor = RGBColor(120, 120, 120);

/// Injected vs stochastic-gradient noise variance over the step-size range, with the current ε
/// and the sampling-threshold crossing marked.
pub fn noise_chart(scale: &NoiseScale, range: (f64, f64), current_step: f64) -> ChartSpec {
    let grid = log_grid(range.0, range.1, 60);
    let injected = grid.iter().map(|&e| (e, scale.injected(e))).collect();
    let gradient = grid.iter().map(|&e| (e, scale.gradient_noise(e))).filter(|p| p.1 > 0.0).collect();
    // Each threshold on screen says which it is (classfix item 7: beside the diagnostics' latest
    // reading and mean of readings, this chart's two read as two more "thresholds"): the value at
    // the current ε from all N data (no minibatch scatter), and where the two lines cross.
    let at_current = format!("current ε = {} (threshold {}, all N data)", crate::readable::show(current_step), crate::readable::show(scale.threshold(current_step)));
    let mut markers = vec![Marker { x: current_step, label: at_current, colour: CURRENT }];
    if let Some(crossing) = scale.crossing().filter(|c| (range.0..=range.1).contains(c)) {
        markers.push(Marker { x: crossing, label: "threshold = 1 (noise lines cross)".into(), colour: GREY });
    }
    ChartSpec {
        title: "Noise vs step size".into(),
        x_label: "step size ε".into(),
        y_label: "variance per update".into(),
        log_x: true,
        log_y: true,
        series: vec![
            Series::new("injected ε", injected, PALETTE[0], Style::Line),
            Series::new(
                if scale.gradient_noise_scale > 0.0 { "gradient noise ε²/4·(N²/n·(N − n)/(N − 1)·λ + s²)" } else { "gradient noise: none (full batch or exact gradients)" },
                gradient,
                PALETTE[1],
                Style::Dashed,
            ),
        ],
        markers,
        ..Default::default()
    }
}

/// The noise in one update of a sampler other than SGLD over its own knob (src/knob_noise.rs):
/// injected against gradient noise, the current value marked with their ratio.
pub fn knob_noise_chart(knob: &Knob, sampler_label: &str, points: &[(f64, UpdateNoise)]) -> ChartSpec {
    let positive = |f: fn(&UpdateNoise) -> f64| points.iter().map(|(v, n)| (*v, f(n))).filter(|p| p.1 > 0.0 && p.1.is_finite()).collect::<Vec<_>>();
    let gradient = positive(|n| n.gradient);
    let current = points.iter().min_by(|a, b| (a.0 - knob.value).abs().total_cmp(&(b.0 - knob.value).abs())).map(|(_, n)| n.ratio());
    let ratio = current.map_or("unknown".to_string(), |r| if r.is_finite() { crate::readable::show(r) } else { "∞: nothing injected".to_string() });
    ChartSpec {
        // The eigenvalue goes in the title: as the y label it ran past the data area's height at
        // both ends, at 1920×1080 as on a phone (issue 26).
        title: format!("{sampler_label}: noise per update vs {} (largest eigenvalue)", knob.symbol),
        x_label: knob.symbol.to_string(),
        y_label: "variance per update".into(),
        log_x: knob.log_scale,
        log_y: true,
        x_range: Some(knob.range),
        series: vec![
            Series::new("injected noise", positive(|n| n.injected), PALETTE[0], Style::Line),
            Series::new(if gradient.is_empty() { "gradient noise: none (full batch, exact gradients)" } else { "gradient noise (minibatch, without replacement)" }, gradient, PALETTE[1], Style::Dashed),
        ],
        markers: vec![Marker { x: knob.value, label: format!("current {} (gradient / injected noise {ratio})", knob.symbol), colour: CURRENT }],
        ..Default::default()
    }
}

/// A chart with no data whose title says why (e.g. a sampler without a step size to sweep).
pub fn note_chart(title: &str) -> ChartSpec {
    ChartSpec { title: title.to_string(), ..Default::default() }
}

/// The predicted parts of the bias chart: the bias of SGLD's stationary law and the Monte Carlo
/// error at the sweep's budget, over ε (src/law.rs, src/error_split.rs).
pub struct BiasCurves<'a> {
    pub bias: &'a [(f64, f64)],
    pub mc: &'a [(f64, f64)],
    pub budget: u64,
    /// Why there is no predicted law (the measured points then estimate the bias), if none.
    pub reason: Option<&'a str>,
}

/// One sweep chain's measured relative error ‖Ĉ − Σ‖/‖Σ‖ with its MCSE, at its knob value.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub value: f64,
    pub grad_evals: f64,
    pub error: f64,
    pub mcse: f64,
}

impl Measured {
    pub fn of(r: &SweepResult) -> Option<Measured> {
        (r.error.is_finite() && r.error_mcse.is_finite()).then(|| Measured { value: r.value, grad_evals: r.grad_evals as f64, error: r.error, mcse: r.error_mcse })
    }
}

/// "ε = 0.01"-style label of a knob value.
fn value_label(symbol: &str, value: f64) -> String {
    format!("{symbol} = {}", short(value))
}

/// A knob value or budget on a chart, by the page's one number rule (src/promise.rs `show`).
fn short(value: f64) -> String {
    crate::promise::show(value)
}

/// Bias and Monte Carlo error kept apart, against the sampler's own knob (SGLD's ε, SGFS's α, …):
/// the predicted bias of the sampler's stationary law, the predicted Monte Carlo error at the
/// sweep's budget, the sweep's measured error ± MCSE (labelled with the knob's value), and, for
/// SGLD, the MH rejection probability a full-data correction would have. Without a predicted law the measured points estimate the bias,
/// √(error² − MCSE²) with the MCSE as error bars.
pub fn bias_chart(curves: &BiasCurves, measured: &[Measured], rejection: &[(f64, f64)], knob: &Knob) -> ChartSpec {
    let symbol = knob.symbol;
    let labels = measured.iter().map(|m| value_label(symbol, m.value)).collect();
    let mut series = Vec::new();
    if curves.reason.is_none() {
        series.push(Series::new("bias of the sampler's law (predicted)", curves.bias.to_vec(), PALETTE[2], Style::Line));
        series.push(Series::new(format!("Monte Carlo error at {} grads (predicted)", short(curves.budget as f64)), curves.mc.to_vec(), PALETTE[0], Style::Dashed));
        let points = measured.iter().map(|m| (m.value, m.error)).collect();
        series.push(Series::new("measured error ± MCSE (sweep)", points, PALETTE[4], Style::Points).labelled(labels).with_error_bars(measured.iter().map(|m| m.mcse).collect()));
    } else {
        let points = measured.iter().map(|m| (m.value, (m.error.powi(2) - m.mcse.powi(2)).max(0.0).sqrt())).collect();
        series.push(Series::new("bias estimate √(error² − MCSE²) ± MCSE (sweep)", points, PALETTE[2], Style::LineAndPoints).labelled(labels).with_error_bars(measured.iter().map(|m| m.mcse).collect()));
        series.push(Series::new("Monte Carlo error (MCSE, sweep)", measured.iter().map(|m| (m.value, m.mcse)).collect(), PALETTE[0], Style::Dashed));
    }
    let rejection_part = if rejection.is_empty() { "" } else { ", and MH rejection," };
    if !rejection.is_empty() {
        series.push(Series::new("MH rejection probability", rejection.to_vec(), PALETTE[3], Style::Line));
    }
    let title = match curves.reason {
        None => format!("Bias vs Monte Carlo error{rejection_part} vs {symbol}"),
        Some(_) => format!("Bias (estimated from runs){rejection_part} vs {symbol}"),
    };
    ChartSpec {
        title,
        x_label: if knob.param == "step_size" { "step size ε".into() } else { symbol.to_string() },
        // No longer than the data area is high at every size (the legend names each error curve
        // and the "MH rejection probability" in full): "‖C − Σ‖/‖Σ‖ / rejection probability",
        // 237 px at 16 px, ran past a 170 px data area at 1920×1080 and 152 px at 1400×900
        // (tests/e2e/labels.test.mjs measures it where the canvas draws it).
        y_label: if rejection.is_empty() { "‖C − Σ‖/‖Σ‖".into() } else { "error, P(reject)".into() },
        log_x: knob.log_scale,
        log_y: true,
        x_range: Some(knob.range),
        series,
        markers: vec![Marker { x: knob.value, label: format!("current {symbol}"), colour: CURRENT }],
        ..Default::default()
    }
}

/// Budgets (gradient evaluations) spanned by the trade-off chart: from 1/100 of the sweep's to ten
/// times the budget at which the slowest curve's Monte Carlo error falls to its bias (where the
/// curves have sorted themselves by bias), at least 100 times the sweep's; at most 10¹².
fn budget_grid(budget: u64, curves: &[(f64, PredictedError)]) -> Vec<f64> {
    let b = budget.max(1) as f64;
    let crossover = curves.iter().filter(|(_, p)| p.bias > 0.0).map(|(_, p)| p.mc_variance_per_sample * p.grads_per_sample / p.bias.powi(2)).fold(0.0, f64::max);
    log_grid(b / 100.0, (10.0 * crossover).clamp(100.0 * b, 1e12), 41)
}

/// The k-th trade-off curve's colour: the palette, then Okabe–Ito's black for a seventh sweep value.
fn curve_colour(k: usize) -> RGBColor {
    PALETTE.get(k).copied().unwrap_or(RGBColor(0, 0, 0))
}

/// Error against computational budget (Ahn et al. 2012, Fig. 2): for several values of the knob,
/// the predicted root-mean-square error √(bias² + mc²(budget)) on log–log axes — small steps win at
/// large budgets, large steps at small ones — with the sweep's measured errors ± MCSE at its budget.
pub fn tradeoff_chart(symbol: &str, curves: &[(f64, PredictedError)], measured: &[Measured], budget: u64, reason: Option<&str>) -> ChartSpec {
    let grid = budget_grid(budget, curves);
    let mut series: Vec<Series> = curves
        .iter()
        .enumerate()
        .map(|(k, (value, p))| {
            let points: Vec<(f64, f64)> = grid.iter().map(|&b| (b, p.total(b))).collect();
            let mut labels = vec![String::new(); points.len()];
            labels[0] = value_label(symbol, *value);
            Series::new(format!("{} (predicted)", value_label(symbol, *value)), points, curve_colour(k), Style::Line).labelled(labels)
        })
        .collect();
    if !measured.is_empty() {
        let points = measured.iter().map(|m| (m.grad_evals, m.error)).collect();
        let labels = measured.iter().map(|m| value_label(symbol, m.value)).collect();
        series.push(Series::new("measured ± MCSE (sweep)", points, CURRENT, Style::Points).labelled(labels).with_error_bars(measured.iter().map(|m| m.mcse).collect()));
    }
    let title = match reason {
        None => "Error vs budget: bias² + Monte Carlo variance".to_string(),
        Some(why) => format!("Error vs budget (no predicted law: {why})"),
    };
    ChartSpec {
        title,
        x_label: "gradient evaluations".into(),
        y_label: "RMS error ‖Ĉ − Σ‖/‖Σ‖".into(),
        log_x: true,
        log_y: true,
        series,
        ..Default::default()
    }
}
