//! The sample-density image of the displayed pair: binning the chain's new samples (with a copy
//! of the image from where a runaway excursion began, so that it can be undone exactly), its
//! colouring, and the marginal histograms with the true marginal curves.

use super::Lab;
use crate::plot::density::DensityImage;
use crate::plot::marginals;
use serde_json::{json, Value};

impl Lab {
    /// Bin the samples pushed since the last call; keep a copy of the image as it was when the
    /// chain's current excursion began, so that a runaway can be undone exactly.
    pub(super) fn bin_new_samples(&mut self) {
        let total = self.chain.samples().total_pushed();
        match self.chain.excursion_pushed() {
            Some(at) if self.density_before_excursion.as_ref().map(|(p, _)| *p) != Some(at) => {
                // An excursion that began before what is already binned cannot be snapshotted
                // exactly; undoing it then re-bins the retained samples.
                self.density_before_excursion = (at >= self.binned).then(|| {
                    self.bin_samples_until(at);
                    (at, self.density.clone())
                });
            }
            Some(_) => {}
            None => self.density_before_excursion = None,
        }
        self.bin_samples_until(total);
    }

    /// Bin the samples pushed after `self.binned` and up to push count `until` (those still in the ring).
    pub(super) fn bin_samples_until(&mut self, until: u64) {
        let ring = self.chain.samples();
        let oldest = ring.total_pushed() - ring.len() as u64;
        let (i, j) = self.pair;
        for pushed in self.binned.max(oldest)..until {
            let p = ring.get((pushed - oldest) as usize);
            self.density.add(p[i], p[j]);
        }
        self.binned = until;
    }

    /// Rebuild the density image from every retained sample (after the view changed).
    pub(super) fn rebin_all(&mut self) {
        self.density = DensityImage::new(self.projection);
        self.density_before_excursion = None;
        self.binned = self.chain.samples().total_pushed() - self.chain.samples().len() as u64;
        self.bin_new_samples();
    }

    /// Carry the density image (and its pre-excursion copy) over to a resized frame of the same view.
    pub(super) fn resample_density(&mut self) {
        self.density = self.density.resampled(self.projection);
        if let Some((at, before)) = self.density_before_excursion.take() {
            self.density_before_excursion = Some((at, before.resampled(self.projection)));
        }
    }

    /// Colour the density image and return its RGBA bytes.
    pub fn render_density(&mut self) -> &[u8] {
        self.density.render()
    }

    pub fn density(&self) -> &DensityImage {
        &self.density
    }

    /// Marginal histograms (from the density image) and true marginal curves as pixel polylines.
    pub fn marginals(&self) -> Value {
        let v = self.projection.view;
        let bins = (self.density.width() as usize / 6).clamp(10, 80);
        let hx = marginals::histogram_density(&self.density.column_counts(), bins, v.x_min, v.x_max);
        let hy = marginals::histogram_density(&self.density.row_counts(), bins, v.y_min, v.y_max);
        let [tx, ty] = &self.truth_marginals;
        let (x, y) = marginals::layout(&self.projection, self.projection.frame.band as f64, (&hx, tx.as_ref()), (&hy, ty.as_ref()));
        json!({ "x": x, "y": y })
    }
}
