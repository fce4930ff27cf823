//! Unit tests of the chart specs: drawing, the JSON round trip, tick labels, what stays inside
//! the frame and the canvas, and degenerate data.
//!
//! Unit tests of src/plot/chart/mod.rs (`plot::chart::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use plotters::prelude::*;
use sgviz::plot::chart::*;

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
    assert!(svg.contains("1·10⁻"), "log tick labels");
}

/// The labels the chart prints on an axis over [lo, hi] with at most `count` ticks.
fn axis_labels(lo: f64, hi: f64, count: usize, log: bool) -> Vec<String> {
    let format = TickFormat::new(lo, hi, count, log);
    axis_ticks(lo, hi, count, log).iter().map(|v| format.label(*v)).collect()
}

fn assert_distinct(labels: &[String], what: &str) {
    let mut sorted = labels.to_vec();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), labels.len(), "{what}: repeated tick labels {labels:?}");
    assert!(labels.len() >= 2, "{what}: {labels:?}");
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
fn tick_labels_are_distinct_on_awkward_ranges() {
    // (lo, hi, log): a trace late in a long run, a narrow band around 1, tiny and huge
    // magnitudes, a range around zero, a tiny range at a large offset, and log axes.
    let cases = [
        (110_000.0, 112_000.0, false),
        (0.999, 1.001, false),
        (1e-7, 3e-7, false),
        (-1e-9, 1e-9, false),
        (4.2e8, 4.2e8 + 3.0, false),
        (100_000.0, 100_000.5, false),
        (-0.2, 1.0, false),
        (-3.5, 2.25, false),
        (0.95f64.log10(), 1.05f64.log10(), true),
        (-7.0, 0.0, true),
        (2.0, 2.1, true),
        (-6.3, -6.1, true),
    ];
    for (lo, hi, log) in cases {
        for count in [X_TICKS, Y_TICKS] {
            assert_distinct(&axis_labels(lo, hi, count, log), &format!("[{lo}, {hi}] log={log} count={count}"));
        }
    }
}

#[test]
fn tick_labels_are_short_and_exact_where_they_can_be() {
    assert_eq!(axis_labels(110_000.0, 112_000.0, 6, false), ["110,000", "110,500", "111,000", "111,500", "112,000"]);
    assert_eq!(axis_labels(-0.2, 1.0, 5, false), ["0", "0.5", "1"]);
    assert_eq!(axis_labels(-7.0, 0.0, 6, true)[..3], ["1·10⁻⁶", "1·10⁻⁴", "0.01"]);
    let format = TickFormat::new(-1.0, 1.0, 5, false);
    assert_eq!(format.label(1e-17), "0", "rounding noise at zero prints as 0");
    assert_eq!(format.label(-0.6000000000000001), "-0.6");
    assert_eq!(TickFormat::new(1e-7, 3e-7, 6, false).label(1.5e-7), "1.5·10⁻⁷");
    assert_eq!(TickFormat::new(0.0, 1.0, 5, true).label(0.5), "3.2", "√10 to two digits on a decade-wide log axis");
}

/// Issue 26: a trace run to millions of steps printed "1.2e6" and "5e7" under the chart; the page
/// writes "1.2·10⁶" (www/format.js `formatNumber`, src/readable.rs), and counts as "110,000".
/// Expected labels written by hand from the review's "1.2e6" and "5e7".
#[test]
fn large_tick_labels_use_the_pages_power_of_ten() {
    let trace = TickFormat::new(0.0, 1.2e6, 6, false);
    assert_eq!([trace.label(0.0), trace.label(1.2e6), trace.label(1e6), trace.label(2e5)], ["0", "1.2·10⁶", "1·10⁶", "2·10⁵"]);
    assert_eq!(axis_labels(0.0, 1e6, 3, false), ["0", "5·10⁵", "1·10⁶"]);
    assert_eq!(TickFormat::new(0.0, 5e7, 3, false).label(5e7), "5·10⁷");
    assert_eq!(TickFormat::new(0.0, 5e7, 3, false).label(2e7), "2·10⁷");
    assert_eq!(TickFormat::new(-5.0, 1.0, 6, true).label(-5.0), "1·10⁻⁵");
    for (lo, hi, log) in [(0.0, 1.2e6, false), (0.0, 5e7, false), (4.2e8, 4.2e8 + 3.0, false), (1e-7, 3e-7, false), (-7.0, 0.0, true), (3.0, 8.0, true)] {
        for label in axis_labels(lo, hi, X_TICKS, log) {
            assert!(!label.contains('e'), "[{lo}, {hi}] log={log}: {label}");
        }
    }
}

