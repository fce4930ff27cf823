//! The single source of truth for targets, samplers and their parameters. The CLI's `list`, the
//! UI's dropdowns and sliders, and URL state all read [`TARGETS`] and [`SAMPLERS`].
//!
//! Adding a sampler or target = one file that defines a `SPEC`, plus one line below.

use crate::model;
use crate::params::{unknown_param, ParamSpec, ParamValues};
use crate::sampler;
pub use crate::spec::{refuse_data, BuildSampler, BuildTarget, SamplerKind, SamplerSpec, TargetKind, TargetSpec};

/// Every target, in the order the UI lists them.
pub const TARGETS: &[TargetSpec] = &[
    model::gaussian::SPEC,
    model::mixture::SPEC,
    model::banana::SPEC,
    model::hyperbola::SPEC,
    model::multimodal::SPEC,
    model::funnel::SPEC,
    model::logistic::SPEC,
    model::logreg_dd::SPEC,
    model::logreg_sgfs::SPEC,
    model::logreg_heldout::SPEC,
    model::linear::SPEC,
];

/// Every sampler, in the order the UI lists them.
pub const SAMPLERS: &[SamplerSpec] = &[
    sampler::sgld::SPEC,
    sampler::sgfs::SPEC_FULL,
    sampler::sgfs::SPEC_DIAG,
    sampler::sghmc::SPEC,
    sampler::osgfs::SPEC,
    sampler::mala::SPEC,
    sampler::hmc::SPEC,
    sampler::bps::SPEC,
    sampler::sbps::SPEC,
    sampler::psbps::SPEC,
    sampler::lipsbps::SPEC,
];

/// Look a target up by name; the error lists the allowed names.
pub fn target(name: &str) -> Result<&'static TargetSpec, String> {
    TARGETS.iter().find(|t| t.name == name).ok_or_else(|| {
        let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
        format!("unknown target '{name}'; allowed: {}", names.join(", "))
    })
}

/// Parameters of `sampler` with `settings` over its declared defaults (the unit tests' shorthand;
/// panics on an unknown sampler or a refused value).
#[cfg(test)]
pub(crate) fn sampler_params(sampler: &str, settings: &[(&str, f64)]) -> ParamValues {
    let specs = self::sampler(sampler).unwrap().params;
    let mut values = ParamValues::defaults(specs);
    for (name, value) in settings {
        values.set(specs, name, *value).unwrap();
    }
    values
}

/// Look a sampler up by name; the error lists the allowed names.
pub fn sampler(name: &str) -> Result<&'static SamplerSpec, String> {
    SAMPLERS.iter().find(|s| s.name == name).ok_or_else(|| {
        let names: Vec<&str> = SAMPLERS.iter().map(|s| s.name).collect();
        format!("unknown sampler '{name}'; allowed: {}", names.join(", "))
    })
}

/// The whole registry as JSON (what `sgviz list` prints and what the UI builds its controls from).
pub fn to_json() -> serde_json::Value {
    let sgais = serde_json::json!({ "params": crate::sgais::PARAMS, "targets": crate::sgais::models::EVIDENCE_TARGETS, "presets": crate::sgais::PRESETS, "ns_params": crate::sgais::nested::NESTED_PARAMS, "defaults_by_model": crate::sgais::model_defaults::defaults_by_model_json() });
    let limits = serde_json::json!({ "max_upload_bytes": crate::data::MAX_BYTES, "max_rows": crate::data::MAX_ROWS });
    serde_json::json!({ "targets": TARGETS, "samplers": SAMPLERS, "sgais": sgais, "limits": limits })
}

