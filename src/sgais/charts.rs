//! Chart specifications of the SGAIS panel (paper Fig. 2 and Fig. 5), built from plain chunk
//! records so that a Web Worker can compute them and the page's main thread draw them (a
//! [`ChartSpec`] is serde-serialisable).

use super::replicas::ReplicaSummary;
use super::run::ChunkRecord;
use crate::plot::chart::{y_extent, ChartSpec, Marker, Series, Style, PALETTE};
use plotters::style::RGBColor;

/// Colour of the exact curve and of the zero line.
pub const EXACT_COLOUR: RGBColor = RGBColor(20, 20, 20);
/// Colour of the full-data AIS points.
pub const AIS_COLOUR: RGBColor = RGBColor(209, 73, 91);
/// Colour of change-point markers.
pub const MARKER_COLOUR: RGBColor = RGBColor(120, 120, 120);

/// One run's curve: its label, palette index, line style and chunk records.
#[derive(Clone, Copy, Debug)]
pub struct CurveRun<'a> {
    pub label: &'a str,
    pub colour: usize,
    pub dashed: bool,
    pub records: &'a [ChunkRecord],
}

/// Vertical markers at change points `(n, label)`, e.g. (1,000, "3 → 5 clusters").
pub fn change_point_markers(points: &[(usize, String)]) -> Vec<Marker> {
    points.iter().map(|(n, label)| Marker { x: *n as f64, label: label.clone(), colour: MARKER_COLOUR }).collect()
}

fn style(dashed: bool) -> Style {
    if dashed {
        Style::Dashed
    } else {
        Style::Line
    }
}

/// log Ẑ/n against n for every run (paper Fig. 2a, 5a), the exact curve of the first run that has
/// one, and full-data AIS points `(n, log Ẑ)`.
pub fn evidence_chart(runs: &[CurveRun], ais: &[(usize, f64)], n_total: usize, markers: Vec<Marker>) -> ChartSpec {
    let mut series: Vec<Series> = runs
        .iter()
        .map(|r| {
            let points = r.records.iter().filter(|c| c.log_z.is_finite()).map(|c| (c.n as f64, c.log_z / c.n as f64)).collect();
            Series::new(r.label, points, PALETTE[r.colour % PALETTE.len()], style(r.dashed))
        })
        .collect();
    if let Some(first) = runs.iter().find(|r| r.records.iter().any(|c| c.exact_log_z.is_some())) {
        let exact = first.records.iter().filter_map(|c| c.exact_log_z.map(|z| (c.n as f64, z / c.n as f64))).collect();
        series.push(Series::new("exact log Z/n", exact, EXACT_COLOUR, Style::Dashed));
    }
    let ais: Vec<(f64, f64)> = ais.iter().filter(|(n, z)| *n > 0 && z.is_finite()).map(|(n, z)| (*n as f64, z / *n as f64)).collect();
    if !ais.is_empty() {
        series.push(Series::new("AIS (full data)", ais, AIS_COLOUR, Style::Points));
    }
    for s in series.iter_mut().filter(|s| s.points.len() == 1) {
        // One chunk in: a line through one point draws nothing (issue 26: an empty chart).
        s.style = Style::Points;
    }
    let mut spec = ChartSpec {
        title: "Online evidence: log Ẑ/n as the data arrive".into(),
        x_label: "data seen n".into(),
        y_label: "log Ẑ / n".into(),
        series,
        markers,
        // 4 % room beyond N: the AIS point at n = N is drawn whole, not cut at the frame.
        x_range: Some((0.0, 1.04 * n_total as f64)),
        ..Default::default()
    };
    spec.y_range = least_height(&y_extent(&spec), MIN_EVIDENCE_HEIGHT);
    spec
}

/// Smallest height of the evidence chart's y axis, in nats per datum. The chart shows how log Ẑ/n
/// approaches the exact curve as n grows, over tenths of a nat; a first chunk alone (or runs that
/// agree to 10⁻⁵) fitted the axis to their own spread and printed ticks like "-1.4252e0", all
/// alike (issue 26). Differences smaller than this are the comparison sentence's business.
pub const MIN_EVIDENCE_HEIGHT: f64 = 0.1;

/// A y range of at least `height` centred on `values` when they span less (None: fit to the data).
fn least_height(values: &[f64], height: f64) -> Option<(f64, f64)> {
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    (lo.is_finite() && hi - lo < height).then(|| (0.5 * (lo + hi) - 0.5 * height, 0.5 * (lo + hi) + 0.5 * height))
}

/// Smallest height of the annealing chart's y axis, in annealing steps (whole numbers): a first
/// chunk alone was ticked 12.95, 13, 13.05 (issue 26).
pub const MIN_ANNEALING_HEIGHT: f64 = 4.0;

/// Annealing steps needed by each chunk (paper Fig. 5b: spikes mark distribution shifts).
pub fn annealing_chart(runs: &[CurveRun], n_total: usize, markers: Vec<Marker>) -> ChartSpec {
    let series = runs
        .iter()
        .map(|r| {
            let points: Vec<(f64, f64)> = r.records.iter().map(|c| (c.n as f64, c.annealing_steps as f64)).collect();
            // One chunk in: a point, not a line through one point (nothing).
            let drawn = if points.len() == 1 { Style::Points } else { style(r.dashed) };
            Series::new(r.label, points, PALETTE[r.colour % PALETTE.len()], drawn)
        })
        .collect();
    let mut spec = ChartSpec {
        title: "Annealing steps per chunk".into(),
        x_label: "data seen n".into(),
        y_label: "annealing steps".into(),
        series,
        markers,
        // As the evidence chart: a point at n = N is drawn whole (a disc that would overhang the
        // frame is left out, and a single chunk's only point at N was).
        x_range: Some((0.0, 1.04 * n_total as f64)),
        ..Default::default()
    };
    spec.y_range = least_height(&y_extent(&spec), MIN_ANNEALING_HEIGHT);
    spec
}

/// log Ẑ − log Z against n over replicas: the mean and mean ± 2 standard errors, and zero; None
/// without an exact evidence. (On the log Ẑ/n scale errors of a few nats are invisible.)
pub fn error_chart(summary: &ReplicaSummary, label: &str, n_total: usize) -> Option<ChartSpec> {
    let rows: Vec<(f64, f64, f64)> = summary
        .curve
        .iter()
        .filter_map(|p| p.exact_log_z.map(|exact| (p.n as f64, p.log_z.mean - exact, 2.0 * p.log_z.se.unwrap_or(0.0))))
        .collect();
    if rows.is_empty() {
        return None;
    }
    let colour = PALETTE[0];
    let mut series = vec![Series::new(format!("{label} (mean of {} replicas)", summary.replicas), rows.iter().map(|r| (r.0, r.1)).collect(), colour, Style::Line)];
    if summary.replicas > 1 {
        series.push(Series::new("± 2 standard errors", rows.iter().map(|r| (r.0, r.1 + r.2)).collect(), colour, Style::Dashed));
        series.push(Series::new("", rows.iter().map(|r| (r.0, r.1 - r.2)).collect(), colour, Style::Dashed));
    }
    series.push(Series::new("exact", vec![(0.0, 0.0), (n_total as f64, 0.0)], EXACT_COLOUR, Style::Line));
    Some(ChartSpec {
        title: "Error of the evidence estimate".into(),
        x_label: "data seen n".into(),
        y_label: "log Ẑ − log Z (nats)".into(),
        series,
        x_range: Some((0.0, n_total as f64)),
        ..Default::default()
    })
}
