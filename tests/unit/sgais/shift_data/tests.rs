//! Unit tests of src/sgais/shift_data.rs (`sgais::shift_data::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::shift_data::*;
use sgviz::model::gmm::CLUSTERS;

#[test]
fn the_new_mass_fraction_counts_late_points_in_cells_without_early_ones() {
    let grid = (0.0, 1.0, 2);
    // Cells of width 0.5: (0.1, 0.1) and (0.1, 0.2) share a cell; (0.9, 0.9) is alone.
    assert_eq!(new_mass_fraction(&[[0.1, 0.1]], &[[0.1, 0.2], [0.9, 0.9]], grid), 0.5);
    // Points beyond the grid fall into its edge cells.
    assert_eq!(new_mass_fraction(&[[-3.0, -3.0]], &[[0.2, 0.2], [7.0, 0.2]], grid), 0.5);
    assert_eq!(new_mass_fraction(&[], &[], grid), 0.0);
}

/// The clusters that arrive after the first phase (CLUSTERS[3..7], 4 of the 7 equally weighted
/// in the last phase) sit away from the first three, so a large share of the last phase lands
/// in cells the first phase left empty; shuffled data put every cluster in every phase.
#[test]
fn the_last_phase_reaches_where_the_first_did_not_unless_shuffled() {
    let in_order = shift_data(20_000, 1, false, 500);
    let shuffled = shift_data(20_000, 1, true, 500);
    // Upper bound: the 4 new clusters' share, 4/7.
    assert!(in_order.new_mass_fraction > 0.25 && in_order.new_mass_fraction < 4.0 / 7.0, "{}", in_order.new_mass_fraction);
    assert!(shuffled.new_mass_fraction < 0.02, "{}", shuffled.new_mass_fraction);
    assert_eq!(CLUSTERS.len(), PHASE_CLUSTERS[2]);
}

#[test]
fn the_chart_draws_each_phase_with_at_most_the_shown_points() {
    let data = shift_data(12_000, 1, false, 400);
    let spans: Vec<(usize, usize)> = data.phases.iter().map(|p| (p.start, p.end)).collect();
    assert_eq!(spans, [(0, 1_000), (1_000, 10_000), (10_000, 12_000)]);
    let counts: Vec<usize> = data.chart.series.iter().map(|s| s.points.len()).collect();
    assert_eq!(counts, [400, 400, 400]);
    assert_eq!(data.chart.series[2].label, "points 1–1,000 (generated from 3 clusters)");
    // Fewer points than phases: only the phases that have data.
    assert_eq!(shift_data(800, 1, false, 400).phases.len(), 1);
    assert_eq!(spread_indices(10, 20, 5), [10, 12, 14, 16, 18]);
}
