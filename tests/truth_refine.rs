//! The refined grid truth of 2-D targets with data (src/truth_refine.rs, docs/truth.md §2,
//! (TRUTH.6)): as cheap as its stated accuracy allows (issue 26: lipSBPS on the logistic
//! regression waited 44 s for a 141² grid). Its moments against an oracle written here: composite
//! Simpson's rule (not the code's trapezoid rule, not its region) on a grid twice as wide as the
//! truth's region about its centre, 240 intervals per axis, on the model's own log density. The
//! tolerance is (TRUTH.6)'s, written here from the docs: a millionth of the smaller marginal
//! variance; the truth's own stated bound must also cover its distance to the oracle.

use sgviz::model::logistic::{PARAMS, SPEC};
use sgviz::model::Model;
use sgviz::params::ParamValues;
use sgviz::truth::{truth_for, TruthSource};

/// Simpson weights 1, 4, 2, 4, …, 4, 1 (times h/3, which cancels in the moments).
fn simpson(k: usize, n: usize) -> f64 {
    if k == 0 || k == n {
        1.0
    } else if k % 2 == 1 {
        4.0
    } else {
        2.0
    }
}

/// Mean and covariance [mx, my, vxx, vxy, vyy] by Simpson's rule on [cx ± wx] × [cy ± wy].
fn simpson_moments(model: &dyn Model, (cx, wx): (f64, f64), (cy, wy): (f64, f64), n: usize) -> [f64; 5] {
    let node = |c: f64, w: f64, k: usize| c - w + 2.0 * w * k as f64 / n as f64;
    let logs: Vec<Vec<f64>> = (0..=n).map(|b| (0..=n).map(|a| model.log_density(&[node(cx, wx, a), node(cy, wy, b)])).collect()).collect();
    let peak = logs.iter().flatten().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut s = [0.0; 6];
    for (b, row) in logs.iter().enumerate() {
        for (a, l) in row.iter().enumerate() {
            let (x, y) = (node(cx, wx, a), node(cy, wy, b));
            let w = simpson(a, n) * simpson(b, n) * (l - peak).exp();
            for (acc, v) in s.iter_mut().zip([1.0, x, y, x * x, x * y, y * y]) {
                *acc += w * v;
            }
        }
    }
    let (mx, my) = (s[1] / s[0], s[2] / s[0]);
    [mx, my, s[3] / s[0] - mx * mx, s[4] / s[0] - mx * my, s[5] / s[0] - my * my]
}

fn check(n_points: f64) {
    let mut values = ParamValues::defaults(PARAMS);
    values.set(PARAMS, "n_points", n_points).unwrap();
    let model = (SPEC.build)(&values, None).unwrap();
    let truth = truth_for(model.as_ref());
    assert_eq!(truth.source, TruthSource::GridQuadrature, "{}", truth.error);
    let m = truth.moments.clone().unwrap();
    let region = model.truth_region();
    let centre = |lo: f64, hi: f64| ((lo + hi) / 2.0, hi - lo);
    let oracle = simpson_moments(model.as_ref(), centre(region.x_min, region.x_max), centre(region.y_min, region.y_max), 240);
    let shown = [m.mean[0], m.mean[1], m.cov[0][0], m.cov[0][1], m.cov[1][1]];
    let tolerance = 1e-6 * oracle[2].min(oracle[4]);
    for (k, (a, b)) in shown.iter().zip(oracle).enumerate() {
        let off = (a - b).abs();
        assert!(off <= tolerance, "N = {n_points}, entry {k}: truth {a} vs Simpson {b}: off by {off:e} > (TRUTH.6)'s {tolerance:e} ({})", truth.error);
        assert!(off <= truth.error_bound + 1e-12, "N = {n_points}, entry {k}: off by {off:e}, beyond the stated bound {:e}", truth.error_bound);
    }
}

#[test]
fn the_refined_truth_of_the_logistic_regression_matches_simpsons_rule() {
    check(1000.0);
}
