//! Unit tests of src/sgais/nested.rs (`sgais::nested::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::params::ParamValues;
use sgviz::sgais::models::EvidenceModel;
use std::sync::Arc;
use sgviz::sgais::nested::*;

/// Hand-worked accumulators: two points of weight ½ at L = 1 and L = e² give
/// Z = (1 + e²)/2 and H = Σ (w L/Z) log L − log Z = (e²/(1 + e²))·2 − log Z.
#[test]
fn skilling_accumulators_match_a_hand_worked_case() {
    let mut e = Evidence::EMPTY;
    e.add(0.5f64.ln(), 0.0);
    e.add(0.5f64.ln(), 2.0);
    let z = (1.0 + 2f64.exp()) / 2.0;
    assert!((e.log_z - z.ln()).abs() < 1e-12);
    let h = 2f64.exp() / (1.0 + 2f64.exp()) * 2.0 - z.ln();
    assert!((e.information - h).abs() < 1e-12, "{} vs {h}", e.information);
}

/// Hand-worked rank: live log L = [1, 5, 3, 2], the worst (slot 0) replaced by a point at 4:
/// of the survivors 5, 3, 2 two are below it.
#[test]
fn the_insertion_rank_counts_the_survivors_below_the_new_point() {
    let model: Arc<dyn EvidenceModel> = Arc::new(sgviz::model::gmm::GaussianMixture::new(1, 1, vec![0.0, 1.0]).unwrap());
    let values = ParamValues::defaults(NESTED_PARAMS);
    let mut run = NestedRun::new(model, NestedConfig { live_points: 4, ..NestedConfig::from_values(&values) }, 2, 1);
    run.live_log_l = vec![1.0, 5.0, 3.0, 2.0];
    run.record_insertion_rank(0, 4.0);
    run.record_insertion_rank(0, 0.5);
    run.record_insertion_rank(0, 9.0);
    assert_eq!(run.insertion_ranks(), &[2, 0, 3]);
}
