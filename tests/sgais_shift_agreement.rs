//! Distribution shift (SGAIS paper §6.2, Fig. 5; docs/sgais.md §9 and §10): log Ẑ of a mixture
//! fitted to the shift data in order and to the same points shuffled are two estimates of one
//! number, log p(y_1..y_N) (the evidence does not depend on the order of exchangeable data), so the
//! orders must agree. Issue 22 asks for agreement within 0.1 % at the paper's N = 10⁵.
//!
//! `make soak` (both tests are `#[ignore]`d in `make test`, which runs only the comparison's
//! hand-worked test): the cheapest setting that shows the gap (docs/sgais.md §10, "the shift gap's cheapest
//! reproducer"): K = 5 on the first N = 3,000 shift points (one change point, 3 → 5 clusters at
//! n = 1,000), the mixture's own defaults, data seed 1, SGAIS seeds 1–3 in each order (about 45
//! CPU-s, most of it the three in-order runs). The shuffled runs are the control (stationary
//! data): the tolerance is their own spread, a 4-sd prediction interval for one more replica,
//! 4 s √(1 + 1/R) with s their sample sd (at least 1 nat). Agreement: every in-order replica
//! within it of the shuffled mean. The shuffled replicas must also agree with each other within
//! the issue's 0.1 % of |log Ẑ|.
//!
//! Measured: the orders do NOT agree yet (shuffled −10,622.5 / −10,621.3 / −10,626.3, in order
//! −10,710.7 / −11,369.6 / −10,677.3: 54–746 nats low). `KNOWN_DISAGREEMENT` records that; the
//! test then checks the failure has the measured shape — every in-order replica *below* the
//! interval (the particles fall behind the posterior at the change point and the evidence
//! increments come out low; too high would be a different bug) — and fails once the orders
//! agree, so that the fix flips the flag and this becomes the agreement test.
//!
//! At paper scale (`make soak`): K = 5 and 7 at the paper's N = 10⁵, seed 1 (one
//! replica per order, so the issue's 0.1 % of |log Ẑ| is the tolerance; several CPU-minutes).
//!
//! With the surprise rule (src/sgais/surprise.rs; registry `surprise_rule`, auto = on for the shift
//! data), which since issue 22's sixth round also re-seeds the lightest mixture component on the
//! chunks it flags (docs/sgais.md §10, "Why in order is the lower"): `make test` runs the CI
//! agreement test (K = 5, the first change point, N = 1,250 in chunks of 250, seed 11, about
//! 17 CPU-s), which fails without the move (in order 32 nats low against a tolerance of 4);
//! `make soak` the reproducer on seeds 4–6 and K = 5 and 7 at 10⁵, seed 7 (before the move K = 5
//! agreed and K = 7 did not).
//! `final_log_z` is the rule off (the mixture's defaults before the rule became the shift data's).

use sgviz::sgais::job::resolve;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::surprise::SurpriseBoost;
use sgviz::sgais::SgaisConfig;

/// The orders disagree at the mixture's defaults (docs/sgais.md §10); false once a fix makes them agree.
const KNOWN_DISAGREEMENT: bool = true;

/// Final log Ẑ of SGAIS `seed` on the first `n` shift points (data seed 1) with K components, at
/// the mixture's defaults with the surprise rule off.
fn final_log_z(components: usize, n: usize, shuffled: bool, seed: u64) -> f64 {
    final_log_z_with(components, n, shuffled, seed, None)
}

