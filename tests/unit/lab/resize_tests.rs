//! Unit tests of a canvas resize (src/lab/mod.rs `Lab::resize`): the density image keeps every
//! sample binned so far, not only those the ring still holds (issue 26: after 1920 → 390 → 1920 px
//! the mixture's image showed one mode, the ring's last 10⁵ samples).

use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;

/// Samples in the left `cols` pixel columns of the image.
fn left_mass(lab: &Lab, cols: usize) -> u64 {
    lab.density().column_counts()[..cols].iter().sum()
}

/// `steps` steps in runs of 500 (the ring's size), as the page's frames run fewer steps than
/// the ring holds: each run bins its samples while the ring still has them.
fn run_in_ring_sized_chunks(lab: &mut Lab, steps: u64) {
    for _ in 0..steps / 500 {
        lab.run(500);
    }
}

#[test]
fn a_resize_round_trip_keeps_every_binned_sample() {
    // A ring of 500 samples under 20,000 steps: the old rebuild kept 500 of them.
    let config = ChainConfig { capacity: 500, ..ChainConfig::new("gaussian", "sgld", 7) };
    let mut lab = Lab::new(config, 400, 400, 1.0).unwrap();
    run_in_ring_sized_chunks(&mut lab, 20_000);
    let total = |lab: &Lab| lab.density().total_inside() + lab.density().outside();
    assert_eq!(total(&lab), 20_000, "one sample per step, all binned");
    let (w, half) = (lab.density().width() as usize, lab.density().width() as usize / 2);
    let before = left_mass(&lab, half);
    let columns = lab.density().column_counts();
    lab.resize(120, 120, 1.0);
    let small = lab.density().width() as usize;
    assert_eq!(total(&lab), 20_000, "every sample kept on the small canvas");
    lab.resize(400, 400, 1.0);
    assert_eq!(lab.density().width() as usize, w);
    assert_eq!(total(&lab), 20_000, "every sample kept after the round trip");
    // Mass near the midline may cross it when a coarse pixel is split back: at most the samples
    // in the fine columns one coarse pixel (⌈w / w_small⌉ fine columns) either side of it, plus
    // one sample per row from rounding.
    let reach = w.div_ceil(small) + 1;
    let near: u64 = columns[half - reach..half + reach].iter().sum();
    let rows = lab.density().height() as u64;
    let after = left_mass(&lab, half);
    assert!(before.abs_diff(after) <= near + rows, "left-half mass {before} → {after} (at most {near} + {rows} may cross)");
    // New samples still land at full resolution after the round trip.
    lab.run(500);
    assert_eq!(total(&lab), 20_500);
}

#[test]
fn a_resize_to_the_same_frame_changes_nothing() {
    let config = ChainConfig { capacity: 500, ..ChainConfig::new("gaussian", "sgld", 3) };
    let mut lab = Lab::new(config, 300, 300, 1.0).unwrap();
    run_in_ring_sized_chunks(&mut lab, 5_000);
    let counts = lab.density().counts().to_vec();
    lab.resize(300, 300, 1.0);
    assert_eq!(lab.density().counts(), &counts[..], "the same image, bit for bit");
}
