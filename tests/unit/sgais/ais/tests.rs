//! Unit tests of src/sgais/ais.rs (`sgais::ais::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::SgaisConfig;
use sgviz::sgais::ais::*;
use sgviz::sgais::models::EVIDENCE_TARGETS;

#[test]
fn the_mixture_anneals_with_smaller_steps_and_other_models_with_the_runs_own_settings() {
    for d in AIS_DEFAULTS_BY_MODEL {
        assert!(EVIDENCE_TARGETS.iter().any(|t| t.name == d.target), "{} is not an evidence target", d.target);
        assert!(d.min_ess_share > 0.0 && d.min_ess_share < 1.0);
    }
    let sgais = SgaisConfig { particles: 50, target_ess: 25.0, ..SgaisConfig::defaults() };
    assert_eq!(ais_config("gmm", &sgais), SgaisConfig { target_ess: 45.0, ..sgais.clone() });
    let paper = SgaisConfig::paper_defaults();
    assert_eq!(ais_config("gmm", &paper).target_ess, 9.0, "M = 10: ESS* = 9 < M");
    SgaisConfig::from_values(&sgviz::sgais::PAPER_PRESET.values()).unwrap();
    let more = SgaisConfig { target_ess: 48.0, ..sgais.clone() };
    assert_eq!(ais_config("gmm", &more), more, "a run asking for more keeps it");
    assert_eq!(ais_config("linreg", &sgais), sgais);
    assert_eq!(ais_config("softmax", &sgais), sgais);
}
