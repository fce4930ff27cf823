//! The 2-D marginal panel's static layer: axes, true-density contours and the truth's 2σ ellipse
//! (solid; SGFS paper Fig. 1 style). It is redrawn only when the view changes; samples, the
//! current point and the trail go on the density and overlay layers above it.

use super::contours::DensityGrid;
use super::chart::TickFormat;
use super::{clip_polyline, PlotFrame};
use crate::diagnostics::{two_sigma_ellipse, Moments};
use crate::model::View;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Colours shared with the overlay (JS reads them from the page CSS, keep in sync with www/app.css).
pub const CONTOUR_COLOUR: RGBColor = RGBColor(150, 150, 150);
pub const TRUTH_COLOUR: RGBColor = RGBColor(20, 20, 20);

/// What the static layer shows.
pub struct StaticLayer<'a> {
    pub frame: PlotFrame,
    pub view: View,
    /// Density grid for contours (2-D targets only).
    pub grid: Option<&'a DensityGrid>,
    pub truth: Option<&'a Moments>,
    pub x_name: &'a str,
    pub y_name: &'a str,
    /// Device-pixel ratio, for font and line sizes.
    pub scale: f64,
}

/// Draw axes, contours and the truth ellipse onto any plotters backend.
pub fn draw_static<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, layer: &StaticLayer) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    draw_static_unpresented(root, layer)?;
    root.present()?;
    Ok(())
}

/// [`draw_static`] without presenting, so more can be drawn on top (the SVG export's samples).
pub fn draw_static_unpresented<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, layer: &StaticLayer) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let view = layer.view;
    let frame = layer.frame;
    let font = (13.0 * layer.scale).round() as u32;
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(root)
        .margin_top(frame.top)
        .margin_right(frame.right)
        .x_label_area_size(frame.bottom)
        .y_label_area_size(frame.left)
        .build_cartesian_2d(view.x_min..view.x_max, view.y_min..view.y_max)?;
    let (x_ticks, y_ticks) = (TickFormat::new(view.x_min, view.x_max, 6, false), TickFormat::new(view.y_min, view.y_max, 6, false));
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(6)
        .y_labels(6)
        .x_label_formatter(&|v| x_ticks.label(*v))
        .y_label_formatter(&|v| y_ticks.label(*v))
        .x_desc(layer.x_name)
        .y_desc(layer.y_name)
        .label_style(("sans-serif", font))
        .axis_desc_style(("sans-serif", font))
        .draw()?;
    let stroke = (layer.scale.round() as u32).max(1);
    if let Some(grid) = layer.grid {
        for level in grid.standard_levels() {
            let segments = grid.contour_segments(level);
            chart.draw_series(segments.into_iter().map(|[a, b]| PathElement::new(vec![a, b], CONTOUR_COLOUR.stroke_width(stroke))))?;
        }
    }
    if let Some(truth) = layer.truth.filter(|t| t.mean.len() >= 2) {
        let cov = [[truth.cov[0][0], truth.cov[0][1]], [truth.cov[1][0], truth.cov[1][1]]];
        let ellipse = two_sigma_ellipse([truth.mean[0], truth.mean[1]], cov, 120);
        for run in clip_polyline(&ellipse, &view) {
            chart.draw_series(LineSeries::new(run, TRUTH_COLOUR.stroke_width(2 * stroke)))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::gaussian::CorrelatedGaussian;
    use crate::model::Model;

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
        let ellipse: Vec<_> = crate::plot::svg_probe::elements(&svg).into_iter().filter(|e| e.stroke == "#141414").collect();
        assert!(!ellipse.is_empty(), "the visible arcs are drawn");
        // Every drawn point is inside the frame and on the ellipse (plotters would otherwise pin
        // points outside the view to its edge, drawing lines that are not there).
        let precision = {
            let det = truth.cov[0][0] * truth.cov[1][1] - truth.cov[0][1] * truth.cov[1][0];
            [[truth.cov[1][1] / det, -truth.cov[0][1] / det], [-truth.cov[1][0] / det, truth.cov[0][0] / det]]
        };
        for e in &ellipse {
            assert!(crate::plot::svg_probe::inside(e, inner, 1.0), "{e:?} leaves {inner:?}");
            for &(px, py) in &e.points {
                let x = view.x_min + (px - inner.0) / (inner.2 - inner.0) * (view.x_max - view.x_min) - truth.mean[0];
                let y = view.y_max - (py - inner.1) / (inner.3 - inner.1) * (view.y_max - view.y_min) - truth.mean[1];
                let radius = (precision[0][0] * x * x + 2.0 * precision[0][1] * x * y + precision[1][1] * y * y).sqrt();
                assert!((radius - 2.0).abs() < 0.1, "pixel ({px}, {py}) is at Mahalanobis radius {radius}, not on the 2σ ellipse");
            }
        }
    }
}
