//! The native test suite as one test binary (issue 23, CI time): every statistical, CLI and
//! target test file in tests/ is a module of this crate, so they compile and link once instead of
//! ~30 times. File names and test names are unchanged; a test's full name is now
//! `FILE::TEST` (e.g. `oracles::sampling_threshold_…`), so `cargo test --test all oracles::` or
//! `cargo nextest run --test all -E 'test(/^oracles::/)'` runs one former binary.
//!
//! Three files stay binaries of their own (declared in Cargo.toml): `structure` and
//! `docs_citations` (the layout checks, no dependency on the library) and `soak` (its global
//! allocator counts the live heap of the whole process, so nothing else may run beside it).
//!
//! Adding a test file: write tests/NAME.rs exactly as a test crate of its own (its `mod common;`
//! and `#[path = "common/…"]` declarations resolve from tests/ as before) and add
//! `#[path = "NAME.rs"] mod NAME;` below (rustfmt puts the attribute on its own line). The
//! `#[path]` makes the file's own `mod` declarations resolve from tests/ rather than from
//! tests/NAME/, so no file needs editing when it joins. Cargo.toml has `autotests = false`: a file
//! without its line would not be compiled at all, and the test `every_test_file_is_compiled`
//! below fails naming it.

#[path = "analysis_wiring.rs"]
mod analysis_wiring;
#[path = "band_check.rs"]
mod band_check;
#[path = "batch_range.rs"]
mod batch_range;
#[path = "bouncy.rs"]
mod bouncy;
#[path = "bound_law.rs"]
mod bound_law;
#[path = "bouncy_long.rs"]
mod bouncy_long;
#[path = "bouncy_sweep.rs"]
mod bouncy_sweep;
#[path = "bouncy_sweep_by_hand.rs"]
mod bouncy_sweep_by_hand;
#[path = "bouncy_sweep_lost.rs"]
mod bouncy_sweep_lost;
#[path = "bps_lesson_runaway.rs"]
mod bps_lesson_runaway;
#[path = "curvature_by_hand.rs"]
mod curvature_by_hand;
#[path = "eigen_guard.rs"]
mod eigen_guard;
#[path = "error_split.rs"]
mod error_split;
#[path = "fisher_refusal_text.rs"]
mod fisher_refusal_text;
#[path = "fisher_small_batch.rs"]
mod fisher_small_batch;
#[path = "frozen_chain.rs"]
mod frozen_chain;
#[path = "gradient_noise.rs"]
mod gradient_noise;
#[path = "gradient_samplers.rs"]
mod gradient_samplers;
#[path = "gradient_samplers_osgfs_mala.rs"]
mod gradient_samplers_osgfs_mala;
#[path = "hardening.rs"]
mod hardening;
#[path = "knob_noise_label.rs"]
mod knob_noise_label;
#[path = "lab_edges.rs"]
mod lab_edges;
#[path = "lab_sweep_entry.rs"]
mod lab_sweep_entry;
#[path = "lab_truth_progress.rs"]
mod lab_truth_progress;
#[path = "law.rs"]
mod law;
#[path = "law_by_hand.rs"]
mod law_by_hand;
#[path = "law_probe.rs"]
mod law_probe;
#[path = "law_rules.rs"]
mod law_rules;
#[path = "law_validity.rs"]
mod law_validity;
#[path = "law_validity_by_hand.rs"]
mod law_validity_by_hand;
#[path = "messages.rs"]
mod messages;
#[path = "mixing_per_gradient.rs"]
mod mixing_per_gradient;
#[path = "mixture_fisher_bracket.rs"]
mod mixture_fisher_bracket;
#[path = "noise_law.rs"]
mod noise_law;
#[path = "one_screen.rs"]
mod one_screen;
#[path = "oracles.rs"]
mod oracles;
#[path = "osgfs_law_by_hand.rs"]
mod osgfs_law_by_hand;
#[path = "osgfs_mixture_bias.rs"]
mod osgfs_mixture_bias;
#[path = "osgfs_funnel.rs"]
mod osgfs_funnel;
#[path = "pairings.rs"]
mod pairings;
#[path = "promise_defaults.rs"]
mod promise_defaults;
#[path = "promise_remedy.rs"]
mod promise_remedy;
#[path = "promise_rounding.rs"]
mod promise_rounding;
#[path = "promise_thresholds.rs"]
mod promise_thresholds;
#[path = "promise_validity_by_hand.rs"]
mod promise_validity_by_hand;
#[path = "reference_fixtures.rs"]
mod reference_fixtures;
#[path = "refresh_law.rs"]
mod refresh_law;
#[path = "refusal_remedy.rs"]
mod refusal_remedy;
#[path = "remedy_below.rs"]
mod remedy_below;
#[path = "remedy_by_hand.rs"]
mod remedy_by_hand;
#[path = "rewind.rs"]
mod rewind;
#[path = "rhat.rs"]
mod rhat;
#[path = "rhat_by_hand.rs"]
mod rhat_by_hand;
#[path = "runaway.rs"]
mod runaway;
#[path = "runaway_stochastic_gradient.rs"]
mod runaway_stochastic_gradient;
#[path = "runaway_unconfirmed.rs"]
mod runaway_unconfirmed;
#[path = "sampler_readouts.rs"]
mod sampler_readouts;
#[path = "sbps_full_batch.rs"]
mod sbps_full_batch;
#[path = "sgais.rs"]
mod sgais;
#[path = "sgais_class_budget.rs"]
mod sgais_class_budget;
#[path = "sgais_class_replicas.rs"]
mod sgais_class_replicas;
#[path = "sgais_defaults.rs"]
mod sgais_defaults;
#[path = "sgais_fig_a1.rs"]
mod sgais_fig_a1;
#[path = "sgais_lambda_snap.rs"]
mod sgais_lambda_snap;
#[path = "sgais_laplace_acceptance.rs"]
mod sgais_laplace_acceptance;
#[path = "sgais_laplace_move.rs"]
mod sgais_laplace_move;
#[path = "sgais_mixture.rs"]
mod sgais_mixture;
#[path = "sgais_nested.rs"]
mod sgais_nested;
#[path = "sgais_nested_ranks.rs"]
mod sgais_nested_ranks;
#[path = "sgais_nested_softmax.rs"]
mod sgais_nested_softmax;
#[path = "sgais_noise.rs"]
mod sgais_noise;
#[path = "sgais_replica_calibration.rs"]
mod sgais_replica_calibration;
#[path = "sgais_reseed.rs"]
mod sgais_reseed;
#[path = "sgais_reseed_run.rs"]
mod sgais_reseed_run;
#[path = "sgais_reseed_split.rs"]
mod sgais_reseed_split;
#[path = "sgais_reseed_weight.rs"]
mod sgais_reseed_weight;
#[path = "sgais_run_by_hand.rs"]
mod sgais_run_by_hand;
#[path = "sgais_shift.rs"]
mod sgais_shift;
#[path = "sgais_shift_agreement.rs"]
mod sgais_shift_agreement;
#[path = "sgais_shift_orders.rs"]
mod sgais_shift_orders;
#[path = "sgais_shift_verdict.rs"]
mod sgais_shift_verdict;
#[path = "sgais_softmax.rs"]
mod sgais_softmax;
#[path = "sgais_summary.rs"]
mod sgais_summary;
#[path = "sgais_surprise.rs"]
mod sgais_surprise;
#[path = "sgais_surprise_rule.rs"]
mod sgais_surprise_rule;
#[path = "sgais_target_ess.rs"]
mod sgais_target_ess;
#[path = "sgfs_alpha.rs"]
mod sgfs_alpha;
#[path = "sgfs_d_law.rs"]
mod sgfs_d_law;
#[path = "sgfs_d_reach.rs"]
mod sgfs_d_reach;
#[path = "sgfs_first_estimate.rs"]
mod sgfs_first_estimate;
#[path = "sgfs_fisher_law.rs"]
mod sgfs_fisher_law;
#[path = "sgld_schedule.rs"]
mod sgld_schedule;
#[path = "sgld_bias.rs"]
mod sgld_bias;
#[path = "sgld_defaults.rs"]
mod sgld_defaults;
#[path = "sgld_derived_step.rs"]
mod sgld_derived_step;
#[path = "slider_sweep.rs"]
mod slider_sweep;
#[path = "step_law.rs"]
mod step_law;
#[path = "step_parts.rs"]
mod step_parts;
#[path = "target_sweep.rs"]
mod target_sweep;
#[path = "targets.rs"]
mod targets;
#[path = "toy_sweep.rs"]
mod toy_sweep;
#[path = "toy_sweep_more.rs"]
mod toy_sweep_more;
#[path = "truth_coarse_grid.rs"]
mod truth_coarse_grid;
#[path = "truth_grid_by_hand.rs"]
mod truth_grid_by_hand;
#[path = "truth_grid_spacing.rs"]
mod truth_grid_spacing;
#[path = "truth_refine.rs"]
mod truth_refine;
#[path = "truth_shipped.rs"]
mod truth_shipped;

