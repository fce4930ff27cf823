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

/// A chart as SVG text, `width × height` pixels, fonts and lines scaled by `scale`.
pub fn chart_svg(spec: &ChartSpec, width: u32, height: u32, scale: f64) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (side(width), side(height))).into_drawing_area();
        draw_chart(&root, spec, scale).map_err(|e| format!("drawing failed: {e:?}"))?;
        root.present().map_err(|e| format!("drawing failed: {e:?}"))?;
    }
    Ok(svg)
}

/// The data area (left, top, right, bottom) of `spec` drawn at `width`×`height` pixels and
/// `scale`: the layout is the chart code's own, whatever the backend, so it is the canvas's too
/// (the browser tests measure what the canvas draws against it).
pub fn chart_plot_area(spec: &ChartSpec, width: u32, height: u32, scale: f64) -> Result<(i32, i32, i32, i32), String> {
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (side(width), side(height))).into_drawing_area();
    let layout = crate::plot::chart::draw_chart_layout(&root, spec, scale).map_err(|e| format!("drawing failed: {e:?}"))?;
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
    let failed = |e: DrawingAreaErrorKind<_>| format!("drawing failed: {e:?}");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::chart::{Series, Style};
    use crate::plot::svg_probe::elements;
    use crate::plot::PlotFrame;

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
        let view = crate::model::View { x_min: -1.0, x_max: 1.0, y_min: -1.0, y_max: 1.0 };
        let layer = StaticLayer { frame, view, grid: None, truth: None, x_name: "x", y_name: "y", scale: 1.0 };
        let (l, t) = (frame.left as f64, frame.top as f64);
        // Samples at three places of the view, two of them in one 4-pixel block: two blocks, apart.
        let mut image = crate::plot::density::DensityImage::new(crate::plot::Projection { frame, view });
        for (x, y) in [(-0.9, 0.9), (-0.9, 0.9), (0.5, -0.5)] {
            image.add(x, y);
        }
        let density = super::super::svg_marks::density_rects(&image, 4);
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
}
