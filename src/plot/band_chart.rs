//! The live chart of SBPS's proposal band (Pakman et al. 2017, Fig. 2; docs/bouncy.md §4–§5):
//! over the time t since the last bounce, the fitted projected gradient Ĝ(t) (eq. 13), the upper
//! band λ⁺(t) that proposals are drawn from (eqs. 14–15), the observations' weighted mean the line
//! passes through, and markers at "now" and at the planned next event.

use super::chart::{ChartSpec, Marker, Series, Style, PALETTE};
use crate::sampler::sbps::view::BandView;
use plotters::style::RGBColor;

/// Points per curve.
#[doc(hidden)] // pub for tests/unit (issue 23)
pub const CURVE_POINTS: usize = 120;

/// The end of the time axis: past the next event by a fifth of the span shown.
fn time_span(view: &BandView) -> f64 {
    let end = view.elapsed + view.next_flight;
    if end.is_finite() && end > 0.0 {
        1.2 * end
    } else {
        1.0
    }
}

/// The chart of the current band.
pub fn band_chart(view: &BandView) -> ChartSpec {
    let span = time_span(view);
    let times: Vec<f64> = (0..=CURVE_POINTS).map(|k| span * k as f64 / CURVE_POINTS as f64).collect();
    let line = times.iter().map(|&t| (t, view.line(t))).collect();
    let band = times.iter().map(|&t| (t, view.band(t))).collect();
    let (t_mean, g_mean) = view.weighted_mean();
    ChartSpec {
        title: "SBPS: proposal band since the last bounce (Fig. 2)".into(),
        x_label: "time since the last bounce t".into(),
        y_label: "projected gradient G(t)".into(),
        log_x: false,
        log_y: false,
        series: vec![
            Series::new("fitted projected gradient Ĝ(t)", line, PALETTE[0], Style::Line),
            Series::new(format!("upper band λ⁺(t), k = {}", view.band_k), band, PALETTE[1], Style::Dashed),
            Series::new("observations' weighted mean", vec![(t_mean, g_mean)], PALETTE[2], Style::Points),
        ],
        markers: vec![
            Marker { x: view.elapsed, label: "now".into(), colour: RGBColor(46, 125, 50) },
            Marker { x: view.elapsed + view.next_flight, label: "next event".into(), colour: RGBColor(209, 73, 91) },
        ],
        x_range: Some((0.0, span)),
        y_range: None,
    }
}
