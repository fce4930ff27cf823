//! The knob noise chart's marker prints the gradient / injected noise ratio as the page writes
//! numbers (3 significant digits, thousands separated: www/format.js `formatNumber`), not as a raw
//! float (issue 26, stop 52's review item 9: the OSGFS noise chart read "50084.83").

use sgviz::knob::Knob;
use sgviz::knob_noise::UpdateNoise;
use sgviz::plot::analysis_panels::knob_noise_chart;

fn label_at(ratio_gradient: f64) -> String {
    let knob = Knob { sampler: "osgfs", param: "noise_scale", symbol: "α", log_scale: true, range: (0.1, 10.0), value: 1.0 };
    let chart = knob_noise_chart(&knob, "OSGFS", &[(1.0, UpdateNoise { injected: 1.0, gradient: ratio_gradient })]);
    chart.markers[0].label.clone()
}

#[test]
fn ratio_on_the_noise_chart_is_written_as_the_page_writes_numbers() {
    // Hand-written: 50084.83 to 3 significant digits is 50,100; 0.123456 is 0.123.
    assert_eq!(label_at(50084.83), "current α (gradient / injected noise 50,100)");
    assert_eq!(label_at(0.123456), "current α (gradient / injected noise 0.123)");
}
