//! src/truth.rs `grid_truth`: the grid it integrates on and its refusal of a grid too coarse for
//! one axis (issue 23, stop 50: four mutants survived tests/targets.rs and tests/truth_grid_by_hand.rs,
//! whose grids have 4 intervals, where ⌊n/2⌋·2 = ⌊n/2⌋ + 2, and whose coarse case is coarse on
//! both axes). Worked by hand:
//!
//! - 16 intervals asked give 17 nodes per axis; 7 (odd) give the even 6, so 7 nodes: each marginal
//!   curve has that many points at spacing (x_max − x_min)/intervals, and the text says "17²
//!   nodes" (docs/truth.md §2: an even count, for the 2h rule on every other node).
//! - (TRUTH.7): the h/2h difference bounds the error only where the spacing is at most 2
//!   marginal sds on *each* axis. On [−5, 5]² with 16 intervals (h = 0.625) a Gaussian with sds
//!   0.01 and 1 is too coarse in x alone (2 · 0.01 < 0.625 ≤ 2 · 1), one with 1 and 0.01 in y
//!   alone: both are refused (an infinite error bound, "too coarse"); sds 1 and 1 are not.

use sgviz::model::gaussian::CorrelatedGaussian;
use sgviz::model::View;
use sgviz::truth::grid_truth;

#[test]
fn the_grid_has_the_even_number_of_intervals_asked_for_plus_one_nodes_per_axis() {
    let model = CorrelatedGaussian::new(1.0, 1.0, 0.5, 0.0);
    let region = View::centred(0.0, 0.0, 4.0, 4.0);
    for (asked, nodes) in [(16, 17), (7, 7), (2, 5)] {
        let truth = grid_truth(&model, region, asked);
        let h = 8.0 / (nodes - 1) as f64;
        for m in &truth.marginals {
            assert_eq!(m.points.len(), nodes, "{asked} intervals asked: coordinate {}", m.coordinate);
            assert!(m.points.windows(2).all(|w| (w[1] - w[0] - h).abs() < 1e-12), "spacing {h}: {:?}", m.points);
        }
        assert!(truth.error.contains(&format!(" {nodes}² nodes")), "{}", truth.error);
    }
}

#[test]
fn a_grid_too_coarse_for_one_axis_alone_is_refused() {
    let wide = View::centred(0.0, 0.0, 5.0, 5.0);
    for (sd1, sd2, refused) in [(0.01, 1.0, true), (1.0, 0.01, true), (1.0, 1.0, false)] {
        let truth = grid_truth(&CorrelatedGaussian::new(sd1, sd2, 0.0, 0.0), wide, 16);
        assert_eq!(truth.error_bound.is_infinite(), refused, "sds {sd1}, {sd2}: {}", truth.error);
        assert_eq!(truth.error.contains("too coarse"), refused, "sds {sd1}, {sd2}: {}", truth.error);
    }
}
