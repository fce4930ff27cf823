//! A small generic line chart (linear or log axes, lines, dashed lines, point markers, vertical
//! markers, legend) used by every secondary panel: trace, autocorrelation, noise-vs-step-size,
//! bias–mixing sweep and the SGAIS evidence curves. Drawn with plotters on any backend.

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Style {
    Line,
    Dashed,
    Points,
    LineAndPoints,
}

/// Specs are plain data (serde): a Web Worker can compute one and the page's main thread draw it.
/// Points must be finite to survive JSON (non-finite numbers become null and do not parse back).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    #[serde(with = "rgb")]
    pub colour: RGBColor,
    pub style: Style,
}

impl Series {
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>, colour: RGBColor, style: Style) -> Self {
        Series { label: label.into(), points, colour, style }
    }
}

/// A labelled vertical line (e.g. "burn-in over", the current step size).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Marker {
    pub x: f64,
    pub label: String,
    #[serde(with = "rgb")]
    pub colour: RGBColor,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChartSpec {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub log_y: bool,
    pub series: Vec<Series>,
    pub markers: Vec<Marker>,
    /// Fixed ranges (data units); otherwise fitted to the data with a small margin.
    pub x_range: Option<(f64, f64)>,
    pub y_range: Option<(f64, f64)>,
}

