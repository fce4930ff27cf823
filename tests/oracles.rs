//! Known answers computed independently of the code under test (issue 15): every target's log
//! density at a few points from its textbook formula written out here; SGLD's sampling threshold
//! against λ_max of the score covariance computed here in closed form; the polynomial schedule's
//! weighted estimator through the `Chain` against its exact expectation over independent chains.
//! Fast (a few CPU seconds): part of the mutation-testing set (`make mutants`).

use sgviz::chain::{Chain, ChainConfig};
use sgviz::model::banana::Banana;
use sgviz::model::funnel::Funnel;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::model::hyperbola::HyperbolaRidge;
use sgviz::model::linear::LinearRegression;
use sgviz::model::logistic::LogisticRegression;
use sgviz::model::mixture::TiedMixture;
use sgviz::model::softmax::SoftmaxRegression;
use sgviz::model::toy::PseudoData;
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::rng::chain_rng;
use sgviz::sampler::sgld::{self, Sgld};
use sgviz::sampler::{GradientOracle, Sampler};

const LN_2PI: f64 = 1.837_877_066_409_345_5;

/// log N(x; m, v), written out.
fn log_normal(x: f64, m: f64, v: f64) -> f64 {
    -0.5 * (x - m) * (x - m) / v - 0.5 * (LN_2PI + v.ln())
}

fn assert_close(what: &str, got: f64, expected: f64) {
    assert!((got - expected).abs() <= 1e-10 * (1.0 + expected.abs()), "{what}: {got} vs {expected}");
}

/// log π(a) − log π(b) and the gradient at a against the independent formulas (differences make the
/// check independent of additive constants the model may drop; a wrong scale, sign or data term
/// changes them). The gradient is checked against the independent density by central differences.
fn check_differences(what: &str, model: &dyn Model, points: &[Vec<f64>], log_pi: &dyn Fn(&[f64]) -> f64) {
    for pair in points.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert_close(&format!("{what}: log π{a:?} − log π{b:?}"), model.log_density(a) - model.log_density(b), log_pi(a) - log_pi(b));
        let sum: f64 = model.log_prior(a) + (0..model.n_data()).map(|i| model.log_lik(i, a)).sum::<f64>();
        assert!((sum - model.log_density(a)).abs() <= 1e-9 * (1.0 + sum.abs()), "{what}: prior + Σ likelihoods {sum} vs log π {}", model.log_density(a));
        let mut grad = vec![0.0; a.len()];
        model.grad_log_density(a, &mut grad);
        for j in 0..a.len() {
            let h = 1e-5 * (1.0 + a[j].abs());
            let (mut up, mut down) = (a.clone(), a.clone());
            up[j] += h;
            down[j] -= h;
            let fd = (log_pi(&up) - log_pi(&down)) / (2.0 * h);
            assert!((grad[j] - fd).abs() <= 1e-5 * (1.0 + fd.abs()), "{what}: ∂_{j} log π at {a:?} = {} vs {fd}", grad[j]);
        }
    }
}

fn points() -> Vec<Vec<f64>> {
    vec![vec![0.3, -0.8], vec![-1.1, 0.4], vec![1.7, 1.2]]
}

