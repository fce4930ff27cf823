//! Chart specifications cross to the page as JSON, which has no NaN or ±∞: serde_json writes them
//! as `null`, which then fails to parse as a number ("invalid type: null, expected f64"), and the
//! chart is lost with a library message on screen (issue 26: SGHMC at friction 0). A spec is
//! therefore serialised with its non-finite numbers left out: points with a non-finite
//! coordinate are dropped (with their label and error bar), non-finite error bars become 0,
//! markers at a non-finite position are dropped and a non-finite fixed range falls back to fitting.

use super::chart::{ChartSpec, Marker, Series};
use serde::{Serialize, Serializer};

/// The wire form of a [`ChartSpec`]: the same fields, finite numbers only.
#[derive(Serialize)]
struct FiniteSpec<'a> {
    title: &'a str,
    x_label: &'a str,
    y_label: &'a str,
    log_x: bool,
    log_y: bool,
    series: Vec<Series>,
    markers: Vec<&'a Marker>,
    x_range: Option<(f64, f64)>,
    y_range: Option<(f64, f64)>,
}

impl Serialize for ChartSpec {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let range = |r: Option<(f64, f64)>| r.filter(|(a, b)| a.is_finite() && b.is_finite());
        FiniteSpec {
            title: &self.title,
            x_label: &self.x_label,
            y_label: &self.y_label,
            log_x: self.log_x,
            log_y: self.log_y,
            series: self.series.iter().map(finite_series).collect(),
            markers: self.markers.iter().filter(|m| m.x.is_finite()).collect(),
            x_range: range(self.x_range),
            y_range: range(self.y_range),
        }
        .serialize(serializer)
    }
}

/// `series` without its non-finite points (their labels and error bars go with them).
fn finite_series(series: &Series) -> Series {
    let keep: Vec<bool> = series.points.iter().map(|(x, y)| x.is_finite() && y.is_finite()).collect();
    let mut out = Series::new(series.label.clone(), Vec::new(), series.colour, series.style);
    for (k, &ok) in keep.iter().enumerate() {
        if !ok {
            continue;
        }
        out.points.push(series.points[k]);
        if let Some(label) = series.point_labels.get(k) {
            out.point_labels.push(label.clone());
        }
        if let Some(&bar) = series.error_bars.get(k) {
            out.error_bars.push(if bar.is_finite() { bar } else { 0.0 });
        }
    }
    out
}