#[path = "validity_by_hand.rs"]
mod validity_by_hand;
#[path = "warning_shares.rs"]
mod warning_shares;
#[path = "workers.rs"]
mod workers;

/// The library's unit tests (tests/unit/ mirrors src/; issue 23: the library is compiled once).
mod unit;

/// Every tests/*.rs is a `mod` of this file (or of tests/cli_bin.rs, the CLI tests of the root
/// package) or a `[[test]]` of its own in tests/Cargo.toml or Cargo.toml: with `autotests = false`
/// a file that is none of these would silently not run (e.g. after merging a branch that added one).
#[test]
fn every_test_file_is_compiled() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect(p);
    let parents = [read("tests/all.rs"), read("tests/cli_bin.rs")];
    let (manifest, tests_manifest) = (read("Cargo.toml"), read("tests/Cargo.toml"));
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("tests")).expect("tests/") {
        let name = entry.expect("entry").file_name().into_string().expect("UTF-8 name");
        let Some(stem) = name.strip_suffix(".rs") else { continue };
        let as_module = parents.iter().any(|p| p.split(&format!("#[path = \"{name}\"]")).skip(1).any(|rest| rest.trim_start().starts_with(&format!("mod {stem};"))));
        let as_binary = manifest.contains(&format!("path = \"tests/{name}\"")) || tests_manifest.contains(&format!("path = \"{name}\""));
        if !as_module && !as_binary {
            missing.push(name);
        }
    }
    assert!(missing.is_empty(), "tests/{{{}}} would not be compiled: add `#[path = \"NAME.rs\"] mod NAME;` to tests/all.rs", missing.join(", "));
}

