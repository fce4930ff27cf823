//! A small generic line chart (linear or log axes, lines, dashed lines, point markers, vertical
//! markers, legend) used by every secondary panel: trace, autocorrelation, noise-vs-step-size,
//! bias–mixing sweep and the SGAIS evidence curves. Drawn with plotters on any backend.

use super::clip_polyline;
pub use axis::axis_ticks;
use axis::Axis;
use crate::model::View;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
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
    /// Optional text beside each point (e.g. "ε = 0.01"), one per point or none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub point_labels: Vec<String>,
    /// Optional half-widths of vertical error bars (y ± e), one per point or none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub error_bars: Vec<f64>,
}

impl Series {
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>, colour: RGBColor, style: Style) -> Self {
        Series { label: label.into(), points, colour, style, point_labels: Vec::new(), error_bars: Vec::new() }
    }

    /// The same series with a text label beside each point.
    pub fn labelled(mut self, labels: Vec<String>) -> Self {
        self.point_labels = labels;
        self
    }

    /// The same series with error bars y ± e.
    pub fn with_error_bars(mut self, half_widths: Vec<f64>) -> Self {
        self.error_bars = half_widths;
        self
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

/// Serialised with its non-finite numbers left out (src/plot/finite.rs): JSON has no NaN.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
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
/// The y values the fitted y axis must hold: every point and both ends of its error bar (issue
/// 26: nested sampling's points ± SE were cut at the top of the SGAIS evidence chart).
#[doc(hidden)] // pub for tests/unit (issue 23)
pub fn y_extent(spec: &ChartSpec) -> Vec<f64> {
    spec.series
        .iter()
        .flat_map(|s| {
            s.points.iter().enumerate().flat_map(move |(k, p)| {
                let bar = s.error_bars.get(k).copied().filter(|e| e.is_finite() && *e > 0.0).unwrap_or(0.0);
                [p.1 - bar, p.1, p.1 + bar]
            })
        })
        .collect()
}

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
    // One value: a decade around it on a log axis (issue 26: SGAIS's run cost at n = 1,000 alone
    // drew an axis 966…1,035 ticked 980, 1,000, 1,020), a tenth of it on a linear one.
    let span = if hi > lo { hi - lo } else if log { 1.0 } else { lo.abs().max(1.0) * 0.1 };
    (lo - 0.05 * span, hi + 0.05 * span)
}

/// Tick labels for one axis, precise enough that neighbouring ticks never print alike
/// ("1.1e5 1.1e5 1.1e5" on a trace at sample 110,000). plotters puts at most `count` ticks a
/// multiple of a step S ∈ {1, 2, 5}·10^k apart with S ≥ span/count, so printing to the decimal
/// 10^⌊log10(span/count)⌋ separates them; on log axes the same bound on the step in log10 units
/// gives the relative gap g = 10^S − 1 between neighbouring values, and ⌈−log10 g⌉ + 1 significant
/// digits resolve relative differences down to g.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TickFormat {
    log: bool,
    /// Linear axes: the place value of the last printed digit. Log axes: unused.
    quantum: f64,
    /// Log axes: significant digits. Linear axes: unused.
    significant: usize,
    /// Linear axes: the largest magnitude on the axis (fixed or exponent notation).
    magnitude: f64,
}

impl TickFormat {
    /// The format for an axis spanning plot units [lo, hi] (log10 units on a log axis).
    pub fn new(lo: f64, hi: f64, count: usize, log: bool) -> Self {
        let span = (hi - lo).abs().max(f64::MIN_POSITIVE);
        let step = span / count.max(1) as f64;
        let quantum = 10f64.powf(step.log10().floor());
        let gap = 10f64.powf(step) - 1.0;
        let significant = ((-gap.log10()).ceil() + 1.0).clamp(1.0, 8.0) as usize;
        TickFormat { log, quantum, significant, magnitude: lo.abs().max(hi.abs()) }
    }

