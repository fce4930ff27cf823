//! The hand-over between a Web Worker and the page's main thread, natively: a worker's `Lab`
//! exports its truth, contour grid and (large targets) the built model; the main thread's
//! deferred `Lab` adopts them without computing or building anything (entry counters stay put).

use sgviz::chain::ChainConfig;
use sgviz::lab::{adopt_model, adopt_prepared, adopt_prepared_text, Lab};

/// What a worker (its own thread here, as its own wasm instance on the page) exports.
fn in_worker(config: &ChainConfig, steps: u64) -> (serde_json::Value, Option<sgviz::model::ExportedModel>, Vec<f64>, Option<sgviz::diagnostics::Moments>) {
    let config = config.clone();
    std::thread::spawn(move || {
        let mut lab = Lab::new(config, 300, 300, 1.0).unwrap();
        lab.run(steps);
        (lab.export_prepared(), lab.export_model(), lab.chain().position().to_vec(), lab.truth().moments.clone())
    })
    .join()
    .unwrap()
}

fn count(name: &str) -> u64 {
    sgviz::entry_counts::to_json()[name].as_u64().unwrap_or(0)
}

#[test]
fn deferred_lab_adopts_the_workers_truth_and_grid_without_computing() {
    let config = ChainConfig::new("banana", "sgld", 3);
    let (prepared, _, _, moments) = in_worker(&config, 0);
    let before = count("truth");
    let mut main = Lab::new_deferred(config, 300, 300, 1.0).unwrap();
    assert_eq!(count("truth"), before, "a deferred lab computes no truth");
    assert_eq!(main.state()["truth_pending"], true);
    assert!(!main.adopt_cached_truth(), "nothing adopted yet");
    adopt_prepared(&prepared).unwrap();
    assert!(main.adopt_cached_truth());
    assert_eq!(main.state()["truth_pending"], false);
    assert!(moments.is_some());
    assert_eq!(main.truth().moments, moments);
    assert!(prepared["grid"].is_object());
    assert_eq!(main.export_prepared()["grid"], prepared["grid"], "the contour grid came across");
    assert_eq!(count("truth"), before);
}

