//! The wiring of src/analysis.rs pinned by value (issue 23, sixth pass): which chart the page gets
//! for a constant-step and a scheduled SGLD run and where their points sit, the sweep's progress
//! and completion as the page reads them, and the MH rejection curve's budget and random stream.
//!
//! Oracles (none is a constant or function of src/analysis.rs):
//! - the budget of the MH rejection curve (docs/sgld.md §3, the phase picture's right half) as
//!   `phase_picture` states it — 2 · N · points · grid full-data gradients within 10⁷, fewer of
//!   the 20 points first (down to one), then a coarser grid of the 10 step sizes (down to three) —
//!   with the counts worked by hand below: at N = 10⁵ five points and all ten step sizes, at
//!   N = 10⁶ one point and five step sizes;
//! - the analysis's random stream: the generator seeded with the chain's seed XOR the SplitMix64
//!   increment, the odd integer nearest 2⁶⁴/φ, computed here from φ (not copied from the code);
//!   the rejection and noise numbers are then replayed by hand from the phase picture's building
//!   blocks, which `phase::values` pins by hand-worked values;
//! - a scheduled run's first step ε₀ = a·b^(−γ) (SGLD.3), by hand at b = 10, γ = 1: ε₀ = a/10.

use sgviz::analysis::Analysis;
use sgviz::chain::{Chain, ChainConfig};
use sgviz::diagnostics::Moments;
use sgviz::knob::Knob;
use sgviz::phase::{log_grid, mh_rejection_probability, noise_scale};
use sgviz::rng::{chain_rng, index_below};

/// The odd integer nearest 2⁶⁴/φ (φ the golden ratio), SplitMix64's increment: 2⁶⁴/φ =
/// 2⁶⁴(√5 − 1)/2 = 11400714819323198485.95…, from floor(√5 · 2⁶⁴) computed bit by bit in integers.
fn golden_increment() -> u64 {
    // root = floor(√(5 · 4^k)), remainder = 5 · 4^k − root², from k = 0 (root 2, remainder 1) to 64:
    // the next root is 2·root + 1 when (2·root + 1)² = 4·root² + 4·root + 1 still fits.
    let (mut root, mut remainder): (u128, u128) = (2, 1);
    for _ in 0..64 {
        remainder *= 4;
        let step = 4 * root + 1;
        root *= 2;
        if remainder >= step {
            remainder -= step;
            root += 1;
        }
    }
    let floor = (root - (1u128 << 64)) / 2; // floor(2⁶⁴(√5 − 1)/2): the fraction is below 1
    (if floor % 2 == 1 { floor } else { floor + 1 }) as u64
}

/// The chain the analysis is built from: SGLD on the synthetic logistic regression with `n` data
/// (minibatch 10), after 40 steps.
fn logistic_sgld(n: u32) -> (ChainConfig, Chain) {
    let config = ChainConfig::new("logreg", "sgld", 3).with("n_points", n).with("batch_size", 10);
    let mut chain = Chain::new(&config).unwrap();
    chain.run(40);
    (config, chain)
}

/// The analysis's rejection curve and noise scale replayed by hand with `points` ring samples
/// kept and `grid` step sizes.
fn replay(config: &ChainConfig, chain: &Chain, points: usize, grid: usize) -> (Vec<(f64, f64)>, serde_json::Value) {
    let mut rng = chain_rng(config.seed ^ golden_increment());
    let ring = chain.samples();
    assert!(!ring.is_empty(), "the ring has samples after 40 steps");
    let mut at: Vec<Vec<f64>> = (0..20).map(|_| ring.get(index_below(&mut rng, ring.len())).to_vec()).collect();
    let noise = noise_scale(chain.model(), &at, 10, 500, &mut rng);
    at.truncate(points);
    let range = Knob::of(chain).unwrap().range;
    let rejection = log_grid(range.0, range.1, grid).into_iter().map(|e| (e, mh_rejection_probability(chain.model(), &at, e, &mut rng))).collect();
    (rejection, serde_json::to_value(noise).unwrap())
}

fn rejection_of(json: &serde_json::Value) -> Vec<(f64, f64)> {
    json["rejection"].as_array().unwrap().iter().map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap())).collect()
}

