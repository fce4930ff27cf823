//! Unit tests of src/plot/band_chart.rs (`plot::band_chart::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sampler::sbps::view::BandView;
use sgviz::plot::band_chart::*;
use sgviz::sampler::sbps::SlopeRegression;

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
    use sgviz::chain::{Chain, ChainConfig};
    let mut chain = Chain::new(&ChainConfig::new("gaussian", "sbps", 1)).expect("chain");
    chain.run(50);
    let view = chain.band_view().expect("SBPS has a band");
    assert!(view.elapsed >= 0.0 && view.next_flight > 0.0);
    let t = view.elapsed;
    assert!(view.band(t) >= view.line(t), "the band is above the line at k = {}", view.band_k);
    let sgld = Chain::new(&ChainConfig::new("gaussian", "sgld", 1)).expect("chain");
    assert!(sgld.band_view().is_none());
}
