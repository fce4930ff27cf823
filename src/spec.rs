//! The shape of the registry: what a target, a sampler and a parameter declare. Models and
//! samplers define their `SPEC`s with these types; [`crate::registry`] only lists them. Sitting
//! below both, this module keeps the dependencies running one way (models/samplers → spec ←
//! registry).

use crate::data::Dataset;
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::sampler::Sampler;
use serde::Serialize;

/// Whether a target is a data-free toy density or a posterior over real or synthetic data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    Toy,
    Regression,
}

/// Family of a sampler (the UI groups and labels them by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SamplerKind {
    /// Discrete-time stochastic-gradient samplers (SGLD, SGFS, SGHMC, OSGFS).
    StochasticGradient,
    /// Full-data Metropolis–Hastings references (MALA, HMC).
    Exact,
    /// Continuous-time piecewise-deterministic samplers (BPS family).
    Bouncy,
}

/// Builds a target from validated parameter values and optional user data.
pub type BuildTarget = fn(&ParamValues, Option<&Dataset>) -> Result<Box<dyn Model>, String>;
/// Builds a sampler at `start` for a given target.
pub type BuildSampler = fn(&ParamValues, &dyn Model, &[f64]) -> Box<dyn Sampler>;

/// A sampler parameter's default and useful slider range for one particular target, derived from
/// the target (its curvature, N, …) instead of one number for every target. `min`/`max` lie inside
/// the parameter's static range, which stays the range of allowed values.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DerivedParam {
    pub name: &'static str,
    pub default: f64,
    pub min: f64,
    pub max: f64,
    /// Above this value the chain is unstable on this target (from a closed form or the
    /// curvature), when known: the page shades that part of the slider.
    pub unstable_above: Option<f64>,
}

/// Derives defaults for a built target, given the sampler's values so far (static defaults with
/// the user's settings applied). Only parameters the user did not set take the derived default.
pub type DeriveDefaults = fn(&dyn Model, &ParamValues) -> Vec<DerivedParam>;

/// For samplers whose static defaults fit every target.
pub fn no_derived_defaults(_model: &dyn Model, _values: &ParamValues) -> Vec<DerivedParam> {
    Vec::new()
}

#[derive(Clone, Copy, Serialize)]
pub struct TargetSpec {
    pub name: &'static str,
    pub label: &'static str,
    pub description: &'static str,
    pub kind: TargetKind,
    pub params: &'static [ParamSpec],
    #[serde(skip)]
    pub build: BuildTarget,
}

/// A target parameter a sampler never reads, and why (the page hides its slider and says why, a
/// link that sets it is told it was ignored, the CLI refuses it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Unread {
    pub param: &'static str,
    pub why: &'static str,
}

/// What a sampler on full-data gradients (src/sampler/gradient.rs `full_gradient`: MALA, HMC, BPS) never
/// reads: the synthetic gradient noise s (docs/README.md, (N.2)) is added by the minibatch oracle
/// only (review s42: MALA's E1/E2 identical at s = 0, 50 and 100).
pub const FULL_DATA_UNREAD: &[Unread] = &[Unread {
    param: "grad_noise",
    why: "it uses full-data gradients, which carry no gradient noise (a minibatch sampler such as SGLD reads it)",
}];

#[derive(Clone, Copy, Serialize)]
pub struct SamplerSpec {
    pub name: &'static str,
    pub label: &'static str,
    pub description: &'static str,
    pub kind: SamplerKind,
    pub params: &'static [ParamSpec],
    /// The target parameters this sampler never reads (every other parameter of its target and
    /// all of its own are read): the one place the UI, the CLI and links learn it from.
    pub unread: &'static [Unread],
    #[serde(skip)]
    pub build: BuildSampler,
    /// Target-dependent defaults and slider ranges (see [`DerivedParam`]).
    #[serde(skip)]
    pub derive: DeriveDefaults,
}

/// For targets that take no data: refuse a `--data` file with a clear message.
pub fn refuse_data(target: &str, data: Option<&Dataset>) -> Result<(), String> {
    match data {
        Some(_) => Err(format!("target '{target}' takes no data file; data files are for regression targets")),
        None => Ok(()),
    }
}
