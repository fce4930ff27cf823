//! Every minibatch slider ends at the data count N (issue 21: "a knob that changes nothing on
//! screen is a bug"). A sampler clamps n to N, so a slider reaching past N has a dead stretch: lipSBPS's
//! went to 10⁶ on N = 1,000 data, half of its log-scale track. For each sampler with a `batch_size`
//! on the logistic-regression target at two data counts set here (the oracle is the N the test
//! sets, not anything the code computes), the slider's derived range is [1 or 2, N] with the default
//! inside it.

use sgviz::chain::{Chain, ChainConfig};
use sgviz::registry::SAMPLERS;

const DATA_COUNTS: [usize; 2] = [300, 1_000];

#[test]
fn every_minibatch_slider_ends_at_the_data_count() {
    let with_batch: Vec<&str> = SAMPLERS.iter().filter(|s| s.params.iter().any(|p| p.name == "batch_size")).map(|s| s.name).collect();
    for required in ["sgld", "sghmc", "sgfs_f", "sgfs_d", "osgfs", "sbps", "psbps", "lipsbps"] {
        assert!(with_batch.contains(&required), "{required} has a minibatch slider");
    }
    for &n in &DATA_COUNTS {
        for &sampler in &with_batch {
            let chain = Chain::new(&ChainConfig::new("logreg", sampler, 1).with("n_points", n as f64))
                .unwrap_or_else(|e| panic!("{sampler} on logreg with N = {n}: {e}"));
            let range = chain.derived().iter().find(|d| d.name == "batch_size").unwrap_or_else(|| panic!("{sampler}, N = {n}: no derived range for batch_size"));
            assert_eq!(range.max, n as f64, "{sampler}, N = {n}: the slider ends at {} instead of N", range.max);
            assert!(range.min == 1.0 || range.min == 2.0, "{sampler}, N = {n}: starts at {}", range.min);
            assert!(range.min <= range.default && range.default <= range.max, "{sampler}, N = {n}: default {} outside [{}, {}]", range.default, range.min, range.max);
        }
    }
}
