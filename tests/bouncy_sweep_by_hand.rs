//! src/bouncy_sweep.rs against oracles worked by hand or computed here another way (issue 23,
//! stop 50: the twentieth mutation pass left 29 of its mutants undecided and 43 never run;
//! tests/bouncy_sweep.rs checks the sweep's statistics, not its grid, its slices or its arithmetic).
//!
//! - The knob values (docs/bouncy.md §15): half-decades 10^(j/2), rounded, up to N or to the
//!   largest n a point can afford (3·10⁷ gradient evaluations over its events), plus the current
//!   n, a grid value within a factor 1.5 of it left out; λ_ref five log-spaced values over a factor
//!   10 either side of the current rate, capped at 20 and raised to 0.01. Written out as numbers.
//! - The slices: the page's worker advances the sweep by a work budget; a slice is 64 events (the
//!   last of a point fewer) and costs its gradient evaluations plus its events; the progress is
//!   (points done + the running point's events / (events + a tenth as burn-in)) / points. The
//!   costs are read from a chain built here with the point's settings (the same seed, the same
//!   run), the progress worked out here.
//! - A finished point's numbers: E2 = Σ|C − Σ|/Σ|Σ| (SGFS eq. 14) against the toy Gaussian's
//!   covariance written here, its MC error Σ_jk se_jk/Σ|Σ| and the ESS of the slowest mean
//!   Σ_jj/se_j² per 1,000 events (docs/bouncy.md (BPS.15)), from that chain's segments batched
//!   over travel time (src/diagnostics.rs `TimeBatchMeans`, 32 to 64 batches from 10⁻⁶, pinned by
//!   its own hand-built paths in `unit::diagnostics`).
//!
//! Each test ≤ 0.5 CPU s in the test profile.

use sgviz::bouncy_sweep::{BouncyKnob, BouncyResult, BouncySweep};
use sgviz::chain::{Chain, ChainConfig, ChainStatus};
use sgviz::diagnostics::{Moments, TimeBatchMeans};

/// The toy Gaussian at its defaults: σ₁ = σ₂ = 1, ρ = 0.9, mean 0.
fn gaussian_truth() -> Moments {
    Moments { mean: vec![0.0, 0.0], cov: vec![vec![1.0, 0.9], vec![0.9, 1.0]] }
}

fn chain(target: &str, sampler: &str, settings: &[(&str, f64)]) -> (ChainConfig, Chain) {
    let config = settings.iter().fold(ChainConfig::new(target, sampler, 1), |c, (n, v)| c.with(n, v));
    let chain = Chain::new(&config).unwrap();
    (config, chain)
}

/// Each knob's (param, values, current) at `events` events per point.
fn knobs(target: &str, sampler: &str, settings: &[(&str, f64)], events: u64) -> Vec<(&'static str, Vec<f64>, f64)> {
    let (_, chain) = chain(target, sampler, settings);
    BouncyKnob::of(&chain, events).into_iter().map(|k| (k.param, k.values, k.current)).collect()
}

fn assert_values(got: &[f64], expected: &[f64], what: &str) {
    assert_eq!(got.len(), expected.len(), "{what}: {got:?} against {expected:?}");
    for (g, e) in got.iter().zip(expected) {
        assert!((g - e).abs() <= 1e-9 * e.abs(), "{what}: {got:?} against {expected:?}");
    }
}

/// SBPS on the toy Gaussian (N = 100 pseudo-data): n over the half-decades 1, 3, 10, 32, 100
/// (10^(j/2) rounded; the top is N, since 3·10⁷ / 24,000 = 1,250 > N) and the current n; k over
/// 0, 1, 3, 6, 10 and the current k. n = 2: 3 is a factor 1.5 away, exactly at the limit, and
/// stays. n = 10: the grid's 10 is the current value, listed once. n = 5 at 600,000 events: a
/// point affords 3·10⁷ / 600,000 = 50 data, so the grid stops at the half-decade below, 32.
#[test]
fn sbps_minibatch_values_are_the_half_decades_up_to_what_a_point_affords_and_the_current_n() {
    let cases: [(&[(&str, f64)], u64, &[f64], &[f64]); 4] = [
        (&[("batch_size", 2.0)], 24_000, &[1.0, 2.0, 3.0, 10.0, 32.0, 100.0], &[0.0, 1.0, 3.0, 6.0, 10.0]),
        (&[("batch_size", 10.0)], 24_000, &[1.0, 3.0, 10.0, 32.0, 100.0], &[0.0, 1.0, 3.0, 6.0, 10.0]),
        (&[("batch_size", 5.0), ("band_k", 4.5)], 600_000, &[1.0, 3.0, 5.0, 10.0, 32.0], &[0.0, 1.0, 3.0, 4.5, 6.0, 10.0]),
        (&[("batch_size", 100.0)], 1_000_000, &[1.0, 3.0, 10.0, 32.0, 100.0], &[0.0, 1.0, 3.0, 6.0, 10.0]),
    ];
    for (settings, events, ns, ks) in cases {
        let got = knobs("gaussian", "sbps", settings, events);
        let what = format!("{settings:?} at {events} events");
        assert_eq!(got.iter().map(|k| k.0).collect::<Vec<_>>(), ["batch_size", "band_k"], "{what}");
        assert_values(&got[0].1, ns, &what);
        assert_values(&got[1].1, ks, &what);
        assert_eq!(got[0].2, settings[0].1, "{what}: the current n");
    }
}

