//! Unit tests of src/plot/mod.rs (`plot::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::View;
use sgviz::plot::*;

const UNIT: View = View { x_min: 0.0, x_max: 1.0, y_min: 0.0, y_max: 1.0 };

#[test]
fn segments_are_cut_at_the_edges_they_cross() {
    assert_eq!(clip_segment((0.2, 0.3), (0.6, 0.9), &UNIT), Some(((0.2, 0.3), (0.6, 0.9))), "inside: unchanged");
    assert_eq!(clip_segment((-1.0, 0.5), (2.0, 0.5), &UNIT), Some(((0.0, 0.5), (1.0, 0.5))), "through both sides");
    assert_eq!(clip_segment((0.5, 0.5), (0.5, 3.0), &UNIT), Some(((0.5, 0.5), (0.5, 1.0))), "leaves through the top");
    assert_eq!(clip_segment((0.5, -2.0), (0.5, 0.25), &UNIT), Some(((0.5, 0.0), (0.5, 0.25))), "enters through the bottom");
    let ((x0, y0), (x1, y1)) = clip_segment((-0.5, 0.0), (0.5, 2.0), &UNIT).unwrap();
    assert!((x0 - 0.0).abs() < 1e-12 && (y0 - 1.0).abs() < 1e-12 && (x1 - 0.0).abs() < 1e-12 && (y1 - 1.0).abs() < 1e-12, "corner touch");
    assert_eq!(clip_segment((1.5, 0.0), (3.0, 1.0), &UNIT), None, "right of the box");
    assert_eq!(clip_segment((-1.0, 0.5), (0.5, 2.0), &UNIT), None, "misses the corner");
    assert_eq!(clip_segment((0.5, 0.5), (f64::NAN, 0.5), &UNIT), None);
}

#[test]
fn polylines_split_into_the_runs_inside() {
    let zigzag = [(0.1, 0.5), (0.5, 1.5), (0.9, 0.5), (0.9, 0.2), (2.0, 0.2)];
    let runs = clip_polyline(&zigzag, &UNIT);
    assert_eq!(runs.len(), 2, "{runs:?}");
    let close = |a: &[(f64, f64)], b: &[(f64, f64)]| a.len() == b.len() && a.iter().zip(b).all(|(p, q)| (p.0 - q.0).abs() < 1e-12 && (p.1 - q.1).abs() < 1e-12);
    assert!(close(&runs[0], &[(0.1, 0.5), (0.3, 1.0)]), "{runs:?}");
    assert!(close(&runs[1], &[(0.7, 1.0), (0.9, 0.5), (0.9, 0.2), (1.0, 0.2)]), "{runs:?}");
    for p in runs.iter().flatten() {
        assert!((0.0..=1.0).contains(&p.0) && (0.0..=1.0).contains(&p.1), "{p:?}");
    }
    assert!(clip_polyline(&[(5.0, 5.0), (6.0, 6.0)], &UNIT).is_empty());
    assert_eq!(clip_polyline(&[(0.1, 0.1), (0.2, 0.2), (0.3, 0.3)], &UNIT), vec![vec![(0.1, 0.1), (0.2, 0.2), (0.3, 0.3)]]);
}
