//! Unit tests of src/plot/svg_marks.rs (`plot::svg_marks::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::plot::density::{shade, DensityImage};
use sgviz::plot::svg_marks::*;
use sgviz::model::View;
use sgviz::plot::{PlotFrame, Projection};

fn length(piece: &[(f64, f64)]) -> f64 {
    piece.windows(2).map(|p| ((p[1].0 - p[0].0).powi(2) + (p[1].1 - p[0].1).powi(2)).sqrt()).sum()
}

#[test]
fn dashes_of_a_straight_line_are_on_long_and_off_apart() {
    // A 100-pixel line through three vertices, dashes 8 on / 6 off: pieces start at 0, 14, 28,
    // … 98 (8 pieces), each 8 long except the last (2 long), worked out by hand.
    let line = [(0.0, 0.0), (30.0, 0.0), (100.0, 0.0)];
    let pieces = dashes(&line, 8.0, 6.0);
    let starts: Vec<f64> = pieces.iter().map(|p| p[0].0).collect();
    assert_eq!(starts, vec![0.0, 14.0, 28.0, 42.0, 56.0, 70.0, 84.0, 98.0]);
    for piece in &pieces[..7] {
        assert!((length(piece) - 8.0).abs() < 1e-9, "{piece:?}");
    }
    assert!((length(&pieces[7]) - 2.0).abs() < 1e-9);
    // The dash across the vertex at x = 30 (28 … 36) keeps the vertex.
    assert_eq!(pieces[2], vec![(28.0, 0.0), (30.0, 0.0), (36.0, 0.0)]);
}

#[test]
fn density_blocks_sum_their_pixels_and_merge_equal_neighbours() {
    // A 12 × 8 plot in blocks of 4: 3 × 2 blocks. Two samples in the top-left block, one in each
    // of the two top-right blocks, none below: the top row is one dark block and one merged
    // light rectangle over the two single-sample blocks; the empty bottom row draws nothing.
    let frame = PlotFrame { width: 12, height: 8, left: 0, right: 0, top: 0, bottom: 0, band: 0 };
    let view = View { x_min: 0.0, x_max: 12.0, y_min: 0.0, y_max: 8.0 };
    let mut image = DensityImage::new(Projection { frame, view });
    for (x, y) in [(0.5, 7.5), (3.5, 4.5), (5.0, 7.0), (9.0, 6.0)] {
        image.add(x, y);
    }
    let rects = density_rects(&image, 4);
    assert_eq!(rects.len(), 2, "{rects:?}");
    assert_eq!((rects[0].x, rects[0].y, rects[0].width, rects[0].height), (0, 0, 4, 4));
    assert_eq!((rects[1].x, rects[1].y, rects[1].width, rects[1].height), (4, 0, 8, 4));
    // The busiest block takes the end of the ramp; one sample of two: log 2 / log 3 of the way.
    assert_eq!(rects[0].rgba, shade(1.0));
    assert_eq!(rects[1].rgba, shade((2f64.ln() / 3f64.ln() * 32.0).round() / 32.0));
}
