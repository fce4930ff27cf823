//! What the 2-D panel's SVG export draws instead of the canvas's bitmap and line dashes: the
//! sample-density image as rectangles (blocks of pixels coloured by the canvas's own ramp, equal
//! neighbours in a row merged) and a polyline cut into dashes, so the export looks like the panel
//! (issue 26: it used to show dots and a solid sampler ellipse).

use super::density::{shade, DensityImage};

/// One rectangle of the density in the plot rectangle's pixels (`x`, `y` from its top-left),
/// with its RGBA colour.
#[derive(Clone, Debug, PartialEq)]
pub struct DensityRect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    pub rgba: [u8; 4],
}

/// Columns of blocks the export aims at (a 600-pixel-wide plot: blocks of 4 pixels).
const BLOCK_COLUMNS: u32 = 150;
/// Colour levels of the export's ramp (adjacent blocks of one level merge into one rectangle).
const LEVELS: f64 = 32.0;

/// Side of the square pixel blocks for a plot `width` pixels wide.
pub fn block_side(width: u32) -> u32 {
    width.div_ceil(BLOCK_COLUMNS).max(1)
}

/// The density as rectangles: counts summed over `block × block` pixel blocks, coloured like the
/// canvas (the ramp in log(1 + count) over the largest block count, quantised to [`LEVELS`]),
/// empty blocks left out, runs of equal colour along a row merged.
pub fn density_rects(image: &DensityImage, block: u32) -> Vec<DensityRect> {
    let (w, h) = (image.width(), image.height());
    let block = block.max(1);
    let (columns, rows) = (w.div_ceil(block), h.div_ceil(block));
    let counts = image.counts();
    let mut sums = vec![0u64; (columns * rows) as usize];
    for y in 0..h {
        for x in 0..w {
            sums[((y / block) * columns + x / block) as usize] += counts[(y * w + x) as usize] as u64;
        }
    }
    let scale = 1.0 / (1.0 + *sums.iter().max().unwrap_or(&0) as f64).ln().max(f64::MIN_POSITIVE);
    let level = |sum: u64| (sum > 0).then(|| ((1.0 + sum as f64).ln() * scale * LEVELS).round().max(1.0) / LEVELS);
    let mut rects = Vec::new();
    for row in 0..rows {
        let mut column = 0;
        while column < columns {
            let Some(t) = level(sums[(row * columns + column) as usize]) else {
                column += 1;
                continue;
            };
            let start = column;
            while column < columns && level(sums[(row * columns + column) as usize]) == Some(t) {
                column += 1;
            }
            let (x, y) = (start * block, row * block);
            rects.push(DensityRect { x, y, width: (column * block).min(w) - x, height: ((row + 1) * block).min(h) - y, rgba: shade(t) });
        }
    }
    rects
}

/// The pieces of the polyline `points` drawn by a dash pattern of `on` pixels drawn and `off`
/// pixels left out, measured along the line (the canvas's `setLineDash([on, off])`).
pub fn dashes(points: &[(f64, f64)], on: f64, off: f64) -> Vec<Vec<(f64, f64)>> {
    let period = on + off;
    if points.len() < 2 || !(on > 0.0 && off >= 0.0) {
        return Vec::new();
    }
    let mut pieces: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut phase = 0.0; // distance into the current period
    let mut current: Vec<(f64, f64)> = vec![points[0]];
    for pair in points.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let length = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let at = |s: f64| (a.0 + (b.0 - a.0) * s / length, a.1 + (b.1 - a.1) * s / length);
        let mut done = 0.0;
        while done < length {
            let drawing = phase < on;
            let step = (if drawing { on - phase } else { period - phase }).min(length - done);
            done += step;
            phase += step;
            if drawing {
                current.push(at(done));
            }
            if drawing && phase >= on - 1e-12 && current.len() >= 2 {
                pieces.push(std::mem::take(&mut current));
            }
            if phase >= period - 1e-12 {
                phase = 0.0;
                current = vec![at(done)];
            }
        }
    }
    if phase < on && current.len() >= 2 {
        pieces.push(current);
    }
    pieces
}
