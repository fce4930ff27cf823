//! Unit tests of SBPS's parts: the regression against the normal equations, the preconditioner, the
//! noise sd, the band's slope and grid, refresh seeding and pSBPS's switching of A.
//!
//! Unit tests of src/sampler/sbps/mod.rs (`sampler::sbps::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::sampler::sbps::observation::Observation;
use sgviz::sampler::{GradientOracle, Sampler};
use sgviz::sampler::sbps::band::{band_resolution, MAX_BAND_CELLS};
use sgviz::sampler::bouncy::dot;
use sgviz::sampler::sbps::*;

#[test]
fn regression_matches_the_reference_normal_equations() {
    // docs/bouncy.md §4 in the code's uncentred form: P = Σ w φφᵀ + diag(0, 1/σ_β²), β̂ = P⁻¹ (Σ wG, Σ wGt + μ/σ_β²).
    let data = [(0.0, -2.0, 1.0), (0.3, 0.5, 2.0), (0.7, 1.9, 0.5), (1.2, 4.0, 1.5)];
    let mu = 0.8;
    let mut r = SlopeRegression::default();
    let (mut p00, mut p01, mut p11, mut r0, mut r1) = (0.0, 0.0, 1.0 / SLOPE_PRIOR_VARIANCE, 0.0, mu / SLOPE_PRIOR_VARIANCE);
    for &(t, g, sd) in &data {
        r.add(t, g, sd);
        let w = 1.0 / (sd * sd);
        p00 += w;
        p01 += w * t;
        p11 += w * t * t;
        r0 += w * g;
        r1 += w * g * t;
    }
    let det = p00 * p11 - p01 * p01;
    let (s00, s01, s11) = (p11 / det, -p01 / det, p00 / det);
    let (b0, b1) = (s00 * r0 + s01 * r1, s01 * r0 + s11 * r1);
    assert!((r.slope(mu) - b1).abs() < 1e-9 * b1.abs());
    let t = 2.0;
    assert!((r.mean_at(t, mu) - (b0 + b1 * t)).abs() < 1e-9);
    let var = s00 + 2.0 * s01 * t + s11 * t * t;
    assert!((r.line_variance_at(t) - var).abs() < 1e-9 * var);
    assert!((r.upper_band(t, 3.0, mu) - (b0 + b1 * t + 3.0 * (var + 1.5f64.powi(2)).sqrt())).abs() < 1e-9);
}

#[test]
fn preconditioner_is_the_sbps_public_ema_with_epsilon_and_mean_one() {
    // ĝ² = β ĝ²_old + (1 − β)(g⊙g + s²) from 0 with β = 0.99 (β multiplies the OLD average) and
    // s² the minibatch's per-datum score variance; a_i ∝ 1/(√ĝ²_i + 10⁻⁴), normalised to mean 1
    // (docs/bouncy.md §8).
    let mut p = DiagonalPreconditioner::new(2);
    let (g1, g2) = ([2.0, 1e-3], [4.0, 3e-3]);
    let (s1, s2) = ([0.5, 2e-6], [0.0, 7e-6]);
    p.update(&g1, &s1);
    p.update(&g2, &s2);
    let average = |j: usize| 0.99 * (0.01 * (g1[j] * g1[j] + s1[j])) + 0.01 * (g2[j] * g2[j] + s2[j]);
    let raw: Vec<f64> = (0..2).map(|j| 1.0 / (average(j).sqrt() + 1e-4)).collect();
    let mean = 0.5 * (raw[0] + raw[1]);
    for j in 0..2 {
        assert!((p.diagonal[j] - raw[j] / mean).abs() < 1e-12 * raw[j] / mean, "{:?}", p.diagonal);
    }
}

#[test]
fn noise_sd_has_the_finite_population_factor_on_the_minibatch_part_only() {
    // σ² = N²(1 − n/N) s²_pop/n + s²‖u‖² (docs/bouncy.md §3): scores of n = 4 data out of N = 10 in 2-D,
    // synthetic noise s = 3, direction u = (0.6, 0.8)·2.
    let obs = Observation {
        grad_u: vec![1.0, -2.0],
        scores: vec![1.0, 0.0, 0.0, 1.0, -1.0, 2.0, 3.0, -1.0],
        noise: vec![0.0, 0.0],
        noise_var: 9.0,
    };
    let u = [1.2, 1.6];
    let p: Vec<f64> = obs.scores.chunks(2).map(|r| dot(r, &u)).collect();
    let mean = p.iter().sum::<f64>() / 4.0;
    let pop_var = p.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 4.0;
    let expected = 100.0 * (1.0 - 0.4) * pop_var / 4.0 + 9.0 * dot(&u, &u);
    let projected = obs.project(&u, 10);
    assert!((projected.sd.powi(2) - expected).abs() < 1e-12 * expected);
    assert_eq!(projected.g, dot(&u, &obs.grad_u));
    assert!(!projected.clamped);
    // At n = N only the synthetic part is left, not the floor.
    let full = Observation { scores: obs.scores[..4].to_vec(), ..obs.clone() };
    assert!((full.project(&u, 2).sd.powi(2) - 9.0 * dot(&u, &u)).abs() < 1e-9);
}

