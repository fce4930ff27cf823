//! Chart specifications for the analysis panels: the noise-vs-step-size phase picture
//! (Welling & Teh 2011, Fig. 2), the bias and MH-rejection curves against ε, and the bias–mixing
//! sweep (Ahn et al. 2012, Fig. 2). Pure functions from numbers to [`ChartSpec`]s.

use super::chart::{ChartSpec, Marker, Series, Style, PALETTE};
use crate::phase::{log_grid, NoiseScale};
use crate::sweep::{SweepCurve, SweepResult};
use plotters::style::RGBColor;

const CURRENT: RGBColor = RGBColor(209, 73, 91);
const GREY: RGBColor = RGBColor(120, 120, 120);

/// Injected vs stochastic-gradient noise variance over the step-size range, with the current ε
/// and the sampling-threshold crossing marked.
pub fn noise_chart(scale: &NoiseScale, range: (f64, f64), current_step: f64) -> ChartSpec {
    let grid = log_grid(range.0, range.1, 60);
    let injected = grid.iter().map(|&e| (e, scale.injected(e))).collect();
    let gradient = grid.iter().map(|&e| (e, scale.gradient_noise(e))).filter(|p| p.1 > 0.0).collect();
    let mut markers = vec![Marker { x: current_step, label: format!("current ε (threshold {:.2})", scale.threshold(current_step)), colour: CURRENT }];
    if let Some(crossing) = scale.crossing().filter(|c| (range.0..=range.1).contains(c)) {
        markers.push(Marker { x: crossing, label: "threshold = 1".into(), colour: GREY });
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
                if scale.gradient_noise_scale > 0.0 { "gradient noise ε²/4·(N²/n·λ + s²)" } else { "gradient noise: none (exact gradients)" },
                gradient,
                PALETTE[1],
                Style::Dashed,
            ),
        ],
        markers,
        ..Default::default()
    }
}

/// Measured bias (E2 of the step-size sweep) and the MH rejection probability of a full-data
/// correction, against ε.
pub fn bias_chart(bias: &[(f64, f64)], rejection: &[(f64, f64)], range: (f64, f64), current_step: f64) -> ChartSpec {
    ChartSpec {
        title: "Bias and MH rejection vs ε".into(),
        x_label: "step size ε".into(),
        y_label: "E2 / rejection probability".into(),
        log_x: true,
        log_y: true,
        x_range: Some(range),
        series: vec![
            Series::new("covariance error E2 (sweep)", bias.to_vec(), PALETTE[2], Style::LineAndPoints),
            Series::new("MH rejection probability", rejection.to_vec(), PALETTE[3], Style::Line),
        ],
        markers: vec![Marker { x: current_step, label: "current ε".into(), colour: CURRENT }],
        ..Default::default()
    }
}

/// Error vs ESS per 1,000 gradient evaluations, one curve per swept sampler, the current setting
/// highlighted.
pub fn sweep_chart(curves: &[SweepCurve], results: &[SweepResult], current: Option<(&str, &str, f64)>) -> ChartSpec {
    let usable = |r: &&SweepResult| r.e2.is_finite() && r.ess_per_1000_grads.is_finite() && r.ess_per_1000_grads > 0.0;
    let mut series: Vec<Series> = curves
        .iter()
        .enumerate()
        .map(|(k, curve)| {
            let points = results
                .iter()
                .filter(|r| r.sampler == curve.sampler && r.param == curve.param)
                .filter(usable)
                .map(|r| (r.ess_per_1000_grads, r.e2))
                .collect();
            Series::new(format!("{} over {}", curve.sampler, curve.param), points, PALETTE[k % PALETTE.len()], Style::LineAndPoints)
        })
        .collect();
    if let Some((sampler, param, value)) = current {
        let nearest = results
            .iter()
            .filter(|r| r.sampler == sampler && r.param == param)
            .filter(usable)
            .min_by(|a, b| distance(a.value, value).total_cmp(&distance(b.value, value)));
        if let Some(r) = nearest {
            series.push(Series::new(format!("nearest to current ({param} = {:.3})", r.value), vec![(r.ess_per_1000_grads, r.e2)], CURRENT, Style::Points));
        }
    }
    ChartSpec {
        title: "Bias–mixing trade-off (equal gradient budget)".into(),
        x_label: "ESS per 1,000 gradient evaluations".into(),
        y_label: "covariance error E2".into(),
        log_x: true,
        log_y: true,
        series,
        ..Default::default()
    }
}

fn distance(a: f64, b: f64) -> f64 {
    if a > 0.0 && b > 0.0 {
        (a.ln() - b.ln()).abs()
    } else {
        (a - b).abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_chart_marks_the_crossing_inside_the_range() {
        let scale = NoiseScale { gradient_noise_scale: 100.0, batch_size: 10, n_data: 100 };
        let spec = noise_chart(&scale, (1e-4, 1.0), 0.01);
        assert_eq!(spec.markers.len(), 2);
        assert!((spec.markers[1].x - 0.04).abs() < 1e-12);
        // Slopes 1 and 2 on log–log axes.
        let g = &spec.series[1].points;
        let slope = (g[10].1.ln() - g[0].1.ln()) / (g[10].0.ln() - g[0].0.ln());
        assert!((slope - 2.0).abs() < 1e-9);
    }

    #[test]
    fn sweep_chart_highlights_the_nearest_point() {
        let curve = SweepCurve { sampler: "sgld".into(), param: "step_size".into(), values: vec![0.01, 0.1], settings: vec![] };
        let result = |value: f64, e2: f64| SweepResult {
            sampler: "sgld".into(),
            param: "step_size".into(),
            value,
            grad_evals: 1000,
            e1: 0.0,
            e2,
            ess_per_1000_grads: value * 10.0,
            diverged: false,
        };
        let spec = sweep_chart(&[curve], &[result(0.01, 0.05), result(0.1, 0.4)], Some(("sgld", "step_size", 0.08)));
        assert_eq!(spec.series.len(), 2);
        assert_eq!(spec.series[1].points, vec![(1.0, 0.4)]);
    }
}
