//! The live chart of SBPS's proposal band (Pakman et al. 2017, Fig. 2; docs/bouncy.md §4–§5):
//! over the time t since the last bounce, the fitted projected gradient Ĝ(t) (eq. 13), the upper
//! band λ⁺(t) that proposals are drawn from (eqs. 14–15), the observations' weighted mean the line
//! passes through, and markers at "now" and at the planned next event.

use super::chart::{ChartSpec, Marker, Series, Style, PALETTE};
use crate::sampler::sbps::view::BandView;
use plotters::style::RGBColor;

/// Points per curve.
const CURVE_POINTS: usize = 120;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sampler::sbps::SlopeRegression;

    /// Hand-worked: observations (0, 1) and (1, 3), both σ = 1: t̄ = 0.5, Ḡ = 2, C_tt = 0.5,
    /// C_tG = 1, so Ĝ(t) = 2 + 2(t − 0.5) (up to the slope prior's 10⁻⁵) and at t = 2 the line's
    /// variance is 1/2 + 1.5²/0.5 = 5, the band 5 + k√(5 + 1).
    #[test]
    fn the_band_is_the_hand_worked_line_plus_k_predictive_sds() {
        let mut regression = SlopeRegression::seeded(0.0, 1.0, 1.0);
        regression.add(1.0, 3.0, 1.0);
        let view = BandView { elapsed: 1.0, next_flight: 0.5, band_k: 3.0, prior_mean: 0.0, regression };
        assert!((view.line(2.0) - 5.0).abs() < 1e-3, "{}", view.line(2.0));
        assert!((view.band(2.0) - (5.0 + 3.0 * 6f64.sqrt())).abs() < 1e-3, "{}", view.band(2.0));
        let chart = band_chart(&view);
        let (lo, hi) = chart.x_range.expect("a fixed time axis");
        assert!(lo == 0.0 && (hi - 1.8).abs() < 1e-12, "{hi}");
        assert_eq!(chart.markers.iter().map(|m| m.x).collect::<Vec<_>>(), vec![1.0, 1.5]);
        let (line, band) = (&chart.series[0].points, &chart.series[1].points);
        assert_eq!(line.len(), CURVE_POINTS + 1);
        // The band lies k predictive sds above the line everywhere.
        for (l, b) in line.iter().zip(band) {
            let sd = (0.5 + (l.0 - 0.5f64).powi(2) / 0.5 + 1.0).sqrt();
            assert!((b.1 - l.1 - 3.0 * sd).abs() < 1e-3, "t = {}: {} vs {}", l.0, b.1 - l.1, 3.0 * sd);
        }
        assert_eq!(chart.series[2].points, vec![(0.5, 2.0)]);
    }

    #[test]
    fn a_live_sbps_chain_exposes_its_band_and_others_do_not() {
        use crate::chain::{Chain, ChainConfig};
        let mut chain = Chain::new(&ChainConfig::new("gaussian", "sbps", 1)).expect("chain");
        chain.run(50);
        let view = chain.band_view().expect("SBPS has a band");
        assert!(view.elapsed >= 0.0 && view.next_flight > 0.0);
        let t = view.elapsed;
        assert!(view.band(t) >= view.line(t), "the band is above the line at k = {}", view.band_k);
        let sgld = Chain::new(&ChainConfig::new("gaussian", "sgld", 1)).expect("chain");
        assert!(sgld.band_view().is_none());
    }
}