/// A truth for the sweep's errors (its values do not enter the rejection curve or the noise scale).
fn unit_truth() -> Moments {
    Moments { mean: vec![0.0, 0.0], cov: vec![vec![1.0, 0.0], vec![0.0, 1.0]] }
}

#[test]
fn the_golden_increment_is_splitmix64s() {
    // The published SplitMix64 increment (Steele, Lea & Flood 2014): 0x9E3779B97F4A7C15.
    assert_eq!(format!("{:X}", golden_increment()), "9E3779B97F4A7C15");
}

/// N = 10⁵: 2 · N · 10 = 2·10⁶ per point, so 10⁷/2·10⁶ = 5 of the 20 points; 10⁷/(2N) = 50 step
/// sizes, capped at the grid's 10.
#[test]
fn at_a_hundred_thousand_data_the_rejection_curve_keeps_five_points_and_ten_step_sizes() {
    let (config, chain) = logistic_sgld(100_000);
    let analysis = Analysis::new(&config, &chain, unit_truth(), 2_000).unwrap();
    let json = analysis.results_json();
    let (rejection, noise) = replay(&config, &chain, 5, 10);
    assert_eq!(rejection.len(), 10);
    assert_eq!(rejection_of(&json), rejection, "the rejection curve is the hand replay at 5 points, 10 steps");
    assert_eq!(json["noise"], noise);
    let scale = noise["gradient_noise_scale"].as_f64().unwrap();
    assert!(scale > 0.0);
    assert_eq!(json["threshold_crossing"].as_f64(), Some(4.0 / scale), "ε²/4 · scale = ε at ε = 4/scale");
    // Five points is not four or six: the replays differ (each point draws its own proposals).
    assert_ne!(replay(&config, &chain, 4, 10).0, rejection);
    assert_ne!(replay(&config, &chain, 6, 10).0, rejection);
}

/// N = 10⁶: 2·10⁷ per point, so one point (10⁷/2·10⁷ = 0.5, at least one); 10⁷/(2N) = 5 step sizes.
#[test]
fn at_a_million_data_the_rejection_curve_keeps_one_point_and_five_step_sizes() {
    let (config, chain) = logistic_sgld(1_000_000);
    let analysis = Analysis::new(&config, &chain, unit_truth(), 2_000).unwrap();
    let (rejection, _) = replay(&config, &chain, 1, 5);
    assert_eq!(rejection_of(&analysis.results_json()), rejection, "the rejection curve is the hand replay at 1 point, 5 steps");
}

/// Constant-step SGLD on the Gaussian (minibatch 10). Before any gradient is spent the sweep is not
/// done and its progress is 0; after a partial advance `advance` returns the progress the page
/// reads from `results_json`, strictly between 0 and 1; run to the end, both say 1 and the
/// analysis is done. Then which chart the page gets, and the measured points on the bias chart.
#[test]
fn progress_is_what_results_json_reports_and_done_means_the_whole_budget() {
    let config = ChainConfig::new("gaussian", "sgld", 1).with("batch_size", 10);
    let mut chain = Chain::new(&config).unwrap();
    chain.run(100);
    let truth = chain.model().exact_moments().unwrap();
    let mut analysis = Analysis::new(&config, &chain, truth, 20_000).unwrap();
    assert!(!analysis.is_done());
    assert_eq!(analysis.results_json()["progress"].as_f64(), Some(0.0));
    let progress = analysis.advance(5_000);
    assert!(progress > 0.0 && progress < 1.0, "{progress}");
    assert_eq!(analysis.results_json()["progress"].as_f64(), Some(progress));
    assert!(!analysis.is_done());
    for _ in 0..1_000 {
        if analysis.advance(50_000) >= 1.0 {
            break;
        }
    }
    assert_eq!(analysis.results_json()["progress"].as_f64(), Some(1.0));
    assert!(analysis.is_done());
    // The bias chart's measured points are the sweep's runs at their own ε with their own error.
    let json = analysis.results_json();
    let results = json["results"].as_array().unwrap();
    assert!(results.iter().all(|r| r["param"] == "step_size" && r["sampler"] == "sgld"), "{results:?}");
    // (A diverged run's NaN error is written as null and drawn nowhere.)
    let runs: Vec<(f64, f64)> = results.iter().filter_map(|r| Some((r["value"].as_f64()?, r["error"].as_f64()?))).collect();
    assert!(runs.len() >= 3, "{results:?}");
    let bias = analysis.chart("bias").unwrap();
    let measured = bias.series.iter().find(|s| s.label.starts_with("measured error")).unwrap_or_else(|| panic!("{:?}", bias.series.iter().map(|s| &s.label).collect::<Vec<_>>()));
    assert_eq!(measured.points, runs);
    // A constant step: the noise chart is over ε (not over a schedule's iterations) and the sweep
    // chart is error against the gradient budget, with points.
    assert_eq!(analysis.chart("noise").unwrap().x_label, "step size ε");
    let sweep = analysis.chart("sweep").unwrap();
    assert_eq!(sweep.x_label, "gradient evaluations");
    assert!(sweep.series.iter().any(|s| !s.points.is_empty()), "{sweep:?}");
}

