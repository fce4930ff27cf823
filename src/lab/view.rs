//! The displayed coordinate pair and its view: the window and contour grid of the pair, the true
//! marginal curves, everything drawn in pixels (trail, path, step parts, ellipses), and restarting
//! the chain where the current point was dropped.

use super::state::law_moments;
use super::{Lab, CONTOUR_BUDGET, DEFERRED_GRID_BUDGET, GRID_CACHE, VIEW_SDS};
use crate::diagnostics::{two_sigma_ellipse, Moments};
use crate::model::laplace::laplace_approximation;
use crate::model::{Model, View};
use crate::plot::contours::DensityGrid;
use crate::plot::marginal2d::StaticLayer;
use crate::plot::marginals::{self, AxisDensity};
use crate::registry::SamplerKind;
use crate::truth::TruthSource;
use serde_json::{json, Value};

impl Lab {
    /// Show coordinates (i, j) on the 2-D panel.
    pub fn set_pair(&mut self, i: usize, j: usize) -> Result<(), String> {
        let dim = self.chain.model().dim();
        if i >= dim || j >= dim || i == j {
            return Err(format!("pair ({i}, {j}) is not allowed; expected two different coordinates below {dim}"));
        }
        self.pair = (i, j);
        self.refresh_view();
        Ok(())
    }

    /// Indices of a preset pair: `most_correlated` (under the truth, or the chain when the truth
    /// is not known yet), `largest_difference` / `smallest_difference` (truth vs sampler).
    pub fn preset_pair(&self, kind: &str) -> Result<(usize, usize), String> {
        let sampler = self.chain.moments();
        let truth = self.truth.moments.as_ref();
        let pair = match kind {
            "most_correlated" => crate::truth::most_correlated_pair(&truth.unwrap_or(&sampler).cov),
            "largest_difference" => truth.and_then(|t| crate::truth::largest_difference_pair(&t.cov, &sampler.cov)),
            "smallest_difference" => truth.and_then(|t| crate::truth::smallest_difference_pair(&t.cov, &sampler.cov)),
            other => return Err(format!("unknown pair preset '{other}'; allowed: most_correlated, largest_difference, smallest_difference")),
        };
        pair.ok_or_else(|| "this preset needs the truth and at least two coordinates".to_string())
    }

    /// Recompute view, contour grid and true marginals for the pair.
    pub(super) fn refresh_view(&mut self) {
        let model = self.chain.model();
        let (i, j) = self.pair;
        let view = pair_view(model, self.truth.moments.as_ref(), self.pair);
        self.projection.view = view;
        self.grid = if model.dim() != 2 || self.pair != (0, 1) {
            None
        } else if self.deferred {
            let cached = GRID_CACHE.with(|c| c.borrow().get(&self.key()).cloned());
            let cheap = 161.0 * 161.0 * model.density_cost().max(1) as f64 <= DEFERRED_GRID_BUDGET;
            cached.or_else(|| cheap.then(|| std::rc::Rc::new(contour_grid(model, self.truth.moments.as_ref(), view))))
        } else {
            Some(own_contour_grid(&self.key(), model, self.truth.moments.as_ref(), view))
        };
        let curve = |coordinate: usize, lo: f64, hi: f64| -> Option<AxisDensity> {
            if let Some(m) = self.truth.marginals.iter().find(|m| m.coordinate == coordinate) {
                return Some(marginals::resample(&m.points, &m.density, lo, hi, 161));
            }
            let gaussian_posterior = self.truth.source == TruthSource::ClosedForm && model.gaussian_precision().is_some();
            let m = self.truth.moments.as_ref().filter(|_| gaussian_posterior)?;
            Some(marginals::normal_marginal(m.mean[coordinate], m.cov[coordinate][coordinate].sqrt(), lo, hi, 161))
        };
        self.truth_marginals = [curve(i, view.x_min, view.x_max), curve(j, view.y_min, view.y_max)];
        self.rebin_all();
    }

