//! The runaway detector (src/runaway.rs) on starts that are really distant: the way in is not an
//! excursion, however far out the chain starts, and the watch is armed once the chain is in.
//!
//! The correlated Gaussian (σ₁ = σ₂ = 1, ρ = 0.9, the default target) has Σ⁻¹ in closed form, so
//! the start's distance in truth sds is computed here: (20, −20) lies along the short axis
//! (eigenvalue 0.1): ‖L⁻¹x‖ = √(xᵀΣ⁻¹x) = √(800/0.1) ≈ 89 sd, far past the 8 sd outer radius.

use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;

/// Mahalanobis distance in truth sds for Σ = [[1, 0.9], [0.9, 1]], written out: Σ⁻¹ = [[1, −0.9],
/// [−0.9, 1]]/0.19.
fn distance_sd(x: &[f64]) -> f64 {
    ((x[0] * x[0] - 1.8 * x[0] * x[1] + x[1] * x[1]) / 0.19).sqrt()
}

#[test]
fn the_way_in_from_a_start_ninety_sd_out_is_not_a_runaway() {
    for sampler in ["bps", "sbps", "psbps"] {
        let mut lab = Lab::new(ChainConfig::new("gaussian", sampler, 4), 200, 200, 1.0).unwrap();
        let start = [20.0, -20.0];
        assert!(distance_sd(&start) > 80.0, "the start is {} sd out", distance_sd(&start));
        lab.restart_at(&start).unwrap();
        lab.run(20_000);
        assert!(lab.state()["runaway"].is_null(), "{sampler}: {}", lab.state()["runaway"]);
        // Non-vacuous: the chain did come in (so the watch is armed from then on), within 3 sd.
        let inside = lab.chain().samples().iter().filter(|p| distance_sd(p) < 3.0).count();
        assert!(inside > 1_000, "{sampler}: only {inside} retained samples within 3 sd");
    }
}
