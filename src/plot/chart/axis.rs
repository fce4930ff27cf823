//! The chart's axes: plotters' own ticks on a linear axis, round values on a log one (issue 26:
//! the SGAIS softmax cost chart's log axis over 1,000…2,000 data read 1000, 1259, 1585, 1995,
//! plotters' evenly spaced log10 positions).

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use std::ops::Range;

/// An axis over [lo, hi] in plot units (log10 units on a log axis).
pub struct Axis {
    inner: RangedCoordf64,
    log: bool,
}

impl Axis {
    pub fn new(lo: f64, hi: f64, log: bool) -> Axis {
        Axis { inner: (lo..hi).into(), log }
    }
}

impl Ranged for Axis {
    type ValueType = f64;
    type FormatOption = DefaultFormatting;

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    /// The labelled ticks from [`axis_ticks`]; the light grid lines are plotters' own on a linear
    /// axis and none on a log one.
    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        let Range { start, end } = self.inner.range();
        match (hint.weight().allow_light_points(), self.log) {
            (false, _) => axis_ticks(start, end, hint.max_num_points(), self.log),
            (true, false) => self.inner.key_points(hint),
            (true, true) => Vec::new(),
        }
    }
}

/// Tick positions of an axis over [lo, hi] with at most `most` ticks: plotters' on a linear axis,
/// round values on a log one ([`log_ticks`]).
pub fn axis_ticks(lo: f64, hi: f64, most: usize, log: bool) -> Vec<f64> {
    if log {
        log_ticks(lo, hi, most)
    } else {
        RangedCoordf64::from(lo..hi).key_points(most)
    }
}

/// Tick positions (log10 units) on a log axis over [lo, hi], all at round values. Candidates, roundest first: powers of ten every m decades;
/// 1, 2, 5 × 10^k; 1…9 × 10^k; and, on axes under a decade wide, the multiples of a step
/// 1, 2 or 5 × 10^j. The densest candidate with at most `most` ticks wins (the roundest among
/// equals); at least two ticks where any candidate has them (the densest one's first and last
/// when none has few enough), else the axis's ends.
pub fn log_ticks(lo: f64, hi: f64, most: usize) -> Vec<f64> {
    let (a, b) = (10f64.powf(lo), 10f64.powf(hi));
    if !(a.is_finite() && b.is_finite() && b > a) {
        return vec![lo, hi];
    }
    let inside = |v: f64| v >= a * (1.0 - 1e-12) && v <= b * (1.0 + 1e-12);
    let (first, last) = (lo.floor() as i32, hi.floor() as i32);
    let mut candidates: Vec<Vec<f64>> = [1, 2, 3, 5, 10, 20, 50, 100]
        .iter()
        .map(|&m| (first..=last).filter(|k| k.rem_euclid(m) == 0).map(|k| 10f64.powi(k)).filter(|v| inside(*v)).collect())
        .collect();
    for mantissas in [&[1.0, 2.0, 5.0][..], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]] {
        candidates.push((first..=last).flat_map(|k| mantissas.iter().map(move |m| m * 10f64.powi(k))).filter(|v| inside(*v)).collect());
    }
    if hi - lo < 1.0 {
        let top = (b - a).log10().floor() as i32;
        for j in (top - 2..=top).rev() {
            for m in [5.0, 2.0, 1.0] {
                let step = m * 10f64.powi(j);
                let (i0, i1) = ((a / step - 1e-9).ceil() as i64, (b / step + 1e-9).floor() as i64);
                if i1 >= i0 && ((i1 - i0) as usize) < most {
                    candidates.push((i0..=i1).map(|i| i as f64 * step).collect());
                }
            }
        }
    }
    let best = candidates.iter().filter(|c| c.len() >= 2 && c.len() <= most).fold(&Vec::new(), |best, c| if c.len() > best.len() { c } else { best }).clone();
    if !best.is_empty() {
        return best.into_iter().map(f64::log10).collect();
    }
    // Too few ticks fit for any candidate: the first and last round value of the densest one
    // (issue 26: a phone's log axis over 0.0025…0.0478 printed its raw end, "0.047790086").
    match candidates.iter().filter(|c| c.len() >= 2).max_by_key(|c| c.len()) {
        Some(c) if most >= 2 => vec![c[0].log10(), c[c.len() - 1].log10()],
        _ => vec![lo, hi],
    }
}