/// The page reads the worker's text without a `serde_json::Value` of the grid (issue 26: the
/// frame that adopted it): a deferred lab adopting from the text ends in the state of one adopting
/// through the `Value` path, for a grid target and for a reference run (d > 2); the text path
/// refuses what the `Value` path refuses.
#[test]
fn adopting_the_prepared_text_equals_adopting_its_value() {
    for (target, seed) in [("banana", 11), ("gaussian", 12), ("logreg", 13)] {
        let config = ChainConfig::new(target, "sgld", seed);
        let (prepared, _, _, _) = in_worker(&config, 0);
        let via_value = {
            let mut main = Lab::new_deferred(config.clone(), 300, 300, 1.0).unwrap();
            adopt_prepared(&prepared).unwrap();
            assert!(main.adopt_cached_truth());
            (main.state(), main.export_prepared())
        };
        // A fresh thread: its caches (thread-locals, as a wasm instance's) hold nothing yet.
        let text = prepared.to_string();
        let via_text = std::thread::spawn(move || {
            let mut main = Lab::new_deferred(config, 300, 300, 1.0).unwrap();
            assert!(!main.adopt_cached_truth(), "nothing cached in a fresh thread");
            adopt_prepared_text(&text).unwrap();
            assert!(main.adopt_cached_truth());
            (main.state(), main.export_prepared())
        })
        .join()
        .unwrap();
        assert_eq!(via_text.1, via_value.1, "{target}: truth and grid");
        assert_eq!(via_text.0, via_value.0, "{target}: the lab's state");
    }
    assert!(adopt_prepared_text(r#"{"truth": null}"#).unwrap_err().contains("key"));
    assert!(adopt_prepared_text(r#"{"key": "k", "pending": true, "grid": {"view": {"x_min": 0, "x_max": 1, "y_min": 0, "y_max": 1}, "nx": 3, "ny": 3, "log_density": [0, 1]}}"#).unwrap_err().contains("2 values for 3 × 3"));
    assert!(adopt_prepared_text(r#"{"key": "k", "truth": null}"#).unwrap_err().contains("prepared truth"));
    assert!(adopt_prepared_text("not json").unwrap_err().contains("not valid JSON"));
}

/// A worker's export of a large target, adopted by the main thread, gives the same target (density,
/// view, start, exact moments) and the same chain step for step, without building it again.
fn assert_adopted_exactly(config: ChainConfig, other: ChainConfig, theta: &[f64]) {
    let n = config.settings.iter().find(|(k, _)| k == "n_points").map(|(_, v)| v.parse::<usize>().unwrap()).unwrap();
    let (_, parts, worker_position, _) = in_worker(&config, 500);
    let reference = Lab::new(config.clone(), 200, 200, 1.0).unwrap();
    let parts = parts.unwrap();
    assert_eq!(parts.labels.len(), n);
    adopt_model(&config, parts).unwrap();
    let builds = count("large_build");
    let mut main = Lab::new_deferred(config.clone(), 200, 200, 1.0).unwrap();
    assert_eq!(count("large_build"), builds, "the adopted model is used, not rebuilt");
    let (model, expected) = (main.chain().model(), reference.chain().model());
    assert_eq!(model.log_density(theta), expected.log_density(theta));
    assert_eq!(model.view(), expected.view());
    assert_eq!(model.initial_point(), expected.initial_point());
    assert_eq!(model.exact_moments(), expected.exact_moments());
    // Same seed, same model: the chains agree step for step.
    main.run(500);
    assert_eq!(main.chain().position(), &worker_position[..]);
    // Reset starts the same chain again on the adopted model: not rebuilt, same steps.
    let adopted = main.chain().model() as *const dyn sgviz::model::Model as *const u8;
    main.reset().unwrap();
    let after_reset = main.chain().model() as *const dyn sgviz::model::Model as *const u8;
    assert_eq!(after_reset, adopted, "Reset uses the adopted model, not a rebuild");
    main.run(500);
    assert_eq!(main.chain().position(), &worker_position[..]);
    // A different target setting is not served from the cache.
    Lab::new_deferred(other, 200, 200, 1.0).unwrap();
    assert_eq!(count("large_build"), builds + 1);
}

#[test]
fn large_logistic_target_is_exported_and_adopted_exactly() {
    let config = ChainConfig::new("logreg", "sgfs_f", 5).with("n_points", 50_000);
    assert_adopted_exactly(config, ChainConfig::new("logreg", "sgfs_f", 5).with("n_points", 40_000), &[0.3, -0.2]);
}

#[test]
fn large_linear_target_is_exported_and_adopted_exactly() {
    let config = ChainConfig::new("linreg", "sghmc", 7).with("n_points", 50_000).with("n_features", 3);
    let other = ChainConfig::new("linreg", "sghmc", 7).with("n_points", 50_000).with("n_features", 2);
    assert_adopted_exactly(config, other, &[0.3, -0.2, 0.1, 0.5]);
}

#[test]
fn bad_exports_are_refused_with_a_message() {
    let config = ChainConfig::new("logreg", "sgld", 5).with("n_points", 30_000);
    let parts = Lab::new(config.clone(), 200, 200, 1.0).unwrap().export_model().unwrap();
    let short = sgviz::model::ExportedModel { header: parts.header.clone(), features: parts.features[1..].to_vec(), labels: parts.labels.clone() };
    assert!(adopt_model(&config, short).unwrap_err().contains("inconsistent shapes"));
    let mut header = parts.header.clone();
    header["kind"] = "gaussian".into();
    assert!(adopt_model(&config, sgviz::model::ExportedModel { header, ..parts }).unwrap_err().contains("allowed: logistic, linear"));
    let config = ChainConfig::new("linreg", "sgld", 5).with("n_points", 30_000);
    let parts = Lab::new(config.clone(), 200, 200, 1.0).unwrap().export_model().unwrap();
    let mut header = parts.header.clone();
    header["precision"] = serde_json::json!([[1.0, 0.0], [0.0]]);
    assert!(adopt_model(&config, sgviz::model::ExportedModel { header, ..parts.clone() }).unwrap_err().contains("inconsistent shapes"));
    let mut labels = parts.labels.clone();
    labels[7] = f64::NAN;
    assert!(adopt_model(&config, sgviz::model::ExportedModel { labels, ..parts }).unwrap_err().contains("non-finite"));
    assert!(adopt_prepared(&serde_json::json!({"truth": null})).unwrap_err().contains("key"));
}
