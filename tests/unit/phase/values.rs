//! Hand-worked values of the phase picture (src/phase.rs; issue 23, mutation testing): the two
//! noise variances and their crossing (docs/sgld.md §3, Welling & Teh eq. 10), the score-covariance
//! scale on four data whose covariance is worked by hand, the rule that rounding-level score
//! variance counts as zero, the MH rejection probability against a separately written MALA ratio
//! on the closed-form Gaussian posterior, and the log grid. No expected value is read from
//! phase.rs: every number below is worked by hand or computed by the test's own formulas.
//!
//! Unit tests of src/phase.rs (`phase::values`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::rng::{standard_normal, ChainRng};
use sgviz::phase::*;
use sgviz::model::View;
use sgviz::rng::chain_rng;

/// Gaussian mean model written for these tests: data x_i ∈ R^D, ℓ_i(θ) = −‖x_i − θ‖²/(2σ²), prior
/// N(0, τ²I), optional synthetic noise s. Its scores are (x_i − θ)/σ², so their covariance is the
/// data's covariance over σ⁴ whatever θ, and the posterior is N(μ, I/P) with P = 1/τ² + N/σ²,
/// μ = Σx_i/(σ²P).
struct MeanModel {
    data: Vec<Vec<f64>>,
    sigma: f64,
    tau: f64,
    noise: f64,
}

impl Model for MeanModel {
    fn dim(&self) -> usize {
        self.data[0].len()
    }
    fn n_data(&self) -> usize {
        self.data.len()
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        -theta.iter().map(|t| t * t).sum::<f64>() / (2.0 * self.tau * self.tau)
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        for (o, t) in out.iter_mut().zip(theta) {
            *o -= t / (self.tau * self.tau);
        }
    }
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        -self.data[i].iter().zip(theta).map(|(x, t)| (x - t).powi(2)).sum::<f64>() / (2.0 * self.sigma * self.sigma)
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        for ((o, x), t) in out.iter_mut().zip(&self.data[i]).zip(theta) {
            *o += (x - t) / (self.sigma * self.sigma);
        }
    }
    fn synthetic_noise_sd(&self) -> f64 {
        self.noise
    }
    fn view(&self) -> View {
        View::centred(0.0, 0.0, 5.0, 5.0)
    }
}

/// Four 2-D data (0, 0), (1, 2), (3, 1), (4, 5): mean (2, 2), deviations (−2, −2), (−1, 0),
/// (1, −1), (2, 3); covariance with divisor 4: [[10, 9], [9, 14]]/4 = [[2.5, 2.25], [2.25, 3.5]];
/// λ_max = 3 + √(0.5² + 2.25²) = 3 + √5.3125 = 5.304886 (2×2: tr/2 + √((a − d)²/4 + b²)).
fn four_data(noise: f64) -> MeanModel {
    MeanModel { data: vec![vec![0.0, 0.0], vec![1.0, 2.0], vec![3.0, 1.0], vec![4.0, 5.0]], sigma: 0.5, tau: 2.0, noise }
}
const FOUR_DATA_LAMBDA: f64 = 5.304_886_114_323_222;

#[test]
fn the_two_noise_variances_their_ratio_and_crossing_are_the_hand_worked_numbers() {
    let scale = NoiseScale { gradient_noise_scale: 6.0, batch_size: 3, n_data: 10 };
    // ε = 0.3: injected ε = 0.3, gradient noise ε²/4 · 6 = 0.09 · 1.5 = 0.135, ratio 0.45; equal at ε = 4/6.
    assert_eq!(scale.injected(0.3), 0.3);
    assert!((scale.gradient_noise(0.3) - 0.135).abs() < 1e-15, "{}", scale.gradient_noise(0.3));
    assert!((scale.threshold(0.3) - 0.45).abs() < 1e-15, "{}", scale.threshold(0.3));
    assert!((scale.crossing().unwrap() - 2.0 / 3.0).abs() < 1e-15, "{:?}", scale.crossing());
    // No gradient noise (full batch, no synthetic noise): the curves never cross.
    assert_eq!(NoiseScale { gradient_noise_scale: 0.0, batch_size: 10, n_data: 10 }.crossing(), None);
}