/// lipSBPS on the logistic regression with N = 500 (not a half-decade): a point of 3,000 events
/// affords every n, so the grid runs to N itself, log-spaced in floor(2 log₁₀ 500) + 1 = 6 values
/// 500^(j/5) = 1, 3.47, 12.0, 41.6, 144.3, 500, rounded; 12 is within 1.5 of the current n = 10.
#[test]
fn lipsbps_minibatch_values_end_at_a_data_size_that_is_not_a_half_decade() {
    let got = knobs("logreg", "lipsbps", &[("n_points", 500.0), ("batch_size", 10.0)], 3_000);
    assert_eq!(got.len(), 1);
    assert_values(&got[0].1, &[1.0, 3.0, 10.0, 42.0, 144.0, 500.0], "lipSBPS, N = 500");
}

/// BPS: λ_ref at five log-spaced values over [λ/10, min(10 λ, 20)] with the current one. At 7:
/// 0.7 · (20/0.7)^(j/4) = 0.7, 1.6184, 3.7417, 8.6506, 20, where 8.65 lies within 1.5 of 7 and
/// gives way to it. At 0 the current value is raised to 0.01: 0.01 · 10^(j/4).
#[test]
fn bps_refresh_rates_span_a_factor_ten_either_side_capped_at_twenty() {
    let ratio = |lo: f64, hi: f64, j: i32| lo * (hi / lo).powf(j as f64 / 4.0);
    for (rate, expected) in [
        (7.0, vec![0.7, ratio(0.7, 20.0, 1), ratio(0.7, 20.0, 2), 7.0, 20.0]),
        (0.0, (0..5).map(|j| ratio(0.01, 0.1, j)).collect()),
    ] {
        let got = knobs("gaussian", "bps", &[("refresh_rate", rate)], 24_000);
        assert_eq!(got.len(), 1);
        assert_values(&got[0].1, &expected, &format!("λ_ref = {rate}"));
        assert_eq!(got[0].2, rate.max(0.01));
    }
    assert!((ratio(0.7, 20.0, 1) - 1.6184).abs() < 1e-4 && (ratio(0.7, 20.0, 3) - 8.6506).abs() < 1e-4);
}

/// The point's own chain, built here: the sweep's chain's seed and sampler settings with `param`
/// at `value`, a tenth of `events` as burn-in (docs/bouncy.md §15).
fn point_config(config: &ChainConfig, chain: &Chain, param: &str, value: f64, events: u64) -> ChainConfig {
    let mut point = ChainConfig::new(&config.target, &config.sampler, config.seed);
    for (name, v) in chain.sampler_params().iter().filter(|(n, _)| *n != param) {
        point = point.with(name, v);
    }
    point = point.with(param, value);
    point.burn_in = events / 10;
    point.capacity = 1;
    point
}

/// The point run here in the sweep's slices: (work of each slice, the chain, its batches).
fn run_point(config: &ChainConfig, events: u64) -> (Vec<u64>, Chain, TimeBatchMeans) {
    let mut chain = Chain::new(config).unwrap();
    let truth = gaussian_truth();
    let mut batches = TimeBatchMeans::new(&truth.mean, 32, 1e-6);
    let total = events + config.burn_in;
    let mut work = Vec::new();
    while chain.steps() < total {
        let (grads, steps) = (chain.grad_evals(), chain.steps());
        chain.run_segments(64.min(total - steps), &mut |s, v, d| batches.add_segment(s, v, d));
        work.push(chain.grad_evals() - grads + chain.steps() - steps);
    }
    (work, chain, batches)
}

