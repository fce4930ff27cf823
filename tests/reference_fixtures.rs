//! The committed MALA reference fixtures (tests/common/fixtures.rs, tests/fixtures/
//! mala_references.json; issue 23, CI time, tenth round): `make test` checks that every fixture
//! is stored with its provenance and still describes the model built today; `make soak`
//! regenerates every fixture with its own generator and seed and fails when a stored mean or
//! covariance entry drifted beyond z·√2·MCSE (the stored and the new run each carry one MCSE; z
//! the Bonferroni normal quantile at a family-wise level of 10⁻³ over every entry of every
//! fixture). `SGVIZ_WRITE_FIXTURES=1` with the soak test writes the regenerated file:
//!
//! `SGVIZ_WRITE_FIXTURES=1 cargo test --release --test all reference_fixtures:: -- --include-ignored --nocapture`

mod common;
use common::fixtures::{check_against_model, read_file, specs, thread_cpu_seconds, Fixture, FixtureFile, Generator, Spec, PATH};

/// Family-wise false-alarm level of the soak's drift check over all entries.
const FAMILY_LEVEL: f64 = 1e-3;

#[test]
fn every_fixture_is_stored_with_its_provenance_and_matches_todays_model() {
    let file = read_file().unwrap_or_else(|| panic!("{PATH} is missing or does not parse"));
    let specs = specs();
    for spec in &specs {
        let key = spec.key();
        let fixture = file.references.iter().find(|f| f.key == key).unwrap_or_else(|| panic!("{PATH}: no fixture `{key}`"));
        let (warm_up, samples, seed) = match spec.generator {
            Generator::Run { samples } => (20_000, samples, 7),
            Generator::Batches { warm_up, sampling } => (warm_up, sampling, 0x5eed),
        };
        assert_eq!((fixture.warm_up, fixture.samples, fixture.seed), (warm_up, samples, seed), "{key}: provenance");
        assert!(!fixture.generator.is_empty() && !fixture.rows_are.is_empty() && !fixture.commit.is_empty() && fixture.cpu_seconds > 0.0, "{key}: provenance");
        check_against_model(spec, fixture).unwrap_or_else(|e| panic!("{e}"));
        // Every MCSE positive: a reference without its error would make the tests' tolerances too tight.
        for (what, _, se) in spec.estimates(&fixture.rows) {
            assert!(se > 0.0, "{key}: {what} has MCSE {se}");
        }
    }
    for f in &file.references {
        assert!(specs.iter().any(|s| s.key() == f.key), "{PATH}: fixture `{}` is not in tests/common/fixtures.rs `specs()`", f.key);
    }
}

fn regenerate(spec: &Spec) -> Fixture {
    let started = thread_cpu_seconds();
    let rows = spec.generate();
    let cpu_seconds = thread_cpu_seconds() - started;
    let (generator, rows_are, seed, warm_up, samples) = match spec.generator {
        Generator::Run { samples } => (
            "tests/common/fixtures.rs Spec::generate, Generator::Run: src/truth.rs ReferenceRun (preconditioned MALA, step and metric adapted in warm-up, then frozen)",
            "mean; mean MCSE; variance MCSE (ReferenceRun's batch means); covariance rows",
            7,
            20_000,
            samples,
        ),
        Generator::Batches { warm_up, sampling } => (
            "tests/common/fixtures.rs batch_mala_run: src/truth.rs ReferenceRun (preconditioned MALA, adapted in warm-up, then frozen), 64 batch means",
            "mean; mean MCSE; covariance rows; covariance-entry MCSE rows (64 batch means)",
            0x5eed,
            warm_up,
            sampling,
        ),
    };
    let commit = std::process::Command::new("git").args(["rev-parse", "--short", "HEAD"]).output().ok().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).filter(|s| !s.is_empty()).unwrap_or_else(|| "unknown".into());
    Fixture {
        key: spec.key(),
        generator: generator.into(),
        target: spec.target.into(),
        settings: format!("{:?}", spec.settings),
        seed,
        warm_up,
        samples,
        rows_are: rows_are.into(),
        cpu_seconds,
        commit,
        log_density_at_mean: spec.model().log_density(&rows[0]),
        rows,
    }
}

/// The entries of `stored` farther than z·√2·MCSE from `fresh` (MCSEs: the stored run's and the
/// fresh run's, combined in quadrature).
fn drifted(spec: &Spec, stored: &Fixture, fresh: &Fixture, z: f64) -> Vec<String> {
    let old = spec.estimates(&stored.rows);
    let new = spec.estimates(&fresh.rows);
    old.iter()
        .zip(&new)
        .filter(|((_, a, sa), (_, b, sb))| !((a - b).abs() <= z * sa.hypot(*sb)))
        .map(|((what, a, sa), (_, b, sb))| format!("{}: {what} stored {a:.5} (MCSE {sa:.5}), regenerated {b:.5} (MCSE {sb:.5}): {:.1} combined MCSEs > z {z:.2}", stored.key, (a - b).abs() / sa.hypot(*sb)))
        .collect()
}

#[test]
#[ignore = "make soak: regenerates every fixture (≈ a minute of CPU)"]
fn every_fixture_regenerates_within_its_mcse() {
    let specs = specs();
    let fresh: Vec<Fixture> = std::thread::scope(|s| {
        let handles: Vec<_> = specs.iter().map(|spec| s.spawn(move || regenerate(spec))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for f in &fresh {
        eprintln!("{}: {:.1} CPU s", f.key, f.cpu_seconds);
    }
    let stored = read_file();
    if std::env::var_os("SGVIZ_WRITE_FIXTURES").is_some() {
        let about = "MALA references of the D > 2 posteriors that several `make test` tests compare against, stored so that each test process reads them instead of recomputing them (issue 23, CI time, tenth round; BENCHMARKS.md \"CI time, tenth round (native)\"). Written by tests/reference_fixtures.rs (SGVIZ_WRITE_FIXTURES=1 cargo test --release --test all reference_fixtures:: -- --include-ignored); `make soak` regenerates them and fails on a drift beyond z·√2·MCSE; `make test` checks each against today's model (log density at its mean).";
        let file = FixtureFile { about: about.into(), references: fresh.clone() };
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(PATH);
        std::fs::write(&path, serde_json::to_string_pretty(&file).unwrap() + "\n").unwrap();
        eprintln!("wrote {}", path.display());
    }
    let stored = stored.unwrap_or_else(|| panic!("{PATH} is missing or does not parse"));
    let entries: usize = specs.iter().zip(&fresh).map(|(s, f)| s.estimates(&f.rows).len()).sum();
    let z = common::normal_upper_quantile(0.5 * FAMILY_LEVEL / entries as f64);
    let mut failures = Vec::new();
    for (spec, new) in specs.iter().zip(&fresh) {
        let Some(old) = stored.references.iter().find(|f| f.key == new.key) else {
            failures.push(format!("{PATH}: no fixture `{}`", new.key));
            continue;
        };
        if old.rows.len() != new.rows.len() || old.rows[0].len() != new.rows[0].len() {
            failures.push(format!("{}: stored rows have another shape", new.key));
            continue;
        }
        failures.extend(drifted(spec, old, new, z));
    }
    assert!(failures.is_empty(), "{} of {entries} entries drifted:\n{}", failures.len(), failures.join("\n"));
}
