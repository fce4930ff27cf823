//! Keeping a chart's text apart (issue 26: on a phone the trade-off chart's α labels and the sweep's
//! ε labels overprinted each other, and trace ticks like "2.4e6" ran into their neighbours): where
//! each point label goes — beside its point, in the first of four places that stays inside the data
//! area and clear of the labels already placed, or left out — and how many x ticks fit the width.

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