#[test]
fn band_slope_far_ahead_is_the_fitted_slope_plus_k_sds() {
    let mut r = SlopeRegression::seeded(0.0, 5.0, 1.0);
    r.add(0.5, 1.0, 1.0);
    r.add(1.0, -4.0, 1.0);
    let (k, mu) = (3.0, 2.0);
    let sd = (1.0 / (r.c_tt + 1.0 / SLOPE_PRIOR_VARIANCE)).sqrt();
    assert!((r.asymptotic_band_slope(k, mu) - (r.slope(mu) + k * sd)).abs() < 1e-12);
    // The band itself grows at that rate far ahead.
    let far = 1e6;
    let rate = r.upper_band(far + 1.0, k, mu) - r.upper_band(far, k, mu);
    assert!((rate - r.asymptotic_band_slope(k, mu)).abs() < 1e-6, "{rate}");
    assert!(r.asymptotic_band_slope(k, mu) < 0.0, "a strongly negative fit: G falls by 9 in 1 with σ = 1");
}

#[test]
fn the_band_grid_has_at_most_ten_thousand_cells() {
    assert_eq!(band_resolution(0.01, 0.5), 0.01);
    assert!(1000.0 / band_resolution(1e-5, 1000.0) <= MAX_BAND_CELLS * (1.0 + 1e-12));
}

#[test]
fn a_refresh_seeds_the_new_regression_with_plus_the_projected_gradient() {
    // docs/bouncy.md §6: after a refresh the new segment's regression holds one observation at t = 0,
    // +G̃ = v_new·∇Ũ(w) (the reference code negates it, a bug). Full batch on the Gaussian
    // (exact ∇Ũ = −∇log π, computed here from the model, not from the sampler), no auxiliary
    // points, the largest refresh rate: every refresh step is checked.
    use sgviz::model::gaussian::CorrelatedGaussian;
    use sgviz::rng::chain_rng;
    let model = CorrelatedGaussian::new(1.0, 2.0, 0.6, 0.0);
    let mut values = ParamValues::defaults(PARAMS);
    for (name, value) in [("batch_size", 100.0), ("refresh_rate", 5.0), ("aux_points", 0.0)] {
        values.set(PARAMS, name, value).unwrap();
    }
    let mut sampler = Sbps::new(&model, vec![1.5, -2.0], &values, false);
    let mut oracle = GradientOracle::new(&model, 100);
    let mut rng = chain_rng(3);
    let mut checked = 0;
    for _ in 0..400 {
        let before = sampler.refreshes();
        sampler.step(&model, &mut oracle, &mut rng);
        if sampler.refreshes() == before {
            continue;
        }
        let mut grad = vec![0.0; 2];
        model.grad_log_density(&sampler.w, &mut grad);
        let expected = -dot(&sampler.v, &grad);
        let r = &sampler.regression;
        assert_eq!(r.t_mean, 0.0);
        assert!((r.g_mean - expected).abs() <= 1e-9 * (1.0 + expected.abs()), "seeded with {} after a refresh, expected +G̃ = {expected}", r.g_mean);
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} refreshes");
}

