//! The bias / Monte-Carlo split of src/error_split.rs on a hand-worked case where ‖Σ‖ ≠ 1, so that
//! ‖Σ‖ and ‖Σ‖² (and ‖C − Σ‖ and its square) cannot be confused.
//!
//! Two independent AR(1) coordinates x_i' = a_i x_i + w_i with stationary variances v_i: the lag-k
//! autocovariance is Γ(k) = diag(a₁^|k| v₁, a₂^|k| v₂), and with Σ_{k∈ℤ} x^|k| = (1 + x)/(1 − x),
//!   S = Σ_k (tr Γ(k))² + tr Γ(k)²
//!     = 2v₁²(1 + a₁²)/(1 − a₁²) + 2v₂²(1 + a₂²)/(1 − a₂²) + 2v₁v₂(1 + a₁a₂)/(1 − a₁a₂).
//! Against a truth Σ = diag(t₁, t₂): bias = ‖C − Σ‖_F/‖Σ‖_F, mc² per sample = S/‖Σ‖²_F.

use nalgebra::DMatrix;
use sgviz::diagnostics::Moments;
use sgviz::error_split::{asymptotic_covariance_variance, relative_bias, series_by_lags, PredictedError};
use sgviz::law::{Law, LinearChain};

fn two_ar1(a: [f64; 2], v: [f64; 2]) -> Law {
    let transition = DMatrix::from_diagonal(&nalgebra::DVector::from_row_slice(&a));
    let noise = DMatrix::from_diagonal(&nalgebra::DVector::from_row_slice(&[v[0] * (1.0 - a[0] * a[0]), v[1] * (1.0 - a[1] * a[1])]));
    let cov = DMatrix::from_diagonal(&nalgebra::DVector::from_row_slice(&v));
    Law { mean: vec![0.0, 0.0], cov: cov.clone(), exact: true, note: String::new(), chain: Some((LinearChain { transition, noise, dim: 2 }, cov)) }
}

#[test]
fn the_split_of_two_ar1_coordinates_matches_the_hand_worked_series() {
    let (a, v, t) = ([0.9, 0.5], [3.0, 0.5], [2.0, 1.0]);
    let law = two_ar1(a, v);
    let s_exact = 2.0 * v[0] * v[0] * (1.0 + a[0] * a[0]) / (1.0 - a[0] * a[0])
        + 2.0 * v[1] * v[1] * (1.0 + a[1] * a[1]) / (1.0 - a[1] * a[1])
        + 2.0 * v[0] * v[1] * (1.0 + a[0] * a[1]) / (1.0 - a[0] * a[1]);
    // = 2·9·1.81/0.19 + 2·0.25·1.25/0.75 + 2·1.5·1.45/0.55 = 171.474 + 0.833 + 7.909 = 180.216
    assert!((s_exact - 180.2161).abs() < 1e-3, "hand arithmetic {s_exact}");
    let s = asymptotic_covariance_variance(&law).unwrap();
    assert!((s - s_exact).abs() < 1e-6 * s_exact, "closed form {s} vs {s_exact}");
    assert!((series_by_lags(&law).unwrap() - s_exact).abs() < 1e-6 * s_exact, "lag sum");

    let truth = Moments { mean: vec![0.0, 0.0], cov: vec![vec![t[0], 0.0], vec![0.0, t[1]]] };
    let norm2 = t[0] * t[0] + t[1] * t[1]; // ‖Σ‖²_F = 5
    let bias = (((v[0] - t[0]).powi(2) + (v[1] - t[1]).powi(2)) / norm2).sqrt(); // √(1.25/5) = 0.5
    assert!((bias - 0.5).abs() < 1e-12);
    assert!((relative_bias(&law.cov, &truth) - bias).abs() < 1e-12);

    let grads_per_sample = 10.0;
    let split = PredictedError::of(&law, &truth, grads_per_sample).unwrap();
    assert!((split.bias - bias).abs() < 1e-12, "bias {}", split.bias);
    assert!((split.mc_variance_per_sample - s_exact / norm2).abs() < 1e-6 * s_exact / norm2, "mc variance per sample {}", split.mc_variance_per_sample);
    // After a budget B of gradient evaluations: B/10 samples, mc² = S·10/(B·‖Σ‖²).
    let budget = 1e4;
    let mc = (s_exact * grads_per_sample / (budget * norm2)).sqrt();
    assert!((split.mc_error(budget) - mc).abs() < 1e-9, "mc error {} vs {mc}", split.mc_error(budget));
    assert!((split.total(budget) - (bias * bias + mc * mc).sqrt()).abs() < 1e-9, "total {}", split.total(budget));
}

/// 50 retained samples (the fewest measured_error accepts: 25 batches of 2) along the direction u
/// from a centre c: x = c + a_k·u twice in batch k, so every product (x_a − c_a)(x_b − c_b) about c
/// (the moments' mean, which measured_error centres on) in batch k is a_k² u_a u_b (the deviations
/// do not cancel within a batch, so centring on c + anything else would change the batch means),
/// with a_k² = 1 for even k (13 batches) and 3 for odd k (12 batches). By hand: grand mean 49/25 =
/// 1.96, Σ(m − 1.96)² = 13·0.96² + 12·1.04² = 24.96, batch-means SE² = 24.96/24/25 = 0.0416.
fn ring_along(u: &[f64], c: &[f64]) -> sgviz::ring::RingBuffer {
    let mut ring = sgviz::ring::RingBuffer::new(u.len(), 100);
    for k in 0..25 {
        let a: f64 = if k % 2 == 0 { 1.0 } else { 3f64.sqrt() };
        for _ in 0..2 {
            ring.push(&u.iter().zip(c).map(|(x, c)| c + a * x).collect::<Vec<_>>());
        }
    }
    ring
}

