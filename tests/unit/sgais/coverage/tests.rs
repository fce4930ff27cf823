//! Unit tests of src/sgais/coverage.rs (`sgais::coverage::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::coverage::*;

/// Hand-made θ for K = 3: equal weights, means on clusters 1 and 2 and one far away → 2 clusters;
/// the far one moved onto cluster 5 → 3; then a light component (weight < 0.05) does not count.
#[test]
fn counts_components_with_weight_on_a_cluster_centre() {
    let rho = [0.0; 6];
    let theta = |z2: f64, third: [f64; 2]| -> Vec<f64> { [vec![0.0, z2], vec![-2.0, 0.1, 2.1, 0.0], third.to_vec(), rho.to_vec()].concat() };
    assert_eq!(clusters_covered(&theta(0.0, [9.0, 9.0]), 3), 2);
    assert_eq!(clusters_covered(&theta(0.0, [3.0, 2.7]), 3), 3);
    assert_eq!(clusters_covered(&theta(-6.0, [3.0, 2.7]), 3), 2, "component 2 (on cluster 2) weighs e⁻⁶/(2 + e⁻⁶) < 0.05");
    let light_third = [vec![6.0, 6.0], vec![-2.0, 0.1, 2.1, 0.0, 3.0, 2.7], rho.to_vec()].concat();
    assert_eq!(clusters_covered(&light_third, 3), 2);
    assert_eq!(median_clusters_covered(&[theta(0.0, [9.0, 9.0]), theta(0.0, [3.0, 2.7]), theta(0.0, [3.0, 2.7])], 3), 3);
}
