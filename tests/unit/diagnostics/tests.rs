//! Unit tests of src/diagnostics.rs (`diagnostics::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

/// AR(1) x_t = a x_{t−1} + e_t has τ = (1 + a)/(1 − a); the bounded ESS agrees with the full
/// Geyer estimate when τ is far beyond the lag cap (a = 0.999: τ ≈ 2,000 ≫ 200 lags).
#[test]
fn bounded_ess_matches_the_full_estimate_beyond_its_lag_cap() {
    let mut rng = sgviz::rng::chain_rng(7);
    for (a, n) in [(0.5, 20_000), (0.99, 20_000), (0.999, 200_000)] {
        let mut x = 0.0;
        let series: Vec<f64> = (0..n).map(|_| { x = a * x + sgviz::rng::standard_normal(&mut rng); x }).collect();
        let full = sgviz::diagnostics::effective_sample_size(&series);
        let bounded = sgviz::diagnostics::effective_sample_size_bounded(&series, 200);
        let exact = n as f64 * (1.0 - a) / (1.0 + a);
        assert!((bounded / full - 1.0).abs() < 0.25, "a = {a}: bounded {bounded:.1} vs full {full:.1} (exact {exact:.1})");
        assert!((bounded / exact - 1.0).abs() < 0.5, "a = {a}: bounded {bounded:.1} vs exact {exact:.1}");
    }
}
use sgviz::diagnostics::*;

/// A point of weight 0 (a BPS segment of zero duration, two events at one time) or of a
/// non-finite or negative weight is ignored: not counted, and no 0/0 when it comes first.
#[test]
fn points_without_positive_weight_are_ignored() {
    let mut m = RunningMoments::new(2);
    m.add(&[1.0, 2.0], 0.0);
    assert_eq!(m.count(), 0);
    m.add(&[1.0, 2.0], 1.0);
    m.add(&[3.0, -1.0], 0.0);
    m.add(&[5.0, 5.0], -1.0);
    m.add(&[5.0, 5.0], f64::NAN);
    m.add_segment(&[7.0, 7.0], &[1.0, 0.0], 0.0);
    assert_eq!(m.count(), 1);
    assert_eq!(m.total_weight(), 1.0);
    assert_eq!(m.mean(), &[1.0, 2.0]);
    assert_eq!(m.cov(), vec![vec![0.0, 0.0], vec![0.0, 0.0]]);
}

#[test]
fn weighted_moments_match_direct_formulas() {
    let points = [[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [2.0, 4.0]];
    let weights = [1.0, 2.0, 0.5, 1.5];
    let mut m = RunningMoments::new(2);
    for (p, w) in points.iter().zip(weights) {
        m.add(p, w);
    }
    let total: f64 = weights.iter().sum();
    let mean: Vec<f64> = (0..2).map(|j| points.iter().zip(weights).map(|(p, w)| w * p[j]).sum::<f64>() / total).collect();
    let c01 = points.iter().zip(weights).map(|(p, w)| w * (p[0] - mean[0]) * (p[1] - mean[1])).sum::<f64>() / total;
    assert!((m.mean()[0] - mean[0]).abs() < 1e-12 && (m.mean()[1] - mean[1]).abs() < 1e-12);
    assert!((m.cov()[0][1] - c01).abs() < 1e-12);
}

#[test]
fn running_moments_are_bit_identical_to_the_textbook_update() {
    // West's weighted update written as plain index loops (the form before the hot loop was
    // tightened), for points and segments in three dimensions.
    let d = 3;
    let (mut total, mut mean, mut scatter) = (0.0f64, vec![0.0; d], vec![0.0; d * d]);
    let mut fast = RunningMoments::new(d);
    let mut rng = sgviz::rng::chain_rng(4);
    for step in 0..200 {
        let x: Vec<f64> = (0..d).map(|_| 10.0 * sgviz::rng::standard_normal(&mut rng)).collect();
        let v: Vec<f64> = (0..d).map(|_| sgviz::rng::standard_normal(&mut rng)).collect();
        let w = 0.1 + sgviz::rng::uniform(&mut rng);
        let (point, internal) = if step % 3 == 0 {
            fast.add_segment(&x, &v, w);
            let mid: Vec<f64> = (0..d).map(|j| x[j] + 0.5 * v[j] * w).collect();
            (mid, Some(w * w * w / 12.0))
        } else {
            fast.add(&x, w);
            (x.clone(), None)
        };
        let new_total = total + w;
        let delta: Vec<f64> = (0..d).map(|j| point[j] - mean[j]).collect();
        let between = total * w / new_total;
        for a in 0..d {
            for b in 0..d {
                scatter[a * d + b] += between * delta[a] * delta[b];
            }
        }
        if let Some(c) = internal {
            for a in 0..d {
                for b in 0..d {
                    scatter[a * d + b] += c * v[a] * v[b];
                }
            }
        }
        for j in 0..d {
            mean[j] += delta[j] * w / new_total;
        }
        total = new_total;
    }
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(fast.mean()), bits(&mean));
    assert_eq!(bits(&fast.scatter), bits(&scatter));
}

