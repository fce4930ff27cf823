//! Unit tests of src/sgais/replicas.rs (`sgais::replicas::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::replicas::*;

#[test]
fn replica_seeds_are_distinct_and_replica_zero_is_the_seed() {
    assert_eq!(replica_seed(7, 0), 7);
    let seeds: std::collections::HashSet<u64> = (0..1000).flat_map(|s| (0..8).map(move |r| replica_seed(s, r))).collect();
    assert_eq!(seeds.len(), 8000);
}

#[test]
fn spread_of_known_values() {
    let s = Spread::of(&[1.0, 2.0, 3.0, f64::NAN]).unwrap();
    assert_eq!((s.count, s.mean, s.min, s.max), (3, 2.0, 1.0, 3.0));
    assert!((s.sd.unwrap() - 1.0).abs() < 1e-12 && (s.se.unwrap() - 1.0 / 3f64.sqrt()).abs() < 1e-12);
    assert!(Spread::of(&[4.0]).unwrap().sd.is_none());
    assert!(Spread::of(&[f64::NEG_INFINITY]).is_none());
}
