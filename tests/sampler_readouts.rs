//! The numbers the page shows under "Diagnostics" for the exact samplers (issue 23): MALA's and
//! HMC's acceptance rate, HMC's last acceptance probability, BPS's bounces, refreshes and trajectory
//! time T, each pinned to a value computed another way on N(0, I₂).
//!
//! Oracles, written here and not taken from the samplers:
//! - MALA and HMC at stationarity accept with probability E[min(1, e^{log r})], (θ, z) or (x, p)
//!   i.i.d. N(0, I): log r is written out below as a quadratic form (MALA: the Langevin proposal
//!   density of (TRUTH.2), docs/truth.md §4; HMC: the leapfrog as a 2 × 2 matrix on each coordinate) and averaged
//!   over 400,000 i.i.d. draws (SE < 0.001).
//! - BPS at stationarity has x ~ N(0, I) independent of v (its invariant law π ⊗ ψ, Bouchard-Côté
//!   et al. 2018), so bounces per unit time = E[max(0, v·x)] = E‖v‖/√(2π): 1/√(2π) for v uniform on
//!   the circle, ½ for v ~ N(0, I₂) (E‖v‖ = √(π/2)); refreshes per unit time = λ_ref (a Poisson
//!   clock); and T is the sum of the emitted segments' durations.
//!
//! Tolerances: 4.5 batch-means standard errors of the chain (40 batches) plus the oracle's own SE.

use sgviz::diagnostics::batch_means_standard_error;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::params::ParamValues;
use sgviz::rng::{chain_rng, standard_normal};
use sgviz::sampler::bps::{self, Bps};
use sgviz::sampler::hmc::{self, Hmc};
use sgviz::sampler::mala::{self, Mala};
use sgviz::sampler::{Emitted, GradientOracle, Sampler};

const BATCHES: usize = 40;

fn readout(sampler: &dyn Sampler, name: &str) -> f64 {
    sampler.diagnostics().iter().find(|d| d.name == name).unwrap_or_else(|| panic!("no diagnostic {name}")).value
}

/// Mean and standard error of f over `draws` i.i.d. standard normal 4-vectors.
fn iid_expectation(draws: usize, seed: u64, f: impl Fn([f64; 4]) -> f64) -> (f64, f64) {
    let mut rng = chain_rng(seed);
    let values: Vec<f64> = (0..draws).map(|_| f([0; 4].map(|_| standard_normal(&mut rng)))).collect();
    let mean = values.iter().sum::<f64>() / draws as f64;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (draws - 1) as f64;
    (mean, (var / draws as f64).sqrt())
}

/// MALA on N(0, I₂) with step ε from θ, noise z: θ' = (1 − ε/2)θ + √ε z, and
/// log r = −(‖θ'‖² − ‖θ‖²)/2 − ‖θ − (1 − ε/2)θ'‖²/(2ε) + ‖z‖²/2.
fn mala_log_ratio(eps: f64, u: [f64; 4]) -> f64 {
    let c = 1.0 - 0.5 * eps;
    let (theta, z) = ([u[0], u[1]], [u[2], u[3]]);
    let next = [c * theta[0] + eps.sqrt() * z[0], c * theta[1] + eps.sqrt() * z[1]];
    let sq = |a: [f64; 2]| a[0] * a[0] + a[1] * a[1];
    let back = [theta[0] - c * next[0], theta[1] - c * next[1]];
    -(sq(next) - sq(theta)) / 2.0 - sq(back) / (2.0 * eps) + sq(z) / 2.0
}

/// HMC on N(0, I₂): per coordinate, one leapfrog step of size ε is the matrix
/// [[1 − ε²/2, ε], [−ε(1 − ε²/4), 1 − ε²/2]] on (x, p); L of them, then log r = −ΔH.
fn hmc_log_ratio(eps: f64, steps: usize, u: [f64; 4]) -> f64 {
    let m = [[1.0 - eps * eps / 2.0, eps], [-eps * (1.0 - eps * eps / 4.0), 1.0 - eps * eps / 2.0]];
    let mut delta_h = 0.0;
    for (x0, p0) in [(u[0], u[2]), (u[1], u[3])] {
        let (mut x, mut p) = (x0, p0);
        for _ in 0..steps {
            (x, p) = (m[0][0] * x + m[0][1] * p, m[1][0] * x + m[1][1] * p);
        }
        delta_h += (x * x + p * p - x0 * x0 - p0 * p0) / 2.0;
    }
    -delta_h
}

