//! Unit tests of src/plot/marginals.rs (`plot::marginals::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::plot::contours::DensityGrid;
use sgviz::plot::marginals::*;
use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::model::Model;

#[test]
fn grid_marginal_of_a_gaussian_is_the_normal_marginal() {
    let g = CorrelatedGaussian::new(1.5, 0.5, 0.7, 0.0);
    let grid = DensityGrid::evaluate(&g, g.view(), 201, 201);
    for axis in 0..2 {
        let m = grid_marginal(&grid, axis);
        let sd = if axis == 0 { 1.5 } else { 0.5 };
        let exact = normal_marginal(0.0, sd, m.lo, m.hi, m.values.len());
        for (a, b) in m.values.iter().zip(&exact.values) {
            // ±3.5σ view truncates 0.05 % of the mass; grid error is far smaller.
            assert!((a - b).abs() < 2e-3 / sd, "axis {axis}: {a} vs {b}");
        }
    }
}

#[test]
fn resampling_interpolates_and_zeroes_outside() {
    let r = resample(&[0.0, 1.0, 2.0], &[0.0, 2.0, 0.0], -1.0, 3.0, 9);
    assert_eq!(r.values, vec![0.0, 0.0, 0.0, 1.0, 2.0, 1.0, 0.0, 0.0, 0.0]);
}

/// A Gaussian known only at nodes 1.1 sd apart (the N ≥ 10⁵ quadrature grid) is drawn exactly,
/// not as a polygon: linear interpolation was 20 % off midway between nodes at the mode.
#[test]
fn resampling_a_coarse_gaussian_is_exact() {
    let (mean, sd) = (1.49, 0.0085);
    let points: Vec<f64> = (-8..=8).map(|k| mean + 1.1 * sd * k as f64).collect();
    let density = |x: f64| (-0.5 * ((x - mean) / sd).powi(2)).exp() / (sd * (2.0 * std::f64::consts::PI).sqrt());
    let known: Vec<f64> = points.iter().map(|&x| density(x)).collect();
    let (lo, hi) = (mean - 3.0 * sd, mean + 3.0 * sd);
    let r = resample(&points, &known, lo, hi, 161);
    let exact = normal_marginal(mean, sd, lo, hi, 161);
    for (a, b) in r.values.iter().zip(&exact.values) {
        assert!((a - b).abs() <= 1e-9 * b, "{a} vs {b}");
    }
}

#[test]
fn histogram_density_integrates_to_one() {
    let counts: Vec<u64> = (0..100).map(|k| (k % 7) as u64).collect();
    let h = histogram_density(&counts, 20, -2.0, 3.0);
    let mass: f64 = h.values.iter().sum::<f64>() * 5.0 / 20.0;
    assert!((mass - 1.0).abs() < 1e-12);
}
