//! The gradient samplers' statistical tests, second half (the first is tests/gradient_samplers.rs,
//! whose helpers this file shares): OSGFS's stationary laws (docs/sgfs-osgfs.md §4), MALA and HMC
//! as exact references and the gradient samplers against MALA on breast cancer (docs/truth.md §4),
//! and robustness (every sampler on every target, singular Fisher estimates, absurd states).
//! Split from one file at 850 lines (no file over 600 lines).

use crate::gradient_samplers::*;
use nalgebra::{DMatrix, DVector};
use sgviz::data::parse_csv;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::model::logistic::LogisticRegression;
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::rng::chain_rng;
use sgviz::sampler::hmc::{self, Hmc};
use sgviz::sampler::mala::{self, Mala};
use sgviz::sampler::osgfs::{self, Osgfs};
use sgviz::sampler::sgfs::{self, Sgfs};
use sgviz::sampler::sghmc::{self, Sghmc};
use sgviz::sampler::sgld::{self, Sgld};
use sgviz::sampler::{Emitted, GradientOracle, Sampler};
use sgviz::linalg::discrete_lyapunov;
use sgviz::diagnostics::batch_means_standard_error;

// ---------------------------------------------------------------------------------------------
// OSGFS (docs/sgfs-osgfs.md §4)
// ---------------------------------------------------------------------------------------------

/// Exact stationary covariance of OSGFS (ε = 1) once C has converged: θ' = θ + D(−P(θ−m) + ξ) +
/// N(0, 2D − (N²/n)DCD [− DHD]), D = (k/2)H⁻¹, H = NC + G, ξ ~ N(0, Σ_g).
#[allow(clippy::too_many_arguments)]
fn osgfs_law(precision: &DMatrix<f64>, c: &DMatrix<f64>, g: &DMatrix<f64>, noise: &DMatrix<f64>, n: f64, batch: f64, k: f64, corrected: bool) -> DMatrix<f64> {
    let dim = precision.nrows();
    let h = c * n + g;
    let d = h.clone().try_inverse().unwrap() * (k / 2.0);
    let a = DMatrix::identity(dim, dim) - &d * precision;
    let mut q = &d * noise * &d + &d * 2.0 - &d * c * &d * (n * n / batch);
    if corrected {
        q -= &d * &h * &d;
    }
    discrete_lyapunov(&a, &q).unwrap()
}

#[test]
fn osgfs_covariance_matches_the_posterior_on_a_linear_gaussian_model() {
    let data_cov = DMatrix::from_row_slice(2, 2, &[1.0, 0.6, 0.6, 2.0]);
    let model = GaussianMean::new(1000, &data_cov, &[1.0, -1.0], 100.0, 41);
    let batch = 50;
    let params = values(osgfs::PARAMS, &[("batch_size", batch as f64), ("osgfs_collect", 1.0)]);
    let mut sampler = Osgfs::new(&model, model.posterior_mean().as_slice().to_vec(), &params);
    let trace = run(&mut sampler, &model, batch, 42, 5_000, 400_000, 1);
    assert!((sampler.k() - 0.1).abs() < 1e-12, "k = {} (c = 0.1 caps 4|S|/(N+|S|) = 0.19)", sampler.k());
    let g = DMatrix::identity(2, 2) / model.prior_var;
    let law = osgfs_law(&model.posterior_precision(), &model.score_covariance(), &g, &model.gradient_noise_covariance(batch), 1000.0, batch as f64, 0.1, true);
    assert_cov_close(&trace, &law, 4.0, 0.0, "OSGFS law");
    // The law is H⁻¹ up to the without-replacement deflation ≈ k/4 = 2.5 %: model error 5 %.
    let posterior = model.posterior_precision().try_inverse().unwrap();
    assert_cov_close(&trace, &posterior, 4.0, 0.05, "OSGFS vs posterior");
}