    /// The label of the tick at plot coordinate `v`.
    pub fn label(&self, v: f64) -> String {
        if self.log {
            // A round tick (axis::log_ticks) prints exactly: 1200, not 1.2e3's two-digit cousin.
            let value = 10f64.powf(v);
            let digits = (self.significant..=8).find(|&d| is_round(value, d)).unwrap_or(self.significant);
            return significant_digits(value, digits);
        }
        if v.abs() < 0.5 * self.quantum {
            return "0".into();
        }
        if (1e-3..1e6).contains(&self.magnitude) && self.quantum >= 1e-4 {
            let decimals = (-self.quantum.log10().round()).max(0.0) as usize;
            return trim_fraction(format!("{v:.decimals$}"));
        }
        let exponent = v.abs().log10().floor();
        let decimals = (exponent - self.quantum.log10().round()).max(0.0) as usize;
        exponent_form(v, decimals)
    }
}

/// Whether `value` has at most `digits` significant digits (up to rounding error).
fn is_round(value: f64, digits: usize) -> bool {
    let quantum = 10f64.powf(value.abs().log10().floor() - digits as f64 + 1.0);
    ((value / quantum).round() * quantum - value).abs() <= 1e-9 * value.abs()
}

/// `value` to `digits` significant digits, fixed notation in [1e-3, 1e5), exponent form outside.
fn significant_digits(value: f64, digits: usize) -> String {
    let magnitude = value.abs();
    if magnitude == 0.0 || !magnitude.is_finite() {
        return format!("{value}");
    }
    let exponent = magnitude.log10().floor();
    if (1e-3..1e5).contains(&magnitude) {
        let decimals = (digits as f64 - 1.0 - exponent).max(0.0) as usize;
        return trim_fraction(format!("{value:.decimals$}"));
    }
    exponent_form(value, digits.saturating_sub(1))
}

/// "1.2·10⁶", "5·10⁷", "1·10⁻⁶": the page's power of ten (src/readable.rs), never "1.2e6" (issue 26).
fn exponent_form(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$e}");
    match text.split_once('e') {
        Some((mantissa, exponent)) => crate::readable::times_ten_to(&trim_fraction(mantissa.to_string()), exponent),
        None => text,
    }
}

/// "1.500" → "1.5", "2.000" → "2"; integers unchanged; thousands grouped as the page prints
/// counts ("110000" → "110,000", issue 26).
fn trim_fraction(text: String) -> String {
    let trimmed = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text };
    crate::readable::group_thousands(&trimmed)
}

/// Largest number of ticks per axis.
#[doc(hidden)] // pub for tests/unit (issue 23)
pub const X_TICKS: usize = 6;
#[doc(hidden)] // pub for tests/unit (issue 23)
pub const Y_TICKS: usize = 5;

/// Where a chart put its parts, in backend pixels: the data area, to which every series and
/// marker is clipped, and the legend, which lies outside it (below the x axis).
#[derive(Clone, Debug, PartialEq)]
pub struct ChartLayout {
    /// (left, top, right, bottom) of the data area.
    pub plot: (i32, i32, i32, i32),
    /// (left, top, right, bottom) of the legend, when there is one.
    pub legend: Option<(i32, i32, i32, i32)>,
    /// The boxes of the point labels drawn (those that found a free place; [`labels::place`]).
    pub labels: Vec<labels::LabelBox>,
    /// The estimated boxes of the title's lines ([`labels::wrap_title`]).
    pub title: Vec<labels::LabelBox>,
}

/// One legend entry: a line sample in the series' colour and style, and its label.
struct LegendEntry {
    label: String,
    colour: RGBColor,
    style: Style,
}

fn legend_entries(spec: &ChartSpec) -> Vec<LegendEntry> {
    let markers = spec.markers.iter().map(|m| LegendEntry { label: m.label.clone(), colour: m.colour, style: Style::Dashed });
    let series = spec.series.iter().filter(|s| !s.label.is_empty()).map(|s| LegendEntry { label: s.label.clone(), colour: s.colour, style: s.style });
    series.chain(markers).collect()
}

/// Approximate width of `text` in a sans-serif font of `size` pixels (no text measurement: on wasm
/// it costs a reflow per label).
#[doc(hidden)] // pub for tests/unit (issue 23)
pub fn text_width(text: &str, size: u32) -> i32 {
    (text.chars().count() as f64 * 0.58 * size as f64).ceil() as i32
}

