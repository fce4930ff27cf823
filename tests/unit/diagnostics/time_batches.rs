//! Issue 23, seventeenth pass (MUTANTS.md): the batch means over time of a bouncy sampler's path
//! (src/diagnostics.rs `TimeBatchMeans`, docs/diagnostics.md §3), values worked by hand on short
//! hand-built paths: where a batch closes when a segment starts inside it, and the moments of a
//! second coordinate.

use sgviz::diagnostics::*;

fn close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < 1e-12, "{what}: {got} (expected {want})");
}

/// The batch means of a cross moment (x_j − c_j)(x_k − c_k) with j, k > 0, by hand. Path (0, 0) →
/// (2, 0) in time 2, then (2, 0) → (2, 1) in time 1; batches of 1.5 about c = (1, 0). Batch 1 (s
/// ∈ [0, 1.5] of the first leg) has y = 0. Batch 2: y = 0 for 0.5, then x − 1 = 1, y = u ∈ [0, 1]:
/// ∫(x − 1)y = 1/2, ∫y² = 1/3, ∫y = 1/2, over time 1.5. So the batch values are y²: (0, 2/9),
/// (x − 1)y: (0, 1/3); their means 1/9 and 1/6, standard errors sd/√2 = 1/9 and 1/6.
#[test]
fn the_batch_means_of_a_second_coordinates_moments_are_worked_by_hand() {
    let mut b = TimeBatchMeans::new(&[1.0, 0.0], 2, 1.5);
    b.add_segment(&[0.0, 0.0], &[1.0, 0.0], 2.0);
    b.add_segment(&[2.0, 0.0], &[0.0, 1.0], 1.0);
    let (yy, yy_se) = b.estimate(1, Some(1)).unwrap();
    close(yy, 1.0 / 9.0, "mean of y²");
    close(yy_se, 1.0 / 9.0, "standard error of y²");
    for (j, k) in [(0, 1), (1, 0)] {
        let (xy, xy_se) = b.estimate(j, Some(k)).unwrap();
        close(xy, 1.0 / 6.0, "mean of (x − 1)y");
        close(xy_se, 1.0 / 6.0, "standard error of (x − 1)y");
    }
}

/// A segment that starts inside a batch fills only the rest of it. Batches of time 1, 1-D, centre
/// 0: the particle rests at x = 0 for 0.5, then at x = 1 for 1.5. Batch 1 is 0.5 at 0 and 0.5 at 1
/// (mean 1/2), batch 2 is 1 at 1 (mean 1): the estimate is (3/4, sd(1/2, 1)/√2 = 1/4), and x² has
/// the same batch values (x ∈ {0, 1}).
#[test]
fn a_segment_starting_inside_a_batch_fills_only_its_rest() {
    let mut b = TimeBatchMeans::new(&[0.0], 2, 1.0);
    b.add_segment(&[0.0], &[0.0], 0.5);
    b.add_segment(&[1.0], &[0.0], 1.5);
    assert_eq!(b.batches(), 2, "batches of time 1 over a path of time 2");
    let (mean, se) = b.estimate(0, None).unwrap();
    close(mean, 0.75, "time average of x");
    close(se, 0.25, "its standard error");
    let (square, square_se) = b.estimate(0, Some(0)).unwrap();
    close(square, 0.75, "time average of x²");
    close(square_se, 0.25, "its standard error");
}