#[test]
fn osgfs_below_its_cap_follows_the_law_with_k_from_eq_16() {
    // Every other OSGFS test runs with k at its cap c. With |S| = 10 of N = 1000 and a weak prior,
    // eq. 16 gives k = 4|S|/(N + |S|) = 40/1010 < c = 0.1; the covariance follows the exact law at
    // that k (4 MCSE per entry). The corrected law is ≈ H⁻¹ at any k, so k shows in the mixing:
    // the lag-10 autocovariance is A¹⁰Σ with A = I − (k/2)H⁻¹P, resolved from A at k = c.
    let data_cov = DMatrix::from_row_slice(2, 2, &[1.0, 0.6, 0.6, 2.0]);
    let model = GaussianMean::new(1000, &data_cov, &[1.0, -1.0], 100.0, 45);
    let batch = 10;
    let params = values(osgfs::PARAMS, &[("batch_size", batch as f64), ("osgfs_collect", 1.0)]);
    let mut sampler = Osgfs::new(&model, model.posterior_mean().as_slice().to_vec(), &params);
    let trace = run(&mut sampler, &model, batch, 46, 5_000, 400_000, 1);
    let k = 4.0 * batch as f64 / (1000.0 + batch as f64);
    assert!((sampler.k() - k).abs() < 1e-12, "k = {} vs {k}", sampler.k());
    let g = DMatrix::identity(2, 2) / model.prior_var;
    let law = |k: f64| osgfs_law(&model.posterior_precision(), &model.score_covariance(), &g, &model.gradient_noise_covariance(batch), 1000.0, batch as f64, k, true);
    assert_cov_close(&trace, &law(k), 4.0, 0.0, "OSGFS below its cap");
    let h = model.score_covariance() * 1000.0 + &g;
    const LAG: usize = 10;
    let lagged = |k: f64| (DMatrix::identity(2, 2) - h.clone().try_inverse().unwrap() * model.posterior_precision() * (k / 2.0)).pow(LAG as u32) * law(k);
    for j in 0..2 {
        let m = trace.mean(j);
        let x = trace.coordinate(j);
        let products: Vec<f64> = x.windows(LAG + 1).map(|w| (w[LAG] - m) * (w[0] - m)).collect();
        let (estimate, se) = (products.iter().sum::<f64>() / products.len() as f64, batch_means_standard_error(&products, BATCHES));
        let (expected, at_cap) = (lagged(k)[(j, j)], lagged(0.1)[(j, j)]);
        assert!((estimate - expected).abs() < 4.0 * se, "lag-{LAG} autocovariance {estimate} vs {expected} (MCSE {se})");
        assert!((at_cap - expected).abs() > 8.0 * se, "k = c would not be resolved: {at_cap} vs {expected} (MCSE {se})");
    }
}

#[test]
fn uncorrected_osgfs_inflates_the_covariance_by_one_over_one_minus_k_over_four() {
    // Appendix (ε = 1): eq. 7 gives H⁻¹/(1 − k/4). A 2-D standard Gaussian with identical
    // per-datum scores and synthetic gradient noise s² = N/n makes N·C → s²n/N = 1 = H, and the
    // noise is exactly (N²/n)C, as the appendix assumes. c = 0.8 (k = c since 4|S|/(N+|S|) = 4/3)
    // makes the inflation 1/(1 − 0.2) = 1.25.
    let model = IdenticalScores { noise_sd: 2.0f64.sqrt() };
    let variance = |variant: f64, seed: u64| {
        let params = values(osgfs::PARAMS, &[("batch_size", 50.0), ("osgfs_c", 0.8), ("osgfs_collect", 1.0), ("osgfs_variant", variant)]);
        let mut sampler = Osgfs::new(&model, vec![0.0, 0.0], &params);
        let trace = run(&mut sampler, &model, 50, seed, 2_000, 300_000, 1);
        assert!((sampler.k() - 0.8).abs() < 1e-12, "k = {}", sampler.k());
        trace
    };
    let uncorrected = variance(1.0, 51);
    let corrected = variance(0.0, 52);
    for j in 0..2 {
        // Tolerance 4 MCSE + 2 % for the running estimate of C.
        let (u, su) = (uncorrected.cov(j, j), uncorrected.cov_se(j, j));
        assert!((u - 1.25).abs() < 4.0 * su + 0.02 * 1.25, "uncorrected variance {u} vs 1.25 (MCSE {su})");
        let (c, sc) = (corrected.cov(j, j), corrected.cov_se(j, j));
        assert!((c - 1.0).abs() < 4.0 * sc + 0.02, "corrected variance {c} vs 1 (MCSE {sc})");
    }
}

