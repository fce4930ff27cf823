//! SGLD's derived step ε on the Gaussian toy, pinned on its own (issue 23): a chain at its defaults
//! cannot show a broken derivation, because src/promise.rs moves a derived default that breaks the
//! promise back to the nearest value that keeps it (a derived ε ten times too large came back as
//! the same ε on the page, BENCHMARKS.md fifth round). So the derivation is checked here against
//! its criteria worked out by hand from docs/sgld.md, not through a chain.
//!
//! On the toy with correlation ρ and unit scales the precision has eigenvalues p₁ = 1/(1 + ρ) along
//! (1, 1)/√2 and p₂ = 1/(1 − ρ) along (1, −1)/√2, and a minibatch of n carries gradient noise
//! q_k = (N/n − 1)p_k (src/model/toy.rs). SGLD's stationary variance along each is (docs/sgld.md §4)
//!   v_k = (1 + εq_k/4)/(p_k(1 − εp_k/4)),  so r_k = v_k p_k = (1 + εq_k/4)/(1 − εp_k/4) ≥ 1,
//! and with a_k = (r_k − 1)/p_k the error of the law's covariance has entries (a₁ ± a₂)/2, so
//! E2 = (|a₁ + a₂| + |a₁ − a₂|)/Σ|Σ_ab| = 2 max(a₁, a₂)/(2 + 2|ρ|).
//! The defaults' criteria (docs/sgfs-osgfs.md §6, docs/diagnostics.md): every axis within 25 %
//! (r_k − 1 ≤ 0.25), E2 ≤ 0.1, and ε at most half the stability limit 4/λ_max. The derived ε at
//! the derived n is the largest ε meeting all three.

use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::params::ParamValues;

const N: f64 = 100.0;

/// The largest ε meeting the three criteria (module docs) at batch n, by bisection.
fn largest_step_by_hand(rho: f64, batch: f64) -> f64 {
    let p = [1.0 / (1.0 + rho.abs()), 1.0 / (1.0 - rho.abs())];
    let ok = |eps: f64| {
        let r: Vec<f64> = p.iter().map(|&p| (1.0 + eps * (N / batch - 1.0) * p / 4.0) / (1.0 - eps * p / 4.0)).collect();
        let a = [(r[0] - 1.0) / p[0], (r[1] - 1.0) / p[1]];
        let e2 = 2.0 * a[0].max(a[1]) / (2.0 + 2.0 * rho.abs());
        r.iter().all(|r| r - 1.0 <= 0.25) && e2 <= 0.1
    };
    let limit = 0.5 * 4.0 / p[1];
    if ok(limit) {
        return limit;
    }
    let (mut lo, mut hi) = (0.0, limit);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if ok(mid) { lo = mid } else { hi = mid }
    }
    lo
}

#[test]
fn sgld_derived_step_on_the_gaussian_toy_is_the_largest_meeting_the_bias_criteria_by_hand() {
    // ρ = 0.9, full batch (q = 0): r₂ = 1/(1 − 10ε/4) reaches the axis limit 1.25 at ε = 0.08,
    // where r₁ − 1 = 1/(1 − 0.08/7.6) − 1 = 0.0106, a₁ = 0.0202, a₂ = 0.025 and E2 = 0.05/3.8 =
    // 0.013 (within 0.1), below the stability margin 0.2: the axis criterion decides, ε = 0.08.
    assert!((largest_step_by_hand(0.9, N) - 0.08).abs() < 1e-12);
    let spec = sgviz::registry::sampler("sgld").unwrap();
    for rho in [0.9, 0.5, -0.3] {
        let model = CorrelatedGaussian::new(1.0, 1.0, rho, 0.0);
        let derived = (spec.derive)(&model, &ParamValues::defaults(spec.params));
        let get = |name: &str| derived.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("{name} is derived")).default;
        let (step, batch) = (get("step_size"), get("batch_size"));
        let expected = largest_step_by_hand(rho, batch);
        // The derivation bisects 60 times in log ε over twelve decades: ≈ 3·10⁻¹⁷ relative.
        assert!((step - expected).abs() < 1e-9 * expected, "ρ = {rho}: derived ε = {step} at n = {batch}, by hand {expected}");
        // The stability limit the slider shades: 4/λ_max = 4(1 − |ρ|).
        let limit = derived.iter().find(|d| d.name == "step_size").unwrap().unstable_above.unwrap();
        assert!((limit - 4.0 * (1.0 - rho.abs())).abs() < 1e-9, "ρ = {rho}: stability limit {limit}");
    }
}