/// A scheduled SGLD run (a = 0.1, b = 10, γ = 1, minibatch 10 on the Gaussian): the sweep varies
/// a, the trade-off chart is one point per a at (ESS per 1,000 gradients, error) of that run, and
/// the bias chart puts each run at its first step ε₀ = a·b^(−γ) = a/10 with the bias estimate
/// √(error² − MCSE²).
#[test]
fn a_scheduled_run_gets_the_schedule_charts_with_each_run_at_its_first_step() {
    let config = ChainConfig::new("gaussian", "sgld", 1).with("batch_size", 10).with("sgld_schedule", 1).with("sgld_a", 0.1).with("sgld_b", 10).with("sgld_gamma", 1);
    let mut chain = Chain::new(&config).unwrap();
    chain.run(300);
    let truth = chain.model().exact_moments().unwrap();
    let mut analysis = Analysis::new(&config, &chain, truth, 20_000).unwrap();
    for _ in 0..1_000 {
        if analysis.advance(100_000) >= 1.0 {
            break;
        }
    }
    assert!(analysis.is_done());
    let json = analysis.results_json();
    let results = json["results"].as_array().unwrap();
    let field = |r: &serde_json::Value, k: &str| r[k].as_f64().unwrap_or(f64::NAN);
    let mut runs: Vec<(f64, f64, f64, f64)> = results.iter().map(|r| (field(r, "value"), field(r, "ess_per_1000_grads"), field(r, "error"), field(r, "error_mcse"))).collect();
    assert!(results.iter().all(|r| r["param"] == "sgld_a"), "the sweep varies a: {results:?}");
    runs.sort_by(|p, q| p.0.total_cmp(&q.0));
    assert!(runs.len() >= 3 && runs.iter().all(|r| r.1 > 0.0 && r.2.is_finite() && r.3.is_finite()), "{runs:?}");
    assert!(runs.windows(2).all(|w| w[1].0 > w[0].0), "distinct values of a: {runs:?}");

    let sweep = analysis.chart("sweep").unwrap();
    assert_eq!(sweep.x_label, "ESS per 1,000 gradient evaluations");
    let points: Vec<(f64, f64)> = runs.iter().map(|r| (r.1, r.2)).collect();
    assert_eq!(sweep.series[0].points, points, "one point per run of a, in increasing a");

    let bias = analysis.chart("bias").unwrap();
    let estimate = bias.series.iter().find(|s| s.label.starts_with("bias estimate")).unwrap_or_else(|| panic!("{:?}", bias.series.iter().map(|s| &s.label).collect::<Vec<_>>()));
    let mut at: Vec<(f64, f64)> = estimate.points.clone();
    at.sort_by(|p, q| p.0.total_cmp(&q.0));
    assert_eq!(at.len(), runs.len(), "{at:?}");
    for (p, r) in at.iter().zip(&runs) {
        let epsilon0 = r.0 / 10.0;
        assert!((p.0 - epsilon0).abs() <= 1e-12 * epsilon0, "run a = {} at ε₀ = a/10 = {epsilon0}: {p:?}", r.0);
        let bias = (r.2 * r.2 - r.3 * r.3).max(0.0).sqrt();
        assert!((p.1 - bias).abs() <= 1e-12, "{p:?} vs √(error² − MCSE²) = {bias}");
    }
    assert_eq!(analysis.chart("noise").unwrap().x_label, "iteration t");
}
