//! Contours of a target's log density by marching squares on a regular grid.

use crate::model::{Model, View};

/// log π evaluated on an `nx × ny` grid over a view (row-major, y fastest? no: index = iy·nx + ix).
pub struct DensityGrid {
    pub view: View,
    pub nx: usize,
    pub ny: usize,
    pub log_density: Vec<f64>,
}

impl DensityGrid {
    /// Evaluate a 2-D model's log density at grid nodes (the view's corners included).
    pub fn evaluate(model: &dyn Model, view: View, nx: usize, ny: usize) -> Self {
        let mut log_density = Vec::with_capacity(nx * ny);
        for iy in 0..ny {
            for ix in 0..nx {
                log_density.push(model.log_density(&[Self::node(view.x_min, view.x_max, ix, nx), Self::node(view.y_min, view.y_max, iy, ny)]));
            }
        }
        DensityGrid { view, nx, ny, log_density }
    }

    fn node(lo: f64, hi: f64, i: usize, n: usize) -> f64 {
        lo + (hi - lo) * i as f64 / (n - 1) as f64
    }

    /// Data coordinates of node (ix, iy).
    pub fn point(&self, ix: usize, iy: usize) -> (f64, f64) {
        (Self::node(self.view.x_min, self.view.x_max, ix, self.nx), Self::node(self.view.y_min, self.view.y_max, iy, self.ny))
    }

    /// The largest finite log density on the grid.
    pub fn max_log_density(&self) -> f64 {
        self.log_density.iter().copied().filter(|v| v.is_finite()).fold(f64::NEG_INFINITY, f64::max)
    }

    /// Levels at max · e^{−k²/2}, k = 1, 2, 3: the 1σ/2σ/3σ contours of a Gaussian, and a useful
    /// relative scale for any density.
    pub fn standard_levels(&self) -> Vec<f64> {
        let top = self.max_log_density();
        [0.5, 1.0, 1.5, 2.0, 2.5, 3.0].iter().map(|k| top - k * k / 2.0).collect()
    }

    /// Line segments of the contour {log π = level} (marching squares, linear interpolation).
    pub fn contour_segments(&self, level: f64) -> Vec<[(f64, f64); 2]> {
        let mut segments = Vec::new();
        for iy in 0..self.ny - 1 {
            for ix in 0..self.nx - 1 {
                self.cell_segments(ix, iy, level, &mut segments);
            }
        }
        segments
    }

    fn cell_segments(&self, ix: usize, iy: usize, level: f64, out: &mut Vec<[(f64, f64); 2]>) {
        let corners = [(ix, iy), (ix + 1, iy), (ix + 1, iy + 1), (ix, iy + 1)];
        let values: Vec<f64> = corners.iter().map(|&(x, y)| self.log_density[y * self.nx + x]).collect();
        if values.iter().any(|v| !v.is_finite()) {
            return;
        }
        // Crossing points on the four edges, in order around the cell.
        let mut crossings = Vec::with_capacity(4);
        for e in 0..4 {
            let (a, b) = (values[e], values[(e + 1) % 4]);
            if (a >= level) != (b >= level) {
                let t = (level - a) / (b - a);
                let (pa, pb) = (self.point(corners[e].0, corners[e].1), self.point(corners[(e + 1) % 4].0, corners[(e + 1) % 4].1));
                crossings.push((pa.0 + t * (pb.0 - pa.0), pa.1 + t * (pb.1 - pa.1)));
            }
        }
        match crossings.len() {
            2 => out.push([crossings[0], crossings[1]]),
            4 => {
                // Saddle: decide by the centre value.
                let centre = values.iter().sum::<f64>() / 4.0;
                if (centre >= level) == (values[0] >= level) {
                    out.push([crossings[0], crossings[3]]);
                    out.push([crossings[1], crossings[2]]);
                } else {
                    out.push([crossings[0], crossings[1]]);
                    out.push([crossings[2], crossings[3]]);
                }
            }
            _ => {}
        }
    }
}