/// The numbers a finished point shows, computed here from its chain and batches.
fn expected_result(chain: &Chain, batches: &TimeBatchMeans, events: u64) -> [f64; 6] {
    let truth = gaussian_truth();
    let c = chain.moments().cov;
    let scale: f64 = truth.cov.iter().flatten().map(|x| x.abs()).sum();
    let e2 = (0..2).flat_map(|j| (0..2).map(move |k| (j, k))).map(|(j, k)| (c[j][k] - truth.cov[j][k]).abs()).sum::<f64>() / scale;
    let se2 = |j: usize, k: usize| batches.estimate(j.min(k), Some(j.max(k))).unwrap().1;
    let e2_mc = (se2(0, 0) + se2(0, 1) + se2(1, 0) + se2(1, 1)) / scale;
    let se = |j: usize| batches.estimate(j, None).unwrap().1;
    let ess = (truth.cov[0][0] / (se(0) * se(0))).min(truth.cov[1][1] / (se(1) * se(1)));
    let diagnostic = |name: &str| chain.diagnostics().into_iter().find(|g| g.name == name).unwrap().value;
    [e2, e2_mc, diagnostic("violation_rate"), diagnostic("missed_bounce_share"), chain.grad_evals() as f64 / chain.steps() as f64, 1000.0 * ess / events as f64]
}

fn numbers(r: &BouncyResult) -> [f64; 6] {
    [r.e2, r.e2_mc, r.violation_rate, r.missed_share, r.grads_per_event, r.ess_per_1000_events]
}

fn assert_numbers(got: &BouncyResult, expected: [f64; 6]) {
    for (name, (g, e)) in ["e2", "e2_mc", "violation_rate", "missed_share", "grads_per_event", "ess_per_1000_events"].iter().zip(numbers(got).iter().zip(expected)) {
        assert!(e.is_finite() && (g - e).abs() <= 1e-12 * e.abs().max(1e-300), "{} = {}: {name} {g}, computed here {e}", got.param, got.value);
    }
}

/// SBPS on the toy Gaussian at n = 5 (k at its default 3), its sweep at `events` a point.
fn sbps_at_n5(events: u64) -> (ChainConfig, Chain, BouncySweep) {
    let (config, main) = chain("gaussian", "sbps", &[("batch_size", 5.0)]);
    let sweep = BouncySweep::new(&config, &main, BouncyKnob::of(&main, events), gaussian_truth(), events);
    (config, main, sweep)
}

/// Advance in budgets of 20,000 until the sweep ends (at most 100 budgets: a sweep that stops
/// making progress fails the test instead of hanging it).
fn run_to_end(sweep: &mut BouncySweep) {
    for _ in 0..100 {
        if sweep.is_done() {
            break;
        }
        sweep.advance(20_000);
    }
}

/// SBPS at n = 5, k = 3 (default), 1,200 events a point: n at 1, 3, 5, 10, 32, 100 and k at 0,
/// 1, 6, 10 (k = 3 is the n = 5 run), 10 points of 1,320 steps (events + 120 burn-in, not a
/// multiple of 64: the last slice of a point is 40 events). The page's budget slices, each
/// checked against the progress worked out from the slice costs of the first point's own chain.
#[test]
fn the_sweep_advances_in_64_event_slices_charged_their_gradients_and_events() {
    let events = 1_200;
    let (config, main, mut sweep) = sbps_at_n5(events);
    let (work, ..) = run_point(&point_config(&config, &main, "batch_size", 5.0, events), events);
    assert_eq!(work.len(), 21, "20 slices of 64 and one of 40: {work:?}");
    let (points, total) = (10.0, 1_320.0);
    assert_eq!(sweep.progress(), 0.0);
    // A budget of 1 runs one slice.
    assert_eq!(sweep.advance(1), 64.0 / total / points);
    // A budget of the next two slices' work runs exactly those two.
    assert_eq!(sweep.advance(work[1] + work[2]), 3.0 * 64.0 / total / points);
    // Two budgets of half a slice run one slice each.
    assert_eq!(sweep.advance(work[3] / 2), 4.0 * 64.0 / total / points);
    assert_eq!(sweep.advance(work[4] / 2), 5.0 * 64.0 / total / points);
    // The rest of the point's work finishes the point, and nothing more.
    let progress = sweep.advance(work[5..].iter().sum());
    assert!((progress - 1.0 / points).abs() < 1e-15, "after the first point: {progress}");
    assert!(!sweep.is_done());
    run_to_end(&mut sweep);
    assert!(sweep.is_done(), "the sweep ends: {}", sweep.progress());
    assert_eq!(sweep.progress(), 1.0);
    let results = sweep.results();
    assert_eq!(results.len(), 11, "six n and four k points, and the n = 5 run again as k = 3");
    for r in &results {
        assert_eq!((r.events, r.diverged), (1_320, false), "{} = {}: every point runs its events and burn-in", r.param, r.value);
    }
}

