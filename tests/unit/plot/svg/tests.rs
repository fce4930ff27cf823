//! Unit tests of src/plot/svg.rs (`plot::svg::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use plotters::prelude::*;
use sgviz::plot::chart::ChartSpec;
use sgviz::plot::marginal2d::StaticLayer;
use sgviz::plot::svg::*;
use sgviz::plot::chart::{Series, Style};
use crate::unit::plot::svg_probe::elements;
use sgviz::plot::PlotFrame;

#[test]
fn a_chart_keeps_every_point_of_its_line() {
    // A line through 37 points inside fixed ranges: the SVG has one polyline with 37 vertices.
    let points: Vec<(f64, f64)> = (0..37).map(|i| (i as f64, (i as f64 * 0.3).sin())).collect();
    let spec = ChartSpec {
        title: "a test chart".into(),
        x_range: Some((0.0, 36.0)),
        y_range: Some((-1.5, 1.5)),
        series: vec![Series::new("sine", points, RGBColor(1, 2, 3), Style::Line)],
        ..Default::default()
    };
    let svg = chart_svg(&spec, 400, 300, 1.0).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg:.200}");
    let lines: Vec<_> = elements(&svg).into_iter().filter(|e| e.tag == "polyline" && e.stroke == "#010203").collect();
    // The data line and the legend's two-point sample line.
    let mut lengths: Vec<usize> = lines.iter().map(|e| e.points.len()).collect();
    lengths.sort();
    assert_eq!(lengths, vec![2, 37], "{lines:?}");
    assert!(svg.contains("a test chart") && svg.contains("sine"), "title and legend are text: {svg}");
}

#[test]
fn the_panel_draws_the_density_as_blocks_and_the_sampler_ellipse_dashed() {
    let frame = PlotFrame::new(300, 300, 1.0);
    let view = sgviz::model::View { x_min: -1.0, x_max: 1.0, y_min: -1.0, y_max: 1.0 };
    let layer = StaticLayer { frame, view, grid: None, truth: None, x_name: "x", y_name: "y", scale: 1.0 };
    let (l, t) = (frame.left as f64, frame.top as f64);
    // Samples at three places of the view, two of them in one 4-pixel block: two blocks, apart.
    let mut image = sgviz::plot::density::DensityImage::new(sgviz::plot::Projection { frame, view });
    for (x, y) in [(-0.9, 0.9), (-0.9, 0.9), (0.5, -0.5)] {
        image.add(x, y);
    }
    let density = sgviz::plot::svg_marks::density_rects(&image, 4);
    assert_eq!(density.len(), 2);
    // A closed square of side 28 as the sampler's ellipse: 112 px of outline, dashes 8 on and
    // 6 off = 8 dashes exactly.
    let square = vec![(l + 20.0, t + 20.0), (l + 48.0, t + 20.0), (l + 48.0, t + 48.0), (l + 20.0, t + 48.0), (l + 20.0, t + 20.0)];
    // One band: a 4-corner histogram outline and a 3-point truth curve.
    let band = MarginalBand { histogram: vec![(l, t - 2.0), (l, t - 30.0), (l + 60.0, t - 30.0), (l + 60.0, t - 2.0)], truth: vec![(l, t - 5.0), (l + 30.0, t - 40.0), (l + 60.0, t - 5.0)] };
    let bare = panel_svg(&layer, &PanelOverlay { density: Vec::new(), sampler_ellipse: Vec::new(), current: None, marginals: vec![band.clone()] }).unwrap();
    let svg = panel_svg(&layer, &PanelOverlay { density: density.clone(), sampler_ellipse: square, current: None, marginals: vec![band] }).unwrap();
    let rects = |svg: &str| elements(svg).into_iter().filter(|e| e.tag == "rect").collect::<Vec<_>>();
    let added: Vec<_> = rects(&svg).into_iter().skip(rects(&bare).len()).collect();
    assert_eq!(added.len(), 2, "one rect per density block: {svg}");
    // Each inside the plot rectangle, where its block is.
    for (e, d) in added.iter().zip(&density) {
        assert_eq!(e.points[0], (l + d.x as f64, t + d.y as f64), "{e:?}");
    }
    let dashes: Vec<_> = elements(&svg).into_iter().filter(|e| e.tag == "polyline" && e.stroke == "#D62728").collect();
    assert_eq!(dashes.len(), 8, "{dashes:?}");
    assert_eq!(svg.matches("<polygon").count(), 1, "the histogram is one filled polygon: {svg}");
    assert!(svg.contains(&format!("{},{} {},{} {},{}", l as i32, (t - 5.0) as i32, (l + 30.0) as i32, (t - 40.0) as i32, (l + 60.0) as i32, (t - 5.0) as i32)), "the truth curve's points: {svg}");
    assert_eq!(svg.matches("</svg>").count(), 1, "one document");
}
