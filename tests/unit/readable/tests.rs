use sgviz::readable::percent_above;

/// A share above the promise's 10 % never reads as 10 % (review s42: "in 10 % of runs (at most
/// 10 %)"); hand-worked roundings.
#[test]
fn a_share_above_the_limit_reads_above_it() {
    assert_eq!(percent_above(0.41, 0.1), "41");
    assert_eq!(percent_above(0.102, 0.1), "10.2");
    assert_eq!(percent_above(0.10004, 0.1), "10.004");
    assert_eq!(percent_above(0.1049, 0.1), "10.5");
    assert_eq!(percent_above(0.05, 0.1), "5");
    assert_eq!(percent_above(0.1, 0.1), "10");
}