#[test]
fn toy_densities_equal_their_normalised_formulas() {
    // Correlated Gaussian N(0, Σ), σ = (1.3, 0.6), ρ = −0.7: log N by the conditional
    // factorisation θ₁ ~ N(0, σ₁²), θ₂ | θ₁ ~ N(ρσ₂θ₁/σ₁, σ₂²(1 − ρ²)).
    let (s1, s2, rho) = (1.3, 0.6, -0.7);
    let gaussian = CorrelatedGaussian::new(s1, s2, rho, 0.0);
    let gaussian_pdf = |t: &[f64]| log_normal(t[0], 0.0, s1 * s1) + log_normal(t[1], rho * s2 * t[0] / s1, s2 * s2 * (1.0 - rho * rho));
    // Banana a = 2, b = 0.5: θ₁ ~ N(0, a²), θ₂ | θ₁ ~ N(b(θ₁² − a²), 1).
    let banana = PseudoData { density: Banana::new(2.0, 0.5), noise_sd: 0.0 };
    let banana_pdf = |t: &[f64]| log_normal(t[0], 0.0, 4.0) + log_normal(t[1], 0.5 * (t[0] * t[0] - 4.0), 1.0);
    // Funnel σ_v = 1.5: v ~ N(0, σ_v²), x | v ~ N(0, e^v).
    let funnel = PseudoData { density: Funnel::new(1.5), noise_sd: 0.0 };
    let funnel_pdf = |t: &[f64]| log_normal(t[0], 0.0, 2.25) + log_normal(t[1], 0.0, t[0].exp());
    let toys: [(&str, &dyn Model, &dyn Fn(&[f64]) -> f64); 3] = [("gaussian", &gaussian, &gaussian_pdf), ("banana", &banana, &banana_pdf), ("funnel", &funnel, &funnel_pdf)];
    for (what, model, pdf) in toys {
        // The toys are normalised: absolute values, not only differences.
        for p in points() {
            assert_close(&format!("{what} at {p:?}"), model.log_density(&p), pdf(&p));
        }
        check_differences(what, model, &points(), pdf);
    }
}

#[test]
fn logistic_regression_density_is_bernoulli_likelihood_plus_gaussian_prior() {
    // Three points, one feature plus intercept, prior N(0, 2² I): a wrong prior scale, a label
    // flip or a sign error in the logit all change these differences.
    let (x, y, prior_sd) = ([1.0, -2.0, 0.5], [1.0, 0.0, 1.0], 2.0);
    let model = LogisticRegression::new(1, x.to_vec(), y.to_vec(), prior_sd, vec!["x".into()]).unwrap();
    let log_pi = |t: &[f64]| {
        let lik: f64 = (0..3)
            .map(|i| {
                let p = 1.0 / (1.0 + (-(t[0] * x[i] + t[1])).exp());
                if y[i] == 1.0 { p.ln() } else { (1.0 - p).ln() }
            })
            .sum();
        lik + log_normal(t[0], 0.0, prior_sd * prior_sd) + log_normal(t[1], 0.0, prior_sd * prior_sd)
    };
    check_differences("logistic", &model, &points(), &log_pi);
}

#[test]
fn linear_regression_density_is_gaussian_likelihood_plus_gaussian_prior() {
    // y_i = w x_i + b + N(0, σ²), prior N(0, τ² I), σ = 0.7, τ = 3; normalised, so absolute values.
    let (x, y, noise, prior) = ([0.5, -1.0, 2.0, 0.0], [1.2, -0.3, 2.5, 0.1], 0.7, 3.0);
    let model = LinearRegression::new(1, x.to_vec(), y.to_vec(), noise, prior);
    let log_pi = |t: &[f64]| {
        let lik: f64 = (0..4).map(|i| log_normal(y[i], t[0] * x[i] + t[1], noise * noise)).sum();
        lik + log_normal(t[0], 0.0, prior * prior) + log_normal(t[1], 0.0, prior * prior)
    };
    for p in points() {
        assert_close(&format!("linreg at {p:?}"), model.log_density(&p), log_pi(&p));
    }
    check_differences("linreg", &model, &points(), &log_pi);
}