/// One line of a legend entry in a row: the entry, its x offset, the text, and whether the line
/// sample goes before it (an entry's first line) or the text is indented under it (its others).
struct LegendPiece {
    entry: usize,
    x: i32,
    text: String,
    first: bool,
}

/// Legend entries packed into rows of at most `width` pixels. An entry too long for a row of its
/// own is wrapped at spaces into lines under its first, each whole (issue 26: on a phone the noise
/// and bias legends were cut at the canvas's right edge, "… exact gradie").
fn legend_rows(entries: &[LegendEntry], width: i32, font: u32, sample: i32, gap: i32) -> Vec<Vec<LegendPiece>> {
    let mut rows: Vec<Vec<LegendPiece>> = Vec::new();
    let mut x = 0;
    let indent = sample + gap / 2;
    for (k, entry) in entries.iter().enumerate() {
        let w = indent + text_width(&entry.label, font);
        if w > width {
            let lines = labels::wrap_title(&entry.label, width - indent, 0.58 * font as f64);
            for (n, text) in lines.into_iter().enumerate() {
                rows.push(vec![LegendPiece { entry: k, x: 0, text, first: n == 0 }]);
            }
            x = width; // the next entry starts a row of its own
            continue;
        }
        if rows.is_empty() || (x > 0 && x + w > width) {
            rows.push(Vec::new());
            x = 0;
        }
        rows.last_mut().expect("a row was pushed").push(LegendPiece { entry: k, x, text: entry.label.clone(), first: true });
        x += w + gap;
    }
    rows
}

/// Draw the chart; `scale` multiplies font and line sizes (device-pixel ratio × text size).
pub fn draw_chart<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, spec: &ChartSpec, scale: f64) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    draw_chart_layout(root, spec, scale).map(|_| ())
}

