//! The truth shipped with the page for the d = 20 logistic regression at its defaults
//! (src/truth_shipped.rs, data/truth_logreg_dd.json; docs/truth.md §7): the page uses it at
//! once, only for the model it sampled, and it agrees with an independent MALA reference (the
//! committed fixture of tests/fixtures/mala_references.json: another seed, another budget) within
//! their Monte-Carlo standard errors. `make soak` recomputes it; with `SGVIZ_WRITE_SHIPPED=1` the
//! soak test writes the file:
//!
//! `SGVIZ_WRITE_SHIPPED=1 cargo test --release --test all truth_shipped:: -- --include-ignored`

mod common;
use common::fixtures::{read_file, thread_cpu_seconds};
use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::registry;
use sgviz::truth::TruthSource;
use sgviz::truth_shipped::{self, ShippedTruth};

/// The budget and seed the stored run was generated with (four times the page's own 50,000
/// samples, docs/truth.md §7; the seed is the page's reference seed for chain seed 1, 1 ^ 0x5eed).
const WARM_UP: u64 = 10_000;
const SAMPLES: u64 = 200_000;
const SEED: u64 = 1 ^ 0x5eed;
const PATH: &str = "data/truth_logreg_dd.json";

fn stored() -> ShippedTruth {
    truth_shipped::all().into_iter().find(|s| s.key.starts_with("logreg_dd|")).expect("a shipped logreg_dd truth")
}

fn model(settings: &[(&str, f64)]) -> Box<dyn Model> {
    let spec = registry::target("logreg_dd").unwrap();
    let mut values = ParamValues::defaults(spec.params);
    for (name, value) in settings {
        values.set(spec.params, name, *value).unwrap();
    }
    (spec.build)(&values, None).unwrap()
}

fn default_lab(settings: &[(&str, f64)]) -> Lab {
    let config = settings.iter().fold(ChainConfig::new("logreg_dd", "sbps", 1), |c, (name, value)| c.with(name, *value));
    Lab::new(config, 200, 200, 1.0).unwrap()
}

#[test]
fn the_page_takes_the_shipped_truth_at_once_for_the_default_d20_logistic_regression() {
    let shipped = stored();
    let lab = default_lab(&[]);
    assert_eq!(lab.export_prepared()["key"], shipped.key.as_str(), "the stored key is the page's key of these settings");
    assert_eq!(lab.state()["truth_pending"], false, "no reference run to wait for");
    assert_eq!(lab.truth().source, TruthSource::ReferenceRun);
    assert_eq!(lab.truth().moments.as_ref(), Some(&shipped.result.moments));
    assert!(lab.truth().error.contains("computed ahead"), "{}", lab.truth().error);
    // Other settings of the target: the page runs its own reference, as before.
    let other = default_lab(&[("n_points", 999.0)]);
    assert_eq!(other.truth().source, TruthSource::NeedsReferenceRun);
    assert_eq!(other.state()["truth_pending"], true);
}

#[test]
fn the_shipped_truth_is_used_only_for_the_model_it_sampled() {
    let shipped = stored();
    assert!(shipped.matches(model(&[]).as_ref()));
    assert!(!shipped.matches(model(&[("data_seed", 2.0)]).as_ref()), "other data");
    assert!(!shipped.matches(model(&[("prior_sd", 50.0)]).as_ref()), "another prior");
    assert!(!shipped.matches(model(&[("bad_scale_var", 0.003)]).as_ref()), "another feature scale");
}

/// Each mean and variance of the stored truth against the committed 100,000-sample fixture
/// (seed 7, 20,000 warm-up steps): |a − b| ≤ z·√(se_a² + se_b²), z = 4.2, the two-sided normal
/// quantile at a family-wise level of 10⁻³ over the 40 entries (Bonferroni: 1.25·10⁻⁵ per side).
#[test]
fn the_shipped_truth_agrees_with_an_independent_mala_fixture() {
    let shipped = stored();
    assert_eq!((shipped.warm_up, shipped.samples, shipped.seed), (WARM_UP, SAMPLES, SEED), "provenance");
    assert!(!shipped.commit.is_empty() && shipped.cpu_seconds > 0.0 && !shipped.generator.is_empty(), "provenance");
    let file = read_file().expect("tests/fixtures/mala_references.json");
    let fixture = file.references.iter().find(|f| f.key == "logreg_dd-[]-100000").expect("the logreg_dd fixture");
    let (mean, mean_se, var_se) = (&fixture.rows[0], &fixture.rows[1], &fixture.rows[2]);
    let result = &shipped.result;
    let z = 4.2;
    for j in 0..mean.len() {
        let limit = z * (mean_se[j].powi(2) + result.mean_mcse[j].powi(2)).sqrt();
        let gap = (result.moments.mean[j] - mean[j]).abs();
        assert!(gap <= limit, "mean of w{}: shipped {} fixture {} (gap {gap}, limit {limit})", j + 1, result.moments.mean[j], mean[j]);
        let limit = z * (var_se[j].powi(2) + result.variance_mcse[j].powi(2)).sqrt();
        let gap = (result.moments.cov[j][j] - fixture.rows[3 + j][j]).abs();
        assert!(gap <= limit, "variance of w{}: shipped {} fixture {} (gap {gap}, limit {limit})", j + 1, result.moments.cov[j][j], fixture.rows[3 + j][j]);
    }
}

/// `make soak`: the stored run is what its generator computes today, to the bit.
#[test]
#[ignore = "soak: 210,000 MALA steps on the d = 20 logistic regression (11.7 CPU s in release)"]
fn the_shipped_truth_is_recomputed_bit_for_bit() {
    let key = default_lab(&[]).export_prepared()["key"].as_str().unwrap().to_string();
    let started = thread_cpu_seconds();
    let mut again = truth_shipped::generate(&key, model(&[]), SEED, WARM_UP, SAMPLES);
    if std::env::var_os("SGVIZ_WRITE_SHIPPED").is_some() {
        again.cpu_seconds = ((thread_cpu_seconds() - started) * 100.0).round() / 100.0;
        let commit = std::process::Command::new("git").args(["rev-parse", "--short", "HEAD"]).output().expect("git");
        again.commit = String::from_utf8_lossy(&commit.stdout).trim().to_string();
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(PATH);
        std::fs::write(path, serde_json::to_string_pretty(&again).unwrap() + "\n").unwrap();
        return;
    }
    let shipped = stored();
    assert_eq!(again.key, shipped.key);
    assert_eq!(again.result.moments, shipped.result.moments);
    assert_eq!((again.result.mean_mcse, again.result.variance_mcse), (shipped.result.mean_mcse.clone(), shipped.result.variance_mcse.clone()));
    assert_eq!(again.log_density_at_mean, shipped.log_density_at_mean);
}
