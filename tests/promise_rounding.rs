//! A predicted warning whose remedy, as the page prints it, is the current value must not fire
//! (issue 21/26, review s42): SGFS-f on the Gaussian toy at α = 1.632 (one slider position below
//! its derived default 1.63299, where the law's bias sits exactly on E2 = 0.1) said "Set noise level
//! α to 1.63 (now 1.63) … E2 stays at 0.1001", a remedy that names the current value.
//! The oracle is the printed text itself: a remedy "to X (now X)" cannot be acted on.

use sgviz::params::ParamValues;
use sgviz::promise::{show, Predictor};
use sgviz::promise_live::setting_warning;
use sgviz::spec::DerivedParam;

#[test]
fn sgfs_f_one_slider_position_below_its_derived_alpha_is_not_warned() {
    let target = sgviz::registry::target("gaussian").unwrap();
    let sampler = sgviz::registry::sampler("sgfs_f").unwrap();
    let model = (target.build)(&ParamValues::defaults(target.params), None).unwrap();
    let mut params = ParamValues::defaults(sampler.params);
    let derived: Vec<DerivedParam> = (sampler.derive)(model.as_ref(), &params);
    for d in &derived {
        params.set(sampler.params, d.name, d.default).unwrap();
    }
    let alpha = params.get("sgfs_alpha");
    assert_eq!(show(alpha), "1.63", "the case's premise: the derived α reads 1.63 ({alpha})");
    let mut predictor = Predictor::new("sgfs_f", model.as_ref()).unwrap();
    predictor.keep_estimate(true);
    // The slider's quantised values around the default: positions k · 6/1000 over [0, 6].
    for below in [1.632_f64, 1.6326] {
        let mut moved = params.clone();
        moved.set(sampler.params, "sgfs_alpha", below).unwrap();
        let warning = setting_warning(&predictor, sampler.params, &moved, &derived, &|| None, &|| None);
        if let Some(w) = &warning {
            let now = format!("(now {})", show(below));
            assert!(!w.text.contains(&format!("to {} {now}", show(below))), "α = {below}: a remedy naming the current value: {}", w.text);
        }
    }
}