#[test]
fn osgfs_convergence_criterion_fires_near_the_mode_and_not_before() {
    let data_cov = DMatrix::from_row_slice(2, 2, &[1.0, 0.6, 0.6, 2.0]);
    let model = GaussianMean::new(1000, &data_cov, &[1.0, -1.0], 100.0, 43);
    let mode = model.posterior_mean();
    let precision = model.posterior_precision();
    let distance = |theta: &[f64]| {
        let d = DVector::from_column_slice(theta) - &mode;
        d.dot(&(&precision * &d)).sqrt()
    };
    // Start 200 posterior standard deviations away.
    let start: Vec<f64> = (0..2).map(|j| mode[j] + 200.0 / precision[(j, j)].sqrt()).collect();
    let mut sampler = Osgfs::new(&model, start.clone(), &ParamValues::defaults(osgfs::PARAMS));
    assert!(distance(&start) > 100.0);
    let mut oracle = GradientOracle::new(&model, 100);
    let mut rng = chain_rng(44);
    let mut first_near = None;
    for t in 1..=5_000u64 {
        let emitted = sampler.step(&model, &mut oracle, &mut rng);
        let dist = distance(sampler.position());
        if dist < 5.0 && first_near.is_none() {
            first_near = Some(t);
        }
        match sampler.burn_in_over_step() {
            None => assert_eq!(emitted, Emitted::Nothing, "no samples before the criterion fires"),
            Some(fired) => {
                // Fired on this step: the chain must already be within a few posterior sds (a
                // 2-D Gaussian has Mahalanobis radius > 5 with probability e^(−12.5)).
                assert_eq!(fired, t);
                let near = first_near.expect("criterion fired before the chain came near the mode");
                assert!(fired >= near && dist < 5.0, "fired at {fired} at distance {dist}, first near at {near}");
                let diag = sampler.diagnostics().iter().find(|d| d.name == "burn_in_over_step").unwrap().value;
                assert_eq!(diag, fired as f64);
                return;
            }
        }
    }
    panic!("criterion never fired in 5000 steps (first near the mode at {first_near:?})");
}

// ---------------------------------------------------------------------------------------------
// Exact references and the breast-cancer comparison (docs/truth.md §4)
// ---------------------------------------------------------------------------------------------

/// Assert two traces agree in every mean and covariance entry: |Δ| ≤ 4·√(se₁² + se₂²) plus
/// `model_error` times the reference's standard deviation (means) or variance scale (covariances).
fn assert_traces_agree(a: &Trace, b: &Trace, model_error: f64, what: &str) {
    // For the record: the largest |Δ|/scale and the largest Monte-Carlo part 4·se/scale (each
    // trace's own se, in units of the reference's sd or variance scale).
    let (mut worst, mut mc_a, mut mc_b) = (0.0f64, 0.0f64, 0.0f64);
    for i in 0..a.dim {
        let sd = b.cov(i, i).sqrt();
        let tol = 4.0 * a.mean_se(i).hypot(b.mean_se(i)) + model_error * sd;
        let (ma, mb) = (a.mean(i), b.mean(i));
        (worst, mc_a, mc_b) = (worst.max((ma - mb).abs() / sd), mc_a.max(4.0 * a.mean_se(i) / sd), mc_b.max(4.0 * b.mean_se(i) / sd));
        assert!((ma - mb).abs() <= tol, "{what}: mean[{i}] {ma:.4} vs {mb:.4} (tolerance {tol:.4})");
        for j in i..a.dim {
            let scale = (b.cov(i, i) * b.cov(j, j)).sqrt();
            let tol = 4.0 * a.cov_se(i, j).hypot(b.cov_se(i, j)) + model_error * scale;
            let (ca, cb) = (a.cov(i, j), b.cov(i, j));
            (worst, mc_a, mc_b) = (worst.max((ca - cb).abs() / scale), mc_a.max(4.0 * a.cov_se(i, j) / scale), mc_b.max(4.0 * b.cov_se(i, j) / scale));
            assert!((ca - cb).abs() <= tol, "{what}: cov[{i}][{j}] {ca:.5} vs {cb:.5} (tolerance {tol:.5})");
        }
    }
    eprintln!("{what}: largest |Δ|/scale {worst:.3}; largest 4·MCSE/scale {mc_a:.3} ({} samples) and {mc_b:.3} (reference, {})", a.len(), b.len());
}

fn mala_trace(model: &dyn Model, step: f64, steps: u64, seed: u64) -> Trace {
    let mut mala = Mala::new(model, model.initial_point(), &values(mala::PARAMS, &[("mala_step", step)]));
    let trace = run(&mut mala, model, model.n_data(), seed, 2_000, steps, 1);
    let acceptance = mala.diagnostics()[0].value;
    assert!(acceptance > 0.4 && acceptance < 0.95, "MALA acceptance {acceptance}");
    trace
}