#[test]
fn hyperbola_and_mixture_densities_equal_their_formulas() {
    // Hyperbola: y_i ~ N(w₁w₂, σ_y²), w ~ N(0, σ_p² I), σ_y = 0.8, σ_p = 2.
    let data = vec![0.9, 1.4, -0.2, 1.1, 0.6];
    let hyperbola = HyperbolaRidge::new(data.clone(), 0.8, 2.0);
    let hyperbola_pdf = |t: &[f64]| data.iter().map(|y| log_normal(*y, t[0] * t[1], 0.64)).sum::<f64>() + log_normal(t[0], 0.0, 4.0) + log_normal(t[1], 0.0, 4.0);
    check_differences("hyperbola", &hyperbola, &points(), &hyperbola_pdf);
    // Welling–Teh mixture: θ₁ ~ N(0, 10), θ₂ ~ N(0, 1), x_i ~ ½N(θ₁, σ_x²) + ½N(θ₁ + θ₂, σ_x²), σ_x² = 2.
    let mixture = TiedMixture::generate(30, [0.0, 1.0], 2.0, 5);
    let xs = mixture.data().to_vec();
    let mixture_pdf = |t: &[f64]| {
        let lik: f64 = xs.iter().map(|x| (0.5 * log_normal(*x, t[0], 2.0).exp() + 0.5 * log_normal(*x, t[0] + t[1], 2.0).exp()).ln()).sum();
        lik + log_normal(t[0], 0.0, 10.0) + log_normal(t[1], 0.0, 1.0)
    };
    check_differences("mixture", &mixture, &points(), &mixture_pdf);
}

#[test]
fn softmax_density_is_categorical_likelihood_plus_gaussian_prior() {
    // SGAIS's softmax regression: one feature, three classes, θ = (w₀, w₁, w₂, b₀, b₁, b₂), prior
    // N(0, 1.5² I); p(y | x) = exp(z_y)/Σ_k exp(z_k), z_k = w_k x + b_k. Normalised: absolute values.
    let (x, y, prior) = ([0.5, -1.0, 2.0, 0.3], [0usize, 2, 1, 1], 1.5);
    let model = SoftmaxRegression::new(1, 3, x.to_vec(), y.to_vec(), prior).unwrap();
    let log_pi = |t: &[f64]| {
        let lik: f64 = (0..4)
            .map(|i| {
                let z: Vec<f64> = (0..3).map(|k| t[k] * x[i] + t[3 + k]).collect();
                z[y[i]] - z.iter().map(|v| v.exp()).sum::<f64>().ln()
            })
            .sum();
        lik + t.iter().map(|v| log_normal(*v, 0.0, prior * prior)).sum::<f64>()
    };
    let points = vec![vec![0.3, -0.8, 0.1, 0.5, -0.2, 0.9], vec![-1.1, 0.4, 0.7, 0.0, 1.3, -0.6], vec![1.7, 1.2, -0.4, -1.0, 0.2, 0.3]];
    for p in &points {
        assert_close(&format!("softmax at {p:?}"), model.log_density(p), log_pi(p));
    }
    check_differences("softmax", &model, &points, &log_pi);
}

// ---------------------------------------------------------------------------------------------
// SGLD's sampling threshold (Welling & Teh 2011 eq. 10) against an independent λ_max
// ---------------------------------------------------------------------------------------------

/// λ_max of a symmetric 2 × 2 matrix [[a, b], [b, c]] in closed form.
fn largest_eigenvalue_2x2(a: f64, b: f64, c: f64) -> f64 {
    0.5 * (a + c) + (0.25 * (a - c) * (a - c) + b * b).sqrt()
}

fn threshold_after_steps(model: &dyn Model, step: f64, batch: usize, steps: usize, seed: u64) -> Vec<f64> {
    let mut values = ParamValues::defaults(sgld::PARAMS);
    values.set(sgld::PARAMS, "step_size", step).unwrap();
    values.set(sgld::PARAMS, "batch_size", batch as f64).unwrap();
    values.set(sgld::PARAMS, "noise_diag_every", 1.0).unwrap();
    let mut sampler = Sgld::new(model.initial_point(), &values);
    let mut oracle = GradientOracle::new(model, batch);
    let mut rng = chain_rng(seed);
    (0..steps)
        .map(|_| {
            sampler.step(model, &mut oracle, &mut rng);
            sampler.sampling_threshold()
        })
        .collect()
}