/// The acceptance indicators of `steps` proposals, read back from the cumulative acceptance rate
/// the page shows (accepted so far = rate × proposals so far), and the last acceptance
/// probabilities (HMC) when asked for.
fn run_exact(sampler: &mut dyn Sampler, steps: usize, seed: u64, probability: bool) -> (Vec<f64>, Vec<f64>) {
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.0, 0.0);
    let mut oracle = GradientOracle::new(&model, 100);
    let mut rng = chain_rng(seed);
    let (mut indicators, mut probabilities) = (Vec::with_capacity(steps), Vec::new());
    let mut accepted_before = 0.0;
    for n in 1..=steps {
        sampler.step(&model, &mut oracle, &mut rng);
        let accepted = (readout(sampler, "acceptance_rate") * n as f64).round();
        indicators.push(accepted - accepted_before);
        accepted_before = accepted;
        if probability {
            probabilities.push(readout(sampler, "accept_probability"));
        }
    }
    (indicators, probabilities)
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

fn assert_matches(label: &str, chain: &[f64], oracle: (f64, f64)) {
    let (m, se) = (mean(chain), batch_means_standard_error(chain, BATCHES));
    let tol = 4.5 * se.hypot(oracle.1);
    assert!((m - oracle.0).abs() < tol, "{label}: chain {m} vs oracle {} (tol {tol})", oracle.0);
}

#[test]
fn mala_acceptance_rate_on_a_standard_gaussian_is_the_stationary_acceptance_probability() {
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.0, 0.0);
    for (eps, seed) in [(1.2, 3), (2.5, 4)] {
        let mut params = ParamValues::defaults(mala::PARAMS);
        params.set(mala::PARAMS, "mala_step", eps).unwrap();
        let mut sampler = Mala::new(&model, vec![0.3, -0.6], &params);
        assert!(readout(&sampler, "acceptance_rate").is_nan(), "no proposal yet: no rate");
        let (indicators, _) = run_exact(&mut sampler, 20_000, seed, false);
        assert!(indicators.iter().all(|&a| a == 0.0 || a == 1.0), "ε = {eps}: accepted count moved by other than 0 or 1");
        let oracle = iid_expectation(400_000, 100 + seed, |u| mala_log_ratio(eps, u).min(0.0).exp());
        assert!((0.3..0.95).contains(&oracle.0), "ε = {eps}: oracle {} should be informative", oracle.0);
        assert_matches(&format!("MALA ε = {eps} acceptance rate"), &indicators, oracle);
    }
}

#[test]
fn hmc_acceptance_rate_and_last_acceptance_probability_match_the_leapfrog_energy_error() {
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.0, 0.0);
    for (eps, steps, seed) in [(1.3, 3, 5), (1.8, 1, 6)] {
        let mut params = ParamValues::defaults(hmc::PARAMS);
        params.set(hmc::PARAMS, "hmc_step", eps).unwrap();
        params.set(hmc::PARAMS, "leapfrog_steps", steps as f64).unwrap();
        let mut sampler = Hmc::new(&model, vec![0.3, -0.6], &params);
        assert!(readout(&sampler, "acceptance_rate").is_nan() && readout(&sampler, "accept_probability").is_nan());
        let (indicators, probabilities) = run_exact(&mut sampler, 20_000, seed, true);
        let oracle = iid_expectation(400_000, 200 + seed, |u| hmc_log_ratio(eps, steps, u).min(0.0).exp());
        assert!((0.3..0.95).contains(&oracle.0), "ε = {eps}, L = {steps}: oracle {} should be informative", oracle.0);
        assert!(probabilities.iter().all(|p| (0.0..=1.0).contains(p)), "a probability outside [0, 1]");
        assert_matches(&format!("HMC ε = {eps}, L = {steps} acceptance rate"), &indicators, oracle);
        assert_matches(&format!("HMC ε = {eps}, L = {steps} last acceptance probability"), &probabilities, oracle);
    }
}

/// Per batch of events: bounces, refreshes and the summed segment durations, and T as shown.
struct BpsCounts {
    bounces: Vec<f64>,
    refreshes: Vec<f64>,
    durations: Vec<f64>,
    total_time_shown: f64,
}