#[test]
fn segment_integrals_are_exact_for_a_hand_built_path() {
    // Path: (0,0) → (2,0) in time 2, then (2,0) → (2,1) in time 1 (unit speed).
    let mut m = RunningMoments::new(2);
    m.add_segment(&[0.0, 0.0], &[1.0, 0.0], 2.0);
    m.add_segment(&[2.0, 0.0], &[0.0, 1.0], 1.0);
    // ∫x = 2 + 2 = 4, ∫y = 0.5; T = 3.
    let (mx, my) = (4.0 / 3.0, 0.5 / 3.0);
    // ∫x² = 8/3 + 4, ∫y² = 1/3, ∫xy = 0 + 2·0.5 = 1.
    let (sxx, syy, sxy) = (8.0 / 3.0 + 4.0, 1.0 / 3.0, 1.0);
    let cov = m.cov();
    assert!((m.mean()[0] - mx).abs() < 1e-12 && (m.mean()[1] - my).abs() < 1e-12);
    assert!((cov[0][0] - (sxx / 3.0 - mx * mx)).abs() < 1e-12);
    assert!((cov[1][1] - (syy / 3.0 - my * my)).abs() < 1e-12);
    assert!((cov[0][1] - (sxy / 3.0 - mx * my)).abs() < 1e-12);
}

#[test]
fn time_batches_integrate_segments_exactly_across_boundaries() {
    // Path (0,0) → (2,0) in time 2, then (2,0) → (2,1) in time 1; batches of time 1.5 about
    // c = (1, 0): the first batch is s ∈ [0, 1.5] of the first segment, the second the rest.
    let mut b = TimeBatchMeans::new(&[1.0, 0.0], 2, 1.5);
    b.add_segment(&[0.0, 0.0], &[1.0, 0.0], 2.0);
    b.add_segment(&[2.0, 0.0], &[0.0, 1.0], 1.0);
    assert_eq!(b.batches(), 2);
    // Batch 1: x − 1 = s − 1 on [0, 1.5]: mean (1.125 − 1.5)/1.5 = −0.25; (x − 1)² mean = 0.375/1.5 = 0.25.
    // Batch 2: x − 1 = s − 1 on [1.5, 2] then 1 for time 1: ∫ = 0.375 + 1 → mean 1.375/1.5; y: 0.5/1.5.
    let means: Vec<f64> = (0..2).map(|j| b.estimate(j, None).unwrap().0).collect();
    assert!((means[0] - 0.5 * (-0.25 + 1.375 / 1.5)).abs() < 1e-12);
    assert!((means[1] - 0.5 * (0.5 / 1.5)).abs() < 1e-12);
    let (xx, _) = b.estimate(0, Some(0)).unwrap();
    // Batch 2 ∫(x − 1)² = ∫_{0.5}^{1} u² du + 1 = 7/24 + 1.
    assert!((xx - 0.5 * (0.25 + (7.0 / 24.0 + 1.0) / 1.5)).abs() < 1e-12);
    // About another centre the batches are the ones a fresh accumulator would have built.
    let mut direct = TimeBatchMeans::new(&[0.5, 2.0], 2, 1.5);
    direct.add_segment(&[0.0, 0.0], &[1.0, 0.0], 2.0);
    direct.add_segment(&[2.0, 0.0], &[0.0, 1.0], 1.0);
    let moved = b.recentred(&[0.5, 2.0]);
    for (j, k) in [(0, None), (1, None), (0, Some(0)), (0, Some(1)), (1, Some(1))] {
        let (x, y) = (moved.estimate(j, k).unwrap(), direct.estimate(j, k).unwrap());
        assert!((x.0 - y.0).abs() < 1e-12 && (x.1 - y.1).abs() < 1e-12, "{j} {k:?}");
    }
}