/// Draw the chart and report where its data area and legend went.
pub fn draw_chart_layout<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, spec: &ChartSpec, scale: f64) -> Result<ChartLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let px = |css: f64| (css * scale).round().max(1.0) as u32;
    let font = px(12.0);
    root.fill(&WHITE)?;
    if spec.series.is_empty() && spec.markers.is_empty() {
        let title = note::draw_note(root, &spec.title, scale)?;
        return Ok(ChartLayout { plot: (0, 0, 0, 0), legend: None, labels: Vec::new(), title });
    }
    let (width, height) = root.dim_in_pixel();
    let entries = legend_entries(spec);
    let (sample, gap, line_height) = (px(18.0) as i32, px(14.0) as i32, (font as f64 * 1.45).ceil() as i32);
    let rows = legend_rows(&entries, width as i32 - 2 * px(6.0) as i32, font, sample, gap);
    let legend_height = if rows.is_empty() { 0 } else { rows.len() as i32 * line_height + px(6.0) as i32 };
    let legend_height = legend_height.min(height as i32 / 2);
    let (chart_area, legend_area) = root.split_vertically(height as i32 - legend_height);
    let (title_font, margin) = (px(14.0), px(6.0) as i32);
    let title_lines = labels::wrap_title(&spec.title, width as i32 - 2 * margin, 0.58 * title_font as f64);
    let title_line_height = (title_font as f64 * 1.3).ceil() as i32;
    let title_height = title_lines.len() as i32 * title_line_height + margin;
    let (title_area, chart_area) = chart_area.split_vertically(title_height);
    let mut title = Vec::new();
    for (k, line) in title_lines.iter().enumerate() {
        let (x, y) = (width as i32 / 2, margin + k as i32 * title_line_height);
        title_area.draw(&Text::new(line.clone(), (x, y), ("sans-serif", title_font).into_font().color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top))))?;
        let half = text_width(line, title_font) / 2;
        title.push((x - half, y, x + half, y + title_line_height));
    }

    let xs = spec.series.iter().flat_map(|s| s.points.iter().filter_map(|p| transform(p.0, spec.log_x)));
    let ys = y_extent(spec).into_iter().filter_map(|y| transform(y, spec.log_y));
    let (x0, x1) = fitted_range(xs.chain(spec.markers.iter().filter_map(|m| transform(m.x, spec.log_x))), spec.x_range, spec.log_x);
    let (y0, y1) = fitted_range(ys, spec.y_range, spec.log_y);
    let y_format = TickFormat::new(y0, y1, Y_TICKS, spec.log_y);
    let y_label_width = [y0, y1, 0.5 * (y0 + y1)].iter().map(|v| text_width(&y_format.label(*v), font)).max().unwrap_or(0);
    // As many x ticks as fit the data area's width with two font sizes between labels.
    let widest_x = |format: TickFormat| [x0, x1, 0.5 * (x0 + x1)].iter().map(|v| text_width(&format.label(*v), font)).max().unwrap_or(0);
    let data_width = width as i32 - y_label_width - (px(26.0) + 2 * px(6.0)) as i32;
    let x_ticks = labels::tick_count(data_width, widest_x(TickFormat::new(x0, x1, X_TICKS, spec.log_x)), 2 * font as i32, X_TICKS);
    let x_format = TickFormat::new(x0, x1, x_ticks, spec.log_x);
    // As many y ticks as fit the data area's height with one font size between labels.
    let data_height = height as i32 - legend_height - title_height - (px(34.0) + 2 * px(6.0)) as i32;
    let y_ticks = labels::tick_count(data_height, font as i32, font as i32, Y_TICKS);
    // The last x tick label is centred on the frame's right edge: leave room for its right half.
    let right_margin = (px(6.0) as i32).max(text_width(&x_format.label(x1), font) / 2 + px(2.0) as i32);
    let mut chart = ChartBuilder::on(&chart_area)
        .margin(px(6.0))
        .margin_right(right_margin as u32)
        .x_label_area_size(px(34.0))
        .y_label_area_size(y_label_width as u32 + px(26.0))
        .build_cartesian_2d(Axis::new(x0, x1, spec.log_x), Axis::new(y0, y1, spec.log_y))?;
    chart
        .configure_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        // One light line between ticks at most: plotters' ten made the "bias vs k" chart's grid
        // denser than its data (classfix item 5).
        .max_light_lines(1)
        .bold_line_style(RGBColor(220, 220, 220))
        .x_labels(x_ticks)
        .y_labels(y_ticks)
        .x_label_formatter(&|v| x_format.label(*v))
        .y_label_formatter(&|v| y_format.label(*v))
        .x_desc(log_note::x_description_fitting(&spec.x_label, log_note::not_drawn_on_log_axes(spec.series.iter().flat_map(|s| s.points.iter()), (spec.log_x, spec.log_y)), |text| {
            text_width(text, font) <= data_width
        }))
        .y_desc(&spec.y_label)
        .label_style(("sans-serif", font))
        .draw()?;
    let frame = View { x_min: x0, x_max: x1, y_min: y0, y_max: y1 };
    let stroke = px(2.0);
    for marker in &spec.markers {
        if let Some(x) = transform(marker.x, spec.log_x).filter(|x| (x0..=x1).contains(x)) {
            chart.draw_series(DashedLineSeries::new(vec![(x, y0), (x, y1)], px(5.0), px(4.0), marker.colour.stroke_width(px(1.5))))?;
        }
    }
    let mut placed: Vec<labels::LabelBox> = Vec::new();
    for series in &spec.series {
        let points: Vec<(f64, f64)> =
            series.points.iter().filter_map(|&(x, y)| Some((transform(x, spec.log_x)?, transform(y, spec.log_y)?))).collect();
        let style = series.colour.stroke_width(stroke);
        let inside: Vec<(f64, f64)> = points.iter().copied().filter(|&(x, y)| (x0..=x1).contains(&x) && (y0..=y1).contains(&y)).collect();
        if matches!(series.style, Style::Line | Style::LineAndPoints) {
            for run in clip_polyline(&points, &frame) {
                chart.draw_series(LineSeries::new(run, style))?;
            }
        }
        if series.style == Style::Dashed {
            for run in clip_polyline(&points, &frame) {
                chart.draw_series(DashedLineSeries::new(run, px(7.0), px(5.0), style))?;
            }
        }
        // A line of one point has no segment: drawn as a disc (issue 26: SGAIS series with one
        // run so far were not drawn at all).
        if matches!(series.style, Style::Points | Style::LineAndPoints) || points.len() == 1 {
            // A marker's disc may overhang the frame by its radius: keep the centre a radius inside.
            let (r, area) = (px(3.5) as i32, chart.plotting_area());
            let ((left, right), (top, bottom)) = {
                let (xr, yr) = area.get_pixel_range();
                ((xr.start, xr.end), (yr.start, yr.end))
            };
            // Near the frame the disc shrinks to fit (issue 26: SGAIS's first points at n = 1,000
            // of 100,000 lie ≈ 3 px inside the y axis and were not drawn at all).
            for p in inside {
                let (cx, cy) = area.map_coordinate(&p);
                let fit = r.min(cx - left).min(right - cx).min(cy - top).min(bottom - cy);
                if fit >= 2 {
                    area.draw(&Circle::new(p, fit as u32, series.colour.filled()))?;
                }
            }
        }
        draw_error_bars(&chart, series, spec, &frame, px(1.5))?;
    }
    // The point labels after every series, clear of all of them (a later curve was drawn over an
    // earlier series' labels, and labels over curves, issue 26).
    let obstacles = drawn_segments(&chart, spec, &frame, px(3.5) as i32);
    for series in &spec.series {
        draw_point_labels(&chart, series, spec, &frame, (font, px(5.0) as i32), &mut placed, &obstacles)?;
    }
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let legend = if rows.is_empty() { None } else { Some(draw_legend(&legend_area, &entries, &rows, font, sample, line_height, scale)?) };
    root.present()?;
    Ok(ChartLayout { plot: (xr.start, yr.start, xr.end, yr.end), legend, labels: placed, title })
}