fn run_bps(law: usize, refresh_rate: f64, events: usize, seed: u64) -> BpsCounts {
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.0, 0.0);
    let mut params = ParamValues::defaults(bps::PARAMS);
    params.set(bps::PARAMS, "refresh_rate", refresh_rate).unwrap();
    params.set(bps::PARAMS, "refresh_law", law as f64).unwrap();
    let mut sampler = Bps::new(&model, vec![0.3, -0.6], &params);
    let mut oracle = GradientOracle::new(&model, 100);
    let mut rng = chain_rng(seed);
    let per_batch = events / BATCHES;
    let mut counts = BpsCounts { bounces: Vec::new(), refreshes: Vec::new(), durations: Vec::new(), total_time_shown: 0.0 };
    let (mut bounces_before, mut refreshes_before) = (0.0, 0.0);
    for _ in 0..BATCHES {
        let mut time = 0.0;
        for _ in 0..per_batch {
            if let Emitted::Segment { duration, .. } = sampler.step(&model, &mut oracle, &mut rng) {
                time += duration;
            }
        }
        let (bounces, refreshes) = (readout(&sampler, "bounces"), readout(&sampler, "refreshes"));
        counts.bounces.push(bounces - bounces_before);
        counts.refreshes.push(refreshes - refreshes_before);
        counts.durations.push(time);
        (bounces_before, refreshes_before) = (bounces, refreshes);
    }
    counts.total_time_shown = readout(&sampler, "total_time");
    assert_eq!(readout(&sampler, "rejections"), 0.0, "closed-form event times on a Gaussian: no thinning");
    assert_eq!(readout(&sampler, "violations"), 0.0);
    counts
}

/// Events per unit time, Σ counts / Σ durations, against `rate` within 4.5 SE (batch means of the
/// ratio estimator: residuals count − r̂·duration per batch).
fn assert_rate(label: &str, counts: &[f64], durations: &[f64], rate: f64) {
    let (total, time) = (counts.iter().sum::<f64>(), durations.iter().sum::<f64>());
    let r = total / time;
    let k = counts.len() as f64;
    let residual_var = counts.iter().zip(durations).map(|(c, d)| (c - r * d).powi(2)).sum::<f64>() / (k - 1.0);
    let se = (residual_var / k).sqrt() / (time / k);
    assert!((r - rate).abs() < 4.5 * se, "{label}: {r} per unit time vs {rate} (SE {se})");
}

#[test]
fn bps_bounces_refreshes_and_trajectory_time_follow_the_invariant_law() {
    let refresh_rate = 0.7;
    for (law, bounce_rate, seed) in [(0, 0.5, 7), (1, 1.0 / (2.0 * std::f64::consts::PI).sqrt(), 8)] {
        let c = run_bps(law, refresh_rate, 80_000, seed);
        let time: f64 = c.durations.iter().sum();
        assert!((c.total_time_shown - time).abs() < 1e-9 * time, "law {law}: T shown {} vs Σ durations {time}", c.total_time_shown);
        assert_rate(&format!("law {law} bounces"), &c.bounces, &c.durations, bounce_rate);
        assert_rate(&format!("law {law} refreshes"), &c.refreshes, &c.durations, refresh_rate);
    }
}

/// Issue 23, fifteenth pass: lipSBPS's readouts (bounces, thinning rejections, refreshes, bound
/// violations, violation rate, trajectory time). Its global bound is exact, so after 2,000 events
/// on the logistic regression there are bounces and no violations, and the rate is 0/bounces = 0;
/// before the first event the rate is 0/0, shown as "not yet" (NaN), not 0.
#[test]
fn lipsbps_shows_its_six_readouts_and_a_rate_of_violations_per_bounce() {
    let mut chain = sgviz::chain::Chain::new(&sgviz::chain::ChainConfig::new("logreg", "lipsbps", 3)).unwrap();
    let read = |chain: &sgviz::chain::Chain, name: &str| chain.diagnostics().iter().find(|d| d.name == name).unwrap_or_else(|| panic!("no readout {name}")).value;
    assert!(read(&chain, "violation_rate").is_nan(), "before any bounce: {}", read(&chain, "violation_rate"));
    chain.run(2_000);
    let names: Vec<&str> = chain.diagnostics().iter().map(|d| d.name).collect();
    assert_eq!(names, ["bounces", "rejections", "refreshes", "violations", "violation_rate", "total_time"]);
    let (bounces, violations) = (read(&chain, "bounces"), read(&chain, "violations"));
    assert!(bounces > 0.0 && violations == 0.0, "{bounces} bounces, {violations} violations");
    assert_eq!(read(&chain, "violation_rate"), 0.0);
    assert!(read(&chain, "total_time") > 0.0);
}
