//! Unit tests of src/promise.rs (`promise::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use nalgebra::DMatrix;
use sgviz::defaults::E2_CLAIM;
use sgviz::law::Law;
use sgviz::setting_warning::Failure;
use sgviz::promise::*;
use sgviz::law::LinearChain;

#[test]
fn remedy_values_show_three_significant_digits() {
    // Hand-written: 3 significant digits, trailing zeros dropped, thousands separated from
    // 10⁴, plain decimals down to 10⁻⁴, "·10⁻ⁿ" below (issue 26: never "e-3" on screen).
    for (x, shown) in [(0.05123, "0.0512"), (0.0500, "0.05"), (1.2449, "1.24"), (2.5617, "2.56"), (12.345, "12.3"), (1234.5, "1,230"), (5000.0, "5,000"), (9.996, "10"), (0.09996, "0.1"), (-0.3337, "-0.334"), (0.001234, "0.00123"), (9.233e-4, "0.000923"), (4.99e-3, "0.00499"), (56789.0, "56,800"), (1e5, "100,000"), (2.4e6, "2,400,000"), (-12345.0, "-12,300"), (1.5e-7, "1.5·10⁻⁷"), (9.234e-5, "9.23·10⁻⁵"), (0.0, "0"), (20.0, "20")] {
        assert_eq!(show(x), shown, "{x}");
    }
}

fn ar1_law(a: f64, v: f64, truth: f64) -> (Law, DMatrix<f64>) {
    let law = Law {
        mean: vec![0.0],
        cov: DMatrix::from_element(1, 1, v),
        exact: true,
        note: String::new(),
        chain: Some((LinearChain { transition: DMatrix::from_element(1, 1, a), noise: DMatrix::from_element(1, 1, v * (1.0 - a * a)), dim: 1 }, DMatrix::from_element(1, 1, v))),
    };
    (law, DMatrix::from_element(1, 1, truth))
}

/// A scalar AR(1) with Var x = v = truth: Ĉ − v ≈ N(−Var(x̄), 2v²(1 + a²)/((1 − a²)T)) with
/// Var(x̄) = v(1 + a)/((1 − a)T), so E2 = |Ĉ − v|/v is a folded normal whose mean and tail are
/// written out here by hand (erfc by its series) and compared with the draws.
#[test]
fn ar1_error_law_matches_the_folded_normal() {
    let (a, v, t) = (0.995, 2.0, 5000.0);
    let (law, truth) = ar1_law(a, v, v);
    let p = error_law(&law, &truth, t).unwrap();
    let sd = (2.0 * v * v * (1.0 + a * a) / ((1.0 - a * a) * t)).sqrt() / v;
    let shift = (1.0 + a) / ((1.0 - a) * t);
    // Folded normal mean: σ√(2/π)e^{−μ²/2σ²} + μ(1 − 2Φ(−μ/σ)); μ = −shift.
    let phi = |x: f64| 0.5 * erfc(-x / 2f64.sqrt());
    let mu = -shift;
    let mean = sd * (2.0 / std::f64::consts::PI).sqrt() * (-mu * mu / (2.0 * sd * sd)).exp() + mu * (1.0 - 2.0 * phi(-mu / sd));
    let tail = phi((mu - E2_CLAIM) / sd) + phi((-E2_CLAIM - mu) / sd);
    assert!(p.bias.abs() < 1e-12);
    // Monte Carlo error of 2,000 draws: sd/√2000 on the mean, √(q(1−q)/2000) on the share.
    assert!((p.mean_e2 - mean).abs() < 4.0 * sd / (DRAWS as f64).sqrt(), "{} vs {mean}", p.mean_e2);
    assert!((p.failure_share - tail).abs() < 4.0 * (tail * (1.0 - tail) / DRAWS as f64).sqrt() + 1e-3, "{} vs {tail}", p.failure_share);
    assert!(tail > 0.05 && tail < 0.95, "the case tests the tail: {tail}");
}

/// A biased law (v = 1.3 × truth) with a tiny Monte Carlo error: E2 ≈ bias = 0.3 exactly.
#[test]
fn a_biased_law_reports_its_bias() {
    let (law, truth) = ar1_law(0.0, 1.3, 1.0);
    let p = error_law(&law, &truth, 1e9).unwrap();
    assert!((p.bias - 0.3).abs() < 1e-12 && (p.mean_e2 - 0.3).abs() < 1e-3, "{p:?}");
    assert_eq!(p.failure(), Some(Failure::Bias));
}

