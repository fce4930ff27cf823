//! A chain that does not move is not shown as mixing (issue 21, review s42 item 7): the SGHMC
//! lesson's second step with the friction slider at κ = 0 on the Gaussian toy (exact gradients:
//! minibatch = N = 100, β̂ = 0, so no noise at all) starts at the mean, where the gradient is 0,
//! and stays there up to rounding (its trace moves by 10⁻¹⁵). Geyer's estimator read that
//! rounding noise as a moving chain: ESS 224 of 20,000 samples, "ESS per 1,000 gradients > 0.08
//! (now 0.112) ✓". The oracle is the hand-worked case: a chain that has not left its start holds
//! one draw's worth of information, ESS 1, so ESS per 1,000 gradients = 1,000 / (window × 100
//! gradients per sample). docs/diagnostics.md §12.

use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;

fn lesson_step(friction: f64) -> Lab {
    let config = ChainConfig::new("gaussian", "sghmc", 1).with("batch_size", 100).with("sghmc_lr", 9.233e-4).with("friction", friction);
    let mut lab = Lab::new(config, 400, 400, 1.0).unwrap();
    lab.run(20_000);
    lab
}

#[test]
fn a_chain_frozen_at_its_start_has_one_draw_of_ess() {
    let lab = lesson_step(0.0);
    let ring = lab.chain().samples();
    // The premise, checked here: the chain has not moved on any visible scale.
    for j in 0..2 {
        let v = ring.coordinate(j);
        let range = v.iter().fold(f64::NEG_INFINITY, |m, &z| m.max(z)) - v.iter().fold(f64::INFINITY, |m, &z| m.min(z));
        assert!(range < 1e-12, "coordinate {j} moved by {range}");
    }
    let mixing = lab.mixing();
    let window = mixing["window"].as_f64().unwrap();
    assert_eq!(window, 20_000.0);
    for j in 0..2 {
        let ess = mixing["ess"][j].as_f64().unwrap();
        let per_1000 = mixing["ess_per_1000_grads"][j].as_f64().unwrap();
        assert_eq!(ess, 1.0, "coordinate {j}: {mixing}");
        // 1,000 × 1 / (20,000 samples × 100 gradients each) = 5·10⁻⁴, far below the lesson's 0.08.
        assert!((per_1000 - 5e-4).abs() < 1e-12, "coordinate {j}: {mixing}");
    }
}

#[test]
fn a_moving_chain_keeps_its_estimated_ess() {
    // The lesson's own κ = 0.01 (a chain that moves): its ESS is Geyer's, not the frozen floor.
    let lab = lesson_step(0.01);
    let ring = lab.chain().samples();
    let direct = sgviz::acf_fft::effective_sample_sizes_fft(&ring.coordinate(0), &ring.coordinate(1), 200);
    let mixing = lab.mixing();
    for j in 0..2 {
        let ess = mixing["ess"][j].as_f64().unwrap();
        assert!(ess > 1.0 && (ess - direct[j]).abs() <= 1e-9 * direct[j], "coordinate {j}: {mixing} vs {direct:?}");
    }
}