#[test]
fn sampling_threshold_is_step_times_n_squared_over_4n_times_lambda_max_of_the_drawn_score_covariance() {
    // The correlated Gaussian's N = 100 pseudo-data scores have sample covariance (divisor N − 1)
    // exactly P/N (toy.rs), P = Σ⁻¹. Minibatches are drawn without replacement, so the gradient
    // noise of (N/n)Σ_S g_i has covariance (N²/n)(1 − n/N)P/N = (N/n − 1)P (Cochran 1977, Thm 2.2)
    // and the threshold is ε(N/n − 1)λ_max(P)/4, λ_max(P) = 1/(1 − |ρ|) for unit scales — here in
    // closed form, not from the sampler's stored numbers. At n = N there is no gradient noise.
    let rho = 0.9;
    let model = CorrelatedGaussian::new(1.0, 1.0, rho, 0.0);
    let n_data = model.n_data() as f64;
    let step = 0.01;
    let p = [1.0 / (1.0 - rho * rho), -rho / (1.0 - rho * rho), 1.0 / (1.0 - rho * rho)];
    let lambda_max = largest_eigenvalue_2x2(p[0], p[1], p[2]);
    assert!((lambda_max - 1.0 / (1.0 - rho)).abs() < 1e-9);
    let full = threshold_after_steps(&model, step, model.n_data(), 3, 1);
    for t in full {
        assert_eq!(t, 0.0, "threshold at n = N: the full batch has no gradient noise");
    }
    // At n = 25 the batch varies, but V_s is unbiased for P/N (sampling without replacement), so
    // λ_max(P)/N ≤ E λ_max(V_s) ≤ E tr(V_s) = tr(P)/N (Jensen; λ_max ≤ trace for PSD): the mean
    // threshold lies in ε(N/n − 1)/4·[λ_max(P), tr(P)] up to 4 standard errors (independent
    // batches: the Gaussian's score covariance does not depend on θ).
    let batch = 25;
    let values = threshold_after_steps(&model, step, batch, 4_000, 2);
    let k = values.len() as f64;
    let mean = values.iter().sum::<f64>() / k;
    let se = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (k - 1.0) / k).sqrt();
    let scale = step * (n_data / batch as f64 - 1.0) / 4.0;
    let (low, high) = (scale * lambda_max, scale * (p[0] + p[2]));
    assert!(mean > low - 4.0 * se && mean < high + 4.0 * se, "mean threshold {mean} outside [{low}, {high}] ± 4·{se}");
    // The page's "mean" diagnostic is the average of those readings, restarted when a parameter
    // changes (here: refreshes every other step, so the mean is over the even steps' readings).
    let mut values = ParamValues::defaults(sgld::PARAMS);
    values.set(sgld::PARAMS, "step_size", step).unwrap();
    values.set(sgld::PARAMS, "batch_size", batch as f64).unwrap();
    values.set(sgld::PARAMS, "noise_diag_every", 2.0).unwrap();
    let mut sampler = Sgld::new(model.initial_point(), &values);
    let mut oracle = GradientOracle::new(&model, batch);
    let mut rng = chain_rng(3);
    assert!(sampler.mean_sampling_threshold().is_nan(), "no reading yet");
    let mut readings = Vec::new();
    for t in 0..400 {
        sampler.step(&model, &mut oracle, &mut rng);
        if t % 2 == 0 {
            readings.push(sampler.sampling_threshold());
        }
    }
    let expected = readings.iter().sum::<f64>() / readings.len() as f64;
    assert!((sampler.mean_sampling_threshold() - expected).abs() <= 1e-12 * expected, "{} vs {expected}", sampler.mean_sampling_threshold());
    // "The threshold at the start" (a lesson claim) is the first of those readings, kept.
    let first = |s: &Sgld| s.diagnostics().iter().find(|d| d.name == "sampling_threshold_first").unwrap().value;
    assert_eq!(first(&sampler), readings[0]);
    sampler.update_params(&values);
    assert!(sampler.mean_sampling_threshold().is_nan(), "a parameter change restarts the mean");
    assert!(first(&sampler).is_nan(), "and the first reading");
}

// ---------------------------------------------------------------------------------------------
// The polynomial schedule through the Chain: the weighted estimator Σ ε_t f(θ_t)/Σ ε_t
// ---------------------------------------------------------------------------------------------

