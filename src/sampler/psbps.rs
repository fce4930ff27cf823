//! Preconditioned SBPS (Pakman et al. 2017, eq. 19–20; docs/bouncy.md §8): SBPS run in the
//! coordinates whitened by an adaptive diagonal A = diag(a), a_i ∝ 1/(√ĝ²_i + ε) with ĝ² an
//! exponential moving average (β = 0.99) of squared mean minibatch gradients, normalised to mean 1.
//! The motion is A v, observations are (A v)·∇Ũ, reflections use A∇Ũ with the A of the ending
//! segment; A switches to the running average's latest value only at a regression restart (bounce
//! or refresh) and only during the first `adapt_iterations` iterations. The implementation is
//! [`super::sbps::Sbps`] with its preconditioner switched on.

use super::sbps::{Sbps, PSBPS_PARAMS};
use crate::params::ParamSpec;
use crate::spec::{SamplerKind, SamplerSpec};

pub const PARAMS: &[ParamSpec] = PSBPS_PARAMS;

pub const SPEC: SamplerSpec = SamplerSpec {
    name: "psbps",
    label: "pSBPS",
    description: "SBPS with the adaptive diagonal preconditioner (Pakman et al. 2017, §4)",
    kind: SamplerKind::Bouncy,
    params: PARAMS,
    unread: &[],
    build: |values, model, start| Box::new(Sbps::preconditioned(model, start.to_vec(), values)),
    derive: super::sbps::derive_defaults,
};
