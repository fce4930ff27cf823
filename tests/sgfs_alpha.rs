//! SGFS-f's noise level α, from the slider to the chain (issue 23): the α the user sets, the α a
//! slider move sets on a running chain, and the derived default α, each against the closed-form
//! stationary law of SGFS-f on the Gaussian toy, worked here by hand from docs/sgfs-osgfs.md.
//!
//! On the Gaussian toy the empirical Fisher is the precision P (docs/sgfs-osgfs.md §6: F = P, no
//! prior, ridge 10⁻⁶), a minibatch of n carries gradient noise (N/n − 1)P = (γ − 2)P, and
//! (SGFS.4) with I_N = P is A = (1 − h)I, Q = h²((γ − 2) + α²γ)P⁻¹, h = 2/K, K = (1 + α²)γ.
//! So the stationary covariance is the truth Σ scaled by
//!   c(α) = h((γ − 2) + α²γ)/(2 − h) = (K − 2)/(K − 1)
//! (e.g. γ = 3: c(0) = 1/2, c(0.5) = 7/11, c(2) = 13/14). The defaults' bias criterion E2 ≤ 0.1
//! (docs/sgfs-osgfs.md §6; E2 of cΣ against Σ is 1 − c) is met first at c = 0.9, K = 11:
//! α = √(11/γ − 1) (√(8/3) = 1.63299 at n = 50, N = 100). A deliberate α/100 in SGFS's
//! derivation was once invisible to a chain at its defaults: that is because src/promise.rs
//! moves a derived default that breaks the bias promise back to the nearest value that keeps it,
//! which is the same boundary c = 0.9 (tested below: the derivation is pinned on its own).

use sgviz::chain::{Chain, ChainConfig};
use sgviz::diagnostics::batch_means_standard_error;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::params::ParamValues;

/// N = 100 pseudo-data of the toy (src/model/toy.rs) and the correlation of the page's default.
const N: f64 = 100.0;
const RHO: f64 = 0.9;

/// c(α) = (K − 2)/(K − 1), K = (1 + α²)γ (module docs).
fn scale(alpha: f64, gamma: f64) -> f64 {
    let k = (1.0 + alpha * alpha) * gamma;
    (k - 2.0) / (k - 1.0)
}

/// Records `steps` samples of the chain (after discarding `burn` steps) and checks Var θ₁, Var θ₂
/// and Cov(θ₁, θ₂) against c·Σ within 4 batch-means MCSE; then that c at α/100 is resolved from
/// the samples by more than 8 MCSE (so a mis-scaled α cannot pass).
fn check_law(chain: &mut Chain, burn: u64, steps: u64, alpha: f64, gamma: f64) {
    chain.run(burn);
    let mut points: Vec<[f64; 2]> = Vec::with_capacity(steps as usize);
    chain.run_observed(steps, &mut |x| points.push([x[0], x[1]]));
    assert_eq!(points.len() as u64, steps, "every step is a sample");
    let truth = [[1.0, RHO], [RHO, 1.0]];
    let c = scale(alpha, gamma);
    let wrong = scale(alpha / 100.0, gamma);
    for (a, b) in [(0, 0), (1, 1), (0, 1)] {
        let mean = |j: usize| points.iter().map(|p| p[j]).sum::<f64>() / points.len() as f64;
        let (ma, mb) = (mean(a), mean(b));
        let products: Vec<f64> = points.iter().map(|p| (p[a] - ma) * (p[b] - mb)).collect();
        let estimate = products.iter().sum::<f64>() / products.len() as f64;
        let se = batch_means_standard_error(&products, 50);
        let expected = c * truth[a][b];
        assert!((estimate - expected).abs() < 4.0 * se, "α = {alpha}: Σ[{a}{b}] = {estimate:.4} vs c·Σ = {expected:.4} (c = {c:.5}, MCSE {se:.4})");
        assert!((wrong - c).abs() * truth[a][b] > 8.0 * se, "α = {alpha}: the law at α/100 ({wrong:.4}) is not resolved (MCSE {se:.4})");
    }
}

#[test]
fn sgfs_f_follows_its_closed_form_law_at_two_alphas_set_on_the_slider() {
    // n = 50, γ = 3: c(0.5) = 7/11, c(2) = 13/14 (hand arithmetic, module docs).
    assert!((scale(0.5, 3.0) - 7.0 / 11.0).abs() < 1e-15 && (scale(2.0, 3.0) - 13.0 / 14.0).abs() < 1e-15);
    let config = ChainConfig::new("gaussian", "sgfs_f", 5).with("batch_size", 50).with("sgfs_alpha", 0.5);
    let mut chain = Chain::new(&config).unwrap();
    assert_eq!(chain.sampler_params().get("sgfs_alpha"), 0.5, "the α the user set is the chain's");
    check_law(&mut chain, 20_000, 150_000, 0.5, 3.0);
    // The slider moved on the running chain (the page's path): the law must follow at once.
    chain.set_sampler_param("sgfs_alpha", 2.0).unwrap();
    check_law(&mut chain, 5_000, 200_000, 2.0, 3.0);
}

/// α = √(11/γ − 1) with γ = (n + N)/n at the derived batch n (module docs).
fn alpha_at_the_bias_limit(batch: f64) -> f64 {
    (11.0 * batch / (batch + N) - 1.0).sqrt()
}

#[test]
fn sgfs_f_derived_alpha_on_the_gaussian_toy_is_where_its_law_reaches_e2_one_tenth() {
    assert!((alpha_at_the_bias_limit(50.0) - (8.0f64 / 3.0).sqrt()).abs() < 1e-15);
    let spec = sgviz::registry::sampler("sgfs_f").unwrap();
    for (sd1, sd2, rho) in [(1.0, 1.0, RHO), (2.0, 0.5, -0.6)] {
        let model = CorrelatedGaussian::new(sd1, sd2, rho, 0.0);
        let derived = (spec.derive)(&model, &ParamValues::defaults(spec.params));
        let get = |name: &str| derived.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("{name} is derived")).default;
        let (alpha, batch) = (get("sgfs_alpha"), get("batch_size"));
        let expected = alpha_at_the_bias_limit(batch);
        // The derivation bisects to ≈ 10⁻⁹ relative and steps just above the biased side.
        assert!((alpha - expected).abs() < 1e-6 * expected, "σ = ({sd1}, {sd2}), ρ = {rho}: derived α = {alpha} at n = {batch}, the law reaches E2 = 0.1 at {expected}");
    }
}

#[test]
fn a_chain_at_its_defaults_runs_the_alpha_of_the_bias_limit() {
    let chain = Chain::new(&ChainConfig::new("gaussian", "sgfs_f", 1)).unwrap();
    let (alpha, batch) = (chain.sampler_params().get("sgfs_alpha"), chain.sampler_params().get("batch_size"));
    let expected = alpha_at_the_bias_limit(batch);
    // src/promise.rs checks the default against the law of src/law.rs, whose I_N keeps the ridge
    // λ = 10⁻⁶: against the smallest precision 1/(1 + ρ) = 0.53 it moves the boundary by ≈ 2·10⁻⁶
    // (measured: α = 1.6329959 against 1.6329932), and the promise moves the default onto it.
    assert!((alpha - expected).abs() < 2e-5 * expected, "the chain runs α = {alpha} at n = {batch}; the law reaches E2 = 0.1 at {expected}");
}