/// Split `name=value` settings between a target's and a sampler's parameter lists.
/// A name must belong to exactly one of them.
pub fn split_settings(
    target: &TargetSpec,
    sampler: &SamplerSpec,
    settings: &[(String, String)],
) -> Result<(ParamValues, ParamValues), String> {
    let mut target_values = ParamValues::defaults(target.params);
    let mut sampler_values = ParamValues::defaults(sampler.params);
    for (name, text) in settings {
        if let Some(spec) = sampler.params.iter().find(|s| s.name == name) {
            sampler_values.set(sampler.params, name, spec.parse(text)?)?;
        } else if let Some(spec) = target.params.iter().find(|s| s.name == name) {
            target_values.set(target.params, name, spec.parse(text)?)?;
        } else {
            let all: Vec<ParamSpec> = target.params.iter().chain(sampler.params).copied().collect();
            return Err(unknown_param(&all, name));
        }
    }
    Ok((target_values, sampler_values))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_defaults_are_valid() {
        let mut names: Vec<&str> = TARGETS.iter().map(|t| t.name).chain(SAMPLERS.iter().map(|s| s.name)).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "duplicate registry names");
        for spec in TARGETS.iter().flat_map(|t| t.params).chain(SAMPLERS.iter().flat_map(|s| s.params)) {
            spec.check(spec.default).unwrap_or_else(|e| panic!("default of {} invalid: {e}", spec.name));
            assert!(spec.min <= spec.max);
            assert!(!spec.log_scale || spec.min > 0.0, "{}: log scale needs min > 0", spec.name);
        }
        let lists = TARGETS.iter().map(|t| t.params).chain(SAMPLERS.iter().map(|s| s.params));
        for list in lists {
            for spec in list.iter() {
                if let Some(when) = spec.visible_if {
                    let other = list.iter().find(|p| p.name == when.param);
                    let other = other.unwrap_or_else(|| panic!("{} is shown when {}, which is not in its list", spec.name, when.param));
                    for v in when.values {
                        other.check(*v).unwrap_or_else(|e| panic!("{}: visible_if value invalid: {e}", spec.name));
                    }
                }
            }
        }
    }

    /// Names of the parameters of `specs` that apply when the values are `settings` over defaults.
    fn applicable(specs: &'static [ParamSpec], settings: &[(&str, f64)]) -> Vec<&'static str> {
        let overrides: Vec<(String, f64)> = settings.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        let values = ParamValues::resolve(specs, &overrides).unwrap();
        specs.iter().filter(|p| p.visible_if.is_none_or(|w| w.holds(&values))).map(|p| p.name).collect()
    }

    #[test]
    fn every_sampler_and_target_names_one_or_two_primary_parameters_that_apply_by_default() {
        for (name, specs, least) in SAMPLERS.iter().map(|s| (s.name, s.params, 1)).chain(TARGETS.iter().map(|t| (t.name, t.params, 0))) {
            let shown = applicable(specs, &[]);
            let primary = specs.iter().filter(|p| p.primary && shown.contains(&p.name)).count();
            assert!((least..=2).contains(&primary), "{name}: {primary} primary parameters apply at the defaults");
        }
    }

    #[test]
    fn parameters_are_shown_only_where_they_apply() {
        let sgld = sampler("sgld").unwrap().params;
        let constant = applicable(sgld, &[]);
        for hidden in ["sgld_a", "sgld_b", "sgld_gamma", "rms_decay", "rms_floor"] {
            assert!(!constant.contains(&hidden), "{hidden} with a constant schedule and no preconditioner");
        }
        let polynomial = applicable(sgld, &[("sgld_schedule", 1.0)]);
        assert!(polynomial.contains(&"sgld_a") && polynomial.contains(&"sgld_gamma") && !polynomial.contains(&"step_size"));
        assert!(applicable(sgld, &[("sgld_precond", 1.0)]).contains(&"rms_floor"));
        let logreg = target("logreg").unwrap().params;
        let synthetic = |p: &&ParamSpec| p.label.contains("(synthetic)");
        let digits = |p: &&ParamSpec| p.label.contains("(digits)");
        for (dataset, shows_synthetic, shows_digits) in [(0.0, true, false), (1.0, false, false), (2.0, false, true)] {
            let shown = applicable(logreg, &[("dataset", dataset)]);
            for p in logreg.iter().filter(synthetic) {
                assert_eq!(shown.contains(&p.name), shows_synthetic, "{} with dataset {dataset}", p.name);
            }
            for p in logreg.iter().filter(digits) {
                assert_eq!(shown.contains(&p.name), shows_digits, "{} with dataset {dataset}", p.name);
            }
        }
        let linreg = target("linreg").unwrap().params;
        assert!(linreg.iter().filter(synthetic).all(|p| !applicable(linreg, &[("dataset", 1.0)]).contains(&p.name)));
    }

    #[test]
    fn no_parameter_name_is_shared_between_a_target_and_a_sampler() {
        for t in TARGETS {
            for s in SAMPLERS {
                for p in t.params {
                    assert!(!s.params.iter().any(|q| q.name == p.name), "{} in both {} and {}", p.name, t.name, s.name);
                }
            }
        }
    }
}