/// Issue 26: the SGAIS softmax cost chart's log axis over 1,000…2,000 data (padded 5 % in log10
/// units, as the chart fits it) read 1000, 1259, 1585, 1995. Its ticks are round values now
/// (worked by hand: steps of 200 give six ticks, the most that fit), as on other narrow log axes.
#[test]
fn log_axis_ticks_are_round_values() {
    let padded = |a: f64, b: f64| {
        let (lo, hi) = (a.log10(), b.log10());
        (lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo))
    };
    let (lo, hi) = padded(1000.0, 2000.0);
    assert_eq!(axis_labels(lo, hi, X_TICKS, true), ["1,000", "1,200", "1,400", "1,600", "1,800", "2,000"]);
    assert_eq!(axis_labels(lo, hi, 3, true), ["1,000", "1,500", "2,000"]);
    let (lo, hi) = padded(0.1, 0.12);
    assert_eq!(axis_labels(lo, hi, 5, true), ["0.1", "0.105", "0.11", "0.115", "0.12"]);
    // Over a few decades: 1, 2, 5 per decade; over many: powers of ten.
    assert_eq!(axis_labels(0.0, 2.0, 7, true), ["1", "2", "5", "10", "20", "50", "100"]);
    assert_eq!(axis_labels(-7.0, 0.0, 6, true), ["1·10⁻⁶", "1·10⁻⁴", "0.01", "1"]);
}

/// Issue 26: on a phone SBPS Fig. 5's log axis over 0.0025…0.04779 had room for two ticks; no
/// candidate has two or fewer there (powers of ten: 0.01 alone; 1, 2, 5: 0.005, 0.01, 0.02), and
/// it printed its raw ends "0.0025" and "0.047790086". Now the first and last of 1…9 × 10^k inside
/// (worked by hand: 0.003 and 0.04).
#[test]
fn a_log_axis_with_room_for_two_ticks_prints_round_values() {
    assert_eq!(axis_labels(0.0025f64.log10(), 0.047790086f64.log10(), 2, true), ["0.003", "0.04"]);
}

/// Straight-line series y = a + b·x that overshoot the fixed ranges, and two markers.
const LINES: [(f64, f64, Style); 3] = [(-1.5, 0.1, Style::Line), (1.4, -0.08, Style::Dashed), (-2.0, 0.12, Style::LineAndPoints)];

fn overshooting_chart() -> ChartSpec {
    let series = LINES
        .iter()
        .enumerate()
        .map(|(k, &(a, b, style))| Series::new(["line", "dashed", "points"][k], (0..50).map(|x| (x as f64, a + b * x as f64)).collect(), PALETTE[k], style))
        .collect();
    ChartSpec {
        title: "overshoot".into(),
        x_label: "x".into(),
        y_label: "y".into(),
        series,
        markers: vec![Marker { x: 60.0, label: "outside".into(), colour: PALETTE[3] }, Marker { x: 25.0, label: "inside".into(), colour: PALETTE[4] }],
        x_range: Some((0.0, 40.0)),
        y_range: Some((-1.0, 1.0)),
        ..Default::default()
    }
}

fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

#[test]
fn series_and_markers_stay_inside_the_frame_and_the_legend_outside() {
    use crate::unit::plot::svg_probe::{elements, inside};
    let spec = overshooting_chart();
    for (width, height, scale) in [(400, 300, 1.0), (300, 220, 1.0), (800, 600, 2.0), (600, 450, 3.0)] {
        let mut svg = String::new();
        let layout = {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            draw_chart_layout(&root, &spec, scale).unwrap()
        };
        let (l, t, r, b) = layout.plot;
        let plot = (l as f64, t as f64, r as f64, b as f64);
        let legend = layout.legend.expect("labelled series have a legend");
        let legend_box = (legend.0 as f64, legend.1 as f64, legend.2 as f64, legend.3 as f64);
        assert!(legend.1 >= b, "legend {legend:?} starts below the data area {:?}", layout.plot);
        let svg_elements = elements(&svg);
        let in_data_area: Vec<_> = svg_elements.iter().filter(|e| !inside(e, legend_box, 1.0)).collect();
        // Pixel → data, with two pixels of rounding allowed.
        let to_data = |(px, py): (f64, f64)| (40.0 * (px - plot.0) / (plot.2 - plot.0), 1.0 - 2.0 * (py - plot.1) / (plot.3 - plot.1));
        let tolerance = 2.0 * 2.0 / (plot.3 - plot.1) + 0.1 * 2.0 * 40.0 / (plot.2 - plot.0);
        let mut data_marks = 0;
        for (k, &(a, slope, _)) in LINES.iter().enumerate() {
            for e in in_data_area.iter().filter(|e| e.stroke == hex(PALETTE[k]) || e.fill == hex(PALETTE[k])) {
                data_marks += 1;
                assert!(inside(e, plot, 1.0), "{width}×{height}: {e:?} leaves the frame {plot:?}");
                for &p in &e.points {
                    let (x, y) = to_data(p);
                    assert!((y - (a + slope * x)).abs() < tolerance, "{width}×{height}: series {k} drawn at ({x:.2}, {y:.3}), off its line (a plotters edge pin?)");
                }
            }
        }
        assert!(data_marks > 10, "the series were drawn ({data_marks} marks)");
        assert!(!in_data_area.iter().any(|e| e.stroke == hex(PALETTE[3])), "a marker outside the x range is not drawn");
        assert!(in_data_area.iter().any(|e| e.stroke == hex(PALETTE[4])), "the marker inside the range is drawn");
        for label in ["line", "dashed", "points", "outside", "inside"] {
            let text = svg_elements.iter().find(|e| e.tag == "text" && e.text == label).unwrap_or_else(|| panic!("legend entry {label}"));
            assert!(inside(text, legend_box, 1.0), "{label} in the legend box: {text:?} vs {legend_box:?}");
        }
    }
}

