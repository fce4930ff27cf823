//! Samplers as small state machines (in the style of BlackJAX's sgmcmc kernels): a sampler owns
//! its position and its own hyperparameters, never the data, the minibatching or the retained
//! samples. [`crate::chain::Chain`] owns those and calls [`Sampler::step`].

pub mod band_check;
pub mod bouncy;
pub mod bps;
pub mod fisher;
pub mod gradient;
pub mod hmc;
pub mod lipsbps;
pub mod mala;
pub mod osgfs;
pub mod psbps;
pub mod sbps;
pub mod sgfs;
pub mod sgfs_law;
pub mod sghmc;
pub mod sgld;

use crate::model::Model;
use crate::params::ParamValues;
use crate::rng::ChainRng;
pub use gradient::GradientOracle;

/// What one step produced, for the chain to record.
#[derive(Clone, Debug, PartialEq)]
pub enum Emitted {
    /// The new position is one sample, with an importance weight (1 for constant-step samplers,
    /// ε_t for the step-size-weighted estimator of decreasing-step SGLD).
    Sample { weight: f64 },
    /// A piece of a continuous trajectory (bouncy particle samplers): x(s) = start + velocity·s for
    /// s ∈ [0, duration]. `bounce` says whether it ended in a reflection (for drawing markers).
    Segment { start: Vec<f64>, velocity: Vec<f64>, duration: f64, bounce: bool },
    /// Nothing to record this step (e.g. a rejected thinning proposal).
    Nothing,
}

/// The last Metropolis–Hastings proposal of an exact sampler, for animating it: the path from the
/// current point to the proposed one (two points for MALA, every leapfrog position for HMC), and
/// whether it was accepted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Proposal {
    pub dim: usize,
    /// Row-major points of the path.
    pub points: Vec<f64>,
    pub accepted: bool,
}

impl Proposal {
    /// Start a new path at `from` (keeps the allocation).
    pub fn restart(&mut self, from: &[f64]) {
        self.dim = from.len();
        self.points.clear();
        self.points.extend_from_slice(from);
        self.accepted = false;
    }
    pub fn push(&mut self, point: &[f64]) {
        self.points.extend_from_slice(point);
    }
    pub fn iter(&self) -> impl Iterator<Item = &[f64]> + '_ {
        self.points.chunks(self.dim.max(1))
    }
}

/// One step of a stochastic-gradient sampler taken apart, for the slow-motion animation: the
/// start and the displacements that make up the step, in order; they sum to the step (up to
/// rounding). The minibatch-noise part is the difference between the step's drift with the
/// minibatch gradient and with the full-data gradient ∇log π (computed only while recording, not
/// counted as gradient work).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct StepParts {
    pub start: Vec<f64>,
    pub parts: Vec<StepPart>,
}

/// One displacement of a [`StepParts`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StepPart {
    pub name: &'static str,
    pub label: &'static str,
    pub vector: Vec<f64>,
}

impl StepParts {
    /// Start a new record at `start` (keeps the allocation).
    pub fn restart(&mut self, start: &[f64]) {
        self.start.clear();
        self.start.extend_from_slice(start);
        self.parts.clear();
    }
    pub fn push(&mut self, name: &'static str, label: &'static str, vector: Vec<f64>) {
        self.parts.push(StepPart { name, label, vector });
    }
    /// Start plus every part: where the step ended.
    pub fn end(&self) -> Vec<f64> {
        let mut end = self.start.clone();
        for part in &self.parts {
            end.iter_mut().zip(&part.vector).for_each(|(e, v)| *e += v);
        }
        end
    }
}

/// The full-data gradient ∇log π(θ) without synthetic noise, for [`StepParts`] (not counted).
pub fn exact_gradient(model: &dyn Model, theta: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; theta.len()];
    model.grad_log_density(theta, &mut out);
    out
}

/// One named number a sampler reports for the UI and the CLI (noise variances, acceptance, …).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Diagnostic {
    pub name: &'static str,
    pub label: &'static str,
    pub value: f64,
}

/// A step-by-step sampler behind one interface.
pub trait Sampler: Send {
    /// The current position θ_t.
    fn position(&self) -> &[f64];
    /// Advance one step. Gradient work goes through `grads` so that it is counted.
    fn step(&mut self, model: &dyn Model, grads: &mut GradientOracle, rng: &mut ChainRng) -> Emitted;
    /// Take new hyperparameter values (a slider moved) without losing the chain's state.
    fn update_params(&mut self, params: &ParamValues);
    /// Why this sampler cannot run on the target it was built for (e.g. lipSBPS needs a global
    /// gradient bound); [`crate::chain::Chain::new`] refuses to build the chain with this message.
    fn unsupported_reason(&self) -> Option<String> {
        None
    }
    /// Why this sampler could not run with `params` (a slider about to move): a setting that
    /// [`Self::unsupported_reason`] would refuse at construction is refused live too, before it
    /// applies (review s52: SBPS's n → N ran while N → n was refused).
    fn unsupported_with(&self, _params: &ParamValues) -> Option<String> {
        None
    }
    /// What the user should change when this sampler's chain diverges, if the generic advice
    /// for its family (reduce ε; raise k) does not fit.
    fn divergence_advice(&self) -> Option<&'static str> {
        None
    }
    /// The last Metropolis–Hastings proposal (exact samplers), for animating it.
    fn last_proposal(&self) -> Option<&Proposal> {
        None
    }
    /// Start (or stop) recording each step's parts ([`StepParts`]); samplers without a
    /// decomposition ignore it.
    fn record_parts(&mut self, _on: bool) {}
    /// The parts of the latest step, while recording.
    fn last_parts(&self) -> Option<&StepParts> {
        None
    }
    /// SBPS and pSBPS: their current regression line and upper band (read-only), for the live
    /// chart of the paper's Fig. 2.
    fn band_view(&self) -> Option<sbps::view::BandView> {
        None
    }
    /// A failure of the current setting this sampler measures itself (SBPS: its band missing the
    /// bounce intensity), with the parameter that causes it.
    fn setting_warning(&self) -> Option<crate::setting_warning::SettingWarning> {
        None
    }
    /// Fisher-scoring samplers (SGFS, OSGFS): whether their running Fisher estimate is already
    /// nonsingular, so that a slider move to a minibatch of n ≤ D keeps a working preconditioner
    /// (src/promise.rs `Predictor::predict`). False for the others and before the first step.
    fn fisher_estimate_kept(&self) -> bool {
        false
    }
    /// Quantities worth showing, as of the latest step.
    fn diagnostics(&self) -> Vec<Diagnostic> {
        Vec::new()
    }
}