type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<Axis, Axis>>;

/// Vertical bars y ± e for the points that have them (clipped to the frame; on a log axis the lower
/// end is cut at the bottom of the frame when y − e ≤ 0, and a point at y ≤ 0 has no bar: it is
/// not drawn, [`log_note`]).
fn draw_error_bars<DB: DrawingBackend>(chart: &Plot<'_, DB>, series: &Series, spec: &ChartSpec, frame: &View, width: u32) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    for (&(x, y), &e) in series.points.iter().zip(&series.error_bars) {
        let (Some(px), Some(_), Some(hi)) = (transform(x, spec.log_x), transform(y, spec.log_y), transform(y + e.abs(), spec.log_y)) else { continue };
        let lo = transform(y - e.abs(), spec.log_y).unwrap_or(frame.y_min);
        if !(frame.x_min..=frame.x_max).contains(&px) {
            continue;
        }
        let (lo, hi) = (lo.max(frame.y_min), hi.min(frame.y_max));
        if hi > lo {
            chart.plotting_area().draw(&PathElement::new(vec![(px, lo), (px, hi)], series.colour.stroke_width(width)))?;
        }
    }
    Ok(())
}

/// Every curve piece, error bar and point of the chart's series, in backend pixels (a point as the
/// two diagonals of its disc's box): what a point label must not be drawn over.
fn drawn_segments<DB: DrawingBackend>(chart: &Plot<'_, DB>, spec: &ChartSpec, frame: &View, radius: i32) -> Vec<labels::Segment> {
    let area = chart.plotting_area();
    let mut segments = Vec::new();
    for series in &spec.series {
        let points: Vec<(f64, f64)> = series.points.iter().filter_map(|&(x, y)| Some((transform(x, spec.log_x)?, transform(y, spec.log_y)?))).collect();
        if series.style != Style::Points {
            for run in clip_polyline(&points, frame) {
                segments.extend(run.windows(2).map(|w| (area.map_coordinate(&w[0]), area.map_coordinate(&w[1]))));
            }
        }
        if matches!(series.style, Style::Points | Style::LineAndPoints) {
            for p in points.iter().filter(|(x, y)| (frame.x_min..=frame.x_max).contains(x) && (frame.y_min..=frame.y_max).contains(y)) {
                let (cx, cy) = area.map_coordinate(p);
                segments.push(((cx - radius, cy - radius), (cx + radius, cy + radius)));
                segments.push(((cx - radius, cy + radius), (cx + radius, cy - radius)));
            }
        }
        for (&(x, y), &e) in series.points.iter().zip(&series.error_bars) {
            let (Some(bx), Some(_), Some(hi)) = (transform(x, spec.log_x), transform(y, spec.log_y), transform(y + e.abs(), spec.log_y)) else { continue };
            let lo = transform(y - e.abs(), spec.log_y).unwrap_or(frame.y_min).max(frame.y_min);
            if (frame.x_min..=frame.x_max).contains(&bx) && hi.min(frame.y_max) > lo {
                segments.push((area.map_coordinate(&(bx, lo)), area.map_coordinate(&(bx, hi.min(frame.y_max)))));
            }
        }
    }
    segments
}

