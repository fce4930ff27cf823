//! Points a log axis cannot place (issue 26: the annealed-noise bias chart drew its zero bias
//! estimates as error bars dropping to the bottom of the frame, i.e. towards log 0 = −∞). A point
//! at or below zero on a log axis is left out, with its error bar, and the chart says how many
//! were left out under its x axis ("3 points ≤ 0 not drawn (log axis)").

use super::ChartSpec;

/// Finite points of the chart with a coordinate ≤ 0 on a log axis: they have no place on it.
pub fn not_drawn_on_log_axes(spec: &ChartSpec) -> usize {
    let off_axis = |v: f64, log: bool| log && v <= 0.0;
    spec.series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|&&(x, y)| x.is_finite() && y.is_finite() && (off_axis(x, spec.log_x) || off_axis(y, spec.log_y)))
        .count()
}

/// The x-axis description, with the count of points left out when there are any.
pub fn x_description(spec: &ChartSpec) -> String {
    match not_drawn_on_log_axes(spec) {
        0 => spec.x_label.clone(),
        1 => format!("{}   (1 point ≤ 0 not drawn: log axis)", spec.x_label),
        k => format!("{}   ({k} points ≤ 0 not drawn: log axis)", spec.x_label),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{draw_chart, Series, Style, PALETTE};
    use super::*;
    use crate::plot::svg_probe::elements;
    use plotters::prelude::*;

    /// Bias estimates with error bars on a log y axis: two at or below zero (hand-written case).
    fn bias_chart() -> ChartSpec {
        let mut series = Series::new("bias", vec![(1.0, 0.0), (2.0, 0.1), (3.0, -0.2), (4.0, 1.0)], PALETTE[1], Style::Points);
        series.error_bars = vec![0.5, 0.05, 1.0, 0.1];
        ChartSpec { x_label: "ε".into(), y_label: "bias".into(), log_y: true, series: vec![series], ..Default::default() }
    }

    #[test]
    fn points_at_or_below_zero_on_a_log_axis_are_left_out_and_counted_under_the_axis() {
        let spec = bias_chart();
        assert_eq!(not_drawn_on_log_axes(&spec), 2);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (400, 300)).into_drawing_area();
            draw_chart(&root, &spec, 1.0).unwrap();
        }
        let colour = format!("#{:02X}{:02X}{:02X}", PALETTE[1].0, PALETTE[1].1, PALETTE[1].2);
        let drawn = elements(&svg);
        // One vertical bar per positive point (y = 0.1 and y = 1), none for y = 0 and y = −0.2.
        let bars = drawn.iter().filter(|e| e.stroke.eq_ignore_ascii_case(&colour) && e.points.len() == 2 && (e.points[0].0 - e.points[1].0).abs() < 0.5).count();
        assert_eq!(bars, 2, "{drawn:?}");
        assert!(drawn.iter().any(|e| e.tag == "text" && e.text.contains("(2 points ≤ 0 not drawn: log axis)")), "the count is said");
        let linear = ChartSpec { log_y: false, ..bias_chart() };
        assert_eq!((not_drawn_on_log_axes(&linear), x_description(&linear)), (0, "ε".to_string()), "a linear axis draws them all");
    }
}