/// Beyond MAX_STATE only the bias is predicted: seven independent AR(1) coordinates at
/// 1.3 × the truth's variance have E2 = 0.3 (a bias failure), at the truth's none.
#[test]
fn large_states_get_the_bias_part_only() {
    let d = MAX_STATE + 1;
    let law_at = |v: f64| Law {
        mean: vec![0.0; d],
        cov: DMatrix::identity(d, d) * v,
        exact: true,
        note: String::new(),
        chain: Some((LinearChain { transition: DMatrix::identity(d, d) * 0.5, noise: DMatrix::identity(d, d) * (0.75 * v), dim: d }, DMatrix::identity(d, d) * v)),
    };
    let truth = DMatrix::identity(d, d);
    let biased = error_law(&law_at(1.3), &truth, 5000.0).unwrap();
    assert!((biased.bias - 0.3).abs() < 1e-12 && biased.failure() == Some(Failure::Bias), "{biased:?}");
    let right = error_law(&law_at(1.0), &truth, 5000.0).unwrap();
    assert!(right.bias < 1e-12 && right.failure().is_none() && right.failure_share.is_nan(), "{right:?}");
}

/// erfc(x): the Maclaurin series of erf for |x| < 3, the asymptotic series beyond (five terms,
/// relative error below 1e-4 there; the test's arguments lie within |x| < 3).
fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 3.0 {
        // erf(x) = 2/√π Σ (−1)^n x^{2n+1}/(n!(2n+1)).
        let (mut term, mut sum, mut n) = (x, x, 0.0);
        while term.abs() > 1e-17 {
            n += 1.0;
            term *= -x * x / n;
            sum += term / (2.0 * n + 1.0);
        }
        return 1.0 - 2.0 / std::f64::consts::PI.sqrt() * sum;
    }
    let mut factor = 1.0;
    let mut term = 1.0;
    for k in 1..6 {
        term *= -(2.0 * k as f64 - 1.0) / (2.0 * x * x);
        factor += term;
    }
    (-x * x).exp() / (x * std::f64::consts::PI.sqrt()) * factor
}

/// Two independent AR(1) coordinates (a = 0.9, 0.5; variances 1, 2; the truth diag(1, 2)): every
/// entry of Ĉ − Σ is its own Gaussian (docs/diagnostics.md §7, worked by hand per entry):
/// Ĉ_kk − v_k ~ N(−v_k(1 + a_k)/((1 − a_k)T), 2v_k²(1 + a_k²)/((1 − a_k²)T)) and
/// Ĉ₀₁ ~ N(0, v₀v₁(1 + a₀a₁)/((1 − a₀a₁)T)), so the mean of E2 = (|Ĉ₀₀ − 1| + 2|Ĉ₀₁| + |Ĉ₁₁ − 2|)/3
/// is the sum of three folded-normal means, whatever the draws' correlations. Pins the
/// off-diagonal entries (weight 2, their lag sums) that a one-dimensional law never reaches.
#[test]
fn two_independent_ar1_coordinates_give_the_sum_of_their_folded_normal_means() {
    let (a, v, t) = ([0.9, 0.5], [1.0, 2.0], 5000.0);
    let diag = |x: [f64; 2]| DMatrix::from_row_slice(2, 2, &[x[0], 0.0, 0.0, x[1]]);
    let law = Law {
        mean: vec![0.0, 0.0],
        cov: diag(v),
        exact: true,
        note: String::new(),
        chain: Some((LinearChain { transition: diag(a), noise: diag([v[0] * (1.0 - a[0] * a[0]), v[1] * (1.0 - a[1] * a[1])]), dim: 2 }, diag(v))),
    };
    let p = error_law(&law, &diag(v), t).unwrap();
    let phi = |x: f64| 0.5 * erfc(-x / 2f64.sqrt());
    let folded = |mu: f64, sd: f64| sd * (2.0 / std::f64::consts::PI).sqrt() * (-mu * mu / (2.0 * sd * sd)).exp() + mu * (1.0 - 2.0 * phi(-mu / sd));
    let sd_diag = |k: usize| (2.0 * v[k] * v[k] * (1.0 + a[k] * a[k]) / ((1.0 - a[k] * a[k]) * t)).sqrt();
    let shift = |k: usize| -v[k] * (1.0 + a[k]) / ((1.0 - a[k]) * t);
    let r = a[0] * a[1];
    let sd_off = (v[0] * v[1] * (1.0 + r) / ((1.0 - r) * t)).sqrt();
    let mean = (folded(shift(0), sd_diag(0)) + 2.0 * folded(0.0, sd_off) + folded(shift(1), sd_diag(1))) / 3.0;
    // 2,000 draws (docs/diagnostics.md §7); sd(E2) ≤ (sd₀₀ + 2 sd₀₁ + sd₁₁)/3 (sd of a sum ≤ the sum of sds).
    let tolerance = 4.0 * (sd_diag(0) + 2.0 * sd_off + sd_diag(1)) / 3.0 / 2000f64.sqrt();
    assert!(p.bias.abs() < 1e-12, "{p:?}");
    assert!((p.mean_e2 - mean).abs() < tolerance, "mean E2 {} vs {mean} ± {tolerance}", p.mean_e2);
    assert!((mean - 0.0474).abs() < 1e-3, "the hand-worked value: {mean}");
    assert!(p.failure_share < 0.01, "E2 above 0.3 lies beyond 4 bounding sds: {p:?}");
}

