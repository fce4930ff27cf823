//! Unit tests of src/registry.rs (`registry::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::params::{ParamSpec, ParamValues};
use sgviz::registry::*;

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
