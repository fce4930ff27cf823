//! Unit tests of src/model/laplace.rs (`model::laplace::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::model::laplace::*;
use sgviz::model::gaussian::CorrelatedGaussian;

#[test]
fn exact_for_a_gaussian() {
    let g = CorrelatedGaussian::new(2.0, 0.5, -0.7, 0.0);
    let m = laplace_approximation(&g).unwrap();
    let exact = g.exact_moments().unwrap();
    for a in 0..2 {
        assert!((m.mean[a] - exact.mean[a]).abs() < 1e-8);
        for b in 0..2 {
            assert!((m.cov[a][b] - exact.cov[a][b]).abs() < 1e-6, "{:?} vs {:?}", m.cov, exact.cov);
        }
    }
}