#[test]
fn mala_and_hmc_are_exact_on_a_correlated_gaussian_at_large_steps() {
    // With steps where the unadjusted dynamics are far off (ULA at ε = 0.5 inflates Var θ₁ by
    // 1/(1 − ελ/4) up to 1.05 … and leapfrog at ε = 0.9 has energy errors of O(1)), only a correct
    // Metropolis–Hastings ratio (proposal densities, sign, kinetic energy) gives the exact Σ.
    // Tolerance 4 MCSE per entry of mean and covariance.
    let model = CorrelatedGaussian::new(1.0, 2.0, 0.8, 0.0);
    let truth = gaussian_precision(&model).try_inverse().unwrap();
    let mut mala = Mala::new(&model, vec![0.0, 0.0], &values(mala::PARAMS, &[("mala_step", 0.5)]));
    let mala_trace = run(&mut mala, &model, model.n_data(), 61, 1_000, 300_000, 1);
    let mut hmc = Hmc::new(&model, vec![0.0, 0.0], &values(hmc::PARAMS, &[("hmc_step", 0.9), ("leapfrog_steps", 3.0)]));
    let hmc_trace = run(&mut hmc, &model, model.n_data(), 62, 1_000, 100_000, 1);
    for (trace, what) in [(&mala_trace, "MALA"), (&hmc_trace, "HMC")] {
        assert_cov_close(trace, &truth, 4.0, 0.0, what);
        for j in 0..2 {
            assert!(trace.mean(j).abs() < 4.0 * trace.mean_se(j), "{what}: mean[{j}] = {} (MCSE {})", trace.mean(j), trace.mean_se(j));
        }
    }
    let (ma, ha) = (mala.diagnostics()[0].value, hmc.diagnostics()[0].value);
    assert!(ma < 0.9 && ha < 0.9, "the MH test must reject often enough to matter: MALA {ma}, HMC {ha}");
}

#[test]
fn mala_and_hmc_agree_on_logistic_regression() {
    // Both are exact, so only Monte-Carlo error separates them: 4 combined MCSE, no model error.
    let model = LogisticRegression::synthetic_1d(&ParamValues::defaults(sgviz::model::logistic::PARAMS));
    let mala = mala_trace(&model, 0.008, 40_000, 61);
    let params = values(hmc::PARAMS, &[("hmc_step", 0.03), ("leapfrog_steps", 8.0)]);
    let mut hmc = Hmc::new(&model, model.initial_point(), &params);
    let hmc_trace = run(&mut hmc, &model, model.n_data(), 62, 500, 10_000, 1);
    let acceptance = hmc.diagnostics()[0].value;
    assert!(acceptance > 0.5, "HMC acceptance {acceptance}");
    assert_traces_agree(&hmc_trace, &mala, 0.0, "HMC vs MALA");
}

fn breast_cancer_model() -> LogisticRegression {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/..", "/data/breast_cancer.csv");
    let data = parse_csv(&std::fs::read(path).unwrap()).unwrap();
    // mean radius, mean texture, mean smoothness; standardised; plus the bias.
    let data = data.select_features(&[0, 1, 4]).standardised();
    LogisticRegression::from_dataset(&data, 10.0).unwrap()
}

#[test]
fn gradient_samplers_agree_with_mala_on_breast_cancer() {
    // Three standardised features + bias (D = 4, N = 569). The stochastic-gradient samplers are
    // only approximately exact, so besides 4 combined MCSE each comparison allows a model error
    // of 15 % of the reference's sd (means) or variance scale (covariances), set before running
    // from the known biases at these settings: SGLD's sampling threshold εN²λmax(V)/(4n) ≈ 0.04
    // (≈ 4 % extra variance along the stiffest direction), SGHMC's gradient-noise share
    // η(N²/n)λmax(V)/(2α) ≈ 0.04, SGFS-f's without-replacement deflation ≈ 3 % at α = 2 plus its
    // Gaussian (Bernstein–von Mises) approximation with the empirical Fisher.
    let model = breast_cancer_model();
    let reference = mala_trace(&model, 0.04, 60_000, 71);
    let start: Vec<f64> = (0..4).map(|j| reference.mean(j)).collect();
    let model_error = 0.15;

    let mut sgld = Sgld::new(start.clone(), &values(sgld::PARAMS, &[("step_size", 4e-4), ("batch_size", 50.0)]));
    let sgld_trace = run(&mut sgld, &model, 50, 72, 20_000, 1_500_000, 5);
    let threshold = sgld.sampling_threshold();
    assert!(threshold < 0.1, "SGLD is not in its sampling phase: threshold {threshold}");
    assert_traces_agree(&sgld_trace, &reference, model_error, "SGLD vs MALA");

    let params = values(sghmc::PARAMS, &[("sghmc_lr", 2e-5), ("friction", 0.1), ("batch_size", 50.0)]);
    let mut sghmc = Sghmc::new(start.clone(), &params);
    let sghmc_trace = run(&mut sghmc, &model, 50, 73, 20_000, 1_500_000, 5);
    assert_traces_agree(&sghmc_trace, &reference, model_error, "SGHMC vs MALA");

    let params = values(sgfs::PARAMS, &[("sgfs_alpha", 2.0), ("batch_size", 100.0)]);
    let mut sgfs_f = Sgfs::new(&model, start, &params, false);
    let sgfs_trace = run(&mut sgfs_f, &model, 100, 74, 5_000, 200_000, 1);
    assert_traces_agree(&sgfs_trace, &reference, model_error, "SGFS-f vs MALA");
}