/// A run of T = 2 samples of an AR(1) with a = 0.5, v = truth = 1: the mean's variance
/// Var(x̄) = v(1 + a)/((1 − a)T) = 1.5 dominates, so Ĉ − v ~ N(−1.5, 2·1.25/(0.75·2) = 5/3)
/// (the same law as above, worked by hand) and E2 is the folded normal of that shift. The longer
/// runs above barely see the shift (its effect on a folded normal's mean is second order near 0).
#[test]
fn a_two_sample_run_is_shifted_by_the_variance_of_its_mean() {
    let (law, truth) = ar1_law(0.5, 1.0, 1.0);
    let p = error_law(&law, &truth, 2.0).unwrap();
    let (mu, sd) = (-1.5f64, (5.0f64 / 3.0).sqrt());
    let phi = |x: f64| 0.5 * erfc(-x / 2f64.sqrt());
    let mean = sd * (2.0 / std::f64::consts::PI).sqrt() * (-mu * mu / (2.0 * sd * sd)).exp() + mu * (1.0 - 2.0 * phi(-mu / sd));
    let tail = phi((mu - E2_CLAIM) / sd) + phi((-E2_CLAIM - mu) / sd);
    // 2,000 draws (docs/diagnostics.md §7): sd(|X|) ≤ sd(X) on the mean, the binomial SE on the share.
    assert!((p.mean_e2 - mean).abs() < 4.0 * sd / 2000f64.sqrt(), "{} vs {mean}", p.mean_e2);
    assert!((p.failure_share - tail).abs() < 4.0 * (tail * (1.0 - tail) / 2000.0).sqrt(), "{} vs {tail}", p.failure_share);
    assert!((mean - 1.6565).abs() < 1e-3, "the hand-worked value: {mean}");
}

/// docs/diagnostics.md §7: states larger than 6 get the bias part only, so a state of exactly 6
/// (six independent AR(1) coordinates at the truth, a = 0.5) still gets its mixing prediction.
#[test]
fn a_state_of_exactly_six_still_gets_the_mixing_prediction() {
    let d = 6;
    let law = Law {
        mean: vec![0.0; d],
        cov: DMatrix::identity(d, d),
        exact: true,
        note: String::new(),
        chain: Some((LinearChain { transition: DMatrix::identity(d, d) * 0.5, noise: DMatrix::identity(d, d) * 0.75, dim: d }, DMatrix::identity(d, d))),
    };
    let p = error_law(&law, &DMatrix::identity(d, d), 5000.0).unwrap();
    assert!(p.mean_e2.is_finite() && p.mean_e2 > 0.0 && p.failure_share.is_finite(), "{p:?}");
}

/// A folded normal's mean E|X|, X ~ N(μ, σ²): σ√(2/π)e^{−μ²/2σ²} + μ(1 − 2Φ(−μ/σ)).
fn folded_normal_mean(mu: f64, sd: f64) -> f64 {
    let phi = |x: f64| 0.5 * erfc(-x / 2f64.sqrt());
    sd * (2.0 / std::f64::consts::PI).sqrt() * (-mu * mu / (2.0 * sd * sd)).exp() + mu * (1.0 - 2.0 * phi(-mu / sd))
}