#[test]
fn the_noise_scale_of_four_data_is_n_squared_over_n_times_the_finite_population_factor_times_lambda_over_sigma_to_the_fourth() {
    // Scores (x_i − θ)/σ² with σ = 0.5: covariance 16 × the data's, λ_max = 16 · 5.304886. With
    // N = 4 and n = 3: (N²/n)(N − n)/(N − 1) = (16/3)(1/3) = 16/9; plus s² = 0.75² = 0.5625. Two points far
    // from the data's mean (mean scores of size ≫ λ), whose λ is the same: the average is λ.
    let model = four_data(0.75);
    let points = [vec![-3.0, 2.5], vec![9.0, -4.0]];
    let scale = noise_scale(&model, &points, 3, 1000, &mut chain_rng(1));
    let expected = 16.0 / 9.0 * 16.0 * FOUR_DATA_LAMBDA + 0.5625;
    assert!((scale.gradient_noise_scale - expected).abs() < 1e-9 * expected, "{} vs {expected}", scale.gradient_noise_scale);
    assert_eq!((scale.batch_size, scale.n_data), (3, 4));
    // n = 1: (16/1)(3/3) = 16; a batch of 0 is read as 1.
    let one = noise_scale(&model, &points[..1], 0, 1000, &mut chain_rng(1));
    let expected = 16.0 * 16.0 * FOUR_DATA_LAMBDA + 0.5625;
    assert!((one.gradient_noise_scale - expected).abs() < 1e-9 * expected, "{} vs {expected}", one.gradient_noise_scale);
    assert_eq!(one.batch_size, 1);
    // n = N (a batch above N is clamped to it): no gradient noise, only s².
    let full = noise_scale(&model, &points, 10, 1000, &mut chain_rng(1));
    assert_eq!((full.gradient_noise_scale, full.batch_size), (0.5625, 4));
    // At most one datum examined: one score has no spread, so only s² remains.
    let capped = noise_scale(&model, &points, 1, 1, &mut chain_rng(1));
    assert_eq!(capped.gradient_noise_scale, 0.5625);
    // No points: λ = 0.
    assert_eq!(noise_scale(&model, &[], 1, 1000, &mut chain_rng(1)).gradient_noise_scale, 0.5625);
}

/// 1-D data 1000 ± δ (or ±δ about 0), alternating, σ = 1, no synthetic noise; θ = 0, so the
/// scores are the data and their variance (divisor N) is δ².
fn spread_of(centre: f64, delta: f64) -> f64 {
    let data = (0..4).map(|i| vec![centre + if i % 2 == 0 { delta } else { -delta }]).collect();
    let model = MeanModel { data, sigma: 1.0, tau: 1.0, noise: 0.0 };
    noise_scale(&model, &[vec![0.0]], 1, 1000, &mut chain_rng(1)).gradient_noise_scale
}

#[test]
fn score_variance_at_rounding_level_of_the_mean_score_counts_as_zero_and_above_it_counts() {
    // Rule (phase.rs): λ counts only above 10⁻²⁰ (1 + ‖mean score‖²). Mean score 1000: the limit
    // is ≈ 10⁻¹⁴. δ = 10⁻⁸ (λ = 10⁻¹⁶, an sd of 10⁻¹¹ of the mean) is below it: zero.
    assert_eq!(spread_of(1000.0, 1e-8), 0.0);
    // δ = 10⁻⁵ (λ = 10⁻¹⁰) is above it: (N²/n)(N − n)/(N − 1) λ = 16 · 10⁻¹⁰ (to the rounding
    // of 1000 ± 10⁻⁵, 10⁻¹³ absolute: relative 10⁻⁸ on δ).
    let counted = spread_of(1000.0, 1e-5);
    assert!((counted - 16e-10).abs() < 1e-6 * 16e-10, "{counted}");
    // Mean score exactly 0: the limit is 10⁻²⁰. δ = 7·10⁻¹¹ (λ = 4.9·10⁻²¹) is below it;
    // δ = 2·10⁻¹⁰ (λ = 4·10⁻²⁰) above: 16 · 4·10⁻²⁰.
    assert_eq!(spread_of(0.0, 7e-11), 0.0);
    let tiny = spread_of(0.0, 2e-10);
    assert!((tiny - 64e-20).abs() < 1e-9 * 64e-20, "{tiny}");
}