    /// Parts of the static layer (axes, contours, truth ellipse) for drawing on any backend.
    pub fn static_layer<'a>(&'a self, names: &'a [String], truth_pair: Option<&'a Moments>) -> StaticLayer<'a> {
        StaticLayer {
            frame: self.projection.frame,
            view: self.projection.view,
            grid: self.grid.as_deref(),
            truth: truth_pair,
            x_name: &names[self.pair.0],
            y_name: &names[self.pair.1],
            scale: self.scale,
        }
    }

    /// The truth's moments restricted to the displayed pair.
    pub fn truth_pair_moments(&self) -> Option<Moments> {
        self.truth.moments.as_ref().map(|m| restrict(m, self.pair))
    }

    /// Pixel coordinates (x, y, x, y, …) of the last `k` samples, oldest first.
    pub fn trail(&self, k: usize) -> Vec<f64> {
        let ring = self.chain.samples();
        (ring.len().saturating_sub(k)..ring.len()).flat_map(|i| self.pixel(ring.get(i))).collect()
    }

    /// The recent continuous trajectory in pixels (bouncy samplers): `{kind, path, bounces}`.
    pub fn path(&self) -> Value {
        let pieces: Vec<_> = self.chain.path().collect();
        let mut path = Vec::with_capacity(2 * pieces.len() + 2);
        if let Some(first) = pieces.first() {
            path.extend(self.pixel(&first.start));
        }
        let mut bounces = Vec::new();
        for piece in &pieces {
            let end = self.pixel(&piece.end);
            path.extend(end);
            if piece.bounce {
                bounces.extend(end);
            }
        }
        let kind = if self.chain.sampler_spec().kind == SamplerKind::Bouncy { "path" } else { "samples" };
        let proposal = self.chain.last_proposal().map(|p| {
            let points: Vec<f64> = p.iter().flat_map(|x| self.pixel(x)).collect();
            json!({ "points": points, "accepted": p.accepted })
        });
        json!({ "kind": kind, "path": path, "bounces": bounces, "proposal": proposal })
    }

    /// Pixel coordinates of the current position.
    pub fn position_pixel(&self) -> [f64; 2] {
        self.pixel(self.chain.position())
    }

    /// Restart the chain at `point` (see [`Chain::restart_at`]).
    pub fn restart_at(&mut self, point: &[f64]) -> Result<(), String> {
        self.chain.restart_at(point)?;
        self.timeline.record(self.chain.steps(), crate::timeline::Event::Restart(point.to_vec()));
        Ok(())
    }

    /// Restart the chain where the current point was dropped on the 2-D panel: the displayed pair
    /// takes the pixel's data coordinates, the other coordinates keep their current values.
    pub fn restart_at_pixel(&mut self, px: f64, py: f64) -> Result<Vec<f64>, String> {
        if !(px.is_finite() && py.is_finite()) {
            return Err("the drop point must be finite".into());
        }
        let (x, y) = self.projection.to_data(px, py);
        let mut point = self.chain.position().to_vec();
        point[self.pair.0] = x;
        point[self.pair.1] = y;
        self.restart_at(&point)?;
        Ok(point)
    }

    /// Record each step's parts (slow motion) or stop.
    pub fn set_slow_motion(&mut self, on: bool) {
        self.chain.record_parts(on);
    }

    /// The latest step's parts in data coordinates and, for drawing head to tail, in pixels on the
    /// displayed pair: `{start, start_pixel, parts: [{name, label, vector, from, to}], end}`, or
    /// null when the sampler records none.
    pub fn step_parts(&self) -> Value {
        let Some(parts) = self.chain.last_parts() else { return Value::Null };
        let mut at = parts.start.clone();
        let pieces: Vec<Value> = parts
            .parts
            .iter()
            .map(|part| {
                let from = self.pixel(&at);
                at.iter_mut().zip(&part.vector).for_each(|(a, v)| *a += v);
                let to = self.pixel(&at);
                json!({ "name": part.name, "label": part.label, "vector": part.vector, "from": from, "to": to })
            })
            .collect();
        json!({ "start": parts.start, "start_pixel": self.pixel(&parts.start), "parts": pieces, "end": parts.end() })
    }

    /// Pixel polyline of the sampler's 2σ ellipse (empty until there are enough samples).
    pub fn sampler_ellipse(&self) -> Vec<f64> {
        if self.chain.n_recorded() < 10 {
            return Vec::new();
        }
        self.ellipse_pixels(&restrict(&self.chain.moments(), self.pair))
    }

    /// Pixel polyline of the 2σ ellipse of the sampler's predicted stationary law on the displayed
    /// pair (empty when there is none).
    pub fn predicted_ellipse(&self) -> Vec<f64> {
        self.with_law(|law| law.ok().map(|l| self.ellipse_pixels(&restrict(&law_moments(l), self.pair)))).unwrap_or_default()
    }

    pub(super) fn ellipse_pixels(&self, m: &Moments) -> Vec<f64> {
        let cov = [[m.cov[0][0], m.cov[0][1]], [m.cov[1][0], m.cov[1][1]]];
        if cov.iter().flatten().any(|c| !c.is_finite()) {
            return Vec::new();
        }
        two_sigma_ellipse([m.mean[0], m.mean[1]], cov, 90)
            .into_iter()
            .flat_map(|(x, y)| {
                let (px, py) = self.projection.to_pixel(x, y);
                [px, py]
            })
            .collect()
    }

    pub(super) fn pixel(&self, theta: &[f64]) -> [f64; 2] {
        let (x, y) = self.projection.to_pixel(theta[self.pair.0], theta[self.pair.1]);
        [x, y]
    }
}