/// RGB colours as `[r, g, b]` in JSON (plotters' colour type has no serde support).
mod rgb {
    use plotters::style::RGBColor;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(colour: &RGBColor, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq([colour.0, colour.1, colour.2])
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<RGBColor, D::Error> {
        let [r, g, b] = <[u8; 3]>::deserialize(deserializer)?;
        Ok(RGBColor(r, g, b))
    }
}

/// Palette for series (colour-blind-safe Okabe–Ito order).
pub const PALETTE: [RGBColor; 6] =
    [RGBColor(0, 114, 178), RGBColor(213, 94, 0), RGBColor(0, 158, 115), RGBColor(204, 121, 167), RGBColor(230, 159, 0), RGBColor(86, 180, 233)];

fn transform(v: f64, log: bool) -> Option<f64> {
    if log {
        (v > 0.0 && v.is_finite()).then(|| v.log10())
    } else {
        v.is_finite().then_some(v)
    }
}

/// Data range in plot units (log10 for log axes), padded by 5 %; a unit range when empty.
fn fitted_range(values: impl Iterator<Item = f64>, fixed: Option<(f64, f64)>, log: bool) -> (f64, f64) {
    if let Some((lo, hi)) = fixed {
        if let (Some(a), Some(b)) = (transform(lo, log), transform(hi, log)) {
            if b > a {
                return (a, b);
            }
        }
    }
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let span = if hi > lo { hi - lo } else { lo.abs().max(1.0) * 0.1 };
    (lo - 0.05 * span, hi + 0.05 * span)
}

/// Tick text: plain numbers with up to 3 significant digits in [1e-3, 1e5), exponent form
/// outside; on log axes the tick position v is log10 of the value.
pub fn tick_label(v: f64, log: bool) -> String {
    let value = if log { 10f64.powf(v) } else { v };
    let magnitude = value.abs();
    if magnitude < 1e-12 * (1.0 + v.abs()) && !log {
        return "0".into();
    }
    if (1e-3..1e5).contains(&magnitude) {
        let digits = (3 - 1 - magnitude.log10().floor() as i32).max(0) as usize;
        let text = format!("{value:.digits$}");
        if text.contains('.') {
            return text.trim_end_matches('0').trim_end_matches('.').to_string();
        }
        return text;
    }
    let text = format!("{value:.1e}");
    text.replace(".0e", "e")
}

/// Draw the chart; `scale` is the device-pixel ratio (font and line sizes).
pub fn draw_chart<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, spec: &ChartSpec, scale: f64) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let px = |css: f64| (css * scale).round().max(1.0) as u32;
    let font = px(12.0);
    root.fill(&WHITE)?;
    let xs = spec.series.iter().flat_map(|s| s.points.iter().filter_map(|p| transform(p.0, spec.log_x)));
    let ys = spec.series.iter().flat_map(|s| s.points.iter().filter_map(|p| transform(p.1, spec.log_y)));
    let (x0, x1) = fitted_range(xs.chain(spec.markers.iter().filter_map(|m| transform(m.x, spec.log_x))), spec.x_range, spec.log_x);
    let (y0, y1) = fitted_range(ys, spec.y_range, spec.log_y);
    let mut chart = ChartBuilder::on(root)
        .caption(&spec.title, ("sans-serif", px(14.0)))
        .margin(px(6.0))
        .x_label_area_size(px(34.0))
        .y_label_area_size(px(52.0))
        .build_cartesian_2d(x0..x1, y0..y1)?;
    let (log_x, log_y) = (spec.log_x, spec.log_y);
    chart
        .configure_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(220, 220, 220))
        .x_labels(6)
        .y_labels(5)
        .x_label_formatter(&|v| tick_label(*v, log_x))
        .y_label_formatter(&|v| tick_label(*v, log_y))
        .x_desc(&spec.x_label)
        .y_desc(&spec.y_label)
        .label_style(("sans-serif", font))
        .draw()?;
    let stroke = px(2.0);
    for marker in &spec.markers {
        if let Some(x) = transform(marker.x, log_x) {
            chart
                .draw_series(DashedLineSeries::new(vec![(x, y0), (x, y1)], px(5.0), px(4.0), marker.colour.stroke_width(px(1.5))))?
                .label(marker.label.clone())
                .legend(move |(lx, ly)| PathElement::new(vec![(lx, ly), (lx + 16, ly)], marker.colour.stroke_width(2)));
        }
    }
    for series in &spec.series {
        let points: Vec<(f64, f64)> =
            series.points.iter().filter_map(|&(x, y)| Some((transform(x, log_x)?, transform(y, log_y)?))).collect();
        let colour = series.colour;
        let style = colour.stroke_width(stroke);
        let drawn = match series.style {
            Style::Line => chart.draw_series(LineSeries::new(points.clone(), style))?,
            Style::Dashed => chart.draw_series(DashedLineSeries::new(points.clone(), px(7.0), px(5.0), style))?,
            Style::Points => chart.draw_series(points.iter().map(|&p| Circle::new(p, px(3.5), colour.filled())))?,
            Style::LineAndPoints => {
                chart.draw_series(LineSeries::new(points.clone(), style))?;
                chart.draw_series(points.iter().map(|&p| Circle::new(p, px(3.5), colour.filled())))?
            }
        };
        if !series.label.is_empty() {
            drawn.label(series.label.clone()).legend(move |(lx, ly)| PathElement::new(vec![(lx, ly), (lx + 16, ly)], colour.stroke_width(3)));
        }
    }
    if spec.series.iter().any(|s| !s.label.is_empty()) || !spec.markers.is_empty() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .label_font(("sans-serif", font))
            .draw()?;
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(spec: &ChartSpec) -> String {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (400, 300)).into_drawing_area();
            draw_chart(&root, spec, 1.0).unwrap();
        }
        svg
    }

    #[test]
    fn draws_series_legend_and_log_ticks() {
        let spec = ChartSpec {
            title: "noise".into(),
            x_label: "ε".into(),
            y_label: "variance".into(),
            log_x: true,
            log_y: true,
            series: vec![
                Series::new("injected", (1..10).map(|k| (10f64.powi(-k), 10f64.powi(-k))).collect(), PALETTE[0], Style::Line),
                Series::new("gradient", (1..10).map(|k| (10f64.powi(-k), 10f64.powi(-2 * k))).collect(), PALETTE[1], Style::Dashed),
            ],
            markers: vec![Marker { x: 1e-3, label: "current ε".into(), colour: PALETTE[2] }],
            ..Default::default()
        };
        let svg = render(&spec);
        assert!(svg.contains("injected") && svg.contains("gradient") && svg.contains("current ε"));
        assert!(svg.contains("1e-"), "log tick labels");
    }

    /// A spec survives JSON unchanged (a worker computes it, the main thread draws it).
    #[test]
    fn chart_specs_round_trip_through_json() {
        let spec = ChartSpec {
            title: "evidence".into(),
            x_label: "n".into(),
            y_label: "log Ẑ / n".into(),
            log_y: true,
            series: vec![
                Series::new("K = 3", vec![(1000.0, -2.5), (2000.0, -2.4)], PALETTE[1], Style::Dashed),
                Series::new("AIS", vec![(500.0, -2.6)], RGBColor(209, 73, 91), Style::Points),
            ],
            markers: vec![Marker { x: 1000.0, label: "3 → 5 clusters".into(), colour: RGBColor(1, 2, 3) }],
            x_range: Some((0.0, 1e5)),
            y_range: None,
            ..Default::default()
        };
        let json = serde_json::to_string(&spec).unwrap();
        assert!(json.contains("[1,2,3]"), "{json}");
        let back: ChartSpec = serde_json::from_str(&json).unwrap();
        assert_eq!(back, spec);
        assert_eq!(render(&back), render(&spec));
        assert!(serde_json::from_str::<ChartSpec>(&json.replace("[1,2,3]", "[1,2]")).is_err());
    }

    #[test]
    fn tick_labels_keep_enough_digits_to_differ() {
        assert_eq!(tick_label(0.0, true), "1");
        assert_eq!(tick_label((0.9f64).log10(), true), "0.9");
        assert_eq!(tick_label((0.95f64).log10(), true), "0.95");
        assert_eq!(tick_label(-5.0, true), "1e-5");
        assert_eq!(tick_label((2.5e-7f64).log10(), true), "2.5e-7");
        assert_eq!(tick_label(1234.5678, false), "1235");
        assert_eq!(tick_label(0.25, false), "0.25");
        assert_eq!(tick_label(0.0, false), "0");
    }

    #[test]
    fn empty_and_non_finite_data_do_not_fail() {
        let spec = ChartSpec {
            series: vec![Series::new("", vec![(f64::NAN, 1.0), (0.0, f64::INFINITY)], PALETTE[0], Style::Points)],
            log_y: true,
            ..Default::default()
        };
        render(&spec);
        render(&ChartSpec::default());
    }
}
