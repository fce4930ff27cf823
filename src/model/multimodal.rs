//! Multimodal toy "after SBPS App. E" — a placeholder, not the paper's example (docs/bouncy.md §12
//! [GUESS]: the appendix's formulas are lost). It reuses the Welling–Teh tied-means mixture
//! (mixture.rs): θ₁ ~ N(0, 10), θ₂ ~ N(0, 1), x_i ~ ½N(θ₁, σ_x²) + ½N(θ₁ + θ₂, σ_x²), but with data
//! drawn at θ = (0, g) for an adjustable gap g and narrower components, so the two modes (0, g) and
//! (g, −g) are further apart with a deeper valley between them than in the SGLD paper's figure.

use super::mixture::TiedMixture;
use crate::params::ParamSpec;
use crate::spec::{TargetKind, TargetSpec};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::integer("n_points", "Data points", "N", "Number of data drawn from the mixture", 10.0, 1e5, 100.0, true),
    ParamSpec::linear("mode_gap", "Mode gap", "g", "Data drawn at θ = (0, g): modes near (0, g) and (g, −g)", 0.5, 3.0, 2.0).primary(),
    ParamSpec::log("mix_var", "Component variance", "σ_x²", "Variance of each mixture component", 0.1, 10.0, 0.5),
    ParamSpec::integer("data_seed", "Data seed", "", "Seed of the data generator", 0.0, 1e9, 1.0, false),
];

pub const SPEC: TargetSpec = TargetSpec {
    name: "multimodal",
    label: "Multimodal (after SBPS App. E)",
    description: "Placeholder for SBPS App. E (formulas lost): the tied-means mixture with well-separated modes",
    kind: TargetKind::Toy,
    params: PARAMS,
    build: |values, data| {
        crate::spec::refuse_data("multimodal", data)?;
        Ok(Box::new(TiedMixture::generate(
            values.get_usize("n_points"),
            [0.0, values.get("mode_gap")],
            values.get("mix_var"),
            values.get("data_seed") as u64,
        )))
    },
};
