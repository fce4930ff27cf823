//! Unit tests of src/plot/chart/labels.rs (`plot::chart::labels::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::plot::chart::labels::*;

#[test]
fn a_label_goes_to_the_first_free_place_or_is_left_out() {
    let area = (0, 0, 200, 100);
    // Alone: above right of its point.
    let first = place((50, 50), (40, 10), 5, area, &[]).unwrap();
    assert_eq!(first, (55, 35, 95, 45));
    // A second point 10 px to the right: above right would overlap the first, above left too
    // (15..55 × 35..45 meets 55..95? no: it ends at 55, which does not overlap), so above left.
    let second = place((60, 50), (40, 10), 5, area, &[first]).unwrap();
    assert_eq!(second, (15, 35, 55, 45));
    // A third at the same point: both places above are taken, below right is free.
    let third = place((60, 50), (40, 10), 5, area, &[first, second]).unwrap();
    assert_eq!(third, (65, 55, 105, 65));
    // A fourth there: below left (15..55 × 55..65) is the last free place; a fifth has none.
    let fourth = place((60, 50), (40, 10), 5, area, &[first, second, third]).unwrap();
    assert_eq!(fourth, (15, 55, 55, 65));
    assert_eq!(place((60, 50), (40, 10), 5, area, &[first, second, third, fourth]), None);
    // At the right edge the right-hand places leave the area.
    assert_eq!(place((190, 50), (40, 10), 5, area, &[]), Some((145, 35, 185, 45)));
}

/// Hand-worked: the segment (0, 40)–(200, 40) crosses a box spanning y 35..45 and misses one
/// spanning 55..65 and one whose edge it runs along (40..50); a diagonal (0, 0)–(10, 10) misses
/// (20, 0, 30, 5), (0, 0)–(40, 40) crosses (20, 0, 30, 25); a vertical bar at x = 60 crosses
/// (55, 0, 95, 100) but not (65, 0, 95, 100).
#[test]
fn segments_cross_the_boxes_they_pass_through() {
    assert!(crosses(&((0, 40), (200, 40)), &(55, 35, 95, 45)));
    assert!(!crosses(&((0, 40), (200, 40)), &(55, 55, 95, 65)));
    assert!(!crosses(&((0, 40), (200, 40)), &(55, 40, 95, 50)));
    assert!(!crosses(&((0, 0), (10, 10)), &(20, 0, 30, 5)));
    assert!(crosses(&((0, 0), (40, 40)), &(20, 0, 30, 25)));
    assert!(crosses(&((60, 0), (60, 100)), &(55, 0, 95, 100)));
    assert!(!crosses(&((60, 0), (60, 100)), &(65, 0, 95, 100)));
}

/// A curve through the first place pushes the label to the next place clear of it; a curve
/// through every place leaves the label out.
#[test]
fn a_label_keeps_clear_of_the_curves() {
    let area = (0, 0, 200, 100);
    // Alone: above right, as `place`.
    assert_eq!(place_clear((50, 50), (40, 10), 5, area, &[], &[]), Some((55, 35, 95, 45)));
    // A horizontal curve at y = 40 crosses both places above (35..45): below right (55..65).
    let curve = [((0, 40), (200, 40))];
    assert_eq!(place_clear((50, 50), (40, 10), 5, area, &[], &curve), Some((55, 55, 95, 65)));
    // A second curve at y = 60 takes the places below too; at twice the offset above right
    // (60..100 × 30..40) the curve y = 40 runs along the box's edge only: free.
    let curves = [((0, 40), (200, 40)), ((0, 60), (200, 60))];
    assert_eq!(place_clear((50, 50), (40, 10), 5, area, &[], &curves), Some((60, 30, 100, 40)));
    // Curves everywhere: no place.
    let everywhere: Vec<Segment> = (0..=100).step_by(4).map(|y| ((0, y), (200, y))).collect();
    assert_eq!(place_clear((50, 50), (40, 10), 5, area, &[], &everywhere), None);
}

#[test]
fn x_ticks_thin_out_on_a_narrow_chart() {
    // "2.4e6" at 12 px ≈ 35 px wide with a 24 px gap: 59 px per tick.
    assert_eq!(tick_count(600, 35, 24, 6), 6);
    assert_eq!(tick_count(250, 35, 24, 6), 4);
    assert_eq!(tick_count(60, 35, 24, 6), 2);
}
