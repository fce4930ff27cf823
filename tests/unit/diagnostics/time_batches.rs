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

/// When 2B batches are full, neighbours merge and the batch time doubles (docs/diagnostics.md §3).
/// B = 3, batches of time 1, 1-D, centre 0: the particle rests at x = 0, 1, …, 5 for 1 each. The
/// sixth batch makes 2B = 6: they merge pairwise into (0.5, 2.5, 4.5), of time 2; mean 2.5, sample
/// variance (4 + 0 + 4)/2 = 4, standard error √(4/3). Then x = 6 for 2 fills one batch of the new
/// time: four batches (0.5, 2.5, 4.5, 6), mean 13.5/4.
#[test]
fn six_full_batches_merge_pairwise_into_three_of_twice_the_time() {
    let mut b = TimeBatchMeans::new(&[0.0], 3, 1.0);
    for x in 0..6 {
        b.add_segment(&[x as f64], &[0.0], 1.0);
    }
    assert_eq!(b.batches(), 3, "six batches merged into three");
    close(b.batch_time(), 2.0, "batch time after the merge");
    let (mean, se) = b.estimate(0, None).unwrap();
    close(mean, 2.5, "mean of the merged batches");
    close(se, (4.0f64 / 3.0).sqrt(), "standard error of the merged batches");
    b.add_segment(&[6.0], &[0.0], 2.0);
    assert_eq!(b.batches(), 4, "one batch of the doubled time");
    close(b.estimate(0, None).unwrap().0, 13.5 / 4.0, "mean after one more batch");
}
