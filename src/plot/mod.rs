//! Plot drawing, one module per panel, generic over plotters' `DrawingBackend` so the same code
//! draws to a browser canvas, a PNG or an SVG in tests. Many points are never drawn one call at a
//! time: samples go into a [`density::DensityImage`] RGBA buffer.

pub mod analysis_panels;
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

/// Reading plotters' SVG output back in tests: where each drawn element went.
#[cfg(test)]
pub mod svg_probe {
    /// One SVG element: its tag, stroke and fill colours, the points it covers, and its text.
    #[derive(Debug, Clone)]
    pub struct Element {
        pub tag: String,
        pub stroke: String,
        pub fill: String,
        pub points: Vec<(f64, f64)>,
        /// Circle radius: how far ink reaches beyond `points` (a line's half stroke may overlap the
        /// frame line it runs along, so lines count by their centre line).
        pub reach: f64,
        pub text: String,
    }

    fn attribute(tag: &str, name: &str) -> Option<String> {
        let key = format!(" {name}=\"");
        let start = tag.find(&key)? + key.len();
        Some(tag[start..].split('"').next()?.to_string())
    }

    fn number(tag: &str, name: &str) -> f64 {
        attribute(tag, name).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
    }

    /// Every polyline, line, circle, rect and text element of an SVG string.
    pub fn elements(svg: &str) -> Vec<Element> {
        let mut out = Vec::new();
        for chunk in svg.split('<').skip(1) {
            let tag_name = chunk.split(|c: char| c.is_whitespace() || c == '>' || c == '/').next().unwrap_or("");
            let head = chunk.split('>').next().unwrap_or("");
            let head = &format!(" {head}");
            let mut reach = 0.0;
            let points = match tag_name {
                "polyline" => attribute(head, "points")
                    .unwrap_or_default()
                    .split_whitespace()
                    .filter_map(|p| p.split_once(',').and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?))))
                    .collect(),
                "line" => vec![(number(head, "x1"), number(head, "y1")), (number(head, "x2"), number(head, "y2"))],
                "circle" => {
                    reach = number(head, "r");
                    vec![(number(head, "cx"), number(head, "cy"))]
                }
                "rect" => {
                    let (x, y, w, h) = (number(head, "x"), number(head, "y"), number(head, "width"), number(head, "height"));
                    vec![(x, y), (x + w, y + h)]
                }
                "text" => vec![(number(head, "x"), number(head, "y"))],
                _ => continue,
            };
            let text = chunk.split_once('>').map(|(_, t)| t.trim().to_string()).unwrap_or_default();
            out.push(Element {
                tag: tag_name.to_string(),
                stroke: attribute(head, "stroke").unwrap_or_default(),
                fill: attribute(head, "fill").unwrap_or_default(),
                points,
                reach,
                text,
            });
        }
        out
    }

    /// Whether all ink of `e` lies in the rectangle (left, top, right, bottom), ± `slack` pixels.
    pub fn inside(e: &Element, (left, top, right, bottom): (f64, f64, f64, f64), slack: f64) -> bool {
        e.points.iter().all(|&(x, y)| {
            x - e.reach >= left - slack && x + e.reach <= right + slack && y - e.reach >= top - slack && y + e.reach <= bottom + slack
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNIT: View = View { x_min: 0.0, x_max: 1.0, y_min: 0.0, y_max: 1.0 };

    #[test]
    fn segments_are_cut_at_the_edges_they_cross() {
        assert_eq!(clip_segment((0.2, 0.3), (0.6, 0.9), &UNIT), Some(((0.2, 0.3), (0.6, 0.9))), "inside: unchanged");
        assert_eq!(clip_segment((-1.0, 0.5), (2.0, 0.5), &UNIT), Some(((0.0, 0.5), (1.0, 0.5))), "through both sides");
        assert_eq!(clip_segment((0.5, 0.5), (0.5, 3.0), &UNIT), Some(((0.5, 0.5), (0.5, 1.0))), "leaves through the top");
        assert_eq!(clip_segment((0.5, -2.0), (0.5, 0.25), &UNIT), Some(((0.5, 0.0), (0.5, 0.25))), "enters through the bottom");
        let ((x0, y0), (x1, y1)) = clip_segment((-0.5, 0.0), (0.5, 2.0), &UNIT).unwrap();
        assert!((x0 - 0.0).abs() < 1e-12 && (y0 - 1.0).abs() < 1e-12 && (x1 - 0.0).abs() < 1e-12 && (y1 - 1.0).abs() < 1e-12, "corner touch");
        assert_eq!(clip_segment((1.5, 0.0), (3.0, 1.0), &UNIT), None, "right of the box");
        assert_eq!(clip_segment((-1.0, 0.5), (0.5, 2.0), &UNIT), None, "misses the corner");
        assert_eq!(clip_segment((0.5, 0.5), (f64::NAN, 0.5), &UNIT), None);
    }

    #[test]
    fn polylines_split_into_the_runs_inside() {
        let zigzag = [(0.1, 0.5), (0.5, 1.5), (0.9, 0.5), (0.9, 0.2), (2.0, 0.2)];
        let runs = clip_polyline(&zigzag, &UNIT);
        assert_eq!(runs.len(), 2, "{runs:?}");
        let close = |a: &[(f64, f64)], b: &[(f64, f64)]| a.len() == b.len() && a.iter().zip(b).all(|(p, q)| (p.0 - q.0).abs() < 1e-12 && (p.1 - q.1).abs() < 1e-12);
        assert!(close(&runs[0], &[(0.1, 0.5), (0.3, 1.0)]), "{runs:?}");
        assert!(close(&runs[1], &[(0.7, 1.0), (0.9, 0.5), (0.9, 0.2), (1.0, 0.2)]), "{runs:?}");
        for p in runs.iter().flatten() {
            assert!((0.0..=1.0).contains(&p.0) && (0.0..=1.0).contains(&p.1), "{p:?}");
        }
        assert!(clip_polyline(&[(5.0, 5.0), (6.0, 6.0)], &UNIT).is_empty());
        assert_eq!(clip_polyline(&[(0.1, 0.1), (0.2, 0.2), (0.3, 0.3)], &UNIT), vec![vec![(0.1, 0.1), (0.2, 0.2), (0.3, 0.3)]]);
    }
}