/// A biased AR(1) (a = 0.5) whose variance v = 5 is 2.5 × the truth 2, over T = 2 samples (worked
/// by hand as above): the bias is |5 − 2|/2 = 1.5, and Ĉ − 2 ~ N(v − 2 − v(1 + a)/((1 − a)T),
/// 2v²(1 + a²)/((1 − a²)T)) = N(3 − 7.5, 125/3), so E2 = |Ĉ − 2|/2 is the folded normal of
/// N(−2.25, 125/12): mean 3.177 (Python's math.erfc agrees: 3.1768). The run's mean pulls Ĉ *below* the law's covariance, towards the
/// truth here; an unbiased law cannot tell that sign (|−s + e| and |s + e| have one law), nor a bias
/// below 100 % a ratio from a remainder.
#[test]
fn a_law_at_two_and_a_half_times_the_truth_over_two_samples() {
    let (law, truth) = ar1_law(0.5, 5.0, 2.0);
    let p = error_law(&law, &truth, 2.0).unwrap();
    let (mu, sd) = (-2.25, (125.0f64 / 12.0).sqrt());
    let mean = folded_normal_mean(mu, sd);
    assert!((p.bias - 1.5).abs() < 1e-12, "{p:?}");
    // 2,000 draws (docs/diagnostics.md §7): sd(|X|) ≤ sd(X).
    assert!((p.mean_e2 - mean).abs() < 4.0 * sd / 2000f64.sqrt(), "{} vs {mean}", p.mean_e2);
    assert!((mean - 3.177).abs() < 1e-3, "the hand-worked value: {mean}");
}

/// Two anti-correlated coordinates: A = a·I (a = 0.5), stationary covariance M = truth =
/// [[1, ρ], [ρ, 1]] (ρ = −0.6), T = 50. Then Γ(k) = a^|k|·M, so per entry (docs/diagnostics.md §7,
/// summed by hand): T·Var(Ĉ_ab) = (M_aa·M_bb + M_ab²)(1 + a²)/(1 − a²) and T·Var(x̄) = M(1 + a)/(1 − a):
/// Ĉ₀₀ − 1, Ĉ₁₁ − 1 ~ N(−0.06, 1/15), Ĉ₀₁ − ρ ~ N(+0.036, 0.68/15), and E[E2] is
/// (2·folded(−0.06, √(1/15)) + 2·folded(0.036, √(0.68/15)))/(2 + 2|ρ|) = 0.2399 (Python's math.erfc).
/// Every cross term of the Kronecker sum is read here (the independent case above leaves them at 0;
/// with ρ = +0.6 a wrong column read, through M's column sums 1.6, inflates two entries' variances
/// and zeroes the third, and the mean barely moves; with ρ = −0.6 the sums are 0.4).
#[test]
fn two_anti_correlated_coordinates_with_a_common_rate_give_the_hand_summed_law() {
    let (a, rho, t) = (0.5, -0.6, 50.0);
    let m = DMatrix::from_row_slice(2, 2, &[1.0, rho, rho, 1.0]);
    let law = Law {
        mean: vec![0.0, 0.0],
        cov: m.clone(),
        exact: true,
        note: String::new(),
        chain: Some((LinearChain { transition: DMatrix::identity(2, 2) * a, noise: &m * (1.0 - a * a), dim: 2 }, m.clone())),
    };
    let p = error_law(&law, &m, t).unwrap();
    let lags = (1.0 + a * a) / (1.0 - a * a);
    let shift = (1.0 + a) / ((1.0 - a) * t);
    let (sd_diag, sd_off) = ((2.0 * lags / t).sqrt(), ((1.0 + rho * rho) * lags / t).sqrt());
    let scale = 2.0 + 2.0 * rho.abs();
    let mean = (2.0 * folded_normal_mean(-shift, sd_diag) + 2.0 * folded_normal_mean(-shift * rho, sd_off)) / scale;
    // 2,000 draws; sd(E2) ≤ (2 sd₀₀ + 2 sd₀₁)/(2 + 2|ρ|) (sd of a sum ≤ the sum of sds).
    let tolerance = 4.0 * (2.0 * sd_diag + 2.0 * sd_off) / scale / 2000f64.sqrt();
    assert!(p.bias.abs() < 1e-12, "{p:?}");
    assert!((p.mean_e2 - mean).abs() < tolerance, "mean E2 {} vs {mean} ± {tolerance}", p.mean_e2);
    assert!((mean - 0.2399).abs() < 1e-3, "the hand-worked value: {mean}");
}

