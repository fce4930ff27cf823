//! Keeping a chart's text apart (issue 26: on a phone the trade-off chart's α labels and the sweep's
//! ε labels overprinted each other, and trace ticks like "2.4e6" ran into their neighbours): where
//! each point label goes — beside its point, in the first of four places that stays inside the data
//! area and clear of the labels already placed, or left out — and how many x ticks fit the width.
//! The sweep's labels also keep clear of the chart's curves, error bars and points
//! ([`place_clear`]: on a phone the bias chart's α labels were drawn over its curves).

/// A text box in backend pixels: (left, top, right, bottom).
pub type LabelBox = (i32, i32, i32, i32);

/// Whether two boxes share any area.
pub fn overlaps(a: &LabelBox, b: &LabelBox) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The box of a `width × height` label for the point at pixel (x, y), `offset` away from it:
/// above right, above left, below right or below left, the first inside `area` and overlapping
/// none of `placed`; None when no place is free (the label is left out).
pub fn place(point: (i32, i32), (width, height): (i32, i32), offset: i32, area: LabelBox, placed: &[LabelBox]) -> Option<LabelBox> {
    let (x, y) = point;
    let (right, left) = (x + offset, x - offset - width);
    let (above, below) = (y - offset - height, y + offset);
    [(right, above), (left, above), (right, below), (left, below)]
        .into_iter()
        .map(|(l, t)| (l, t, l + width, t + height))
        .find(|b| b.0 >= area.0 && b.1 >= area.1 && b.2 <= area.2 && b.3 <= area.3 && !placed.iter().any(|p| overlaps(b, p)))
}

/// A drawn line segment in backend pixels (a piece of a curve, an error bar, a point's box diagonal).
pub type Segment = ((i32, i32), (i32, i32));

/// Whether segment `s` passes through the inside of box `b` (Liang–Barsky clipping against the box
/// shrunk by half a pixel: a segment along the box's edge or touching a corner does not cross it).
pub fn crosses(s: &Segment, b: &LabelBox) -> bool {
    let ((x0, y0), (x1, y1)) = (((s.0).0 as f64, (s.0).1 as f64), ((s.1).0 as f64, (s.1).1 as f64));
    let (dx, dy) = (x1 - x0, y1 - y0);
    let (left, top, right, bottom) = (b.0 as f64 + 0.5, b.1 as f64 + 0.5, b.2 as f64 - 0.5, b.3 as f64 - 0.5);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, q) in [(-dx, x0 - left), (dx, right - x0), (-dy, y0 - top), (dy, bottom - y0)] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    t0 <= t1
}

/// Like [`place`], clear of the `obstacles` too (the chart's curves, error bars and points), and
/// with more places to try: the four corners at 1, 2 and 3 times `offset`, then centred above and
/// below. None when none is free: the label is left out rather than drawn over a curve.
pub fn place_clear(point: (i32, i32), (width, height): (i32, i32), offset: i32, area: LabelBox, placed: &[LabelBox], obstacles: &[Segment]) -> Option<LabelBox> {
    let (x, y) = point;
    let corners = [1, 2, 3].into_iter().flat_map(|k| {
        let d = k * offset;
        [(x + d, y - d - height), (x - d - width, y - d - height), (x + d, y + d), (x - d - width, y + d)]
    });
    let centred = [(x - width / 2, y - 2 * offset - height), (x - width / 2, y + 2 * offset)];
    corners
        .chain(centred)
        .map(|(l, t)| (l, t, l + width, t + height))
        .find(|b| b.0 >= area.0 && b.1 >= area.1 && b.2 <= area.2 && b.3 <= area.3 && !placed.iter().any(|p| overlaps(b, p)) && !obstacles.iter().any(|s| crosses(s, b)))
}

/// How many ticks fit a data area `width` pixels long when a tick label is at most `label_width`
/// long along the axis (x: its width; y: its height): at least `gap` pixels between neighbouring
/// labels, between 2 and `most`.
pub fn tick_count(width: i32, label_width: i32, gap: i32, most: usize) -> usize {
    let per_tick = (label_width + gap).max(1);
    ((width / per_tick).max(0) as usize).clamp(2, most.max(2))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}

/// A title broken into lines of at most `width` pixels at `char_width` pixels per character
/// (greedy, at spaces; a single word longer than a line gets a line of its own). On a phone a
/// one-line title was cut off at both edges of the canvas (issue 26).
pub fn wrap_title(title: &str, width: i32, char_width: f64) -> Vec<String> {
    let fits = |line: &str| (line.chars().count() as f64 * char_width).ceil() as i32 <= width;
    let mut lines: Vec<String> = Vec::new();
    for word in title.split_whitespace() {
        match lines.last_mut() {
            Some(line) if fits(&format!("{line} {word}")) => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

