//! Where a law's number may be shown (issue 21, docs/diagnostics.md §7 addendum "where a law's
//! number may be shown", src/law_validity.rs): the s42 review's stated numbers far from the screen.
//! Each case's oracle is the chain itself, run here (seeded): a number printed as what the runs
//! settle at must be what they show, and a setting whose runs show something else is warned for
//! what they show. E2 against the closed-form (Gaussian toy) or grid-quadrature (mixture) truth.

#[path = "common/sweep.rs"]
mod sweep;
mod common;

use sgviz::chain::{Chain, ChainConfig, ChainStatus};
use sgviz::setting_warning::Failure;

/// E2 of one run of `samples` samples (seed `seed`) against `target`'s truth.
fn run_e2(config: &ChainConfig, seed: u64, samples: u64) -> f64 {
    let truth = common::reference(&config.target).moments;
    let mut config = config.clone();
    config.seed = seed;
    let mut chain = Chain::new(&config).unwrap();
    while chain.promise_samples() < samples {
        chain.run(samples - chain.promise_samples());
        assert!(matches!(chain.status(), ChainStatus::Running), "{:?}", chain.status());
    }
    sweep::e2(&chain.moments().cov, &truth.cov)
}

/// The number a bias warning prints as where E2 settles ("E2 stays at b"), if any.
fn settles_at(text: &str) -> Option<String> {
    text.split("E2 stays at ").nth(1).map(|t| t.split(',').next().unwrap_or(t).to_string())
}

#[test]
fn sghmc_without_friction_is_warned_without_a_stationary_number() {
    // Gaussian toy, SGHMC at κ = 0 (minibatch 30 of 100: noisy gradients, β̂ = 0). The runs' E2
    // grows with their length: no law it settles at (V1). It printed "E2 stays at 7.31·10¹²".
    let config = ChainConfig::new("gaussian", "sghmc", 1).with("friction", 0);
    let warning = Chain::new(&config).unwrap().setting_warning().expect("κ = 0 is warned");
    assert_eq!(settles_at(&warning.text), None, "{}", warning.text);
    assert!(warning.text.contains("no stationary law") && warning.param == "friction", "{}", warning.text);
    let (short, long) = (run_e2(&config, 1, 5_000), run_e2(&config, 1, 40_000));
    assert!(short > 0.3 && long > 3.0 * short, "E2 after 5,000: {short}, after 40,000: {long}");
}

#[test]
fn a_frozen_sgfs_chain_is_warned_for_what_its_runs_show() {
    // Gaussian toy, SGFS-f at the ridge slider's maximum λ = 10⁶: the preconditioned step is 10⁶
    // times too short, the chain stays where it started (V2). It printed the stationary law's
    // "E2 stays at 0.273"; every run shows E2 ≈ 1.
    let config = ChainConfig::new("gaussian", "sgfs_f", 1).with("sgfs_ridge", 1e6);
    let warning = Chain::new(&config).unwrap().setting_warning().expect("λ = 10⁶ is warned");
    assert_eq!(settles_at(&warning.text), None, "{}", warning.text);
    assert!(warning.failure == Failure::Mixing && warning.param == "sgfs_ridge", "{warning:?}");
    for seed in 1..=5 {
        let e2 = run_e2(&config, seed, 5_000);
        assert!(e2 > 0.9, "seed {seed}: E2 {e2}");
    }
}

#[test]
fn an_approximate_law_beyond_its_summary_states_no_size() {
    // Mixture (Welling & Teh 2011 §5.1), SGHMC at minibatch 10: the linearised law said "E2 stays
    // at 0.128"; a run of 200,000 samples settles near 0.37 (V3). The warning stays a bias
    // warning (the run shows the bias) without a size.
    let config = ChainConfig::new("mixture", "sghmc", 1).with("batch_size", 10);
    let warning = Chain::new(&config).unwrap().setting_warning().expect("n = 10 is warned");
    assert_eq!(settles_at(&warning.text), None, "{}", warning.text);
    assert_eq!(warning.failure, Failure::Bias, "{warning:?}");
    let long = run_e2(&config, 1, 200_000);
    // The bias it names is real: far above 0.1 after 200,000 samples (Monte-Carlo part ≈ 0.02).
    assert!(long > 0.2, "E2 after 200,000 samples: {long}");
}

