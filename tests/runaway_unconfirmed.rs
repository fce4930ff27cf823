//! The runaway watch's guards (issue 23, stop 51: src/chain/mod.rs and src/chain/divergence.rs,
//! the runaway functions' mutants that the fifteenth pass's tests left alive).
//!
//! - "Discard since runaway" undoes a *confirmed* runaway only: while an excursion is open but not
//!   confirmed (the particle past the inner radius √D + 3 ≈ 4.41 sd, not yet past 8 sd), the page
//!   shows no runaway and a discard is refused with "there is no runaway to discard", the samples
//!   kept. Same chain as tests/runaway.rs (reckless SBPS on the correlated Gaussian, seed 7), the
//!   distance from Σ⁻¹ written out.
//! - A truth whose dimension is not the chain's (a stale truth) arms no watch: the chain runs and
//!   shows no runaway.

use sgviz::chain::{Chain, ChainConfig};
use sgviz::diagnostics::Moments;
use sgviz::lab::Lab;

/// Mahalanobis distance in truth sds for Σ = [[1, 0.9], [0.9, 1]]: Σ⁻¹ = [[1, −0.9], [−0.9, 1]]/0.19.
fn distance_sd(x: &[f64]) -> f64 {
    ((x[0] * x[0] - 1.8 * x[0] * x[1] + x[1] * x[1]) / 0.19).sqrt()
}

#[test]
fn a_discard_during_an_unconfirmed_excursion_is_refused_and_keeps_every_sample() {
    let inner = 2f64.sqrt() + 3.0;
    let config = ChainConfig::new("gaussian", "sbps", 7).with("grad_noise", 1.0).with("band_k", 2.0).with("horizon", 1000.0).with("aux_points", 0);
    let mut lab = Lab::new(config, 200, 200, 1.0).unwrap();
    let mut armed = false;
    // Run until the armed particle is past the inner radius with no runaway confirmed.
    loop {
        assert!(lab.chain().steps() < 20_000, "no open, unconfirmed excursion in 20,000 events");
        lab.run(1);
        let d = distance_sd(lab.chain().position());
        armed |= d <= inner;
        if armed && d > inner && lab.chain().runaway().is_none() {
            break;
        }
    }
    let opened = lab.chain().excursion_pushed().expect("an excursion is open past the inner radius");
    let (kept, steps) = (lab.chain().samples().total_pushed(), lab.chain().steps());
    assert!(kept >= opened, "the ring has {kept} samples, the excursion opened at {opened}");
    let refused = lab.discard_since_runaway().expect_err("no runaway is shown, so nothing may be discarded");
    assert_eq!(refused, "there is no runaway to discard");
    assert_eq!(lab.chain().samples().total_pushed(), kept, "the refused discard removed samples");
    assert_eq!(lab.chain().steps(), steps);
    assert_eq!(lab.chain().excursion_pushed(), Some(opened), "the open excursion is still watched");
}

#[test]
fn a_truth_of_another_dimension_arms_no_watch() {
    let mut chain = Chain::new(&ChainConfig::new("gaussian", "sbps", 3)).unwrap();
    let stale = Moments { mean: vec![0.0; 3], cov: vec![vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0], vec![0.0, 0.0, 1.0]] };
    chain.watch_for_runaway(&stale);
    assert_eq!(chain.run(2_000), 2_000, "the chain runs its 2,000 events");
    assert!(chain.runaway().is_none() && chain.excursion_pushed().is_none());
}