#[test]
fn a_trace_late_in_a_long_run_prints_distinct_sample_numbers() {
    let points: Vec<(f64, f64)> = (0..2000).map(|k| (110_000.0 + k as f64, (k as f64).sin())).collect();
    let spec = ChartSpec { series: vec![Series::new("θ1", points, PALETTE[0], Style::Line)], ..Default::default() };
    let mut svg = String::new();
    let layout = {
        let root = SVGBackend::with_string(&mut svg, (400, 300)).into_drawing_area();
        draw_chart_layout(&root, &spec, 1.0).unwrap()
    };
    let below_axis: Vec<String> = crate::unit::plot::svg_probe::elements(&svg)
        .into_iter()
        .filter(|e| e.tag == "text" && e.points[0].1 > layout.plot.3 as f64 && e.points[0].1 < layout.legend.unwrap().1 as f64 && !e.text.is_empty())
        .map(|e| e.text)
        .collect();
    assert_distinct(&below_axis, "x ticks of a trace at sample 110,000");
    assert!(below_axis.iter().all(|t| !t.contains('e')), "{below_axis:?}");
}

/// The SGAIS evidence charts run x to 100,000: the last tick label ("100,000", centred on the
/// frame's right edge) is printed whole inside the canvas, not cut to "1000".
#[test]
fn the_last_x_tick_label_fits_inside_the_canvas() {
    let points: Vec<(f64, f64)> = (0..=100).map(|k| (1000.0 * k as f64, -4.12 + 1e-4 * k as f64)).collect();
    let spec = ChartSpec { series: vec![Series::new("K = 3", points, PALETTE[0], Style::Line)], x_range: Some((0.0, 1e5)), ..Default::default() };
    for (width, scale) in [(500u32, 1.0), (420, 1.0), (900, 2.0)] {
        let mut svg = String::new();
        let layout = {
            let root = SVGBackend::with_string(&mut svg, (width, 300)).into_drawing_area();
            draw_chart_layout(&root, &spec, scale).unwrap()
        };
        let font = (12.0 * scale).round() as u32;
        let ticks: Vec<_> = crate::unit::plot::svg_probe::elements(&svg)
            .into_iter()
            .filter(|e| e.tag == "text" && e.points[0].1 > layout.plot.3 as f64 && e.points[0].1 < layout.legend.unwrap().1 as f64 && !e.text.is_empty())
            .collect();
        let last = ticks.iter().find(|e| e.text == "100,000").unwrap_or_else(|| panic!("{width}: no 100,000 tick among {:?}", ticks.iter().map(|e| &e.text).collect::<Vec<_>>()));
        let right_end = last.points[0].0 + text_width(&last.text, font) as f64 / 2.0;
        assert!(right_end <= width as f64, "{width}×300 at {scale}×: the 100,000 label ends at {right_end}, past the canvas");
    }
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

/// A phone (issue 26): the bias chart's title at 350 CSS px wide, with 16-px-class text (scale
/// 1.34) and at devicePixelRatio 3: it wraps to more than one line, every word is printed, and no
/// line runs past either edge of the canvas (it was one line cut off at both edges).
#[test]
fn a_long_title_wraps_inside_a_phone_canvas() {
    let title = "Bias vs Monte Carlo error, and MH rejection, vs ε";
    let points: Vec<(f64, f64)> = (1..=10).map(|k| (k as f64, k as f64)).collect();
    let spec = ChartSpec { title: title.into(), series: vec![Series::new("s", points, PALETTE[0], Style::Line)], ..Default::default() };
    for (width, scale) in [(350u32, 1.34), (1050, 4.0), (1400, 1.0)] {
        let mut svg = String::new();
        let layout = {
            let root = SVGBackend::with_string(&mut svg, (width, (width as f64 * 0.8) as u32)).into_drawing_area();
            draw_chart_layout(&root, &spec, scale).unwrap()
        };
        let font = (14.0 * scale).round() as u32;
        let lines: Vec<_> = crate::unit::plot::svg_probe::elements(&svg).into_iter().filter(|e| e.tag == "text" && e.points[0].1 < layout.plot.1 as f64 && !e.text.is_empty()).collect();
        let joined = lines.iter().map(|e| e.text.as_str()).collect::<Vec<_>>().join(" ");
        assert_eq!(joined, title, "{width} px at {scale}×");
        assert_eq!(lines.len() > 1, width < 1400, "{width} px at {scale}×: {} line(s)", lines.len());
        for e in &lines {
            let half = text_width(&e.text, font) as f64 / 2.0;
            assert!(e.points[0].0 - half >= 0.0 && e.points[0].0 + half <= width as f64, "{width} px at {scale}×: '{}' at x = {} runs past the canvas", e.text, e.points[0].0);
        }
        assert_eq!(layout.title.len(), lines.len());
    }
}

/// Bias estimates with error bars on a log y axis: two at or below zero (hand-written case).
fn bias_chart() -> ChartSpec {
    let mut series = Series::new("bias", vec![(1.0, 0.0), (2.0, 0.1), (3.0, -0.2), (4.0, 1.0)], PALETTE[1], Style::Points);
    series.error_bars = vec![0.5, 0.05, 1.0, 0.1];
    ChartSpec { x_label: "ε".into(), y_label: "bias".into(), log_y: true, series: vec![series], ..Default::default() }
}

#[test]
fn points_at_or_below_zero_on_a_log_axis_are_left_out_and_counted_under_the_axis() {
    let spec = bias_chart();
    let not_drawn = |s: &ChartSpec| log_note::not_drawn_on_log_axes(s.series.iter().flat_map(|s| s.points.iter()), (s.log_x, s.log_y));
    assert_eq!(not_drawn(&spec), 2);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 300)).into_drawing_area();
        draw_chart(&root, &spec, 1.0).unwrap();
    }
    let colour = format!("#{:02X}{:02X}{:02X}", PALETTE[1].0, PALETTE[1].1, PALETTE[1].2);
    let drawn = crate::unit::plot::svg_probe::elements(&svg);
    // One vertical bar per positive point (y = 0.1 and y = 1), none for y = 0 and y = −0.2.
    let bars = drawn.iter().filter(|e| e.stroke.eq_ignore_ascii_case(&colour) && e.points.len() == 2 && (e.points[0].0 - e.points[1].0).abs() < 0.5).count();
    assert_eq!(bars, 2, "{drawn:?}");
    assert!(drawn.iter().any(|e| e.tag == "text" && e.text.contains("(2 values are 0 or less: a log axis has no place for them)")), "the count is said");
    let linear = ChartSpec { log_y: false, ..bias_chart() };
    assert_eq!(not_drawn(&linear), 0, "a linear axis draws them all");
    assert_eq!(log_note::x_description("ε", 0), "ε");
}

