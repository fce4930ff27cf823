//! Tests of `src/acf_fft.rs`: its ρ and ESS against the direct O(n · L) sums of
//! `sgviz::diagnostics` (a separately written estimator: the oracle), and hand-worked cases.
//!
//! Unit tests of src/acf_fft.rs (`acf_fft::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::acf_fft::{autocorrelation_fft, effective_sample_size_fft, effective_sample_sizes_fft};
use sgviz::diagnostics::{autocorrelation, effective_sample_size_bounded};

/// x_t = a x_{t−1} + e_t, e_t standard normal, seeded.
fn ar1(a: f64, n: usize, seed: u64) -> Vec<f64> {
    let mut rng = sgviz::rng::chain_rng(seed);
    let mut x = 0.0;
    (0..n).map(|_| { x = a * x + sgviz::rng::standard_normal(&mut rng); x }).collect()
}

/// Hand-worked: [1, 2, 3, 4] centres to [−1.5, −0.5, 0.5, 1.5], Σc² = 5, lag 1 sum 1.25, lag 2
/// sum −1.5; [1, 3]: lag 1 = −1/2; fewer than two values or a constant series: [1].
#[test]
fn hand_worked_autocorrelations() {
    let rho = autocorrelation_fft(&[1.0, 2.0, 3.0, 4.0], 2);
    let expected = [1.0, 0.25, -0.3];
    assert_eq!(rho.len(), 3);
    for (r, e) in rho.iter().zip(expected) {
        assert!((r - e).abs() < 1e-12, "{rho:?} vs {expected:?}");
    }
    let two = autocorrelation_fft(&[1.0, 3.0], 5);
    assert_eq!(two.len(), 2);
    assert!((two[1] + 0.5).abs() < 1e-12, "{two:?}");
    assert_eq!(autocorrelation_fft(&[2.0], 3), vec![1.0]);
    assert_eq!(autocorrelation_fft(&[2.0; 50], 3), vec![1.0]);
}

/// ρ(0..=100) over the page's window (20,000) equals the direct sum to rounding, from white noise
/// to a = 0.999, and at lengths that are and are not powers of two.
#[test]
fn fft_autocorrelation_equals_the_direct_sum() {
    for (k, (a, n, lags)) in [(0.0, 20_000, 100), (0.9, 20_000, 100), (0.999, 20_000, 100), (0.5, 4_096, 4_095), (0.7, 37, 200)].into_iter().enumerate() {
        let series = ar1(a, n, 11 + k as u64);
        let fast = autocorrelation_fft(&series, lags);
        let direct = autocorrelation(&series, lags);
        assert_eq!(fast.len(), direct.len(), "a = {a}, n = {n}");
        let worst = fast.iter().zip(&direct).map(|(f, d)| (f - d).abs()).fold(0.0, f64::max);
        assert!(worst < 1e-10, "a = {a}, n = {n}: largest |ρ_fft − ρ_direct| = {worst:e}");
    }
}

/// The page's ESS (Geyer's τ over at most 200 lags, thinning when τ is not settled within them)
/// equals the direct estimator's on the page's window, including where thinning happens (a =
/// 0.99, 0.999: τ ≈ 200, 2,000) and for short or constant series.
#[test]
fn fft_ess_equals_the_direct_bounded_estimator() {
    for (k, (a, n)) in [(0.0, 20_000), (0.5, 20_000), (0.9, 20_000), (0.99, 20_000), (0.999, 20_000), (0.95, 1_000), (0.3, 25)].into_iter().enumerate() {
        let series = ar1(a, n, 40 + k as u64);
        let fast = effective_sample_size_fft(&series, 200);
        let direct = effective_sample_size_bounded(&series, 200);
        assert!((fast / direct - 1.0).abs() < 1e-9, "a = {a}, n = {n}: fft {fast} vs direct {direct}");
    }
    for short in [vec![], vec![1.0], vec![1.0, 2.0, 0.5], vec![3.0; 100]] {
        assert_eq!(effective_sample_size_fft(&short, 200), effective_sample_size_bounded(&short, 200), "{short:?}");
    }
}

/// The displayed pair's two ESS from one FFT per thinning (x in the real part, y in the imaginary
/// part, (DIAG.13)) equal the direct bounded estimator's, coordinate by coordinate: pairs that settle
/// at the same stride, at different strides (a = 0.3 beside 0.999: one stops at stride 1, the other
/// is thinned to 1/32), a constant beside a moving coordinate, and short series.
#[test]
fn paired_fft_ess_equals_the_direct_estimator_per_coordinate() {
    let cases = [(0.0, 0.5, 20_000), (0.99, 0.9, 20_000), (0.3, 0.999, 20_000), (0.999, 0.3, 20_000), (0.95, 0.99, 1_000), (0.3, 0.6, 25)];
    for (k, (a, b, n)) in cases.into_iter().enumerate() {
        let (x, y) = (ar1(a, n, 70 + k as u64), ar1(b, n, 90 + k as u64));
        let [ex, ey] = effective_sample_sizes_fft(&x, &y, 200);
        for (got, series, coef) in [(ex, &x, a), (ey, &y, b)] {
            let direct = effective_sample_size_bounded(series, 200);
            assert!((got / direct - 1.0).abs() < 1e-9, "a = {a}, b = {b}, n = {n}: coefficient {coef}: paired {got} vs direct {direct}");
        }
    }
    let moving = ar1(0.9, 5_000, 3);
    let [constant, other] = effective_sample_sizes_fft(&[2.5; 5_000], &moving, 200);
    assert_eq!(constant, 5_000.0, "a constant series: τ = 1, as the direct sum says");
    assert!((other / effective_sample_size_bounded(&moving, 200) - 1.0).abs() < 1e-9);
    for short in [vec![], vec![1.0], vec![1.0, 2.0, 0.5]] {
        let [p, q] = effective_sample_sizes_fft(&short, &short, 200);
        let direct = effective_sample_size_bounded(&short, 200);
        assert!((p == direct || (p.is_nan() && direct.is_nan())) && (q == direct || (q.is_nan() && direct.is_nan())), "{short:?}: {p}, {q} vs {direct}");
    }
}