/// A finished point's E2, MC error, band diagnostics, cost and ESS are those of its own chain
/// (built here with the sweep's seed and the point's settings), computed here by (BPS.15): the
/// current setting, a point of the first knob (n = 32) and a point of the second (k = 10, which
/// keeps the current n = 5). The current setting is listed under both knobs, as k = 3 the same
/// numbers as n = 5.
#[test]
fn a_finished_points_numbers_are_its_own_chains_by_the_formulas_of_bps15() {
    let events = 1_200;
    let (config, main, mut sweep) = sbps_at_n5(events);
    run_to_end(&mut sweep);
    let results = sweep.results();
    let find = |param: &str, value: f64| results.iter().find(|r| r.param == param && r.value == value).unwrap_or_else(|| panic!("no point {param} = {value}: {results:?}"));
    for (param, value) in [("batch_size", 5.0), ("batch_size", 32.0), ("band_k", 10.0)] {
        let (_, chain, batches) = run_point(&point_config(&config, &main, param, value, events), events);
        assert_numbers(find(param, value), expected_result(&chain, &batches, events));
    }
    assert_eq!(numbers(find("band_k", 3.0)).map(f64::to_bits), numbers(find("batch_size", 5.0)).map(f64::to_bits));
    let order: Vec<(&str, f64)> = results.iter().map(|r| (r.param.as_str(), r.value)).collect();
    let expected: Vec<(&str, f64)> = [1.0, 3.0, 5.0, 10.0, 32.0, 100.0].map(|n| ("batch_size", n)).into_iter().chain([0.0, 1.0, 3.0, 6.0, 10.0].map(|k| ("band_k", k))).collect();
    assert_eq!(order, expected, "by knob, then by value");
}

/// A point with no travel time after burn-in has no batches to measure: it is reported as lost
/// (diverged, no numbers), not as the E2 of an empty run; events = 0 makes every point so.
#[test]
fn a_point_without_two_time_batches_has_no_numbers() {
    let (_, _, mut sweep) = sbps_at_n5(0);
    for _ in 0..20 {
        if sweep.is_done() {
            break;
        }
        sweep.advance(1);
    }
    assert!(sweep.is_done());
    let results = sweep.results();
    assert!(!results.is_empty());
    for r in results {
        assert!(r.diverged && r.events == 0 && numbers(&r).iter().all(|x| x.is_nan()), "{r:?}");
    }
}

/// A value the sampler refuses (n = 0, below the slider's 1; a hand-made knob, since the sweep's
/// own grid never has one) is reported as a lost point, and the sweep goes on to the next.
#[test]
fn a_point_whose_chain_cannot_be_built_is_lost_and_the_sweep_goes_on() {
    let events = 200;
    let (config, main) = chain("gaussian", "sbps", &[("batch_size", 5.0)]);
    let knob = BouncyKnob { param: "batch_size", symbol: "n", values: vec![0.0, 5.0, 10.0], current: 5.0, log_scale: true };
    let mut sweep = BouncySweep::new(&config, &main, vec![knob], gaussian_truth(), events);
    for _ in 0..50 {
        if sweep.is_done() {
            break;
        }
        sweep.advance(1_000);
    }
    assert!(sweep.is_done(), "progress {}", sweep.progress());
    let results = sweep.results();
    assert_eq!(results.iter().map(|r| (r.value, r.diverged)).collect::<Vec<_>>(), [(0.0, true), (5.0, false), (10.0, false)]);
    assert!(results[0].events == 0 && numbers(&results[0]).iter().all(|x| x.is_nan()), "{:?}", results[0]);
    assert!(results[1..].iter().all(|r| r.events == 220), "{results:?}");
    assert!(matches!(main.status(), ChainStatus::Running));
}