/// A chart with no series and no markers (the bouncy samplers' "No noise chart: …", the SGAIS
/// charts before a run) is its sentence alone: the text, wrapped, and no frame, axis or tick.
#[test]
fn a_chart_without_data_is_its_sentence_alone() {
    let note = ChartSpec { title: "No noise chart: BPS: no step size to vary (a continuous-time sampler)".into(), ..Default::default() };
    let drawn = crate::unit::plot::svg_probe::elements(&render(&note));
    let texts: Vec<&str> = drawn.iter().filter(|e| e.tag == "text").map(|e| e.text.as_str()).collect();
    assert_eq!(texts.join(" "), "No noise chart: BPS: no step size to vary (a continuous-time sampler)", "{drawn:?}");
    let strokes: Vec<_> = drawn.iter().filter(|e| e.tag != "text" && !e.stroke.is_empty() && !e.stroke.eq_ignore_ascii_case("none")).collect();
    assert!(strokes.is_empty(), "no frame, axis or tick line: {strokes:?}");
    // The same spec with one point is a chart: it has its frame.
    let chart = ChartSpec { series: vec![Series::new("a", vec![(1.0, 1.0), (2.0, 2.0)], PALETTE[0], Style::Line)], ..note };
    assert!(crate::unit::plot::svg_probe::elements(&render(&chart)).iter().any(|e| e.tag != "text" && !e.stroke.is_empty() && !e.stroke.eq_ignore_ascii_case("none") && !e.stroke.eq_ignore_ascii_case(&format!("#{:02X}{:02X}{:02X}", PALETTE[0].0, PALETTE[0].1, PALETTE[0].2))));
}