/// The text beside each labelled point inside the frame, where it overlaps no label already in
/// `placed` and crosses none of the `obstacles` ([`labels::place_clear`]; a label with no free
/// place is left out).
fn draw_point_labels<DB: DrawingBackend>(
    chart: &Plot<'_, DB>,
    series: &Series,
    spec: &ChartSpec,
    frame: &View,
    (font, offset): (u32, i32),
    placed: &mut Vec<labels::LabelBox>,
    obstacles: &[labels::Segment],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let style = ("sans-serif", font).into_font().color(&series.colour).pos(Pos::new(HPos::Left, VPos::Top));
    let area = chart.plotting_area();
    let (xr, yr) = area.get_pixel_range();
    let bounds = (xr.start, yr.start, xr.end, yr.end);
    let base = area.get_base_pixel();
    for (&(x, y), label) in series.points.iter().zip(&series.point_labels) {
        let (Some(tx), Some(ty)) = (transform(x, spec.log_x), transform(y, spec.log_y)) else { continue };
        if label.is_empty() || !(frame.x_min..=frame.x_max).contains(&tx) || !(frame.y_min..=frame.y_max).contains(&ty) {
            continue;
        }
        let size = (text_width(label, font), (font as f64 * 1.2).ceil() as i32);
        let Some(b) = labels::place_clear(area.map_coordinate(&(tx, ty)), size, offset, bounds, placed, obstacles) else { continue };
        area.strip_coord_spec().draw(&Text::new(label.clone(), (b.0 - base.0, b.1 - base.1), style.clone()))?;
        placed.push(b);
    }
    Ok(())
}

/// The legend below the chart, one row per line of entries.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    rows: &[Vec<LegendPiece>],
    font: u32,
    sample: i32,
    line_height: i32,
    scale: f64,
) -> Result<(i32, i32, i32, i32), DrawingAreaErrorKind<DB::ErrorType>> {
    let px = |css: f64| (css * scale).round().max(1.0) as i32;
    let left = px(6.0);
    let text = ("sans-serif", font).into_font().color(&RGBColor(40, 40, 40)).pos(Pos::new(HPos::Left, VPos::Center));
    let mut right = 0;
    for (row, y) in rows.iter().zip((0..).map(|k| px(3.0) + k * line_height + line_height / 2)) {
        for piece in row {
            let entry = &entries[piece.entry];
            let x = left + piece.x;
            let colour = entry.colour.stroke_width(px(2.0) as u32);
            match entry.style {
                _ if !piece.first => {}
                Style::Line => area.draw(&PathElement::new(vec![(x, y), (x + sample, y)], colour))?,
                Style::Dashed => {
                    let dash = sample / 3;
                    area.draw(&PathElement::new(vec![(x, y), (x + dash, y)], colour))?;
                    area.draw(&PathElement::new(vec![(x + 2 * dash, y), (x + sample, y)], colour))?;
                }
                Style::Points => area.draw(&Circle::new((x + sample / 2, y), px(3.5) as u32, entry.colour.filled()))?,
                Style::LineAndPoints => {
                    area.draw(&PathElement::new(vec![(x, y), (x + sample, y)], colour))?;
                    area.draw(&Circle::new((x + sample / 2, y), px(3.5) as u32, entry.colour.filled()))?;
                }
            }
            let label_x = x + sample + px(5.0);
            area.draw(&Text::new(piece.text.clone(), (label_x, y), text.clone()))?;
            right = right.max(label_x + text_width(&piece.text, font));
        }
    }
    let (xr, yr) = area.get_pixel_range();
    Ok((xr.start, yr.start, (xr.start + right).min(xr.end), yr.end))
}

pub mod axis;
pub mod labels;
pub mod log_note;
mod note;
