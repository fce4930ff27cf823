//! The class-size mixture preset's slide budget (issues 22, 23 and 26; docs/sgais.md §14–§15),
//! counted where the work is counted: "the first two replicas are compared (at n = 500) within a
//! slide and finish within two" (www/sgais-plan.js `gmmClass`'s note). The browser checked it by
//! running the four replicas to the end in the page (tests/e2e/sgais-classtime.test.mjs, ≈ 110 s of
//! CI); datum evaluations are deterministic given the spec and seed, and a replica's records are the
//! same numbers to the last bit shared with its partner or alone (that file's first test), so the
//! count is the same here as in the page's worker.
//!
//! The spec is the page's own: tests/fixtures/sgais_gmm_class_spec.json is what the panel's
//! "mixture replicas, class size" button starts (www/sgais-plan.js `presetRequest` + `planRuns`,
//! replica aside), and sgais-classtime.test.mjs asserts that the page's runs still equal it.
//! Oracle, none from the code under test: the budget of one slide, 20 s of one worker at the rate
//! BENCHMARKS.md "Class time: the workers' rate" measured (2.87·10⁶ datum evaluations per second).

use sgviz::sgais::job::RunSpec;
use sgviz::sgais::run::{ChunkRecord, RunStatus};

/// Datum evaluations one SGAIS worker does per second on a 2-core laptop (BENCHMARKS.md, "Class
/// time: the workers' rate"), times the 20 s a slide gets.
const SLIDE_WORK: f64 = 2.87e6 * 20.0;

/// Replica `replica` of the page's class-size mixture run, run to its end: its records.
fn class_replica(replica: usize) -> Vec<ChunkRecord> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/sgais_gmm_class_spec.json")).unwrap();
    let mut spec: RunSpec = serde_json::from_str(&text).unwrap();
    spec.replica = replica;
    let (mut run, _, _) = spec.build(None).unwrap();
    let records = run.run_to_end().to_vec();
    assert_eq!(*run.status(), RunStatus::Finished, "replica {}", replica + 1);
    records
}

#[test]
fn the_class_presets_first_pair_is_compared_within_a_slide_and_finished_within_two() {
    let pair = [class_replica(0), class_replica(1)];
    for records in &pair {
        // Chunks of 500 of N = 1,500: the pair is first compared at n = 500, the first chunk's end.
        assert_eq!(records.iter().map(|r| r.n).collect::<Vec<_>>(), [500, 1000, 1500]);
    }
    // The pair takes turns in one worker from the start, so it reaches its first comparison after
    // both replicas' work to there, and is done after both replicas' whole work.
    let to_first: u64 = pair.iter().map(|r| r[0].datum_evals).sum();
    let whole: u64 = pair.iter().map(|r| r.last().unwrap().datum_evals).sum();
    eprintln!("class-size pair: {to_first} datum evaluations to n = 500, {whole} in all (slide {SLIDE_WORK:e})");
    assert!(to_first as f64 <= SLIDE_WORK, "the first two replicas' work to n = 500, {to_first:e} datum evaluations, above a slide's {SLIDE_WORK:e}");
    assert!(whole as f64 <= 2.0 * SLIDE_WORK, "the first two replicas' whole work, {whole:e} datum evaluations, above two slides' {:e}", 2.0 * SLIDE_WORK);
}
