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
//! Adding a test file: write tests/NAME.rs as before and add `mod NAME;` below (Cargo.toml has
//! `autotests = false`, so a file without a `mod` line would not be compiled at all; the test
//! `every_test_file_is_compiled` below fails naming it). Shared helpers live in tests/common/,
//! reached as `crate::common`.

mod common;

mod band_check;
mod bouncy;
mod bouncy_long;
mod cli;
mod cli_evidence;
mod error_split;
mod gradient_noise;
mod gradient_samplers;
mod hardening;
mod law;
mod messages;
mod oracles;
mod pairings;
mod rewind;
mod rhat;
mod runaway;
mod sampler_readouts;
mod sgais;
mod sgais_defaults;
mod sgais_mixture;
mod sgais_nested;
mod sgais_noise;
mod sgais_shift;
mod sgais_summary;
mod sgld_bias;
mod sgld_defaults;
mod slider_sweep;
mod step_parts;
mod targets;
mod workers;

/// Every tests/*.rs is a `mod` of this file or a `[[test]]` of its own in Cargo.toml: with
/// `autotests = false` a file that is neither would silently not run (e.g. after merging a branch
/// that added one).
#[test]
fn every_test_file_is_compiled() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect(p);
    let this = read("tests/all.rs");
    let manifest = read("Cargo.toml");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("tests")).expect("tests/") {
        let name = entry.expect("entry").file_name().into_string().expect("UTF-8 name");
        let Some(stem) = name.strip_suffix(".rs") else { continue };
        let as_module = this.lines().any(|l| l.trim() == format!("mod {stem};"));
        let as_binary = manifest.contains(&format!("path = \"tests/{name}\""));
        if stem != "all" && !as_module && !as_binary {
            missing.push(name);
        }
    }
    assert!(missing.is_empty(), "tests/{{{}}} would not be compiled: add `mod NAME;` to tests/all.rs", missing.join(", "));
}