/// The MH rejection probability of one full-data Langevin proposal from each point, written out
/// from the closed-form posterior N(μ, I/P) of `MeanModel` (log π = −P‖θ − μ‖²/2, ∇ = −P(θ − μ))
/// and the Langevin proposal density q(b | a) ∝ exp(−‖b − a − (ε/2)∇log π(a)‖²/(2ε)), with the
/// proposal noise drawn from `rng` point by point, coordinate by coordinate.
fn rejection_by_hand(model: &MeanModel, points: &[Vec<f64>], step: f64, rng: &mut ChainRng) -> f64 {
    let n = model.data.len() as f64;
    let precision = 1.0 / (model.tau * model.tau) + n / (model.sigma * model.sigma);
    let dim = model.data[0].len();
    let mu: Vec<f64> = (0..dim).map(|j| model.data.iter().map(|x| x[j]).sum::<f64>() / (model.sigma * model.sigma) / precision).collect();
    let log_pi = |t: &[f64]| -0.5 * precision * t.iter().zip(&mu).map(|(a, m)| (a - m).powi(2)).sum::<f64>();
    let drift = |t: &[f64]| t.iter().zip(&mu).map(|(a, m)| a - 0.5 * step * precision * (a - m)).collect::<Vec<f64>>();
    let log_q = |to: &[f64], from: &[f64]| -drift(from).iter().zip(to).map(|(d, t)| (t - d).powi(2)).sum::<f64>() / (2.0 * step);
    let mut rejected = 0.0;
    for theta in points {
        let mean = drift(theta);
        let proposal: Vec<f64> = mean.iter().map(|m| m + step.sqrt() * standard_normal(rng)).collect();
        let log_r = log_pi(&proposal) - log_pi(theta) + log_q(theta, &proposal) - log_q(&proposal, theta);
        rejected += 1.0 - log_r.exp().min(1.0);
    }
    rejected / points.len() as f64
}

#[test]
fn the_rejection_probability_is_the_langevin_mh_ratio_on_the_closed_form_posterior() {
    // P = 1/4 + 4/0.25 = 16.25, μ = (8, 8)/0.25/16.25 = (1.969231, 1.969231): at ε = 0.12, 0.2, 0.3
    // (εP = 1.95, 3.25, 4.9) the Langevin proposal overshoots and is often rejected; three points, one far in the tail.
    let model = four_data(0.0);
    let points = [vec![1.5, 2.5], vec![2.2, 1.7], vec![-1.0, 4.0]];
    for (seed, step) in [(3, 0.12), (4, 0.2), (5, 0.3)] {
        let mut rng = chain_rng(seed);
        let mut copy = rng.clone();
        let measured = mh_rejection_probability(&model, &points, step, &mut rng);
        let expected = rejection_by_hand(&model, &points, step, &mut copy);
        assert!(expected > 0.01 && expected < 0.99, "a case where the ratio matters: {expected}");
        assert!((measured - expected).abs() < 1e-9, "ε = {step}: {measured} vs {expected}");
    }
    assert!(mh_rejection_probability(&model, &[], 0.1, &mut chain_rng(1)).is_nan());
}

#[test]
fn the_log_grid_is_evenly_spaced_in_log_between_its_ends() {
    let grid = log_grid(0.01, 100.0, 5);
    for (g, e) in grid.iter().zip([0.01, 0.1, 1.0, 10.0, 100.0]) {
        assert!((g / e - 1.0).abs() < 1e-12, "{grid:?}");
    }
    assert_eq!(grid.len(), 5);
    let three = log_grid(2.0, 8.0, 3);
    assert!(three.len() == 3 && (three[1] - 4.0).abs() < 1e-12 && (three[2] - 8.0).abs() < 1e-12, "{three:?}");
    assert_eq!(log_grid(0.5, 8.0, 1), vec![0.5]);
    assert!(log_grid(0.5, 8.0, 0).is_empty());
}
