//! Warnings about the chain's current setting (issue 21): each names the slider that caused it,
//! what fails (the samples are biased, or too few to be accurate) and the remedy that works. One
//! per chain at most; the page shows it beside that slider, the CLI prints it as `warning`.

use serde::Serialize;

/// What a [`SettingWarning`] says fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// The sampler's stationary law is off the posterior: more samples do not help.
    Bias,
    /// The samples after the reference count are too few for the accuracy claim.
    Mixing,
}

/// A measured or predicted failure of the current setting, tied to the parameter that caused it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SettingWarning {
    /// The parameter (slider) whose value causes the failure.
    pub param: &'static str,
    pub failure: Failure,
    /// What to change first, then one short reason (issue 26: remedy first, at most two lines
    /// beside the slider at 1400×900): "Set noise level α to 2.56 (now 1.24): …".
    pub text: String,
    /// The longer explanation (how the failure is predicted or measured), for the CLI and the
    /// note's hover text.
    pub detail: String,
}
