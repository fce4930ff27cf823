//! SGAIS's end of a chunk (src/sgais/run.rs, `annealing_step`): a temperature that the bisection
//! leaves within 10⁻¹² below 1 is taken as λ = 1 and the chunk ends (issue 23, fifteenth pass).
//! Without that snap the chunk would take one more annealing step of size < 10⁻¹², with its
//! SGHMC moves: one more step in the record and different particles. The case is built by hand
//! so that the first step's bisection ends 10⁻¹³ below 1: one datum, ℓ(θ) = 0 for θ > 0 and −1
//! otherwise, M = 8 prior draws +1, −1, +1, … (four of each), so at increment Δ the weights are 1
//! and q = e^{−Δ} and the incremental ESS is (4 + 4q)²/(4 + 4q²) (docs/sgais.md (SGAIS.4)),
//! written here, not read from annealing.rs. ESS* is that ESS at Δ = 1 − 10⁻¹³: the full step
//! (Δ = 1) falls just short of it (ESS is decreasing), so Δ is the bisection's root.

use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::{EtaScale, NoiseCorrection, Resampling, SgaisConfig};
use std::sync::Arc;
#[path = "common/scripted_1d.rs"]
mod scripted_1d;
use scripted_1d::{alternating, Scripted};

const M: usize = 8;

/// (4 + 4q)² / (4 + 4q²) with q = e^{−Δ}: four weights 1, four e^{−Δ}.
fn ess_by_hand(delta: f64) -> f64 {
    let q = (-delta).exp();
    (4.0 + 4.0 * q).powi(2) / (4.0 + 4.0 * q * q)
}

#[test]
fn a_bisection_ending_a_tenth_of_a_picounit_below_one_ends_the_chunk_in_one_step() {
    let target = ess_by_hand(1.0 - 1e-13);
    assert!(ess_by_hand(1.0) < target && target < M as f64, "the full step falls short of ESS* = {target}");
    let mut c = SgaisConfig::paper_defaults();
    c.particles = M;
    c.target_ess = target;
    c.burn_in_steps = 2;
    c.batch_size = 1;
    c.chunk_size = 1;
    c.eta_scale = EtaScale::Seen;
    c.noise_correction = NoiseCorrection::Fixed(0.0);
    c.resampling = Resampling::Off;
    c.reservoir_size = 0;
    c.reseed_components = false;
    c.surprise_boost = None;
    let mut run = SgaisRun::new(Arc::new(Scripted::new(1, |t| if t > 0.0 { 0.0 } else { -1.0 }, alternating)), c, 1, 7);
    let records = run.advance(1);
    assert_eq!(records.len(), 1, "the first annealing step ends the chunk (λ within 1e-12 of 1 is 1); state {:?}", run.annealing_state());
    assert_eq!(records[0].annealing_steps, 1);
    assert_eq!(run.status(), &RunStatus::Finished);
    // log Ẑ = log mean of the weights at Δ ≈ 1: log((4 + 4/e)/8), to the 10⁻¹³ of the increment.
    let by_hand = ((1.0 + (-1f64).exp()) / 2.0).ln();
    assert!((records[0].log_z - by_hand).abs() < 1e-12, "log Ẑ {} vs {by_hand} by hand", records[0].log_z);
}
