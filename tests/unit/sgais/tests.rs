//! Unit tests of src/sgais/mod.rs (`sgais::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::*;

#[test]
fn defaults_are_valid_and_names_do_not_clash_with_model_parameters() {
    for spec in PARAMS {
        spec.check(spec.default).unwrap();
    }
    for target in models::EVIDENCE_TARGETS {
        for p in target.params {
            assert!(!PARAMS.iter().any(|q| q.name == p.name), "{} in SGAIS and {}", p.name, target.name);
            p.check(p.default).unwrap();
        }
    }
    let c = SgaisConfig::paper_defaults();
    assert_eq!((c.particles, c.burn_in_steps, c.batch_size, c.chunk_size, c.reservoir_size), (10, 20, 500, 500, 0));
    assert_eq!((c.target_ess, c.learning_rate, c.friction, c.noise_correction), (5.0, 0.1, 0.2, NoiseCorrection::Fixed(0.0)));
    assert_eq!((c.eta_scale, c.resampling), (EtaScale::Total, Resampling::Off));
    for p in PRESETS {
        SgaisConfig::from_values(&p.values()).unwrap();
    }
    assert!(preset("papr").unwrap_err().contains("allowed: accurate, paper"));
}