/// E of the weighted variance estimator Σw x²/W − (Σw x/W)² for the 1-D linear recursion
/// x_{s+1} = a_s x_s + √ε_s z_s from x_0 = 0 (a_s = 1 − ε_s P/2, full-batch SGLD on N(0, 1/P)),
/// sample s + 1 carrying weight w_s: with v_s = Var x_s and Cov(x_s, x_t) = v_s Π_{k=s}^{t−1} a_k
/// (s ≤ t), E = Σ w_s v_s/W − Σ_s Σ_t w_s w_t Cov(x_s, x_t)/W².
fn expected_weighted_variance(steps: &[f64], weights: &[f64], precision: f64) -> f64 {
    let t_max = steps.len();
    let a: Vec<f64> = steps.iter().map(|e| 1.0 - e * precision / 2.0).collect();
    let mut v = vec![0.0; t_max + 1];
    for s in 0..t_max {
        v[s + 1] = a[s] * a[s] * v[s] + steps[s];
    }
    let total: f64 = weights.iter().sum();
    let first: f64 = (1..=t_max).map(|s| weights[s - 1] * v[s]).sum::<f64>() / total;
    let mut second = 0.0;
    for s in 1..=t_max {
        let mut cov = v[s];
        second += weights[s - 1] * weights[s - 1] * cov;
        for t in s + 1..=t_max {
            cov *= a[t - 1];
            second += 2.0 * weights[s - 1] * weights[t - 1] * cov;
        }
    }
    first - second / (total * total)
}

#[test]
fn polynomial_schedule_weights_reach_the_chain_moments() {
    // SGLD paper eq. 11: with ε_t = a(b + t)^(−γ) the estimator is Σ ε_t f(θ_t)/Σ ε_t. Full-batch
    // SGLD on the Gaussian (ρ = 0, σ = (1, 2)) from its mean is the linear recursion above in
    // each coordinate, so the expectation of the chain's reported variance is known exactly.
    // Over R independent chains the mean reported variance must match the weighted expectation
    // within 4 standard errors, and the unweighted expectation (weights ignored) must be
    // resolved from it by more than 8.
    let (a, b, gamma, steps, chains) = (1.0, 1.0, 1.0, 150usize, 1_000u64);
    let epsilons: Vec<f64> = (0..steps).map(|t| a * (b + t as f64).powf(-gamma)).collect();
    let mut reported = [Vec::new(), Vec::new()];
    for seed in 1..=chains {
        let config = ChainConfig::new("gaussian", "sgld", seed)
            .with("rho", 0.0)
            .with("sd1", 1.0)
            .with("sd2", 2.0)
            .with("grad_noise", 0.0)
            .with("batch_size", 100)
            .with("sgld_schedule", 1)
            .with("sgld_a", a)
            .with("sgld_b", b)
            .with("sgld_gamma", gamma);
        let mut chain = Chain::new(&config).unwrap();
        assert_eq!(chain.run(steps as u64), steps as u64);
        let cov = chain.moments().cov;
        reported[0].push(cov[0][0]);
        reported[1].push(cov[1][1]);
    }
    for (j, sd) in [(0, 1.0f64), (1, 2.0)] {
        let precision = 1.0 / (sd * sd);
        let weighted = expected_weighted_variance(&epsilons, &epsilons, precision);
        let unweighted = expected_weighted_variance(&epsilons, &vec![1.0; steps], precision);
        let r = &reported[j];
        let mean = r.iter().sum::<f64>() / r.len() as f64;
        let se = (r.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (r.len() as f64 - 1.0) / r.len() as f64).sqrt();
        assert!((mean - weighted).abs() < 4.0 * se, "θ{j}: mean reported variance {mean} vs weighted expectation {weighted} (se {se}; unweighted {unweighted})");
        assert!((unweighted - weighted).abs() > 8.0 * se, "θ{j}: weighted {weighted} and unweighted {unweighted} not resolved (se {se})");
    }
}