/// The fitted y axis holds the error bars, not just the points: an NS point −2 ± 0.5 above SGAIS
/// points at −3 (hand-made): the axis reaches −1.5, its bar's top end.
#[test]
fn the_fitted_y_axis_holds_every_error_bar() {
    let mut ns = Series::new("nested sampling ± SE", vec![(2000.0, -2.0)], PALETTE[4], Style::Points);
    ns.error_bars = vec![0.5];
    let spec = ChartSpec { series: vec![Series::new("SGAIS", vec![(1000.0, -3.0), (2000.0, -3.1)], PALETTE[0], Style::Line), ns], ..Default::default() };
    let extent = y_extent(&spec);
    let top = extent.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let bottom = extent.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!((bottom, top), (-3.1, -1.5));
}

/// The x description fits its axis: the whole sentence where it fits, a shorter one that still
/// counts the points left out where it does not, the label alone where neither does (classfix
/// item 5: "… a log axis has no place for th" cut at the right of the SBPS "bias vs n" chart).
/// Widths hand-worked: 0.58 × 12 px per character (the earlier test draws the whole sentence at 800 px).
#[test]
fn the_log_note_under_the_x_axis_is_shortened_to_fit() {
    let fits = |limit: usize| move |text: &str| text.chars().count() <= limit;
    let whole = log_note::x_description_fitting("minibatch n", 3, fits(200));
    assert_eq!(whole, "minibatch n   (3 values are 0 or less: a log axis has no place for them)");
    let short = log_note::x_description_fitting("minibatch n", 3, fits(40));
    assert_eq!(short, "minibatch n   (3 values ≤ 0 not drawn)");
    assert_eq!(log_note::x_description_fitting("minibatch n", 1, fits(40)), "minibatch n   (1 value ≤ 0 not drawn)");
    assert_eq!(log_note::x_description_fitting("minibatch n", 3, fits(20)), "minibatch n");
    // Drawn at 300 px (data area ≈ 240 px, ≈ 34 characters at 12 px): no text leaves the canvas.
    let spec = ChartSpec { x_label: "minibatch n".into(), ..bias_chart() };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (300, 300)).into_drawing_area();
        draw_chart(&root, &spec, 1.0).unwrap();
    }
    let drawn = crate::unit::plot::svg_probe::elements(&svg);
    let note = drawn.iter().find(|e| e.tag == "text" && e.text.starts_with("minibatch n")).expect("the x description is drawn");
    assert!(note.text.chars().count() as f64 * 0.58 * 12.0 <= 300.0, "'{}' is wider than the canvas", note.text);
}

/// At most one light grid line between two ticks (classfix item 5: plotters' ten per interval made
/// the SBPS "bias vs k" grid, k = 0 … 10 on a linear axis, denser than its data). Counted in the
/// SVG: vertical lines in the light grey (235) against those in the tick grey (220).
#[test]
fn a_linear_axis_draws_at_most_one_light_grid_line_between_ticks() {
    let series = Series::new("E2", vec![(0.0, 1.0), (1.0, 0.3), (3.0, 0.04), (6.0, 0.02), (10.0, 0.03)], PALETTE[4], Style::LineAndPoints);
    let spec = ChartSpec { x_label: "band k".into(), y_label: "E2".into(), series: vec![series], ..Default::default() };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (500, 300)).into_drawing_area();
        draw_chart(&root, &spec, 1.0).unwrap();
    }
    let drawn = crate::unit::plot::svg_probe::elements(&svg);
    let vertical = |grey: &str| drawn.iter().filter(|e| e.stroke.eq_ignore_ascii_case(grey) && e.points.len() == 2 && (e.points[0].0 - e.points[1].0).abs() < 0.5).count();
    let (light, bold) = (vertical("#EBEBEB"), vertical("#DCDCDC"));
    assert!(bold >= 2, "{bold} ticks");
    assert!(light <= bold + 1, "{light} light lines for {bold} ticks");
}
