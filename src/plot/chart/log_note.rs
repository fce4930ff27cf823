//! Points a log axis cannot place (issue 26: the annealed-noise bias chart drew its zero bias
//! estimates as error bars dropping to the bottom of the frame, i.e. towards log 0 = −∞). A point
//! at or below zero on a log axis is left out, with its error bar, and the chart says how many
//! were left out under its x axis ("3 values are 0 or less: a log axis has no place for them";
//! review s42: "40 points ≤ 0 not drawn: log axis" under MALA's bias chart said nothing to a student). Tested in tests/unit/plot/chart/tests.rs
//! (`points_at_or_below_zero_on_a_log_axis_are_left_out_and_counted_under_the_axis`).

/// Finite points (of all the chart's series) with a coordinate ≤ 0 on a log axis: they have no
/// place on it.
pub fn not_drawn_on_log_axes<'a>(points: impl Iterator<Item = &'a (f64, f64)>, (log_x, log_y): (bool, bool)) -> usize {
    let off_axis = |v: f64, log: bool| log && v <= 0.0;
    points.filter(|&&(x, y)| x.is_finite() && y.is_finite() && (off_axis(x, log_x) || off_axis(y, log_y))).count()
}

/// The x-axis description that fits `fits` (a width test): the whole sentence, else a shorter one
/// that still counts the points left out, else the label alone (classfix: the SBPS "bias vs n"
/// chart printed "… a log axis has no place for th" cut at its right edge).
pub fn x_description_fitting(x_label: &str, not_drawn: usize, fits: impl Fn(&str) -> bool) -> String {
    let short = match not_drawn {
        0 => x_label.to_string(),
        1 => format!("{x_label}   (1 value ≤ 0 not drawn)"),
        k => format!("{x_label}   ({k} values ≤ 0 not drawn)"),
    };
    [x_description(x_label, not_drawn), short].into_iter().find(|text| fits(text)).unwrap_or_else(|| x_label.to_string())
}

/// The x-axis description `x_label`, with the count of points left out when there are any.
pub fn x_description(x_label: &str, not_drawn: usize) -> String {
    match not_drawn {
        0 => x_label.to_string(),
        1 => format!("{x_label}   (1 value is 0 or less: a log axis has no place for it)"),
        k => format!("{x_label}   ({k} values are 0 or less: a log axis has no place for them)"),
    }
}
