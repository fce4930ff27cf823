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

/// Issue 23, fifteenth pass (src/chain/mod.rs, the excursion's life): an excursion opens when
/// the particle passes the inner radius √D + 3 (√2 + 3 ≈ 4.41 sd here, docs/diagnostics.md §4) and,
/// until it is confirmed, closes when the particle is back inside: no snapshot of the density is
/// kept for it (`excursion_pushed` is None). It is confirmed only past the outer radius, 8 sd
/// (for this Gaussian the log-density test alone, a drop of more than 8²/4 = 16, would confirm
/// from √32 ≈ 5.66 sd on), and the page shows the farthest distance it reached. A confirmed
/// runaway stays on the page when the particle comes back inside, so that it can still be
/// discarded. The distance is computed here from Σ⁻¹ by hand (`distance_sd`), event by event, on
/// a reckless SBPS (noisy gradients, band k = 2, horizon 1000), seed 7: one excursion peaks at
/// 5.92 sd and closes unconfirmed before the runaway at step 2,176 (seeds 1–12 at k = 2, 2.5, 3
/// measured: 4 excursions peaked between 5.66 and 8 sd, this is the earliest; every runaway
/// measured came back inside within ≈ 200 events).
#[test]
fn an_unconfirmed_excursion_is_forgotten_inside_and_a_confirmed_runaway_is_kept() {
    let (inner, outer) = (2f64.sqrt() + 3.0, 8.0);
    let config = ChainConfig::new("gaussian", "sbps", 7).with("grad_noise", 1.0).with("band_k", 2.0).with("horizon", 1000.0).with("aux_points", 0);
    let mut lab = Lab::new(config, 200, 200, 1.0).unwrap();
    let (mut armed, mut peak, mut closed_peaks) = (false, 0.0f64, vec![]);
    while lab.chain().runaway().is_none() && lab.chain().steps() < 20_000 {
        lab.run(1);
        let d = distance_sd(lab.chain().position());
        armed |= d <= inner;
        if !armed {
            continue;
        }
        if lab.chain().runaway().is_some() {
            peak = peak.max(d);
            break;
        }
        let open = lab.chain().excursion_pushed().is_some();
        assert_eq!(open, d > inner, "step {}: {d} sd from the mean, excursion open: {open}", lab.chain().steps());
        if d > inner {
            peak = peak.max(d);
        } else if peak > 0.0 {
            closed_peaks.push(peak);
            peak = 0.0;
        }
    }
    let runaway = lab.chain().runaway().expect("seed 7 runs away");
    assert!(closed_peaks.iter().any(|p| *p > 32f64.sqrt() && *p < outer), "non-vacuous: an excursion peaked between 5.66 and 8 sd and closed unconfirmed ({closed_peaks:?})");
    assert!(peak > outer, "confirmed at {peak} sd, inside the outer radius");
    while distance_sd(lab.chain().position()) > inner && lab.chain().steps() < 40_000 {
        lab.run(1);
        peak = peak.max(distance_sd(lab.chain().position()));
    }
    assert!(distance_sd(lab.chain().position()) <= inner, "the particle came back inside by step {}", lab.chain().steps());
    let shown = lab.chain().runaway().expect("the confirmed runaway is still shown inside");
    assert_eq!(shown.since_step, runaway.since_step);
    assert!((shown.distance_sd - peak).abs() < 1e-9 * peak, "shown {} sd, farthest by hand {peak}", shown.distance_sd);
}