#[test]
fn psbps_switches_to_the_ema_of_every_observed_mean_gradient_at_each_restart() {
    // docs/bouncy.md §8 through the sampler: every iteration's observation updates
    // ĝ² ← βĝ² + (1 − β)(ḡ² + s²) with ḡ = ∇Ũ/N at the observed point (the start point first) and
    // s² the per-datum scores' population variance; A takes the normalised 1/(√ĝ² + ε) only at a
    // bounce or refresh. Full batch on a Gaussian with unequal scales: ∇Ũ = −∇log π exactly, and
    // the scores of all N pseudo-data, computed here from the model.
    use sgviz::model::gaussian::CorrelatedGaussian;
    use sgviz::rng::chain_rng;
    let model = CorrelatedGaussian::new(1.0, 3.0, 0.0, 0.0);
    let mut values = ParamValues::defaults(PSBPS_PARAMS);
    for (name, value) in [("batch_size", 100.0), ("refresh_rate", 1.0), ("aux_points", 0.0), ("adapt_iterations", 1e6)] {
        values.set(PSBPS_PARAMS, name, value).unwrap();
    }
    let start = vec![0.7, -2.0];
    let mut sampler = Sbps::preconditioned(&model, start.clone(), &values);
    let mut oracle = GradientOracle::new(&model, 100);
    let mut rng = chain_rng(5);
    let (beta, n) = (0.99, model.n_data() as f64);
    let mut average = [0.0f64; 2];
    let observe = |w: &[f64], average: &mut [f64; 2]| {
        let mut g = vec![0.0; 2];
        model.grad_log_density(w, &mut g);
        let scores: Vec<Vec<f64>> = (0..model.n_data())
            .map(|i| {
                let mut s = vec![0.0; 2];
                model.add_grad_log_lik(i, w, &mut s);
                s
            })
            .collect();
        for j in 0..2 {
            let mean = scores.iter().map(|s| s[j]).sum::<f64>() / n;
            let spread = scores.iter().map(|s| (s[j] - mean).powi(2)).sum::<f64>() / n;
            average[j] = beta * average[j] + (1.0 - beta) * ((g[j] / n).powi(2) + spread);
        }
        let raw: Vec<f64> = average.iter().map(|s| 1.0 / (s.sqrt() + 1e-4)).collect();
        let mean = 0.5 * (raw[0] + raw[1]);
        [raw[0] / mean, raw[1] / mean]
    };
    let mut expected = observe(&start, &mut average);
    let mut restarts = 0;
    for step in 0..300 {
        let before = sampler.bounces() + sampler.refreshes();
        sampler.step(&model, &mut oracle, &mut rng);
        let latest = observe(&sampler.w.clone(), &mut average);
        if sampler.bounces() + sampler.refreshes() > before {
            expected = latest;
            restarts += 1;
        }
        for j in 0..2 {
            assert!((sampler.scaling()[j] - expected[j]).abs() <= 1e-9 * expected[j], "step {step}: A = {:?}, expected {expected:?}", sampler.scaling());
        }
    }
    assert!(restarts >= 20, "only {restarts} restarts");
}

#[test]
fn preconditioner_is_normalised_and_favours_small_gradients() {
    let mut p = DiagonalPreconditioner::new(2);
    for _ in 0..50 {
        p.update(&[10.0, 0.1], &[0.0, 0.0]);
    }
    assert!((p.diagonal.iter().sum::<f64>() / 2.0 - 1.0).abs() < 1e-12);
    assert!(p.diagonal[1] / p.diagonal[0] > 90.0);
}

#[test]
fn the_slope_prior_mean_and_negative_slope_fraction_are_the_mean_and_negative_share_of_the_slopes_recorded() {
    // The readouts "learned slope prior mean μ_β" and "negative slope fraction" (docs/bouncy.md
    // §6; issue 23, sixteenth pass): every iteration records the regression's posterior slope
    // β̂₁ under the prior mean of the slopes recorded before it (0 before any). The test keeps its
    // own list: after each step it reads the regression the step left and its slope under the
    // test's own running mean, then compares the mean and the share of negative slopes (per
    // iteration) with the readouts. Noisy gradients on a Gaussian (noise sd 1), so that some of
    // the fitted slopes are negative although the exact one, v·Σ⁻¹v, never is.
    use sgviz::model::gaussian::CorrelatedGaussian;
    use sgviz::rng::chain_rng;
    let model = CorrelatedGaussian::new(1.0, 2.0, 0.6, 1.0);
    let values = ParamValues::defaults(PARAMS);
    let mut sampler = Sbps::new(&model, vec![1.5, -2.0], &values, false);
    let mut oracle = GradientOracle::new(&model, 100);
    let mut rng = chain_rng(11);
    let read = |s: &Sbps, name: &str| s.diagnostics().iter().find(|d| d.name == name).unwrap_or_else(|| panic!("no readout {name}")).value;
    assert_eq!(read(&sampler, "slope_prior_mean"), 0.0, "before any slope μ_β is 0");
    assert_eq!(read(&sampler, "negative_slope_fraction"), 0.0, "before any iteration: 0 of 0");
    let (mut sum, mut negative, steps) = (0.0f64, 0usize, 400usize);
    for step in 1..=steps {
        let prior_mean = if step == 1 { 0.0 } else { sum / (step - 1) as f64 };
        sampler.step(&model, &mut oracle, &mut rng);
        let slope = sampler.regression.slope(prior_mean);
        sum += slope;
        negative += usize::from(slope < 0.0);
        let mean = sum / step as f64;
        assert!((read(&sampler, "slope_prior_mean") - mean).abs() <= 1e-12 * (1.0 + mean.abs()), "step {step}: μ_β = {}, the mean of the slopes {mean}", read(&sampler, "slope_prior_mean"));
    }
    let fraction = negative as f64 / steps as f64;
    assert!(negative >= 10 && negative < steps, "{negative} negative slopes of {steps}: the case must have both signs");
    assert!((read(&sampler, "negative_slope_fraction") - fraction).abs() < 1e-15, "negative slope fraction {}, counted {negative}/{steps}", read(&sampler, "negative_slope_fraction"));
}
