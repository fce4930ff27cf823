//! Unit tests of src/model/softmax.rs (`model::softmax::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::rng::chain_rng;
use sgviz::model::softmax::*;

#[test]
fn paper_setting_has_44_parameters_and_normalised_likelihood() {
    let model = SoftmaxRegression::synthetic(50, 10, 4, 1.0, 3);
    assert_eq!(model.dim(), 44);
    let theta = model.sample_prior(&mut chain_rng(1));
    // Σ_y p(y | x, θ) = 1: swap the label of datum 0 through every class.
    let mut copy = model.clone();
    let total: f64 = (0..4)
        .map(|k| {
            copy.labels[0] = k;
            copy.log_lik(0, &theta).exp()
        })
        .sum();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
}

/// A class without rows is refused, with a hint for 1-based labels; all classes present is fine.
#[test]
fn a_class_without_rows_is_refused() {
    let one_based = sgviz::data::parse_csv(b"x,label\n0.1,1\n0.2,2\n0.3,3\n0.4,4\n").unwrap();
    let err = SoftmaxRegression::from_dataset(&one_based, 1.0).unwrap_err();
    assert!(err.contains("class 0 has no rows") && err.contains("1-based"), "{err}");
    let gap = sgviz::data::parse_csv(b"x,label\n0.1,0\n0.2,3\n0.3,3\n").unwrap();
    let err = SoftmaxRegression::from_dataset(&gap, 1.0).unwrap_err();
    assert!(err.contains("classes 1, 2 have no rows") && !err.contains("1-based"), "{err}");
    let zero_based = sgviz::data::parse_csv(b"x,label\n0.1,0\n0.2,1\n0.3,2\n0.4,3\n").unwrap();
    assert_eq!(SoftmaxRegression::from_dataset(&zero_based, 1.0).unwrap().n_classes(), 4);
    let one_class = sgviz::data::parse_csv(b"x,label\n0.1,0\n0.2,0\n").unwrap();
    assert!(SoftmaxRegression::from_dataset(&one_class, 1.0).unwrap_err().contains("class 1 has no rows"));
}

#[test]
fn per_datum_gradients_match_finite_differences() {
    let model = SoftmaxRegression::synthetic(20, 3, 3, 1.0, 7);
    let theta = model.sample_prior(&mut chain_rng(2));
    for i in [0, 9, 19] {
        let mut g = vec![0.0; model.dim()];
        model.add_grad_log_lik(i, &theta, &mut g);
        for j in 0..model.dim() {
            let h = 1e-6;
            let (mut up, mut down) = (theta.clone(), theta.clone());
            up[j] += h;
            down[j] -= h;
            let fd = (model.log_lik(i, &up) - model.log_lik(i, &down)) / (2.0 * h);
            assert!((fd - g[j]).abs() < 1e-6 * (1.0 + fd.abs()), "datum {i}, coordinate {j}: {fd} vs {}", g[j]);
        }
    }
}
