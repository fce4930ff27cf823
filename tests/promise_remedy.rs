//! The warning's remedy (src/promise.rs `nearest_fix`, docs/diagnostics.md §7: "the slider whose
//! nearest value (within its range) keeps the promise is closest to where it is now, and that
//! value"), checked against a scan written here, on the case tests/promise_defaults.rs repairs:
//! SGHMC on the Gaussian toy at its derived defaults, where 16.9 % of runs are predicted above
//! E2 = 0.3 (a mixing failure). Issue 23, thirteenth mutation pass: `nearest_fix_among` was run by
//! no test but the two repair tests, which only ask for an η above 1.2 × the derived one.
//!
//! The oracle: positions in slider units (log over the range for log sliders, the range's fraction
//! otherwise; the range is the derived one, capped at the shading's start), a scan every 1/400 of
//! every slider out to the remedy's distance finds no value that keeps the promise, the remedy
//! keeps it, and a step of 10⁻⁴ back towards the current value breaks it (the search bisects to
//! the boundary; the grid of 24 points alone would stop up to 1/23 away).

use sgviz::params::ParamValues;
use sgviz::promise::{nearest_fix, Predictor};
use sgviz::spec::DerivedParam;

#[test]
fn the_remedy_is_the_nearest_value_that_keeps_the_promise_on_any_slider() {
    let target = sgviz::registry::target("gaussian").unwrap();
    let sampler = sgviz::registry::sampler("sghmc").unwrap();
    let model = (target.build)(&ParamValues::defaults(target.params), None).unwrap();
    let mut params = ParamValues::defaults(sampler.params);
    let derived: Vec<DerivedParam> = (sampler.derive)(model.as_ref(), &params);
    for d in &derived {
        params.set(sampler.params, d.name, d.default).unwrap();
    }
    let predictor = Predictor::new("sghmc", model.as_ref()).unwrap();
    let keeps = |name: &str, value: f64| {
        let mut trial = params.clone();
        trial.set(sampler.params, name, value).is_ok() && predictor.predict(&trial).is_ok_and(|p| p.failure().is_none())
    };
    assert!(!keeps("sghmc_lr", params.get("sghmc_lr")), "the derived defaults break the promise (the case's premise)");
    let (spec, value) = nearest_fix(&predictor, sampler.params, &params, &derived).expect("one slider keeps it");
    // Slider units, from each slider's range (derived where derived, capped at the shading).
    let range = |name: &str| {
        let s = sampler.params.iter().find(|s| s.name == name).unwrap();
        let (lo, hi) = derived.iter().find(|d| d.name == name).map_or((s.min, s.max), |d| (d.min, d.unstable_above.map_or(d.max, |u| d.max.min(u))));
        (lo, hi, s.log_scale && lo > 0.0)
    };
    let position = |name: &str, x: f64| {
        let (lo, hi, log) = range(name);
        if log { (x / lo).ln() / (hi / lo).ln() } else { (x - lo) / (hi - lo) }
    };
    let value_at = |name: &str, t: f64| {
        let (lo, hi, log) = range(name);
        if log { lo * (hi / lo).powf(t) } else { lo + t * (hi - lo) }
    };
    let now = |name: &str| position(name, params.get(name));
    let distance = (position(spec.name, value) - now(spec.name)).abs();
    assert!(keeps(spec.name, value), "the remedy {} = {value} keeps the promise", spec.name);
    let back = value_at(spec.name, position(spec.name, value) - 1e-4 * (position(spec.name, value) - now(spec.name)).signum());
    assert!(!keeps(spec.name, back), "{} = {back}, 10⁻⁴ nearer than the remedy {value}, keeps it too: not the nearest", spec.name);
    for name in ["sghmc_lr", "friction", "beta_hat", "batch_size"] {
        let steps = (distance * 400.0).floor() as i32;
        for k in (-steps..=steps).filter(|k| *k != 0) {
            let t = now(name) + f64::from(k) / 400.0;
            let x = if name == "batch_size" { value_at(name, t).round() } else { value_at(name, t) };
            let nearer = (position(name, x) - now(name)).abs() < distance - 1e-4;
            assert!(!((0.0..=1.0).contains(&t) && nearer && keeps(name, x)), "{name} = {x} keeps the promise nearer than the remedy {} = {value}", spec.name);
        }
    }
    assert!(distance > 0.01 && distance < 0.1, "the case moves η by a few hundredths of its slider: {distance}");
}
