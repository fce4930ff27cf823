//! Sample density as an image: samples are binned into a per-pixel count grid incrementally (only
//! new samples each frame) and coloured into an RGBA buffer that JavaScript blits with
//! `putImageData` straight from wasm memory (no per-point canvas calls).

use super::Projection;

/// Per-pixel sample counts over the plotting rectangle and their RGBA rendering.
#[derive(Clone)]
pub struct DensityImage {
    projection: Projection,
    counts: Vec<u32>,
    max_count: u32,
    rgba: Vec<u8>,
    /// Samples that fell outside the view (reported, not drawn).
    outside: u64,
}

/// Colour ramp from light blue to dark navy (readable on white and on a projector).
const RAMP: [[f64; 3]; 4] = [[198.0, 219.0, 239.0], [107.0, 174.0, 214.0], [33.0, 113.0, 181.0], [8.0, 48.0, 107.0]];

impl DensityImage {
    pub fn new(projection: Projection) -> Self {
        let n = (projection.frame.inner_width() * projection.frame.inner_height()) as usize;
        DensityImage { projection, counts: vec![0; n], max_count: 0, rgba: vec![0; 4 * n], outside: 0 }
    }

    pub fn width(&self) -> u32 {
        self.projection.frame.inner_width()
    }
    pub fn height(&self) -> u32 {
        self.projection.frame.inner_height()
    }
    pub fn outside(&self) -> u64 {
        self.outside
    }
    pub fn total_inside(&self) -> u64 {
        self.counts.iter().map(|&c| c as u64).sum()
    }

    /// Samples per pixel, row by row from the top.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    /// Samples per pixel column, left to right (the x-marginal histogram at pixel resolution).
    pub fn column_counts(&self) -> Vec<u64> {
        let w = self.width() as usize;
        let mut sums = vec![0u64; w];
        for row in self.counts.chunks_exact(w) {
            for (s, &c) in sums.iter_mut().zip(row) {
                *s += c as u64;
            }
        }
        sums
    }

    /// Samples per pixel row, bottom to top (the y-marginal histogram at pixel resolution).
    pub fn row_counts(&self) -> Vec<u64> {
        let w = self.width() as usize;
        let mut sums: Vec<u64> = self.counts.chunks_exact(w).map(|row| row.iter().map(|&c| c as u64).sum()).collect();
        sums.reverse();
        sums
    }

    /// Bin one sample (coordinates of the displayed pair).
    pub fn add(&mut self, x: f64, y: f64) {
        match self.projection.to_cell(x, y) {
            Some((cx, cy)) => {
                let k = (cy * self.width() + cx) as usize;
                self.counts[k] = self.counts[k].saturating_add(1);
                self.max_count = self.max_count.max(self.counts[k]);
            }
            None => self.outside += 1,
        }
    }

    /// The same counts on another frame of the same view (a canvas resize): each old pixel's
    /// count is split over the new pixels it overlaps in proportion to the overlapping area, and
    /// the fractions are rounded with the remainder carried along each row, so every sample is
    /// kept (the total exactly, each region's mass to within one sample per row). Rebinning from
    /// the ring instead would keep only its most recent samples.
    pub fn resampled(&self, projection: Projection) -> DensityImage {
        let mut out = DensityImage::new(projection);
        out.outside = self.outside;
        let (ow, oh) = (self.width() as usize, self.height() as usize);
        let (nw, nh) = (out.width() as usize, out.height() as usize);
        let (wx, wy) = (overlap_weights(ow, nw), overlap_weights(oh, nh));
        let mut rows = vec![0.0f64; oh * nw];
        for (row, old) in rows.chunks_exact_mut(nw).zip(self.counts.chunks_exact(ow)) {
            for (&c, weights) in old.iter().zip(&wx).filter(|(&c, _)| c > 0) {
                weights.iter().for_each(|&(j, f)| row[j] += c as f64 * f);
            }
        }
        let mut grid = vec![0.0f64; nh * nw];
        for (i, weights) in wy.iter().enumerate() {
            for &(j, f) in weights {
                let (src, dst) = (&rows[i * nw..(i + 1) * nw], &mut grid[j * nw..(j + 1) * nw]);
                dst.iter_mut().zip(src).for_each(|(d, &s)| *d += s * f);
            }
        }
        let mut carry = 0.0;
        for (count, &mass) in out.counts.iter_mut().zip(&grid) {
            let whole = (mass + carry + 1e-9).floor().max(0.0);
            carry += mass - whole;
            *count = whole.min(u32::MAX as f64) as u32;
        }
        out.max_count = out.counts.iter().copied().max().unwrap_or(0);
        out
    }

    pub fn clear(&mut self) {
        self.counts.fill(0);
        self.max_count = 0;
        self.outside = 0;
    }

    /// Colour every pixel: transparent where empty, otherwise a ramp in log(1 + count).
    pub fn render(&mut self) -> &[u8] {
        let scale = 1.0 / (1.0 + self.max_count as f64).ln().max(f64::MIN_POSITIVE);
        for (pixel, &count) in self.rgba.chunks_exact_mut(4).zip(&self.counts) {
            if count == 0 {
                pixel.copy_from_slice(&[0, 0, 0, 0]);
                continue;
            }
            pixel.copy_from_slice(&shade((1.0 + count as f64).ln() * scale));
        }
        &self.rgba
    }

    /// The RGBA buffer as last rendered.
    pub fn rgba(&self) -> &[u8] {
        &self.rgba
    }
}

/// The RGBA colour of a non-empty pixel at ramp position `t` in [0, 1] (log(1 + count) over its
/// largest value): the ramp's colour, more opaque the denser.
pub fn shade(t: f64) -> [u8; 4] {
    let t = t.clamp(0.0, 1.0);
    let [r, g, b] = ramp(t);
    [r, g, b, (120.0 + 135.0 * t) as u8]
}

fn ramp(t: f64) -> [u8; 3] {
    let position = t * (RAMP.len() - 1) as f64;
    let i = (position as usize).min(RAMP.len() - 2);
    let f = position - i as f64;
    let mix = |k: usize| (RAMP[i][k] + f * (RAMP[i + 1][k] - RAMP[i][k])).round() as u8;
    [mix(0), mix(1), mix(2)]
}

/// For each of `old` equal cells of [0, 1), the `new` cells it overlaps and the fraction of the
/// old cell each covers (the fractions of one old cell sum to 1).
fn overlap_weights(old: usize, new: usize) -> Vec<Vec<(usize, f64)>> {
    (0..old)
        .map(|i| {
            let (a, b) = (i as f64 / old as f64, (i + 1) as f64 / old as f64);
            let first = ((a * new as f64).floor() as usize).min(new - 1);
            (first..new)
                .map(|j| (j, (b.min((j + 1) as f64 / new as f64) - a.max(j as f64 / new as f64)) * old as f64))
                .take_while(|&(j, _)| (j as f64) / (new as f64) < b)
                .filter(|&(_, f)| f > 0.0)
                .collect()
        })
        .collect()
}
