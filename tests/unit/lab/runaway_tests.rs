//! Unit tests of the lab's runaway hand-over: flagged excursions, exact discarding, no false alarms.
//!
//! Unit tests of src/lab/mod.rs (`lab::runaway_tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::chain::ChainConfig;
use sgviz::lab::*;

/// SBPS with a thin band (k = 1) and a horizon of 1,000 distances: a negative fitted slope
/// sends the particle far away with no observation, the runaway this detector is for.
fn reckless_sbps(seed: u64) -> ChainConfig {
    ChainConfig::new("gaussian", "sbps", seed).with("grad_noise", 1.0).with("band_k", 1.0).with("horizon", 1000.0).with("aux_points", 0)
}

#[test]
fn forced_excursion_is_flagged_with_its_start() {
    let mut lab = Lab::new(reckless_sbps(3), 200, 200, 1.0).unwrap();
    let mut ran = 0;
    while lab.state()["runaway"].is_null() && ran < 200_000 {
        ran += lab.run(100);
    }
    let runaway = lab.state()["runaway"].clone();
    assert!(!runaway.is_null(), "no runaway in {ran} steps");
    let since = runaway["since_step"].as_u64().unwrap();
    assert!(since <= lab.chain().steps());
    assert!(runaway["distance_sd"].as_f64().unwrap() > 8.0);
    assert!(runaway["message"].as_str().unwrap().contains("raise the band multiple k"), "{runaway}");
}

#[test]
fn discarding_a_runaway_restores_exactly_the_statistics_before_it() {
    // Seed 2 is the first seed whose runaway begins well after the burn-in (found once by a
    // search over seeds 1, 2, …: seed 1's begins at step 70); fixed here so that a broken detector
    // fails this test instead of sending a seed search on forever.
    let mut config = reckless_sbps(2);
    config.burn_in = 50;
    let mut lab = Lab::new(config.clone(), 200, 200, 1.0).unwrap();
    while lab.state()["runaway"].is_null() && lab.chain().steps() < 100_000 {
        lab.run(37);
    }
    let since = lab.state()["runaway"]["since_step"].as_u64().expect("seed 2 runs away within 100,000 steps");
    assert!(since > 100, "seed 2's runaway begins after the burn-in and the first 100 steps, not at {since}");
    let where_it_began = lab.chain().samples().total_pushed();
    assert!(lab.discard_since_runaway().is_ok());
    assert!(lab.state()["runaway"].is_null());
    assert!(lab.discard_since_runaway().is_err(), "nothing left to discard");
    // The same chain stopped just before the excursion's first step.
    let mut before = Lab::new(config, 200, 200, 1.0).unwrap();
    before.run(since - 1);
    let (a, b) = (lab.chain(), before.chain());
    assert!(a.samples().total_pushed() < where_it_began, "the excursion's samples are gone: since {since}, {} vs {where_it_began}", a.samples().total_pushed());
    assert_eq!(a.moments(), b.moments());
    assert_eq!(a.n_recorded(), b.n_recorded());
    assert_eq!(a.samples_since_clear(), b.samples_since_clear());
    assert_eq!(a.samples().iter().collect::<Vec<_>>(), b.samples().iter().collect::<Vec<_>>());
    assert_eq!(lab.density().column_counts(), before.density().column_counts());
    assert_eq!(lab.density().row_counts(), before.density().row_counts());
    assert_eq!(lab.density().outside(), before.density().outside());
    assert_eq!(a.position(), b.position(), "the particle is back where the excursion began");
    // since_step is the first event outside the bulk (√D + 3 truth-sd): the one before is inside.
    let mut watch = sgviz::runaway::RunawayWatch::new(lab.truth().moments.as_ref().unwrap()).unwrap();
    let inner = sgviz::runaway::inner_radius(2);
    assert!(watch.distance(b.position()) <= inner);
    before.run(1);
    assert!(watch.distance(before.chain().position()) > inner);
    // And it runs on from there.
    assert_eq!(lab.run(1_000), 1_000);
}

#[test]
fn a_healthy_long_run_raises_no_runaway() {
    // Exact BPS on the correlated Gaussian (its truth in closed form): 10⁶ events.
    let mut lab = Lab::new(ChainConfig::new("gaussian", "bps", 4), 200, 200, 1.0).unwrap();
    lab.run(1_000_000);
    assert!(lab.state()["runaway"].is_null());
    assert!(lab.discard_since_runaway().is_err());
}

/// Since issue 21's s49 pass the stochastic-gradient samplers are watched too (src/chain/divergence.rs
/// `watch_for_runaway`; tests/runaway_stochastic_gradient.rs shows one that runs away and stays
/// finite). SGLD at ε = 1.9 on the correlated Gaussian diverges at step 7; its runaway, confirmed
/// at step 2, is not shown beside the divergence, which names the same control (this test
/// asserted "discrete-time samplers are not watched" before).
#[test]
fn a_stochastic_gradient_chain_that_diverged_shows_its_divergence_alone() {
    let mut lab = Lab::new(ChainConfig::new("gaussian", "sgld", 4).with("step_size", 1.9), 200, 200, 1.0).unwrap();
    lab.run(1_000);
    assert!(lab.state()["diverged"].as_str().is_some_and(|d| d.contains("reduce ε")), "{}", lab.state()["diverged"]);
    assert!(lab.state()["runaway"].is_null(), "{}", lab.state()["runaway"]);
}

#[test]
fn the_way_in_from_a_distant_start_is_not_a_runaway() {
    // The synthetic logistic target starts at the origin, ≈ 15 posterior sd from the mode.
    let mut lab = Lab::new(ChainConfig::new("logreg", "bps", 4), 200, 200, 1.0).unwrap();
    lab.run(20_000);
    assert!(lab.state()["runaway"].is_null());
}

#[test]
fn discarding_a_runaway_after_the_ring_wrapped_restores_the_density_of_every_sample_before_it() {
    // The ring keeps only the last 400 samples (seed 2 records 609 before its excursion), so the
    // image from before the excursion cannot be re-binned from the ring: it must come from the copy
    // kept when the excursion began. Both labs run one step at a time (each bins its new samples
    // after every step; in batches of 37 steps the flight's first batch alone records > 1,000).
    let mut config = reckless_sbps(2);
    config.burn_in = 50;
    config.capacity = 400;
    let mut lab = Lab::new(config.clone(), 200, 200, 1.0).unwrap();
    while lab.state()["runaway"].is_null() && lab.chain().steps() < 100_000 {
        lab.run(1);
    }
    let since = lab.state()["runaway"]["since_step"].as_u64().expect("seed 2 runs away within 100,000 steps");
    assert!(lab.discard_since_runaway().is_ok());
    let pushed = lab.chain().samples().total_pushed();
    assert!(pushed > 400, "the ring must have wrapped before the excursion: {pushed} samples");
    let mut before = Lab::new(config, 200, 200, 1.0).unwrap();
    while before.chain().steps() + 1 < since {
        before.run(1);
    }
    assert_eq!(before.chain().samples().total_pushed(), pushed);
    let counts = |l: &Lab| l.density().column_counts().iter().sum::<u64>() + l.density().outside();
    assert_eq!(counts(&before), pushed, "every sample recorded before the excursion is in the image, not only the 400 retained");
    assert_eq!(lab.density().column_counts(), before.density().column_counts());
    assert_eq!(lab.density().row_counts(), before.density().row_counts());
}
