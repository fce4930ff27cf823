//! Plot drawing, one module per panel, generic over plotters' `DrawingBackend` so the same code
//! draws to a browser canvas, a PNG or an SVG in tests. Many points are never drawn one call at a
//! time: samples go into a [`density::DensityImage`] RGBA buffer.

pub mod analysis_panels;
pub mod bouncy_panels;
pub mod annealed_noise;
pub mod band_chart;
pub mod chart;
pub mod contours;
pub mod density;
pub mod diagnostics_panel;
pub mod finite;
pub mod marginals;
pub mod marginal2d;
pub mod schedule_tradeoff;
pub mod svg;
pub mod svg_marks;

use crate::model::View;

/// A canvas of `width × height` backing pixels with an inner plotting rectangle; the static layer,
/// the density image and the overlay all use the same rectangle so they line up exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlotFrame {
    pub width: u32,
    pub height: u32,
    pub left: u32,
    pub right: u32,
    pub top: u32,
    pub bottom: u32,
    /// Depth of the marginal-histogram bands above and to the right of the plot.
    pub band: u32,
}

impl PlotFrame {
    /// Margins scale with the device-pixel ratio `scale` so labels keep their CSS size.
    pub fn new(width: u32, height: u32, scale: f64) -> Self {
        let px = |css: f64| (css * scale).round() as u32;
        let band = width.min(height) / 7;
        let (left, bottom) = (px(48.0).min(width / 3), px(36.0).min(height / 3));
        let (right, top) = (px(8.0).min(width / 10) + band, px(8.0).min(height / 10) + band);
        PlotFrame { width, height, left, right, top, bottom, band }
    }
    /// Width of the plotting rectangle in pixels.
    pub fn inner_width(&self) -> u32 {
        self.width.saturating_sub(self.left + self.right).max(1)
    }
    /// Height of the plotting rectangle in pixels.
    pub fn inner_height(&self) -> u32 {
        self.height.saturating_sub(self.top + self.bottom).max(1)
    }
}

/// Maps data coordinates of a [`View`] to pixel coordinates inside a [`PlotFrame`].
#[derive(Clone, Copy, Debug)]
pub struct Projection {
    pub view: View,
    pub frame: PlotFrame,
}

impl Projection {
    /// Canvas pixel (x right, y down) of a data point.
    pub fn to_pixel(&self, x: f64, y: f64) -> (f64, f64) {
        let v = &self.view;
        let f = &self.frame;
        let px = f.left as f64 + (x - v.x_min) / (v.x_max - v.x_min) * f.inner_width() as f64;
        let py = f.top as f64 + (v.y_max - y) / (v.y_max - v.y_min) * f.inner_height() as f64;
        (px, py)
    }

    /// Data coordinates of a canvas pixel (the inverse of [`Projection::to_pixel`]).
    pub fn to_data(&self, px: f64, py: f64) -> (f64, f64) {
        let v = &self.view;
        let f = &self.frame;
        let x = v.x_min + (px - f.left as f64) / f.inner_width() as f64 * (v.x_max - v.x_min);
        let y = v.y_max - (py - f.top as f64) / f.inner_height() as f64 * (v.y_max - v.y_min);
        (x, y)
    }

    /// Cell of the inner rectangle a data point falls in, if inside.
    pub fn to_cell(&self, x: f64, y: f64) -> Option<(u32, u32)> {
        let v = &self.view;
        let (w, h) = (self.frame.inner_width(), self.frame.inner_height());
        let u = (x - v.x_min) / (v.x_max - v.x_min);
        let t = (v.y_max - y) / (v.y_max - v.y_min);
        if !(0.0..1.0).contains(&u) || !(0.0..1.0).contains(&t) {
            return None;
        }
        Some(((u * w as f64) as u32, (t * h as f64) as u32))
    }
}

/// The part of the segment a→b inside the rectangle `r` (Liang & Barsky 1984, "A new concept and
/// method for line clipping", ACM TOG 3(1)): a + t(b − a) for t in the interval where all four
/// edge inequalities hold. None when the segment misses the rectangle or has a non-finite end.
pub fn clip_segment(a: (f64, f64), b: (f64, f64), r: &View) -> Option<((f64, f64), (f64, f64))> {
    if ![a.0, a.1, b.0, b.1].iter().all(|v| v.is_finite()) {
        return None;
    }
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.0 - r.x_min), (dx, r.x_max - a.0), (-dy, a.1 - r.y_min), (dy, r.y_max - a.1)] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else if p < 0.0 {
            t0 = t0.max(q / p);
        } else {
            t1 = t1.min(q / p);
        }
    }
    if t0 > t1 {
        return None;
    }
    let at = |t: f64| if t == 0.0 { a } else if t == 1.0 { b } else { (a.0 + t * dx, a.1 + t * dy) };
    Some((at(t0), at(t1)))
}

/// The runs of a polyline that lie inside `r`, each cut at the rectangle's edges (so nothing a
/// chart draws from them leaves its frame).
pub fn clip_polyline(points: &[(f64, f64)], r: &View) -> Vec<Vec<(f64, f64)>> {
    let mut runs = Vec::new();
    let mut run: Vec<(f64, f64)> = Vec::new();
    for w in points.windows(2) {
        match clip_segment(w[0], w[1], r) {
            Some((p, q)) => {
                if run.is_empty() || p != w[0] {
                    flush_run(&mut runs, &mut run);
                    run.push(p);
                }
                run.push(q);
                if q != w[1] {
                    flush_run(&mut runs, &mut run);
                }
            }
            None => flush_run(&mut runs, &mut run),
        }
    }
    flush_run(&mut runs, &mut run);
    runs
}

fn flush_run(runs: &mut Vec<Vec<(f64, f64)>>, run: &mut Vec<(f64, f64)>) {
    if run.len() >= 2 {
        runs.push(std::mem::take(run));
    } else {
        run.clear();
    }
}
