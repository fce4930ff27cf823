//! The surprise rule as a registry setting (docs/sgais.md §10, (SGAIS.19)): `surprise_rule` =
//! auto / off / on, where auto is on for the mixture's distribution-shift data and off for
//! stationary data; the page's shift demo and the CLI resolve it the same way (src/sgais/job.rs
//! `resolve`, src/sgais/cli.rs), the AIS baseline never takes it, and the panel's sentence on the
//! flagged chunks (src/sgais/surprise_note.rs) on hand-made records. Milliseconds: `make test`.

use sgviz::sgais::ais::ais_config;
use sgviz::sgais::job::resolve;
use sgviz::sgais::run::ChunkRecord;
use sgviz::sgais::surprise::SurpriseBoost;
use sgviz::sgais::surprise_note::surprise_note;

fn boost_of(target: &str, settings: &[(&str, &str)]) -> Option<SurpriseBoost> {
    let settings: Vec<(String, String)> = settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    resolve(target, None, &settings, None).unwrap().config.surprise_boost
}

/// ESS* = 0.9 M and twice the SGHMC moves (the combination measured in docs/sgais.md §10) and the
/// re-seeding move of a mixture's lightest component (§10, "Why in order is the lower").
const MEASURED: SurpriseBoost = SurpriseBoost { ess_fraction: 0.9, move_factor: 2, reseed: true };

#[test]
fn auto_is_on_for_the_shift_data_and_off_for_stationary_data() {
    let small = ("n_points", "200");
    assert_eq!(boost_of("gmm", &[small, ("scenario", "shift")]), Some(MEASURED));
    assert_eq!(boost_of("gmm", &[small, ("scenario", "shift_shuffled")]), Some(MEASURED));
    assert_eq!(boost_of("gmm", &[small]), None, "stationary mixture");
    assert_eq!(boost_of("linreg", &[small]), None);
    assert_eq!(boost_of("softmax", &[small]), None);
    // The page sends every value, the rule's choice index included ("0" = auto).
    assert_eq!(boost_of("gmm", &[small, ("scenario", "shift"), ("surprise_rule", "0")]), Some(MEASURED));
}

#[test]
fn off_and_on_override_the_data() {
    let small = ("n_points", "200");
    assert_eq!(boost_of("gmm", &[small, ("scenario", "shift"), ("surprise_rule", "off")]), None);
    assert_eq!(boost_of("gmm", &[small, ("scenario", "shift"), ("surprise_rule", "1")]), None, "the lecture preset's index");
    assert_eq!(boost_of("linreg", &[small, ("surprise_rule", "on")]), Some(MEASURED));
    let settings = vec![("surprise_rule".to_string(), "sometimes".to_string())];
    let message = resolve("linreg", None, &settings, None).err().unwrap();
    assert!(message.contains("surprise_rule") && message.contains("auto, off, on"), "{message}");
}

#[test]
fn the_ais_baseline_never_takes_the_rule() {
    let settings = vec![("n_points".to_string(), "200".to_string()), ("scenario".to_string(), "shift".to_string())];
    let config = resolve("gmm", None, &settings, None).unwrap().config;
    assert!(config.surprise_boost.is_some());
    assert_eq!(ais_config("gmm", &config).surprise_boost, None);
    assert_eq!(ais_config("linreg", &config).surprise_boost, None);
}

#[test]
fn the_registry_lists_the_rule_with_auto_as_its_default() {
    let json = sgviz::registry::to_json();
    let rule = json["sgais"]["params"].as_array().unwrap().iter().find(|p| p["name"] == "surprise_rule").expect("surprise_rule in the registry");
    assert_eq!(rule["choices"], serde_json::json!(["auto", "off", "on"]));
    assert_eq!(rule["default"].as_f64(), Some(0.0));
}

fn record(n: usize, boosted: bool) -> ChunkRecord {
    ChunkRecord { n, log_z: -(n as f64), exact_log_z: None, annealing_steps: 1, ess: 10.0, min_step_ess: 10.0, datum_evals: 0, learning_rate: 1e-4, noise_ratio: 0.1, log_z_var: 0.0, boosted }
}

#[test]
fn the_note_names_the_chunks_the_rule_flagged() {
    let in_order: Vec<ChunkRecord> = [(1_000, true), (2_000, true), (3_000, false), (10_000, false), (11_000, true), (12_000, false)].iter().map(|&(n, b)| record(n, b)).collect();
    let shuffled: Vec<ChunkRecord> = [(1_000, true), (2_000, false), (3_000, false)].iter().map(|&(n, b)| record(n, b)).collect();
    let off: Vec<ChunkRecord> = [(1_000, false), (2_000, false)].iter().map(|&(n, b)| record(n, b)).collect();
    assert_eq!(
        surprise_note(&[("K = 7, in order", &in_order), ("K = 7, shuffled", &shuffled)]),
        "Surprise rule: extra annealing work for the first chunk of each run and, where the particles did not predict the data, for the chunks ending at n = 2,000 and 11,000 (K = 7, in order); no later chunk flagged for K = 7, shuffled."
    );
    assert_eq!(surprise_note(&[("SGAIS", &shuffled)]), "Surprise rule: extra annealing work for the first chunk of each run; no later chunk flagged for SGAIS.");
    assert_eq!(surprise_note(&[("SGAIS", &off)]), "", "the rule off: no sentence");
    assert_eq!(surprise_note(&[]), "");
}
