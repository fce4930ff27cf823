//! Unit tests of src/sgais/model_defaults.rs (`sgais::model_defaults::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::model_defaults::*;
use sgviz::sgais::models::EVIDENCE_TARGETS;
use sgviz::sgais::SgaisConfig;

#[test]
fn every_listed_model_exists_and_its_defaults_are_valid_settings() {
    for d in DEFAULTS_BY_MODEL {
        assert!(EVIDENCE_TARGETS.iter().any(|t| t.name == d.target), "{} is not an evidence target", d.target);
        SgaisConfig::from_values(&sgais_defaults_for(d.target)).unwrap();
    }
}

#[test]
fn the_mixture_and_softmax_start_from_their_own_defaults_and_linear_regression_from_the_global_ones() {
    let gmm = SgaisConfig::from_values(&sgais_defaults_for("gmm")).unwrap();
    assert_eq!((gmm.burn_in_steps, gmm.learning_rate), (20, 0.1));
    let global = SgaisConfig::defaults();
    assert_eq!(SgaisConfig { burn_in_steps: global.burn_in_steps, learning_rate: global.learning_rate, ..gmm }, global, "only K and lr differ");
    assert_eq!(SgaisConfig::from_values(&sgais_defaults_for("linreg")).unwrap(), global, "linreg");
    let softmax = SgaisConfig::from_values(&sgais_defaults_for("softmax")).unwrap();
    assert_eq!(SgaisConfig { burn_in_steps: global.burn_in_steps, learning_rate: global.learning_rate, ..softmax.clone() }, global, "softmax: only K and lr differ");
    assert_eq!((softmax.burn_in_steps, softmax.learning_rate), (40, 0.1));
    let json = defaults_by_model_json();
    assert_eq!(json["gmm"]["values"], serde_json::json!({ "burn_in_steps": 20.0, "learning_rate": 0.1 }));
    assert!(json.get("linreg").is_none());
}