// ---------------------------------------------------------------------------------------------
// Robustness through the chain: every registered sampler on every target, and hostile settings
// ---------------------------------------------------------------------------------------------

#[test]
fn every_sampler_runs_on_every_target_and_reports_finite_diagnostics_or_diverges_cleanly() {
    use sgviz::chain::{Chain, ChainConfig, ChainStatus};
    for target in sgviz::registry::TARGETS {
        for sampler in sgviz::registry::SAMPLERS.iter().filter(|s| s.kind != sgviz::registry::SamplerKind::Bouncy) {
            let mut chain = match Chain::new(&ChainConfig::new(target.name, sampler.name, 5)) {
                Ok(chain) => chain,
                // A refused pairing says why (tests/pairings.rs checks the message in full).
                Err(message) => {
                    assert!(message.contains("cannot run on target"), "{message}");
                    continue;
                }
            };
            chain.run(300);
            match chain.status() {
                ChainStatus::Running => assert!(chain.position().iter().all(|x| x.is_finite())),
                ChainStatus::Diverged(message) => assert!(message.contains("diverged"), "{message}"),
            }
            assert!(!chain.diagnostics().is_empty(), "{} reports no diagnostics", sampler.name);
            assert!(chain.grad_evals() > 0, "{} on {} counted no gradient evaluations", sampler.name, target.name);
        }
    }
}

#[test]
fn singular_fisher_estimates_stop_the_chain_instead_of_panicking() {
    // Identical per-datum scores without synthetic noise and a flat prior: the empirical Fisher is
    // 0, so SGFS has only its ridge and OSGFS a singular H. The state must run off (non-finite or
    // huge: the chain's divergence guard stops it) without a panic.
    let model = IdenticalScores { noise_sd: 0.0 };
    for (name, mut sampler) in [
        ("sgfs_f", Box::new(Sgfs::new(&model, vec![0.5, 0.5], &values(sgfs::PARAMS, &[("batch_size", 10.0)]), false)) as Box<dyn Sampler>),
        ("sgfs_d", Box::new(Sgfs::new(&model, vec![0.5, 0.5], &values(sgfs::PARAMS, &[("batch_size", 10.0)]), true))),
        ("osgfs", Box::new(Osgfs::new(&model, vec![0.5, 0.5], &values(osgfs::PARAMS, &[("batch_size", 10.0)])))),
    ] {
        let mut oracle = GradientOracle::new(&model, 10);
        let mut rng = chain_rng(3);
        let ran_off = (0..1_000).any(|_| {
            sampler.step(&model, &mut oracle, &mut rng);
            sampler.position().iter().any(|x| !x.is_finite() || x.abs() > 1e6)
        });
        assert!(ran_off, "{name} should not keep running with a singular Fisher");
    }
}

#[test]
fn no_sampler_panics_from_an_extreme_or_non_finite_state() {
    // Steps from absurd states must return (non-finite positions are the chain's to catch).
    let model = sgviz::model::linear::LinearRegression::synthetic(&ParamValues::defaults(sgviz::model::linear::PARAMS));
    for spec in sgviz::registry::SAMPLERS.iter().filter(|s| s.kind != sgviz::registry::SamplerKind::Bouncy) {
        for start in [[1e200, -1e200], [f64::NAN, 0.0], [f64::INFINITY, 1.0]] {
            let values = ParamValues::defaults(spec.params);
            let mut sampler = (spec.build)(&values, &model, &start);
            let mut oracle = GradientOracle::new(&model, 10);
            let mut rng = chain_rng(1);
            for _ in 0..3 {
                sampler.step(&model, &mut oracle, &mut rng);
            }
            let _ = sampler.diagnostics();
        }
    }
}
