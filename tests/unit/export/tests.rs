//! Unit tests of src/export.rs (`export::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::ring::RingBuffer;
use sgviz::export::*;

#[test]
fn two_chains_in_long_format_with_draws_counted_from_the_first_kept() {
    let mut a = RingBuffer::new(2, 3);
    for k in 0..5 {
        a.push(&[k as f64, -(k as f64)]);
    }
    let mut b = RingBuffer::new(2, 3);
    b.push(&[0.5, 1.5]);
    let names = vec!["θ1".to_string(), "a,b".to_string()];
    let csv = long_format_csv(&names, &[&a, &b]);
    // Ring a kept pushes 2, 3, 4 of 0..5; ring b its only push.
    assert_eq!(csv, "chain,draw,θ1,\"a,b\"\n0,2,2,-2\n0,3,3,-3\n0,4,4,-4\n1,0,0.5,1.5\n");
}
