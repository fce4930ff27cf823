//! Tests of the scan charts against oracles written here: exact BPS's bounce rate on a Gaussian
//! from a separate quadrature of its closed form, the stationary variance of a Gaussian, Jensen's
//! inequality for SBPS's gradient noise (SBPS paper §2.3), and the bookkeeping of the points.
//!
//! Unit tests of src/scan.rs (`scan::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use std::collections::BTreeMap;
use sgviz::scan::*;

fn spec(sampler: &str, param: &str, values: Vec<f64>, measure: Measure) -> ScanSpec {
    ScanSpec {
        title: "t".into(),
        x_label: "x".into(),
        y_label: "y".into(),
        log_x: false,
        log_y: false,
        target: "gaussian".into(),
        settings: BTreeMap::new(),
        param: param.into(),
        values,
        curves: vec![Curve { label: sampler.into(), sampler: sampler.into(), settings: BTreeMap::new(), fixed: false, measure: None }],
        measure,
        seed: 1,
        replicas: 6,
        budget: 0,
        max_steps: 20_000,
        reference: None,
    }
}

fn run(spec: ScanSpec) -> Vec<Vec<ScanPoint>> {
    let mut scan = Scan::new(spec).expect("scan");
    while (0.0..1.0).contains(&scan.advance(1_000_000)) {}
    assert_eq!(scan.failure(), None);
    scan.points()
}

/// Exact BPS on N(0, Σ) with N(0, I) velocities bounces at the stationary rate
/// E[(v·Σ⁻¹x)⁺] = E_v[√(vᵀPv)]/√(2π), P = Σ⁻¹; with v = r·u, E[r] = √(π/2) in 2-D, so the rate
/// is ½ · (1/2π)∫ √(uᵀPu) dθ over unit vectors u (midpoint rule, 10⁴ nodes).
fn bps_rate_oracle(rho: f64) -> f64 {
    let det = 1.0 - rho * rho;
    let (a, b) = (1.0 / det, -rho / det); // P = [[a, b], [b, a]] for unit scales
    let nodes = 10_000;
    let mean: f64 = (0..nodes)
        .map(|k| {
            let t = 2.0 * std::f64::consts::PI * (k as f64 + 0.5) / nodes as f64;
            let (c, s) = (t.cos(), t.sin());
            (a * c * c + 2.0 * b * c * s + a * s * s).sqrt()
        })
        .sum::<f64>()
        / nodes as f64;
    0.5 * mean
}

#[test]
fn bps_bounce_rate_matches_its_closed_form_over_rho() {
    let rate = Measure::Diagnostic { numerator: "bounces".into(), denominator: Some("total_time".into()) };
    let mut s = spec("bps", "rho", vec![0.0, 0.5, 0.9], rate);
    s.settings.insert("refresh_rate".into(), 0.5);
    let points = run(s);
    assert_eq!(points[0].len(), 3);
    for p in &points[0] {
        let oracle = bps_rate_oracle(p.x);
        assert!(p.se > 0.0, "rho {}: replicas differ", p.x);
        assert!((p.y - oracle).abs() < 4.0 * p.se + 1e-3 * oracle, "rho {}: rate {} ± {} vs closed form {oracle}", p.x, p.y, p.se);
    }
}

#[test]
fn variance_measure_reads_the_chain_moments() {
    // N(0, diag(σ₁², 1)): the variance of θ₁ is σ₁², by construction of the target.
    let mut s = spec("bps", "sd1", vec![0.5, 2.0], Measure::Variance { coordinate: 0 });
    s.settings.insert("rho".into(), 0.0);
    s.settings.insert("refresh_rate".into(), 1.0);
    for p in &run(s)[0] {
        let truth = p.x * p.x;
        assert!((p.y - truth).abs() < 4.0 * p.se + 0.02 * truth, "sd1 {}: variance {} ± {} vs {truth}", p.x, p.y, p.se);
    }
}

