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
