//! Vector export: every chart and the 2-D panel as SVG text, drawn by plotters' SVG backend with
//! the same drawing code as the page's canvases ([`draw_chart`], [`draw_static_unpresented`]).
//! The density image is a bitmap; in the SVG it becomes rectangles of pixel blocks coloured by the
//! same ramp ([`super::svg_marks`]), with the sampler's ellipse dashed as on the canvas and the
//! marginal histograms and true marginal curves the page draws in the bands beside it.

use super::chart::{draw_chart, ChartSpec};
use super::marginal2d::{draw_static_unpresented, StaticLayer};
use super::svg_marks::{dashes, DensityRect};
use plotters::prelude::*;

/// The canvas's dash pattern of the sampler's ellipse (www/panel2d.js: `[8, 6]` × the pixel ratio).
const SAMPLER_DASH: (f64, f64) = (8.0, 6.0);

/// Colour of the sampler's ellipse and the current point (the page's point red).
const SAMPLER_COLOUR: RGBColor = RGBColor(214, 39, 40);
/// The marginal histograms' edge and fill (the page's `--histogram-edge`, `--histogram` at 35 %).
const HISTOGRAM_COLOUR: RGBColor = RGBColor(33, 113, 181);

/// Smallest and largest exported size per side, in pixels (the SVG scales freely afterwards).
const SIDE: (u32, u32) = (16, 8192);

fn side(v: u32) -> u32 {
    v.clamp(SIDE.0, SIDE.1)
}

/// What the page (Save SVG) says when plotters fails to draw: a sentence naming what to do, not
/// the backend's Debug text (issue 26).
pub const SVG_FAILED: &str = "This figure could not be saved as SVG; resize the window or press Reset, then save again.";

fn svg_failed<E>(_error: E) -> String {
    SVG_FAILED.to_string()
}

/// A chart as SVG text, `width × height` pixels, fonts and lines scaled by `scale`.
pub fn chart_svg(spec: &ChartSpec, width: u32, height: u32, scale: f64) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (side(width), side(height))).into_drawing_area();
        draw_chart(&root, spec, scale).map_err(svg_failed)?;
        root.present().map_err(svg_failed)?;
    }
    Ok(svg)
}

/// The data area (left, top, right, bottom) of `spec` drawn at `width`×`height` pixels and
/// `scale`: the layout is the chart code's own, whatever the backend, so it is the canvas's too
/// (the browser tests measure what the canvas draws against it).
pub fn chart_plot_area(spec: &ChartSpec, width: u32, height: u32, scale: f64) -> Result<(i32, i32, i32, i32), String> {
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (side(width), side(height))).into_drawing_area();
    let layout = crate::plot::chart::draw_chart_layout(&root, spec, scale).map_err(svg_failed)?;
    Ok(layout.plot)
}

/// What the 2-D panel draws above its static layer, in the frame's pixel coordinates.
pub struct PanelOverlay {
    /// The sample density as rectangles, in the plot rectangle's pixels ([`density_rects`]).
    pub density: Vec<DensityRect>,
    /// The sampler's dashed 2σ ellipse (may be empty).
    pub sampler_ellipse: Vec<(f64, f64)>,
    /// The chain's current position.
    pub current: Option<(f64, f64)>,
    /// The marginal bands, one per axis, in pixels: the histogram outline (a closed polygon) and
    /// the true marginal curve (may be empty), as `Lab::marginals` lays them out.
    pub marginals: Vec<MarginalBand>,
}

/// One axis's marginal band in pixels.
#[derive(Clone, Debug, Default)]
pub struct MarginalBand {
    pub histogram: Vec<(f64, f64)>,
    pub truth: Vec<(f64, f64)>,
}

/// Pairs (x, y) of a flat pixel list [x, y, x, y, …] (as `Lab::trail` returns it).
pub fn pairs(flat: &[f64]) -> Vec<(f64, f64)> {
    flat.chunks_exact(2).map(|p| (p[0], p[1])).collect()
}

/// The 2-D panel as SVG text: axes, contours and truth ellipse, the sample density, the sampler's
/// dashed ellipse (clipped) and the current point.
pub fn panel_svg(layer: &StaticLayer, overlay: &PanelOverlay) -> Result<String, String> {
    let frame = layer.frame;
    let rect = crate::model::View {
        x_min: frame.left as f64,
        x_max: (frame.width - frame.right) as f64,
        y_min: frame.top as f64,
        y_max: (frame.height - frame.bottom) as f64,
    };
    let pixel = |(x, y): (f64, f64)| (x.round() as i32, y.round() as i32);
    let stroke = (layer.scale.round() as u32).max(1);
    let failed = svg_failed;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (side(frame.width), side(frame.height))).into_drawing_area();
        draw_static_unpresented(&root, layer).map_err(failed)?;
        for band in &overlay.marginals {
            let outline: Vec<_> = band.histogram.iter().copied().map(pixel).collect();
            if outline.len() >= 3 {
                root.draw(&Polygon::new(outline.clone(), HISTOGRAM_COLOUR.mix(0.35).filled())).map_err(failed)?;
                root.draw(&PathElement::new(outline, HISTOGRAM_COLOUR.stroke_width(stroke))).map_err(failed)?;
            }
            if band.truth.len() >= 2 {
                let curve: Vec<_> = band.truth.iter().copied().map(pixel).collect();
                root.draw(&PathElement::new(curve, super::marginal2d::TRUTH_COLOUR.stroke_width(2 * stroke))).map_err(failed)?;
            }
        }
        for cell in &overlay.density {
            let [r, g, b, a] = cell.rgba;
            let (x, y) = ((frame.left + cell.x) as i32, (frame.top + cell.y) as i32);
            let colour = RGBColor(r, g, b).mix(a as f64 / 255.0).filled();
            root.draw(&Rectangle::new([(x, y), (x + cell.width as i32, y + cell.height as i32)], colour)).map_err(failed)?;
        }
        let (on, off) = (SAMPLER_DASH.0 * layer.scale, SAMPLER_DASH.1 * layer.scale);
        for run in super::clip_polyline(&overlay.sampler_ellipse, &rect) {
            for dash in dashes(&run, on, off) {
                let points: Vec<_> = dash.into_iter().map(pixel).collect();
                root.draw(&PathElement::new(points, SAMPLER_COLOUR.stroke_width(2 * stroke))).map_err(failed)?;
            }
        }
        if let Some(p) = overlay.current.filter(|p| p.0.is_finite() && p.1.is_finite()) {
            let clamped = (p.0.clamp(rect.x_min, rect.x_max), p.1.clamp(rect.y_min, rect.y_max));
            root.draw(&Circle::new(pixel(clamped), (5.0 * layer.scale).round().max(2.0) as i32, SAMPLER_COLOUR.filled())).map_err(failed)?;
        }
        root.present().map_err(failed)?;
    }
    Ok(svg)
}