/// With no Monte Carlo error (a zero covariance) every draw is the offset itself, worked by hand:
/// docs/diagnostics.md §7 counts the runs with E2 *above* 0.3, so an E2 of exactly 0.3 (0.3/1, and
/// 0.6/2, which is the same double) is not counted and the next double up is; off-diagonal entries
/// count twice, in absolute value: (|0.5| + 2·|−0.25| + |1|)/4 = 0.5.
#[test]
fn without_error_every_draw_is_the_offset_and_only_e2_above_three_tenths_counts() {
    let zero = |k: usize| DMatrix::zeros(k, k);
    let one = |x: f64| DMatrix::from_element(1, 1, x);
    for (offset, scale) in [(0.3, 1.0), (0.6, 2.0)] {
        let (mean, share) = draw_e2(&one(offset), &zero(1), &[(0, 0)], scale).unwrap();
        assert!((mean - 0.3).abs() < 1e-12 && share == 0.0, "E2 = 0.3 is not above 0.3: {mean}, {share}");
    }
    let (mean, share) = draw_e2(&one(0.3f64.next_up()), &zero(1), &[(0, 0)], 1.0).unwrap();
    assert!((mean - 0.3).abs() < 1e-12 && share == 1.0, "{mean}, {share}");
    let offset = DMatrix::from_row_slice(2, 2, &[0.5, -0.25, -0.25, 1.0]);
    let (mean, share) = draw_e2(&offset, &zero(3), &[(0, 0), (0, 1), (1, 1)], 4.0).unwrap();
    assert!((mean - 0.5).abs() < 1e-12 && share == 1.0, "{mean}, {share}");
}

/// draw_e2 as it was before its normals were kept (issue 23, sixteenth round): a fresh generator
/// per call, each draw's normals drawn in turn, a new product vector per draw; the root of the
/// entries' covariance as src/promise.rs takes it (eigenvectors × √max(λ, 0) of the symmetrised
/// matrix).
fn draw_e2_drawn_afresh(offset: &DMatrix<f64>, entries: &DMatrix<f64>, pairs: &[(usize, usize)], scale: f64) -> (f64, f64) {
    let eigen = sgviz::linalg::bounded_symmetric_eigen(&((entries + entries.transpose()) * 0.5)).unwrap();
    let root = &eigen.eigenvectors * DMatrix::from_diagonal(&eigen.eigenvalues.map(|l| l.max(0.0).sqrt()));
    let mut rng = sgviz::rng::chain_rng(0x5e7_21);
    let mut z = vec![0.0; pairs.len()];
    let (mut sum, mut over) = (0.0, 0usize);
    for _ in 0..DRAWS {
        sgviz::rng::fill_standard_normal(&mut rng, &mut z);
        let e = &root * nalgebra::DVector::from_column_slice(&z);
        let total: f64 = pairs.iter().enumerate().map(|(i, &(a, b))| (offset[(a, b)] + e[i]).abs() * if a == b { 1.0 } else { 2.0 }).sum();
        sum += total / scale;
        over += usize::from(total / scale > E2_CLAIM);
    }
    (sum / DRAWS as f64, over as f64 / DRAWS as f64)
}

#[test]
fn draw_e2_with_its_kept_normals_gives_the_bits_of_normals_drawn_afresh() {
    // Dimensions in an order that mixes first uses and reuses of a length (3, 21, 6 and 3 again),
    // and d = 21 (231 entries), a length drawn again at each call rather than kept.
    let mut rng = sgviz::rng::chain_rng(42);
    for d in [2usize, 6, 3, 2, 6, 21, 2, 21] {
        let pairs: Vec<(usize, usize)> = (0..d).flat_map(|a| (a..d).map(move |b| (a, b))).collect();
        let m = pairs.len();
        let b = DMatrix::from_fn(m, m, |_, _| sgviz::rng::uniform(&mut rng) - 0.5);
        let entries = &b * b.transpose() * 0.01;
        let offset = DMatrix::from_fn(d, d, |_, _| sgviz::rng::uniform(&mut rng) - 0.5);
        let scale = 1.0 + d as f64;
        let kept = draw_e2(&offset, &entries, &pairs, scale).unwrap();
        let afresh = draw_e2_drawn_afresh(&offset, &entries, &pairs, scale);
        assert_eq!((kept.0.to_bits(), kept.1.to_bits()), (afresh.0.to_bits(), afresh.1.to_bits()), "d = {d}: {kept:?} against {afresh:?}");
    }
}
