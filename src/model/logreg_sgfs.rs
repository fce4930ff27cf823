//! Logistic regression in the SGFS paper's setup (Ahn, Korattikara & Welling 2012, §5.1): digits
//! 7 versus 9 projected onto k seeded random directions (the paper: MNIST, 50 directions), a bias,
//! and a Gaussian prior with precision λ = 1 (σ_p = 1). Our digits are the 8 × 8 UCI set
//! (data/digits_7v9.csv, 359 rows), not MNIST. The same model as `logreg` with dataset =
//! digits_7v9, with the paper's defaults.

use super::logistic::LogisticRegression;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{TargetKind, TargetSpec};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::integer("projection_dim", "Projection size", "P", "Project the 64 pixels onto P seeded random directions (SGFS: 50 for MNIST)", 1.0, 64.0, 20.0, false).primary(),
    ParamSpec::log("prior_sd", "Prior scale", "σ_p", "Std. dev. of the prior; SGFS used precision λ = 1, i.e. σ_p = 1", 0.01, 1e4, 1.0),
    ParamSpec::choice("standardise", "Standardise features", "", "Shift and scale every projected feature to mean 0, sd 1", &["off", "on"], 1),
    ParamSpec::integer("data_seed", "Projection seed", "", "Seed of the random projection", 0.0, 1e9, 1.0, false),
];

pub const SPEC: TargetSpec = TargetSpec {
    name: "logreg_sgfs",
    label: "Logistic regression, SGFS setup (digits 7 vs 9)",
    description: "SGFS §5.1: digits 7 vs 9, random projection to k dimensions, bias, prior precision λ = 1",
    kind: TargetKind::Regression,
    params: PARAMS,
    build: |values, data| {
        crate::spec::refuse_data("logreg_sgfs", data)?;
        Ok(Box::new(from_params(values)?))
    },
};

pub fn from_params(values: &ParamValues) -> Result<LogisticRegression, String> {
    let projected = crate::data::builtin("digits_7v9")?.random_projection(values.get_usize("projection_dim"), values.get("data_seed") as u64);
    let prepared = if values.get_bool("standardise") { projected.standardised() } else { projected };
    Ok(LogisticRegression::from_dataset(&prepared, values.get("prior_sd"))?.start_at_mode())
}