/// ρ(A) against closed forms, and in bounded time on a matrix that overflowed: a rotation by 0.7 rad
/// scaled by 0.9 has eigenvalues 0.9·e^{±0.7i}, a Jordan block's radius is its diagonal, and a
/// matrix with a NaN or ∞ entry (a law at a slider's far end) is ∞. The old unbounded Schur
/// iteration never returned on the last case (hardening's all-maximum draw hung in CI).
#[test]
fn spectral_radius_is_right_and_returns_on_a_matrix_that_overflowed() {
    use nalgebra::DMatrix;
    use sgviz::law_validity::spectral_radius;
    let (c, s) = (0.9 * 0.7f64.cos(), 0.9 * 0.7f64.sin());
    let rotation = DMatrix::from_row_slice(2, 2, &[c, -s, s, c]);
    assert!((spectral_radius(&rotation) - 0.9).abs() < 1e-12);
    let jordan = DMatrix::from_row_slice(3, 3, &[0.5, 1.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.5]);
    assert!((spectral_radius(&jordan) - 0.5).abs() < 1e-9);
    for bad in [f64::NAN, f64::INFINITY] {
        let mut m = DMatrix::identity(4, 4) * 0.5;
        m[(1, 2)] = bad;
        assert_eq!(spectral_radius(&m), f64::INFINITY);
    }
}

/// The radius memo returns what the computation would (issue 23, fifteenth round): 600 distinct
/// triangular matrices (ρ their largest diagonal entry, known in closed form), more than the memo
/// keeps, each asked twice in an order that mixes hits and evicted entries, and twins that differ
/// from a memoised matrix only in their last entry (ρ = 1.5 there), which must not be taken for it.
#[test]
fn the_radius_memo_returns_the_radius_of_the_matrix_asked() {
    use nalgebra::DMatrix;
    use sgviz::law_validity::{schur_radius, spectral_radius};
    let triangular = |k: usize, last: Option<f64>| {
        let r = 0.5 + k as f64 / 1000.0;
        let mut m = DMatrix::from_fn(4, 4, |i, j| if i == j { r / (1 + i) as f64 } else if j > i { 0.3 } else { 0.0 });
        if let Some(v) = last {
            m[(3, 3)] = v;
        }
        (m, r)
    };
    let order: Vec<usize> = (0..600).chain((0..600).rev()).chain((0..600).step_by(7)).collect();
    for k in order {
        let (m, r) = triangular(k, None);
        let rho = spectral_radius(&m);
        assert!((rho - r).abs() < 1e-12, "matrix {k}: ρ {rho}, closed form {r}");
        assert_eq!(rho.to_bits(), schur_radius(&m).to_bits(), "matrix {k}: the memo's value differs from the computation's");
        let (twin, _) = triangular(k, Some(1.5));
        assert!((spectral_radius(&twin) - 1.5).abs() < 1e-12, "matrix {k}'s twin (last entry 1.5) read as {}", spectral_radius(&twin));
    }
}

/// V1's marginal check: a rotation (ρ = 1 exactly) is marginal, the same rotation scaled by
/// 0.999 and a non-normal matrix with ρ = 0.5 but a large first power are not (the cheap Gelfand
/// bound must not call a settling law marginal, nor skip a marginal one).
#[test]
fn the_marginal_check_separates_rho_one_from_rho_below_it() {
    use nalgebra::DMatrix;
    use sgviz::law_validity::is_marginal;
    let rotation = |r: f64| DMatrix::from_row_slice(2, 2, &[r * 0.3f64.cos(), -r * 0.3f64.sin(), r * 0.3f64.sin(), r * 0.3f64.cos()]);
    assert!(is_marginal(&rotation(1.0)));
    assert!(!is_marginal(&rotation(0.999)));
    assert!(!is_marginal(&DMatrix::from_row_slice(2, 2, &[0.5, 100.0, 0.0, 0.5])));
    assert!(!is_marginal(&DMatrix::from_row_slice(2, 2, &[1.01, 0.0, 0.0, 0.2])), "diverging is not marginal");
}
