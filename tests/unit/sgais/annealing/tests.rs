//! Unit tests of src/sgais/annealing.rs (`sgais::annealing::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::annealing::*;

#[test]
fn ess_bounds() {
    assert_eq!(ess_of_log_weights(&[0.0; 7]), 7.0);
    assert!((ess_of_log_weights(&[0.0, -1e9, -1e9]) - 1.0).abs() < 1e-12);
    assert_eq!(ess_of_log_weights(&[f64::NEG_INFINITY; 3]), 0.0);
    assert!((log_mean_exp(&[1000.0, 1000.0]) - 1000.0).abs() < 1e-12);
}

#[test]
fn ess_and_log_mean_exp_match_hand_computed_values() {
    // Weights 1, 2, 3 (shifted by e⁵⁰⁰, which must cancel): ESS = 6²/14; mean of 1 and 3 is 2.
    let shifted: Vec<f64> = [1.0f64, 2.0, 3.0].iter().map(|w| w.ln() + 500.0).collect();
    assert!((ess_of_log_weights(&shifted) - 36.0 / 14.0).abs() < 1e-12);
    assert!((log_mean_exp(&[1.0f64.ln() - 700.0, 3.0f64.ln() - 700.0]) - (2.0f64.ln() - 700.0)).abs() < 1e-12);
    // Incremental weights ω = exp(Δ L) with L = ln(1, 2, 4): at Δ = ½, ω = (1, √2, 2) and
    // ESS = (3 + √2)²/7; at Δ = 0 every ω is 1, even for L = −∞.
    let l = [0.0, 2.0f64.ln(), 4.0f64.ln()];
    assert!((incremental_ess(&l, 0.5) - (3.0 + 2.0f64.sqrt()).powi(2) / 7.0).abs() < 1e-12);
    assert_eq!(incremental_ess(&[0.0, f64::NEG_INFINITY], 0.0), 2.0);
    assert_eq!(incremental_ess(&[0.0, f64::NEG_INFINITY], 0.1), 1.0);
}

#[test]
fn next_increment_solves_ess_equals_the_target_or_takes_the_rest() {
    // ESS(Δ) with L = ln(1, 2, 4) falls from 3 (Δ = 0) to 49/21 = 2.33 (Δ = 1).
    let l = [0.0, 2.0f64.ln(), 4.0f64.ln()];
    // Target 2.2 < ESS(1): the whole remaining step 1 − λ.
    assert_eq!(next_increment(&l, 0.25, 2.2), 0.75);
    // Target 2.8: the root of ESS(Δ) = 2.8 in (0, 1), from below (ESS ≥ target).
    let delta = next_increment(&l, 0.0, 2.8);
    assert!(delta > 0.0 && delta < 1.0);
    let ess = incremental_ess(&l, delta);
    assert!((ess - 2.8).abs() < 1e-9, "ESS({delta}) = {ess}");
    let target = 2.8 * 3.0 / 3.0; // ESS* m/M as the function computes it (2.8 − 4e-16)
    assert!(ess >= target, "the increment keeps ESS ≥ ESS* (the bracket's lower end): ESS({delta}) = {ess}");
    // ESS* = M: only Δ so small that ESS rounds to M reaches it; λ still moves (Δ > 0).
    let tiny = next_increment(&l, 0.0, 3.0);
    assert!(tiny > 0.0 && tiny < 1e-6 && incremental_ess(&l, tiny) >= 3.0, "{tiny}");
    // One particle at −∞: the target scales to the finite share, 2.8·2/3 — reachable.
    let with_dead = [0.0, 2.0f64.ln(), f64::NEG_INFINITY];
    let delta = next_increment(&with_dead, 0.0, 2.8);
    let ess = incremental_ess(&with_dead, delta);
    assert!((ess - 2.8 * 2.0 / 3.0).abs() < 1e-9 || delta == 1.0, "ESS({delta}) = {ess}");
    // Nothing left to anneal, or nothing finite: 0 and the rest.
    assert_eq!(next_increment(&l, 1.0, 2.8), 0.0);
    assert_eq!(next_increment(&[f64::NEG_INFINITY; 3], 0.5, 2.8), 0.5);
}
