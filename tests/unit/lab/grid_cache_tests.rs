//! Unit tests of the full lab's contour-grid cache (src/lab/view.rs `own_contour_grid`): a lab of
//! the same target settings and data reuses the grid an earlier lab evaluated, and a lab of other
//! settings never gets it (issue 23, BENCHMARKS.md "CI time, twelfth round").

use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;
use sgviz::plot::contours::DensityGrid;

/// A lab on the hyperbola target with `n_points` data; its view depends on the prior scale only
/// (src/model/hyperbola.rs `view`), so labs of other N share the window but not the density.
fn lab(sampler: &str, n_points: usize, seed: u64) -> Lab {
    Lab::new(ChainConfig::new("hyperbola", sampler, seed).with("n_points", n_points), 240, 200, 1.0).unwrap()
}

/// The lab's contour grid, its window, and (the oracle) the grid evaluated afresh on the lab's
/// own model at the same nodes.
fn grid_and_fresh(lab: &Lab) -> (*const DensityGrid, String, Vec<f64>, Vec<f64>) {
    let names = ["x".to_string(), "y".to_string()];
    let grid = lab.static_layer(&names, None).grid.expect("a 2-D target has a contour grid");
    let fresh = DensityGrid::evaluate(lab.chain().model(), grid.view, grid.nx, grid.ny);
    (grid as *const DensityGrid, format!("{:?}", grid.view), grid.log_density.clone(), fresh.log_density)
}

#[test]
fn a_lab_reuses_the_grid_of_its_own_target_settings_and_never_another_ones() {
    // N = 20, then N = 200 (the same window), then N = 20 again under another sampler and seed
    // (the same target: its settings and data).
    let (a_ptr, a_view, a, a_fresh) = grid_and_fresh(&lab("sgld", 20, 1));
    let (_, b_view, b, b_fresh) = grid_and_fresh(&lab("sgld", 200, 1));
    let (c_ptr, _, c, c_fresh) = grid_and_fresh(&lab("sghmc", 20, 2));
    assert_eq!(a_view, b_view, "the case needs two targets in one window");
    assert_eq!(a, a_fresh, "N = 20: the grid is the model's log density on its nodes");
    assert_eq!(b, b_fresh, "N = 200: the grid is its own model's, not N = 20's");
    assert_eq!(c, c_fresh, "N = 20 again: the grid is the model's");
    assert_ne!(a, b, "other data, another grid");
    assert_eq!(a_ptr, c_ptr, "the second lab of N = 20 reuses the first one's grid");
}