#[test]
fn ar1_integrated_time_matches_closed_form() {
    // AR(1) with coefficient φ has τ = (1 + φ)/(1 − φ).
    let phi: f64 = 0.8;
    let mut rng = sgviz::rng::chain_rng(11);
    let mut x = 0.0;
    let series: Vec<f64> = (0..200_000)
        .map(|_| {
            x = phi * x + (1.0 - phi * phi).sqrt() * sgviz::rng::standard_normal(&mut rng);
            x
        })
        .collect();
    let tau = integrated_autocorrelation_time(&series);
    assert!((tau - 9.0).abs() < 0.9, "tau {tau}");
    // Batch-means SE ≈ sqrt(τ / n).
    let se = batch_means_standard_error(&series, 50);
    let expected = (9.0f64 / 200_000.0).sqrt();
    assert!((se / expected - 1.0).abs() < 0.35, "se {se} vs {expected}");
}

#[test]
fn batch_means_standard_error_is_the_sd_of_the_batch_means_over_root_b() {
    // Batches (1,2) (3,4) (5,6) (7,8), the tail 100 dropped: means 1.5, 3.5, 5.5, 7.5 around
    // 4.5, variance (9 + 1 + 1 + 9)/3 = 20/3 (divisor B − 1), SE = √(20/3/4) = √(5/3).
    let series = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 100.0];
    assert!((batch_means_standard_error(&series, 4) - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
}

#[test]
fn autocorrelation_and_geyer_time_match_hand_computed_values() {
    // (1, 2, 3, 4): centred (−1.5, −0.5, 0.5, 1.5), variance 5/4 (divisor n); ρ(1) = 1.25/5,
    // ρ(2) = −1.5/5. τ = −1 + 2(ρ0 + ρ1) = 1.5 (lag pairs stop at n/2), ESS = 4/1.5.
    let rho = autocorrelation(&[1.0, 2.0, 3.0, 4.0], 2);
    for (got, expected) in rho.iter().zip([1.0, 0.25, -0.3]) {
        assert!((got - expected).abs() < 1e-12, "{rho:?}");
    }
    // Two samples (1, 3): centred (−1, 1), variance 1, ρ(1) = −1/2.
    assert_eq!(autocorrelation(&[1.0, 3.0], 5), vec![1.0, -0.5]);
    // No samples yet, one sample, or a constant series: only ρ(0) = 1, no 0/0 or panic.
    for short in [&[][..], &[3.0], &[2.0, 2.0, 2.0]] {
        assert_eq!(autocorrelation(short, 10), vec![1.0], "{short:?}");
    }
    assert!((integrated_autocorrelation_time(&[1.0, 2.0, 3.0, 4.0]) - 1.5).abs() < 1e-12);
    assert!((effective_sample_size(&[1.0, 2.0, 3.0, 4.0]) - 4.0 / 1.5).abs() < 1e-12);
    // A series whose second pair exceeds the first (Geyer's monotone cap applies) and whose
    // third pair is negative (truncation): τ = 1.38136942675159 (computed independently).
    let x = [7.0, 5.0, 7.0, 0.0, 7.0, 6.0, 8.0, 1.0, 1.0, 1.0, 1.0, 3.0, 1.0, 4.0, 1.0, 5.0];
    assert!((integrated_autocorrelation_time(&x) - 1.381_369_426_751_592_1).abs() < 1e-12, "{}", integrated_autocorrelation_time(&x));
    // No spread, or too short: τ = 1.
    assert_eq!(integrated_autocorrelation_time(&[2.0; 10]), 1.0);
    assert_eq!(integrated_autocorrelation_time(&[1.0, 2.0, 3.0]), 1.0);
}

#[test]
fn relative_errors_are_sgfs_eq_14() {
    // E1 = (|3 − 4| + |−1 − 0|)/(4 + 0) = 0.5 (Σ|mean*| = 4 ≥ Σ sd* = 2√2);
    // E2 = (1 + 0.5 + 0.5 + 0)/(2 + 0 + 0 + 2) = 0.5.
    let truth = Moments { mean: vec![4.0, 0.0], cov: vec![vec![2.0, 0.0], vec![0.0, 2.0]] };
    let estimate = Moments { mean: vec![3.0, -1.0], cov: vec![vec![1.0, 0.5], vec![0.5, 2.0]] };
    assert!(!e1_in_posterior_sd(&truth));
    assert_eq!(relative_errors(&estimate, &truth), (0.5, 0.5));
    // A true mean near 0 (Σ|mean*| = 1 < 2√2): E1 in posterior sd, (1 + 1)/(√2 + √2).
    let near_zero = Moments { mean: vec![1.0, 0.0], ..truth.clone() };
    assert!(e1_in_posterior_sd(&near_zero));
    let estimate = Moments { mean: vec![2.0, -1.0], ..estimate };
    assert!((relative_errors(&estimate, &near_zero).0 - 1.0 / 2f64.sqrt()).abs() < 1e-15);
    // A centred truth: |2| + |−1| over 2√2.
    let centred = Moments { mean: vec![0.0, 0.0], ..truth };
    assert!((relative_errors(&estimate, &centred).0 - 3.0 / (2.0 * 2f64.sqrt())).abs() < 1e-15);
}

#[test]
fn ellipse_points_have_mahalanobis_radius_two() {
    let cov = [[2.0, 0.9], [0.9, 1.0]];
    let det = cov[0][0] * cov[1][1] - cov[0][1] * cov[1][0];
    for (x, y) in two_sigma_ellipse([1.0, -1.0], cov, 36) {
        let (dx, dy) = (x - 1.0, y + 1.0);
        let q = (cov[1][1] * dx * dx - 2.0 * cov[0][1] * dx * dy + cov[0][0] * dy * dy) / det;
        assert!((q - 4.0).abs() < 1e-9);
    }
}

/// Issue 23, fifteenth pass: a truth with nothing to divide by (a point mass at the origin: Σ|mean*|
/// = Σ√C*_jj = Σ|C*| = 0) reports the absolute errors, not 0/0 or x/0: E1 = |1| + |−2| = 3,
/// E2 = |1| + 0 + 0 + |0.5| = 1.5 (by hand).
#[test]
fn relative_errors_against_a_point_mass_at_the_origin_are_the_absolute_errors() {
    let truth = Moments { mean: vec![0.0, 0.0], cov: vec![vec![0.0, 0.0], vec![0.0, 0.0]] };
    let estimate = Moments { mean: vec![1.0, -2.0], cov: vec![vec![1.0, 0.0], vec![0.0, 0.5]] };
    assert_eq!(relative_errors(&estimate, &truth), (3.0, 1.5));
}

/// The page's "E1 in posterior sd" switch is strict (docs/diagnostics.md §2: Σ|mean*| < Σ√C*_jj): at a
/// tie, Σ|mean*| = |3| + |−1| = 4 = √9 + √1, E1 stays relative to the mean (the two readings agree
/// there: (|4 − 3| + |0 + 1|)/4 = 0.5 either way).
#[test]
fn at_a_tie_e1_stays_relative_to_the_mean() {
    let tie = Moments { mean: vec![3.0, -1.0], cov: vec![vec![9.0, 0.0], vec![0.0, 1.0]] };
    assert!(!e1_in_posterior_sd(&tie));
    let estimate = Moments { mean: vec![4.0, 0.0], ..tie.clone() };
    assert_eq!(relative_errors(&estimate, &tie).0, 0.5);
}

/// Issue 23, sixteenth pass: the page's dotted 2σ ellipse, point by point, worked by hand. C =
/// [[4, 2], [2, 5]] has the Cholesky factor L = [[2, 0], [1, 2]]; with 4 points the angles are 0,
/// π/2, π, 3π/2, 2π (the curve closes), so the points are m + L(2cos t, 2sin t): (5, 1), (1, 3),
/// (−3, −3), (1, −5), (5, 1) about m = (1, −1). A covariance with no x variance (a point mass along
/// x) draws the vertical segment x = m_x, not NaN: (0, 0), (0, 2), (0, 0), (0, −2), (0, 0).
#[test]
fn the_two_sigma_ellipse_passes_through_hand_worked_points() {
    let close = |got: Vec<(f64, f64)>, want: &[(f64, f64)]| {
        assert_eq!(got.len(), want.len(), "{got:?}");
        for (g, w) in got.iter().zip(want) {
            assert!((g.0 - w.0).abs() < 1e-12 && (g.1 - w.1).abs() < 1e-12, "{got:?}, expected {want:?}");
        }
    };
    close(two_sigma_ellipse([1.0, -1.0], [[4.0, 2.0], [2.0, 5.0]], 4), &[(5.0, 1.0), (1.0, 3.0), (-3.0, -3.0), (1.0, -5.0), (5.0, 1.0)]);
    close(two_sigma_ellipse([0.0, 0.0], [[0.0, 0.0], [0.0, 1.0]], 4), &[(0.0, 0.0), (0.0, 2.0), (0.0, 0.0), (0.0, -2.0), (0.0, 0.0)]);
}

/// Issue 23, sixteenth pass: the total weight (a trajectory's total time) is the sum of the
/// weights and durations added: 2 + 3 + 0.5 = 5.5.
#[test]
fn total_weight_is_the_sum_of_weights_and_durations() {
    let mut m = RunningMoments::new(1);
    m.add(&[1.0], 2.0);
    m.add(&[4.0], 3.0);
    m.add_segment(&[0.0], &[1.0], 0.5);
    assert_eq!(m.total_weight(), 5.5);
}
