//! Unit tests of src/plot/contours.rs (`plot::contours::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::plot::contours::*;
use sgviz::model::gaussian::CorrelatedGaussian;

#[test]
fn gaussian_contour_points_lie_on_the_mahalanobis_circle() {
    let g = CorrelatedGaussian::new(1.0, 2.0, 0.6, 0.0);
    let grid = DensityGrid::evaluate(&g, g.view(), 161, 161);
    let top = g.log_density(&[0.0, 0.0]);
    let level = top - 2.0; // Mahalanobis radius 2.
    let segments = grid.contour_segments(level);
    assert!(segments.len() > 50);
    for seg in segments {
        for (x, y) in seg {
            // Linear interpolation on a fine grid: within a small fraction of the level gap.
            assert!((g.log_density(&[x, y]) - level).abs() < 0.02, "({x}, {y})");
        }
    }
}
