//! d-dimensional synthetic logistic regression as in the SBPS experiment (docs/bouncy.md §11, the
//! authors' `pSBPS_fig.ipynb`): w* ~ U(−5, 5)^D, x_i ~ N(0, diag(v, 1, …, 1)) with one badly scaled
//! feature (v = 1/500, so the posterior is ~√500 times wider along w₁: Hessian condition number
//! ≈ 10³), P(y_i = 1) = σ(x_iᵀw*). No intercept, and a flat-ish N(0, σ_p²) prior (the notebook uses
//! a flat prior; σ_p = 100 by default keeps the posterior proper). Chains start at the mode.

use super::logistic::{sigmoid, LogisticRegression};
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{TargetKind, TargetSpec};
use crate::rng::{chain_rng, standard_normal, uniform};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::integer("n_dims", "Dimension", "D", "Number of features = number of weights (no intercept)", 2.0, 50.0, 20.0, false).primary(),
    ParamSpec::integer("n_points", "Data points", "N", "Size of the generated data set", 10.0, 1e6, 1000.0, true).primary(),
    ParamSpec::log("bad_scale_var", "Variance of feature 1", "v", "x₁ ~ N(0, v) while the others are N(0, 1); the notebook uses 1/500", 1e-4, 1.0, 0.002),
    ParamSpec::log("prior_sd", "Prior scale", "σ_p", "Std. dev. of the flat-ish N(0, σ_p²) prior on every weight", 0.01, 1e4, 100.0),
    ParamSpec::integer("data_seed", "Data seed", "", "Seed of the synthetic data generator", 0.0, 1e9, 1.0, false),
];

pub const SPEC: TargetSpec = TargetSpec {
    name: "logreg_dd",
    label: "Logistic regression, D-dim (SBPS setup)",
    description: "SBPS notebook: D = 20 weights, one badly scaled feature (variance 1/500), no intercept, flat-ish prior",
    kind: TargetKind::Regression,
    params: PARAMS,
    build: |values, data| {
        crate::spec::refuse_data("logreg_dd", data)?;
        Ok(Box::new(synthetic(values)?))
    },
};

/// Generate the SBPS-notebook data set and its model.
pub fn synthetic(values: &ParamValues) -> Result<LogisticRegression, String> {
    let (d, n) = (values.get_usize("n_dims"), values.get_usize("n_points"));
    let first_sd = values.get("bad_scale_var").sqrt();
    let mut rng = chain_rng(values.get("data_seed") as u64);
    let truth: Vec<f64> = (0..d).map(|_| 10.0 * (uniform(&mut rng) - 0.5)).collect();
    let mut features = Vec::with_capacity(n * d);
    let mut labels = Vec::with_capacity(n);
    for _ in 0..n {
        let start = features.len();
        features.push(first_sd * standard_normal(&mut rng));
        features.extend((1..d).map(|_| standard_normal(&mut rng)));
        let z: f64 = features[start..].iter().zip(&truth).map(|(x, w)| x * w).sum();
        labels.push(if uniform(&mut rng) < sigmoid(z) { 1.0 } else { 0.0 });
    }
    let names = (1..=d).map(|j| format!("w{j}")).collect();
    Ok(LogisticRegression::without_intercept(d, features, labels, values.get("prior_sd"), names)?.start_at_mode())
}