/// The tests are the package tests/Cargo.toml, so CARGO_MANIFEST_DIR is tests/, not the
/// repository (issue 23, CI time, fourteenth round): a test that reads a repository file from
/// the manifest directory alone would look for tests/data/…, tests/docs/…. Each use must go up
/// one level, concat!(env!(…), "/..") (tests/cli*.rs excepted: the root package compiles them).
#[test]
fn every_manifest_dir_in_the_tests_goes_up_to_the_repository() {
    let tests = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("tests");
    let (mut files, mut bad) = (vec![tests.clone()], Vec::new());
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).expect("dir").map(|e| e.expect("entry").path()));
            continue;
        }
        let name = path.strip_prefix(&tests).expect("under tests/").display().to_string();
        if !name.ends_with(".rs") || name.starts_with("cli") || name.starts_with("e2e") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let needle = ["env!(\"CARGO_", "MANIFEST_DIR\")"].concat();
        let ok = ["concat!(", &needle, ", \"/.."].concat();
        if text.matches(&needle).count() != text.matches(&ok).count() {
            bad.push(name);
        }
    }
    assert!(bad.is_empty(), "tests/{{{}}}: CARGO_MANIFEST_DIR is tests/ (tests/Cargo.toml); use concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/..\") for the repository", bad.join(", "));
}