fn diagonal(v: &[f64]) -> Vec<Vec<f64>> {
    (0..v.len()).map(|i| (0..v.len()).map(|j| if i == j { v[i] } else { 0.0 }).collect()).collect()
}

#[test]
fn measured_error_and_its_mcse_match_a_hand_worked_ring() {
    use sgviz::error_split::measured_error;
    const SE2: f64 = 0.0416;
    // 2-D, u = (1, 2): the entries' SE² are SE²·{1, 2², 2², 2⁴}, summing to 25·SE² = 1.04; scaled by
    // retained/n = 50/200, √0.26 over ‖Σ‖ = ‖diag(2, 3)‖ = √13 gives √0.02.
    // The centre (3, −1) is the moments' mean: the products are taken about it.
    let ring = ring_along(&[1.0, 2.0], &[3.0, -1.0]);
    let moments = Moments { mean: vec![3.0, -1.0], cov: vec![vec![1.96, 3.92], vec![3.92, 7.84]] };
    let truth = Moments { mean: vec![0.0, 0.0], cov: diagonal(&[2.0, 3.0]) };
    let (error, mcse) = measured_error(&moments, &ring, 200.0, &truth).unwrap();
    let bias = ((0.04f64.powi(2) + 2.0 * 3.92f64.powi(2) + 4.84f64.powi(2)) / 13.0).sqrt();
    assert!((error - bias).abs() < 1e-12, "error {error} vs {bias}");
    assert!((25.0 * SE2 * 50.0 / 200.0 - 0.26).abs() < 1e-12 && (mcse - 0.02f64.sqrt()).abs() < 1e-12, "mcse {mcse} vs √0.02");
    // n = retained: no scaling, √1.04/√13 = √0.08.
    let (_, unscaled) = measured_error(&moments, &ring, 50.0, &truth).unwrap();
    assert!((unscaled - 0.08f64.sqrt()).abs() < 1e-12, "mcse at n = 50: {unscaled}");
    // Fewer moments than retained samples, or fewer than 2 × 25 retained samples: no answer.
    assert!(measured_error(&moments, &ring, 49.0, &truth).is_none());
    let mut short = sgviz::ring::RingBuffer::new(2, 100);
    ring.iter().take(49).for_each(|x| short.push(x));
    assert!(measured_error(&moments, &short, 200.0, &truth).is_none());

    // 12-D, u = (1, …, 1), Σ = I: the first 10 coordinates' 100 entries give 100·SE², scaled by
    // (12/10)² for the rest: √(144·0.0416)/√12 at n = 50.
    let ring = ring_along(&[1.0; 12], &[0.0; 12]);
    let moments = Moments { mean: vec![0.0; 12], cov: diagonal(&[1.0; 12]) };
    let (error, mcse) = measured_error(&moments, &ring, 50.0, &moments).unwrap();
    assert_eq!(error, 0.0);
    let expected = (144.0 * SE2).sqrt() / 12f64.sqrt();
    assert!((mcse - expected).abs() < 1e-12, "12-D mcse {mcse} vs {expected}");
}

/// Twenty independent AR(1) coordinates, each with a = 0.9995 and variance 1 (a state of 20, the
/// largest the closed form takes): tr Γ(k) = 20aᵏ and tr Γ(k)² = 20a²ᵏ, so
/// S = Σ_k 420a^{2|k|} = 420(1 + a²)/(1 − a²) = 839,790.0. The lag sum needs Γ(k) < 10⁻⁹,
/// k > ln 10⁻⁹/ln a = 41,437 lags, beyond its work cap of 3·10⁸/20³ = 37,500 lags: it refuses,
/// and the closed form must be the one used at this size.
#[test]
fn a_slow_twenty_state_chain_is_summed_in_closed_form_where_the_lag_sum_exceeds_its_work_cap() {
    let (a, d) = (0.9995f64, 20);
    let law = Law {
        mean: vec![0.0; d],
        cov: DMatrix::identity(d, d),
        exact: true,
        note: String::new(),
        chain: Some((LinearChain { transition: DMatrix::identity(d, d) * a, noise: DMatrix::identity(d, d) * (1.0 - a * a), dim: d }, DMatrix::identity(d, d))),
    };
    let expected = 420.0 * (1.0 + a * a) / (1.0 - a * a);
    assert!((expected - 839_790.0).abs() < 0.1, "hand arithmetic {expected}");
    assert!((1e-9f64.ln() / a.ln() - 41_437.0).abs() < 1.0 && 3e8 / 8000.0 == 37_500.0);
    assert!(series_by_lags(&law).is_none(), "the lag sum must stop at its work cap");
    let s = asymptotic_covariance_variance(&law).expect("the closed form at a state of 20");
    assert!((s - expected).abs() < 1e-6 * expected, "S = {s} vs {expected}");
}
