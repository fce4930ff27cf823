//! Unit tests of src/sgais/nested_page.rs (`sgais::nested_page::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::plot::chart::ChartSpec;
use sgviz::sgais::nested::{nested_seed, NestedResult};
use sgviz::sgais::replicas::replica_seed;
use sgviz::sgais::nested_page::*;

fn result(n: usize, log_z: f64, se: f64, finished: bool) -> NestedResult {
    NestedResult { seed: 1, live_points: 25, n, log_z, log_z_se: se, information: 25.0 * se * se, iterations: 10, log_volume: -1.0, datum_evals: 1000, finished, problem: None, seconds: Some(2.0) }
}

/// Hand-worked: two replicas at n = 100 (−10 ± 3, −12 ± 4) → mean −11, SE √(9 + 16)/2 = 2.5;
/// an unfinished run at n = 50 gives no point.
#[test]
fn replicas_combine_to_the_mean_with_the_pooled_standard_error() {
    let points = combine_nested(&[result(100, -10.0, 3.0, true), result(50, -5.0, 1.0, false), result(100, -12.0, 4.0, true)]);
    assert_eq!(points.len(), 1);
    let p = &points[0];
    assert_eq!((p.n, p.replicas, p.finished), (100, 2, 2));
    assert!((p.log_z + 11.0).abs() < 1e-12 && (p.log_z_se - 2.5).abs() < 1e-12, "{p:?}");
    let mut chart = ChartSpec::default();
    add_nested_points(&mut chart, &points);
    assert_eq!(chart.series[0].points, vec![(100.0, -0.11)]);
    assert!((chart.series[0].error_bars[0] - 0.025).abs() < 1e-15);
}

/// A spec builds replica r of the CLI's `--ns` run on the first n data, with `ns_…` settings
/// taken by the nested sampler and the others by the target; unknown names are refused.
#[test]
fn specs_build_the_clis_replica_and_refuse_unknown_names() {
    let spec: NestedSpec = serde_json::from_str(r#"{"target": "linreg", "settings": [["n_points", "300"], ["ns_live_points", "7"], ["learning_rate", "0.05"]], "seed": 3, "replica": 1, "ns_n": 200}"#).unwrap();
    let (mut run, seed) = spec.build(None).unwrap();
    assert_eq!(seed, nested_seed(replica_seed(3, 1)));
    let r = run.run_to_end();
    assert_eq!((r.n, r.live_points, r.seed), (200, 7, seed));
    let bad = NestedSpec { settings: vec![("bogus".into(), "1".into())], ..spec.clone() };
    assert!(bad.build(None).err().unwrap().contains("unknown parameter 'bogus'"));
    // A bad nested-sampling value names the control the panel shows, not the internal name.
    let few = NestedSpec { settings: vec![("ns_live_points".into(), "1".into())], ..spec.clone() };
    assert_eq!(few.build(None).err().unwrap(), "Nested sampling: live points (M_NS): 1 is out of range; allowed: a whole number in [2, 1000]");
    let text = NestedSpec { settings: vec![("ns_steps".into(), "many".into())], ..spec };
    assert_eq!(text.build(None).err().unwrap(), "Nested sampling: steps per replacement (K_NS): 'many' is not a number; allowed: a whole number in [1, 1000]");
}

/// The exact log Z comes from the SGAIS checkpoint at the same n, and only from that one.
#[test]
fn a_point_takes_the_exact_log_z_of_the_checkpoint_at_its_n() {
    let mut points = combine_nested(&[result(100, -10.0, 3.0, true), result(200, -20.0, 3.0, true)]);
    with_exact(&mut points, &[(50, -4.0), (100, -9.5), (150, -15.0)]);
    let exact: Vec<(usize, Option<f64>)> = points.iter().map(|p| (p.n, p.exact_log_z)).collect();
    assert_eq!(exact, vec![(100, Some(-9.5)), (200, None)]);
}
