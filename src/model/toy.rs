//! Shared plumbing for data-free 2-D toy densities (banana, funnel): log π is split into
//! [`PSEUDO_DATA`] identical pseudo-data terms ℓ_i = log π / N under a flat prior, and stochastic
//! gradients come from the synthetic noise knob s of ALGORITHMS.md §0 (as in gaussian.rs).

use super::{Model, View};
use crate::diagnostics::Moments;

/// Number of pseudo-data a toy log density is split into.
pub const PSEUDO_DATA: usize = 100;

/// A smooth 2-D log density with its gradient; [`PseudoData`] turns it into a [`Model`].
pub trait ToyDensity: Send + Sync {
    fn log_pdf(&self, theta: &[f64]) -> f64;
    fn grad_log_pdf(&self, theta: &[f64]) -> [f64; 2];
    fn moments(&self) -> Option<Moments>;
    fn window(&self) -> View;
    fn marginal(&self, _coordinate: usize, _points: &[f64]) -> Option<Vec<f64>> {
        None
    }
    fn region(&self) -> Option<View> {
        None
    }
    fn start(&self) -> Vec<f64> {
        vec![0.0, 0.0]
    }
    fn names(&self) -> Vec<String> {
        vec!["θ1".into(), "θ2".into()]
    }
}

/// The N(mean, sd²) density at each point.
pub fn normal_density(mean: f64, sd: f64, points: &[f64]) -> Vec<f64> {
    let norm = 1.0 / (sd * (2.0 * std::f64::consts::PI).sqrt());
    points.iter().map(|x| norm * (-0.5 * ((x - mean) / sd).powi(2)).exp()).collect()
}

/// A toy density as a model with N pseudo-data and synthetic gradient noise s.
#[derive(Clone, Debug)]
pub struct PseudoData<D> {
    pub density: D,
    pub noise_sd: f64,
}

impl<D: ToyDensity> Model for PseudoData<D> {
    fn dim(&self) -> usize {
        2
    }
    fn n_data(&self) -> usize {
        PSEUDO_DATA
    }
    fn log_prior(&self, _theta: &[f64]) -> f64 {
        0.0
    }
    fn add_grad_log_prior(&self, _theta: &[f64], _out: &mut [f64]) {}
    fn log_lik(&self, _i: usize, theta: &[f64]) -> f64 {
        self.density.log_pdf(theta) / PSEUDO_DATA as f64
    }
    fn add_grad_log_lik(&self, _i: usize, theta: &[f64], out: &mut [f64]) {
        let g = self.density.grad_log_pdf(theta);
        out[0] += g[0] / PSEUDO_DATA as f64;
        out[1] += g[1] / PSEUDO_DATA as f64;
    }
    fn add_grad_log_lik_batch(&self, batch: &[usize], theta: &[f64], out: &mut [f64]) {
        let g = self.density.grad_log_pdf(theta);
        let share = batch.len() as f64 / PSEUDO_DATA as f64;
        out[0] += g[0] * share;
        out[1] += g[1] * share;
    }
    fn log_density(&self, theta: &[f64]) -> f64 {
        self.density.log_pdf(theta)
    }
    fn grad_log_density(&self, theta: &[f64], out: &mut [f64]) {
        out.copy_from_slice(&self.density.grad_log_pdf(theta));
    }
    fn exact_marginal(&self, coordinate: usize, points: &[f64]) -> Option<Vec<f64>> {
        self.density.marginal(coordinate, points)
    }
    fn density_cost(&self) -> usize {
        1
    }
    fn synthetic_noise_sd(&self) -> f64 {
        self.noise_sd
    }
    fn exact_moments(&self) -> Option<Moments> {
        self.density.moments()
    }
    fn initial_point(&self) -> Vec<f64> {
        self.density.start()
    }
    fn view(&self) -> View {
        self.density.window()
    }
    fn truth_region(&self) -> View {
        let v = self.view();
        self.density.region().unwrap_or_else(|| View::centred(0.5 * (v.x_min + v.x_max), 0.5 * (v.y_min + v.y_max), v.x_max - v.x_min, v.y_max - v.y_min))
    }
    fn coordinate_names(&self) -> Vec<String> {
        self.density.names()
    }
}
