//! Plot drawing, one module per panel, generic over plotters' `DrawingBackend` so the same code
//! draws to a browser canvas, a PNG or an SVG in tests. Many points are never drawn one call at a
//! time: samples go into a [`density::DensityImage`] RGBA buffer.

pub mod analysis_panels;
pub mod chart;
pub mod contours;
pub mod density;
pub mod diagnostics_panel;
pub mod marginals;
pub mod marginal2d;

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
