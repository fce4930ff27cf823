//! Unit tests of src/params.rs (`params::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::params::*;

const SPECS: &[ParamSpec] = &[
    ParamSpec::log("step_size", "Step size", "ε", "", 1e-6, 1.0, 0.01),
    ParamSpec::choice("schedule", "Schedule", "", "", &["constant", "polynomial"], 0),
];

#[test]
fn resolves_defaults_and_overrides() {
    let v = ParamValues::resolve(SPECS, &[("step_size".into(), 0.5)]).unwrap();
    assert_eq!(v.get("step_size"), 0.5);
    assert_eq!(v.get("schedule"), 0.0);
}

#[test]
fn refuses_unknown_nonfinite_and_out_of_range() {
    let e = ParamValues::resolve(SPECS, &[("nope".into(), 1.0)]).unwrap_err();
    assert!(e.contains("allowed: step_size, schedule"), "{e}");
    let e = ParamValues::resolve(SPECS, &[("step_size".into(), f64::NAN)]).unwrap_err();
    assert!(e.contains("not finite"), "{e}");
    let e = ParamValues::resolve(SPECS, &[("step_size".into(), 2.0)]).unwrap_err();
    assert!(e.contains("[0.000001, 1]"), "{e}");
}

#[test]
fn an_excluded_minimum_is_refused_with_a_half_open_range() {
    let gamma = ParamSpec::linear("g", "", "γ", "", 0.5, 1.0, 0.55).excluding_min();
    let e = gamma.check(0.5).unwrap_err();
    assert!(e.contains("out of range") && e.contains("(0.5, 1]"), "{e}");
    assert_eq!(gamma.check(0.5000001).unwrap(), 0.5000001);
    assert_eq!(gamma.check(1.0).unwrap(), 1.0);
    assert!(gamma.check(1.01).is_err());
}

#[test]
fn parses_choice_names() {
    assert_eq!(SPECS[1].parse("polynomial").unwrap(), 1.0);
    assert!(SPECS[1].parse("cubic").unwrap_err().contains("one of constant, polynomial"));
}