#[test]
fn gradient_noise_raises_sbps_bounce_rate() {
    // Jensen (SBPS §2.3): E[(v·∇U + noise)⁺] > E[(v·∇U)⁺], growing with the noise.
    let rate = Measure::Diagnostic { numerator: "bounces".into(), denominator: Some("total_time".into()) };
    let mut s = spec("sbps", "grad_noise", vec![0.0, 2.0, 8.0], rate);
    s.max_steps = 4_000;
    let points = &run(s)[0];
    for pair in points.windows(2) {
        assert!(pair[1].y - pair[0].y > 3.0 * (pair[0].se.hypot(pair[1].se)), "rate at s = {} ({} ± {}) not above s = {} ({} ± {})", pair[1].x, pair[1].y, pair[1].se, pair[0].x, pair[0].y, pair[0].se);
    }
}

#[test]
fn points_average_the_replicas_in_order_and_the_chart_has_bars() {
    let mut s = spec("bps", "rho", vec![0.0, 0.5], Measure::Diagnostic { numerator: "bounces".into(), denominator: None });
    s.replicas = 3;
    s.max_steps = 600;
    s.reference = Some(Reference { label: "ref".into(), y: 1.0 });
    let mut scan = Scan::new(s.clone()).expect("scan");
    assert_eq!(scan.run_index(4), (0, 1, 1));
    // Half-way: the first value is finished, the second not.
    while scan.next < 3 {
        scan.advance(50);
    }
    assert_eq!(scan.points()[0].len(), 1);
    while (0.0..1.0).contains(&scan.advance(1_000_000)) {}
    // The same runs by hand: bounces of seeds 1, 2, 3 at rho = 0.5.
    let by_hand: Vec<f64> = (0..3).map(|r| measure(&s.measure, &scan.build(3 + r).map(|mut c| { while !scan.finished_run(&c) { c.run(STEPS_PER_CALL); } c }).expect("chain"))).collect();
    let mean = by_hand.iter().sum::<f64>() / 3.0;
    let p = &scan.points()[0][1];
    assert_eq!((p.x, p.replicas), (0.5, 3));
    assert!((p.y - mean).abs() < 1e-12, "{} vs {mean}", p.y);
    let chart = scan.chart();
    assert_eq!(chart.series.len(), 2);
    assert_eq!(chart.series[0].error_bars.len(), 2);
    assert_eq!(chart.series[1].points, vec![(0.0, 1.0), (0.5, 1.0)]);
}

#[test]
fn a_bad_setting_is_a_failure_not_a_panic() {
    let mut s = spec("bps", "no_such_parameter", vec![1.0], Measure::Variance { coordinate: 0 });
    s.replicas = 1;
    let mut scan = Scan::new(s).expect("scan");
    assert_eq!(scan.advance(1_000), -1.0);
    assert!(scan.failure().is_some());
}

#[test]
fn the_continuous_estimator_beats_the_discrete_one_on_a_fast_test_function() {
    // SBPS §6.3: E[cos(θ₁/ℓ)] under N(0, 1) is exp(−1/(2ℓ²)) (closed form); exact BPS's path,
    // integrated exactly, against its points every Δ = 0.5.
    let cosine = |discrete| Measure::CosineError { coordinate: 0, center: 0.0, sd: 1.0, spacing: 0.5, discrete };
    let mut s = spec("bps", "length", vec![0.05, 0.2, 1.0], cosine(false));
    s.settings.insert("rho".into(), 0.0);
    s.settings.insert("refresh_rate".into(), 1.0);
    // The second curve: the same seeds, so the same paths, read by the discrete estimator.
    s.curves.push(Curve { label: "discrete".into(), sampler: "bps".into(), settings: BTreeMap::new(), fixed: false, measure: Some(cosine(true)) });
    s.max_steps = 5_000;
    let points = run(s);
    let (c, d) = (&points[0], &points[1]);
    assert!(c[0].y + 2.0 * c[0].se < d[0].y - 2.0 * d[0].se, "ℓ = 0.05: continuous {} ± {} vs discrete {} ± {}", c[0].y, c[0].se, d[0].y, d[0].se);
    for p in c {
        assert!(p.y < 0.05, "ℓ = {}: the continuous estimate is off the closed form by {}", p.x, p.y);
    }
}
