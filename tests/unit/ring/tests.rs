//! Unit tests of src/ring.rs (`ring::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::ring::*;

#[test]
fn keeps_only_the_newest_points_in_order() {
    let mut ring = RingBuffer::new(2, 3);
    for k in 0..5 {
        ring.push(&[k as f64, -(k as f64)]);
    }
    assert_eq!(ring.len(), 3);
    assert_eq!(ring.total_pushed(), 5);
    let firsts: Vec<f64> = ring.iter().map(|p| p[0]).collect();
    assert_eq!(firsts, vec![2.0, 3.0, 4.0]);
    assert_eq!(ring.last().unwrap(), &[4.0, -4.0]);
}

#[test]
fn truncation_removes_the_newest_points_as_if_never_pushed() {
    let mut ring = RingBuffer::new(1, 4);
    for k in 0..6 {
        ring.push(&[k as f64]);
    }
    ring.truncate_to(4);
    assert_eq!((ring.len(), ring.total_pushed()), (2, 4));
    assert_eq!(ring.iter().map(|p| p[0]).collect::<Vec<_>>(), vec![2.0, 3.0]);
    ring.push(&[9.0]);
    assert_eq!(ring.iter().map(|p| p[0]).collect::<Vec<_>>(), vec![2.0, 3.0, 9.0]);
    ring.truncate_to(0);
    assert!(ring.is_empty() && ring.total_pushed() == 0);
}
