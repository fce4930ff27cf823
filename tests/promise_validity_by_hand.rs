//! `Predictor::predict` carries the law's validity (docs/diagnostics.md §7 addendum, V2) into the
//! promise, against numbers worked by hand (issue 23, stop 51: the field deletion
//! `validity: self.validity(&law)` in `Predictor::predict`, open since the nineteenth pass, made
//! every prediction "valid", and no test read a prediction's validity).
//!
//! The target: tests/remedy_by_hand.rs's `Line` with identical data (N = 10 at x = 0, σ² = 10):
//! posterior N(0, 1/λ), λ = N/σ² = 1, and every score equal, so full-batch SGLD is the exact AR(1)
//! x' = a·x + w with a = 1 − ελ/2 and Var w = ε (Welling & Teh 2011 eq. 4), stationary variance
//! v = ε/(1 − a²). From the posterior mean (x₀ = 0), E[x_t²] = v(1 − a^{2t}), so the run of
//! T = 5,000 samples (docs/diagnostics.md §7: "5,000 samples") has expected second moment
//!     S = v(1 − a²(1 − a^{2T}) / ((1 − a²)T))
//! (the geometric series summed in closed form here; the code solves a Lyapunov sum). At ε = 10⁻⁴
//! the slowest time constant −1/ln a ≈ 20,000 steps is four times the run: S ≈ 0.21, so E2 against
//! the truth 1/λ = 1 is ≈ 0.79, past the claim 0.3: "not reached", and the promise fails by mixing
//! although the law's own bias (ε/4 over 1 − ε/4, 2.5·10⁻⁵) is nothing.

use crate::remedy_by_hand::{params_at, Line};
use sgviz::promise::{Predictor, Validity};
use sgviz::setting_warning::Failure;

/// (start E2, relaxation in steps) of full-batch SGLD at ε on the Line with λ = 1 (module doc).
fn by_hand(step: f64) -> (f64, f64) {
    let (a, samples) = (1.0 - step / 2.0, 5_000.0);
    let v = step / (1.0 - a * a);
    let run = v * (1.0 - a * a * (1.0 - a.powf(2.0 * samples)) / ((1.0 - a * a) * samples));
    ((run - 1.0).abs(), -1.0 / a.ln())
}

#[test]
fn a_run_too_short_to_spread_is_predicted_not_reached_with_its_start_e2_and_fails_by_mixing() {
    let model = Line::new(10, 10.0, 0.0);
    assert_eq!(model.precision(), 1.0);
    let predictor = Predictor::new("sgld", &model).expect("a Gaussian target has a law");
    let (start_e2, relaxation) = by_hand(1e-4);
    assert!((start_e2 - 0.787).abs() < 0.001 && (relaxation - 20_000.0).abs() < 1.0, "the oracle itself: {start_e2}, {relaxation}");
    let prediction = predictor.predict(&params_at("sgld", &[("step_size", 1e-4), ("batch_size", 10.0)])).unwrap();
    let Validity::NotReached { relaxation: got_relaxation, start_e2: got_e2 } = prediction.validity else {
        panic!("ε = 10⁻⁴: a run of 5,000 samples covers a quarter of one time constant, yet the prediction says {:?}", prediction.validity);
    };
    assert!((got_e2 / start_e2 - 1.0).abs() < 1e-6, "start E2 {got_e2}, by hand {start_e2}");
    assert!((got_relaxation / relaxation - 1.0).abs() < 1e-6, "relaxation {got_relaxation} steps, by hand {relaxation}");
    assert!(prediction.bias < 1e-4, "the law's own bias at ε = 10⁻⁴ is 2.5·10⁻⁵: {}", prediction.bias);
    assert_eq!(prediction.failure(), Some(Failure::Mixing), "the screen's promise: a mixing failure");
}

#[test]
fn a_run_of_many_time_constants_is_predicted_valid() {
    // ε = 0.1: −1/ln 0.95 ≈ 19.5 steps, 256 time constants in the run; S is within 0.4 % of v.
    let model = Line::new(10, 10.0, 0.0);
    let predictor = Predictor::new("sgld", &model).unwrap();
    let (start_e2, relaxation) = by_hand(0.1);
    assert!(start_e2 < 0.05 && relaxation < 20.0, "the oracle itself: {start_e2}, {relaxation}");
    let prediction = predictor.predict(&params_at("sgld", &[("step_size", 0.1), ("batch_size", 10.0)])).unwrap();
    assert_eq!(prediction.validity, Validity::Valid);
}
