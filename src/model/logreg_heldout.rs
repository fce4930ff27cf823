//! Logistic regression with a held-out test set, the stand-in for Welling & Teh 2011 §5.2 (a9a:
//! trained on a random 80 %, tested on the other 20 %; Fig. 3). a9a is not shipped: the breast-
//! cancer data (data/breast_cancer.csv, 569 rows) stand in, the first d features standardised,
//! every fifth row (rows 5, 10, …) held out (113 test rows, 456 training rows). Gaussian prior
//! (the paper's is Laplace). The posterior is over the training rows only; src/heldout.rs tracks
//! the log joint per datum and the test accuracy over sweeps. docs/sgld.md §7.

use super::logistic::LogisticRegression;
use super::test_set::TestSet;
use crate::data::Dataset;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{TargetKind, TargetSpec};

/// One row in this many is held out.
pub const HOLD_OUT_EVERY: usize = 5;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::integer("n_features", "Features", "d", "Use the first d of the 30 breast-cancer features", 1.0, 30.0, 10.0, false).primary(),
    ParamSpec::choice("start_at", "Chains start at", "", "mode: at the posterior mode (found by Newton); origin: at θ = 0, as SGLD Fig. 3 does, to watch the log joint rise", &["mode", "origin"], 0),
    ParamSpec::log("prior_sd", "Prior scale", "σ_p", "Std. dev. of the Gaussian prior on every coefficient (1: the scale of the paper's Laplace prior; at 10 the ten collinear features leave the posterior nearly flat along their combinations)", 0.01, 1e4, 1.0),
];

pub const SPEC: TargetSpec = TargetSpec {
    name: "logreg_heldout",
    label: "Logistic regression with a test set (breast cancer, 80/20)",
    description: "SGLD §5.2 stand-in: train on 4 of every 5 breast-cancer rows, report accuracy on the fifth",
    kind: TargetKind::Regression,
    params: PARAMS,
    build: |values, data| {
        crate::spec::refuse_data("logreg_heldout", data)?;
        Ok(Box::new(from_params(values)?))
    },
};

/// Rows `i` with `i % HOLD_OUT_EVERY == HOLD_OUT_EVERY − 1` go to the test set.
pub fn split(data: &Dataset) -> (Dataset, Dataset) {
    let d = data.n_features();
    let pick = |test: bool| {
        let rows: Vec<usize> = (0..data.len()).filter(|i| (i % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1) == test).collect();
        Dataset {
            feature_names: data.feature_names.clone(),
            response_name: data.response_name.clone(),
            features: rows.iter().flat_map(|&i| data.features[i * d..(i + 1) * d].iter().copied()).collect(),
            responses: rows.iter().map(|&i| data.responses[i]).collect(),
        }
    };
    (pick(false), pick(true))
}

pub fn from_params(values: &ParamValues) -> Result<LogisticRegression, String> {
    let all = crate::data::builtin("breast_cancer")?;
    let keep: Vec<usize> = (0..values.get_usize("n_features").min(all.n_features())).collect();
    let (train, test) = split(&all.select_features(&keep).standardised());
    let test = TestSet::with_intercept(test.n_features(), &test.features, test.responses);
    let at_mode = values.get_usize("start_at") == 0;
    Ok(LogisticRegression::from_dataset(&train, values.get("prior_sd"))?.starting_at_mode(at_mode).with_test_set(test))
}
