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
