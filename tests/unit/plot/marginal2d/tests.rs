//! Unit tests of src/plot/marginal2d.rs (`plot::marginal2d::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use plotters::prelude::*;
use sgviz::diagnostics::Moments;
use sgviz::model::View;
use sgviz::plot::contours::DensityGrid;
use sgviz::plot::PlotFrame;
use sgviz::plot::marginal2d::*;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::model::Model;

#[test]
fn draws_axes_contours_and_truth_to_svg() {
    let g = CorrelatedGaussian::new(1.0, 1.0, 0.8, 0.0);
    let grid = DensityGrid::evaluate(&g, g.view(), 81, 81);
    let truth = g.exact_moments().unwrap();
    let frame = PlotFrame::new(400, 400, 1.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (400, 400)).into_drawing_area();
        draw_static(&root, &StaticLayer { frame, view: g.view(), grid: Some(&grid), truth: Some(&truth), x_name: "θ1", y_name: "θ2", scale: 1.0 }).unwrap();
    }
    assert!(svg.contains("θ1") && svg.contains("θ2"), "axis names drawn");
    let contour_paths = svg.matches("stroke=\"#969696\"").count();
    assert!(contour_paths > 100, "contour segments drawn: {contour_paths}");
    assert!(svg.contains("#141414"), "truth ellipse drawn");
}

#[test]
fn a_truth_wider_than_the_view_is_cut_at_the_frame() {
    let view = View { x_min: -1.0, x_max: 1.0, y_min: -1.0, y_max: 1.0 };
    let truth = Moments { mean: vec![0.3, 0.0], cov: vec![vec![4.0, 1.0], vec![1.0, 0.5]] };
    let frame = PlotFrame::new(300, 300, 1.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (300, 300)).into_drawing_area();
        draw_static(&root, &StaticLayer { frame, view, grid: None, truth: Some(&truth), x_name: "x", y_name: "y", scale: 1.0 }).unwrap();
    }
    let inner = (frame.left as f64, frame.top as f64, (frame.width - frame.right) as f64, (frame.height - frame.bottom) as f64);
    let ellipse: Vec<_> = crate::unit::plot::svg_probe::elements(&svg).into_iter().filter(|e| e.stroke == "#141414").collect();
    assert!(!ellipse.is_empty(), "the visible arcs are drawn");
    // Every drawn point is inside the frame and on the ellipse (plotters would otherwise pin
    // points outside the view to its edge, drawing lines that are not there).
    let precision = {
        let det = truth.cov[0][0] * truth.cov[1][1] - truth.cov[0][1] * truth.cov[1][0];
        [[truth.cov[1][1] / det, -truth.cov[0][1] / det], [-truth.cov[1][0] / det, truth.cov[0][0] / det]]
    };
    for e in &ellipse {
        assert!(crate::unit::plot::svg_probe::inside(e, inner, 1.0), "{e:?} leaves {inner:?}");
        for &(px, py) in &e.points {
            let x = view.x_min + (px - inner.0) / (inner.2 - inner.0) * (view.x_max - view.x_min) - truth.mean[0];
            let y = view.y_max - (py - inner.1) / (inner.3 - inner.1) * (view.y_max - view.y_min) - truth.mean[1];
            let radius = (precision[0][0] * x * x + 2.0 * precision[0][1] * x * y + precision[1][1] * y * y).sqrt();
            assert!((radius - 2.0).abs() < 0.1, "pixel ({px}, {py}) is at Mahalanobis radius {radius}, not on the 2σ ellipse");
        }
    }
}