thread_local! {
    /// Contour grids a full lab evaluated on its model, per truth key and view: the grid is a
    /// function of the model (which the key determines) and the view alone, so every lab of the
    /// same target settings and data (another sampler, a rebuild, a new truth) reuses it instead of
    /// evaluating up to 161² log densities on all N data again (issue 23, BENCHMARKS.md "CI time,
    /// twelfth round": a quarter of the hardening fuzz's CPU). Grids drawn from the truth's moments
    /// (very large N, [`contour_grid`]) depend on the truth and are not kept.
    static OWN_GRID_CACHE: std::cell::RefCell<std::collections::HashMap<String, std::rc::Rc<DensityGrid>>> = Default::default();
}

/// Grids kept in [`OWN_GRID_CACHE`] before it is emptied (161² values each, ≈ 0.2 MB: a bounded
/// 1.7 MB of a page's or worker's wasm memory).
const OWN_GRID_CACHE_SIZE: usize = 8;

/// [`contour_grid`] of a full lab's model, from [`OWN_GRID_CACHE`] when it was evaluated before.
fn own_contour_grid(key: &str, model: &dyn Model, truth: Option<&Moments>, view: View) -> std::rc::Rc<DensityGrid> {
    if drawn_from_truth(model, truth) {
        return std::rc::Rc::new(contour_grid(model, truth, view));
    }
    let key = format!("{key} {view:?}");
    if let Some(grid) = OWN_GRID_CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return grid;
    }
    let grid = std::rc::Rc::new(contour_grid(model, truth, view));
    OWN_GRID_CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        if cache.len() >= OWN_GRID_CACHE_SIZE {
            cache.clear();
        }
        cache.insert(key, grid.clone());
    });
    grid
}

/// Nodes per axis of a contour grid evaluated on the model within [`CONTOUR_BUDGET`].
fn affordable_nodes(model: &dyn Model) -> usize {
    (CONTOUR_BUDGET / model.density_cost().max(1) as f64).sqrt() as usize
}

/// The fewest nodes per axis a contour grid evaluated on the model may have.
const MIN_MODEL_NODES: usize = 41;

/// Whether [`contour_grid`] draws the Gaussian of the truth's moments: there is a truth and fewer
/// than [`MIN_MODEL_NODES`] per axis are affordable on the model.
fn drawn_from_truth(model: &dyn Model, truth: Option<&Moments>) -> bool {
    truth.is_some() && affordable_nodes(model) < MIN_MODEL_NODES
}

/// The contour grid of a 2-D target: its log density on up to 161² nodes within a budget of
/// per-datum evaluations; for very large N the Gaussian of the truth's moments (Laplace) instead.
pub(super) fn contour_grid(model: &dyn Model, truth: Option<&Moments>, view: View) -> DensityGrid {
    match truth {
        Some(m) if drawn_from_truth(model, truth) => {
            let gaussian = crate::model::gaussian::CorrelatedGaussian::from_moments(
                [m.mean[0], m.mean[1]],
                [[m.cov[0][0], m.cov[0][1]], [m.cov[1][0], m.cov[1][1]]],
            );
            DensityGrid::evaluate(&gaussian, view, 161, 161)
        }
        _ => {
            let nodes = affordable_nodes(model).clamp(MIN_MODEL_NODES, 161);
            DensityGrid::evaluate(model, view, nodes, nodes)
        }
    }
}

/// Mean and covariance of coordinates (i, j).
pub(super) fn restrict(m: &Moments, (i, j): (usize, usize)) -> Moments {
    Moments { mean: vec![m.mean[i], m.mean[j]], cov: vec![vec![m.cov[i][i], m.cov[i][j]], vec![m.cov[j][i], m.cov[j][j]]] }
}

/// The window for coordinates (i, j): the model's own for (0, 1); otherwise ±4.5 sd of the truth,
/// or of a Laplace approximation, around its mean.
pub(super) fn pair_view(model: &dyn Model, truth: Option<&Moments>, (i, j): (usize, usize)) -> View {
    if (i, j) == (0, 1) {
        return model.view();
    }
    let laplace;
    let moments = match truth {
        Some(m) => Some(m),
        None => {
            laplace = laplace_approximation(model);
            laplace.as_ref()
        }
    };
    match moments {
        Some(m) => View::centred(m.mean[i], m.mean[j], VIEW_SDS * m.cov[i][i].sqrt().max(1e-9), VIEW_SDS * m.cov[j][j].sqrt().max(1e-9)),
        None => View::centred(0.0, 0.0, 3.0, 3.0),
    }
}