/// [`final_log_z`] with the surprise rule's extra work set to `boost` (src/sgais/surprise.rs).
fn final_log_z_with(components: usize, n: usize, shuffled: bool, seed: u64, boost: Option<SurpriseBoost>) -> f64 {
    let scenario = if shuffled { "shift_shuffled" } else { "shift" };
    let settings: Vec<(String, String)> = vec![("n_points".into(), n.to_string()), ("n_components".into(), components.to_string()), ("scenario".into(), scenario.into())];
    let resolved = resolve("gmm", None, &settings, None).unwrap();
    assert_eq!(resolved.model.n_data(), n);
    let config = SgaisConfig { surprise_boost: boost, ..resolved.config };
    let mut run = SgaisRun::new(resolved.model, config, n, seed);
    run.run_to_end();
    assert_eq!(*run.status(), RunStatus::Finished);
    run.log_z()
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

fn sample_sd(x: &[f64]) -> f64 {
    let m = mean(x);
    (x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (x.len() - 1) as f64).sqrt()
}

/// The in-order replicas against the shuffled ones: (tolerance, every in-order replica within it,
/// every in-order replica below the interval), and a line with the numbers.
fn compare(in_order: &[f64], shuffled: &[f64]) -> (bool, bool, String) {
    let centre = mean(shuffled);
    let tolerance = if shuffled.len() >= 2 { 4.0 * sample_sd(shuffled).max(1.0) * (1.0 + 1.0 / shuffled.len() as f64).sqrt() } else { 1e-3 * centre.abs() };
    let agree = in_order.iter().all(|z| (z - centre).abs() <= tolerance);
    let all_below = in_order.iter().all(|z| *z < centre - tolerance);
    let line = format!("in order {in_order:.1?}, shuffled {shuffled:.1?}: shuffled mean {centre:.1}, tolerance {tolerance:.1} nats (the issue's 0.1 %: {:.1})", 1e-3 * centre.abs());
    (agree, all_below, line)
}

fn check(in_order: &[f64], shuffled: &[f64], label: &str) {
    let (agree, all_below, line) = compare(in_order, shuffled);
    println!("{label}: {line}");
    if KNOWN_DISAGREEMENT {
        assert!(!agree, "{label}: {line} — the orders now agree: set KNOWN_DISAGREEMENT = false and update docs/sgais.md §10");
        assert!(all_below, "{label}: {line} — the known disagreement changed shape: an in-order replica is not below the shuffled interval");
    } else {
        assert!(agree, "{label}: {line} — in order and shuffled disagree");
    }
}

/// K = 5 on the first 3,000 points, three seeds in each order (about 45 CPU-s: `make soak`, with
/// `--include-ignored`; `make test` keeps the comparison's hand-worked test below, CI time being
/// over its budget, issue 23).
#[test]
#[ignore = "about 45 CPU-s; run by make soak (scripts/soak.sh)"]
fn in_order_and_shuffled_estimate_the_same_evidence() {
    let (k, n, seeds) = (5, 3_000, 1..=3u64);
    let in_order: Vec<f64> = seeds.clone().map(|s| final_log_z(k, n, false, s)).collect();
    let shuffled: Vec<f64> = seeds.map(|s| final_log_z(k, n, true, s)).collect();
    let range = shuffled.iter().cloned().fold(f64::NEG_INFINITY, f64::max) - shuffled.iter().cloned().fold(f64::INFINITY, f64::min);
    assert!(range <= 1e-3 * mean(&shuffled).abs(), "the shuffled replicas {shuffled:.1?} spread by {range:.1} nats, more than the issue's 0.1 %");
    check(&in_order, &shuffled, &format!("K = {k}, N = {n}, seeds 1–3"));
}

/// K = 5 and 7 at the paper's N = 10⁵, seed 1 (several CPU-minutes; `make soak`).
#[test]
#[ignore = "several CPU-minutes; run by make soak (scripts/soak.sh)"]
fn in_order_and_shuffled_estimate_the_same_evidence_at_paper_scale() {
    for k in [5, 7] {
        let (a, b) = (final_log_z(k, 100_000, false, 1), final_log_z(k, 100_000, true, 1));
        check(&[a], &[b], &format!("K = {k}, N = 100,000, seed 1"));
    }
}

/// With the surprise rule's extra work (src/sgais/surprise.rs, docs/sgais.md §10, (SGAIS.19)) the
/// reproducer's orders agree within the issue's 0.1 % of |log Ẑ| on seeds 4–6, which chose nothing
/// (measured: in order −10,629.3 / −10,624.5 / −10,633.3 against shuffled −10,621.2 / −10,620.6 /
/// −10,623.2, 8.1, 3.9 and 10.1 nats apart, the last just inside the 10.6 allowed; rule off, in order −11,363.9 / −10,968.8 / −10,784.3, so this fails on
/// the old behaviour; these numbers are from before the rule re-seeded on flagged chunks, which it
/// now does: not re-run since). The stricter spread-based tolerance above is not met: the in-order
/// runs were still a few nats low. About 250 CPU-s: `make soak`.
#[test]
#[ignore = "about 250 CPU-s; run by make soak (scripts/soak.sh)"]
fn with_the_surprise_rule_the_orders_agree_within_the_issues_tolerance_on_unseen_seeds() {
    let boost = Some(SurpriseBoost::MEASURED);
    for seed in 4..=6u64 {
        let (a, b) = (final_log_z_with(5, 3_000, false, seed, boost), final_log_z_with(5, 3_000, true, seed, boost));
        println!("K = 5, N = 3,000, seed {seed}, surprise rule on: in order {a:.1}, shuffled {b:.1}, difference {:.1}", a - b);
        assert!((a - b).abs() <= 1e-3 * b.abs(), "seed {seed}: in order {a:.1}, shuffled {b:.1}: more than 0.1 % apart");
    }
}

/// K = 7's known disagreement at the paper's scale with the surprise rule on: true while the
/// in-order run loses at and after the second change point (docs/sgais.md §10, "K = 7's second
/// change point: not fixed by the move", "What Fig. 5 runs"); false once a fix makes K = 7's orders
/// agree. Measured with the move (eleventh round, this test's seed and settings): in order
/// −380,221.8, shuffled −378,753.4, −1,468.4 nats (0.39 %) against a 0.1 % of 378.8. With the
/// Laplace move (twelfth round, docs/sgais.md (SGAIS.26)–(SGAIS.27)): in order −379,211.6, shuffled
/// −378,760.5, −451.1 nats (0.119 %), in order from a build whose move shared the run's stream. As
/// committed (thirteenth round, docs/sgais.md §10 "A second seed at paper scale"): seed 7 in order
/// −379,374.5, shuffled −378,760.5, −614.0 nats (0.162 %); seed 8 −379,164.8 / −378,762.4, −402.4
/// (0.106 %): the flag stays on both seeds. Stop 45: not re-run at 10⁵ (CPU), but the shift path is
/// bit for bit the thirteenth round's (the CI setting above, seed 11: −4070.996163439449 in order,
/// −4070.944023441038 shuffled, the same evaluations), so both seeds' numbers stand for this code.
/// Stop 46 re-ran both seeds at 10⁵ (`examples/shift_chunks.rs`): −379,374.481 / −378,760.537 and
/// −379,164.769 / −378,762.356, bit for bit; the loss is made at the second change point
/// (docs/sgais.md §15, "K = 7 at N = 10⁵, re-run").
const K7_KNOWN_DISAGREEMENT: bool = true;

/// The issue's acceptance test at the paper's scale with the surprise rule on (`surprise_rule`
/// auto, the shift demo's default, which now includes the re-seeding move on the flagged chunks,
/// docs/sgais.md §10, "Why in order is the lower"): seed 7, in order and shuffled. K = 5 must agree
/// within 0.1 % of |log Ẑ|. K = 7 does not yet (`K7_KNOWN_DISAGREEMENT`): its in-order run must be
/// *below* the shuffled one by more than 0.1 % (the particles lag at the second change point; too
/// high would be a different bug), and the test fails once the orders agree so that the fix flips
/// the flag. K = 3 (which cannot fit the 7 clusters; not in the issue's criterion) is printed.
/// Before the move (fifth round, `examples/shift_gap.rs`): K = 5 −387,226.1 in order, −386,991.2
/// shuffled (0.061 %); K = 7 −382,512.9 and −378,770.1 (0.99 %); K = 3 −408,014.9 and −402,985.4
/// (1.2 %). With the move, on the same seed's first 11,000 points the in-order K = 7 run is 258
/// nats (0.64 %) below the Laplace reference, its second change point unchanged by the move
/// (BENCHMARKS.md, "SGAIS shift at paper scale"). About 12 CPU-minutes, `make soak`.
#[test]
#[ignore = "about 12 CPU-minutes; run by make soak (scripts/soak.sh)"]
fn with_the_surprise_rule_the_orders_agree_at_paper_scale() {
    let boost = Some(SurpriseBoost::MEASURED);
    assert!(SurpriseBoost::MEASURED.reseed, "the shift data's rule re-seeds on flagged chunks");
    for k in [7, 5, 3] {
        let (a, b) = (final_log_z_with(k, 100_000, false, 7, boost), final_log_z_with(k, 100_000, true, 7, boost));
        let line = format!("K = {k}, N = 100,000, seed 7, surprise rule on: in order {a:.1}, shuffled {b:.1}, difference {:.1} ({:.3} %)", a - b, 100.0 * (a - b) / b.abs());
        println!("{line}");
        let within = (a - b).abs() <= 1e-3 * b.abs();
        match k {
            5 => assert!(within, "{line}: more than 0.1 % apart"),
            7 if K7_KNOWN_DISAGREEMENT => {
                assert!(!within, "{line}: K = 7's orders now agree: set K7_KNOWN_DISAGREEMENT = false and update docs/sgais.md §9–§10");
                assert!(a < b, "{line}: the known disagreement changed shape: in order is not the lower");
            }
            7 => assert!(within, "{line}: more than 0.1 % apart"),
            _ => {}
        }
    }
}

/// Final log Ẑ of SGAIS `seed` on the first `n` shift points (data seed 1) with K components and
/// `extra` settings over the mixture's defaults, the surprise rule as the registry resolves it for
/// the shift data (auto: on, with the re-seeding move, docs/sgais.md §10), and the run's own
/// predicted variance of log Ẑ (`SgaisRun::log_z_variance`).
fn resolved_log_z(components: usize, n: usize, shuffled: bool, seed: u64, extra: &[(&str, &str)]) -> (f64, f64) {
    let scenario = if shuffled { "shift_shuffled" } else { "shift" };
    let mut settings: Vec<(String, String)> = vec![("n_points".into(), n.to_string()), ("n_components".into(), components.to_string()), ("scenario".into(), scenario.into())];
    settings.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let resolved = resolve("gmm", None, &settings, None).unwrap();
    let mut run = SgaisRun::new(resolved.model, resolved.config, n, seed);
    run.run_to_end();
    assert_eq!(*run.status(), RunStatus::Finished);
    (run.log_z(), run.log_z_variance())
}

/// The CI version of the issue's acceptance test (docs/sgais.md §10, "Why in order is the lower"):
/// K = 5 on the first N = 1,250 shift points in chunks of |C| = 250, i.e. the first change point
/// (3 → 5 clusters after n = 1,000, the data's own) and one chunk after it, the least data that
/// holds a change point at this chunk size; the mixture's defaults otherwise, the surprise rule
/// as the shift data resolve it. In order and shuffled must agree within the issue's 0.1 % of
/// |log Ẑ| (about 4 nats). SGAIS seed 11 was fixed before either of its runs was made. Measured
/// (examples/shift_diagnose.rs, the same settings): seed 11 in order −4,067.3 / shuffled −4,070.9
/// with the re-seeding move (+3.6 nats), in order −4,103.0 without it (32 nats below); seed 7
/// −4,068.8 / −4,070.4 with it, −4,077.0 in order without it; the Laplace reference −4,068.3.
/// About 17 CPU-s at opt-level 3 (the in-order run is 1.1·10⁸ datum evaluations, the shuffled one
/// 3.5·10⁷). The margin is thin and seed-dependent: seed 11's +3.6 is 4.2 times the runs' own
/// predicted sd of the difference (0.86), and of seeds 11–13 (seventh round, examples/shift_gap.rs,
/// the same settings) seed 12 is −2.7 but seed 13 −40.7 nats, so this test passes on a seed the
/// move fixes; it guards the move against regressions, it does not show that the orders agree on
/// every seed (docs/sgais.md §10, "Two more seeds"). The weight-changing move (eighth round,
/// `ReseedMoves`, not the default) does not either: seeds 11–13 −11.4 / +1.7 / −13.7 alone, seeds
/// 11–13 −9.6 / −19.7 / −5.3 with both moves (docs/sgais.md §10, "A move that re-weights").
#[test]
fn at_the_first_change_point_the_orders_agree_within_the_issues_tolerance() {
    let (k, n, seed, extra) = (5, 1_250, 11, [("chunk_size", "250")]);
    let (in_order, in_order_var) = resolved_log_z(k, n, false, seed, &extra);
    let (shuffled, shuffled_var) = resolved_log_z(k, n, true, seed, &extra);
    let tolerance = 1e-3 * shuffled.abs();
    let line = format!(
        "K = {k}, N = {n}, |C| = 250, seed {seed}: in order {in_order:.1}, shuffled {shuffled:.1}, difference {:.1} nats (tolerance 0.1 % = {tolerance:.1}; the runs' own predicted sd of the difference {:.2})",
        in_order - shuffled,
        (in_order_var + shuffled_var).sqrt()
    );
    println!("{line}");
    assert!((in_order - shuffled).abs() <= tolerance, "{line}: the orders disagree by more than the issue's 0.1 %");
}

/// The comparison itself on hand-made numbers: within a spread-based interval, outside it below.
#[test]
fn the_comparison_reads_the_tolerance_from_the_shuffled_spread() {
    // Shuffled −100, −102, −104: sd 2, tolerance 4·2·√(4/3) = 9.24 around −102 (9 nats off is
    // inside it, 10 outside; without the √(1 + 1/R), 9 would be outside).
    let shuffled = [-100.0, -102.0, -104.0];
    assert_eq!(compare(&[-95.0, -111.0], &shuffled).0, true);
    assert_eq!(compare(&[-92.0], &shuffled).0, false);
    let (agree, below, _) = compare(&[-112.0, -150.0], &shuffled);
    assert!(!agree && below);
    let (agree, below, _) = compare(&[-112.0, -90.0], &shuffled);
    assert!(!agree && !below);
    // One replica each: the issue's 0.1 % of |log Ẑ|.
    assert_eq!(compare(&[-100_050.0], &[-100_000.0]).0, true);
    assert_eq!(compare(&[-100_150.0], &[-100_000.0]).0, false);
}
