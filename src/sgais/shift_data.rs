//! The paper's Fig. 1 (Cameron, Eggers & Kroon 2019; docs/sgais.md §11): the
//! distribution-shift data of §6.2 in its three phases — the first 1,000 points (3 clusters), the
//! next 9,000 (5 clusters), the rest (7 clusters) — as one scatter chart coloured by phase, and
//! the share of the last phase's points that fall where the first phase put none (the clusters
//! that arrived later), which is ≈ 0 when the data are shuffled.

use super::format::group_digits;
use crate::model::gmm::{generate_cluster_data, ClusterSchedule};
use crate::plot::chart::{ChartSpec, Series, Style, PALETTE};
use serde::Serialize;

/// Where the phases of [`ClusterSchedule::Shift`] begin (the generator's change points).
pub const PHASE_STARTS: [usize; 3] = [0, 1_000, 10_000];
/// Clusters active in each phase.
pub const PHASE_CLUSTERS: [usize; 3] = [3, 5, 7];
/// The square [−5, 5]² cut into 10 × 10 cells of width 1 for [`new_mass_fraction`].
pub const GRID: (f64, f64, usize) = (-5.0, 5.0, 10);

/// One phase: its data range and how many points it holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Phase {
    pub label: String,
    pub start: usize,
    pub end: usize,
}

/// The chart and the numbers of Fig. 1.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShiftData {
    pub chart: ChartSpec,
    pub phases: Vec<Phase>,
    /// Share of the last phase's points in cells of [`GRID`] that hold no first-phase point.
    pub new_mass_fraction: f64,
}

/// The grid cell of a point (points outside the grid go to its edge cells).
fn cell(p: [f64; 2], (lo, hi, cells): (f64, f64, usize)) -> (usize, usize) {
    let index = |v: f64| (((v - lo) / (hi - lo) * cells as f64).floor().max(0.0) as usize).min(cells - 1);
    (index(p[0]), index(p[1]))
}

/// Share of `late` points in grid cells that hold none of the `early` points (0 when `late` is empty).
pub fn new_mass_fraction(early: &[[f64; 2]], late: &[[f64; 2]], grid: (f64, f64, usize)) -> f64 {
    if late.is_empty() {
        return 0.0;
    }
    let mut occupied = vec![false; grid.2 * grid.2];
    for &p in early {
        let (i, j) = cell(p, grid);
        occupied[i * grid.2 + j] = true;
    }
    let new = late.iter().filter(|&&p| {
        let (i, j) = cell(p, grid);
        !occupied[i * grid.2 + j]
    });
    new.count() as f64 / late.len() as f64
}

/// `count` indices spread evenly over `start..end` (all of them when there are fewer).
#[doc(hidden)] // pub for tests/unit (issue 23)
pub fn spread_indices(start: usize, end: usize, count: usize) -> Vec<usize> {
    let len = end.saturating_sub(start);
    if len <= count {
        return (start..end).collect();
    }
    (0..count).map(|k| start + k * len / count).collect()
}

/// The shift data (`n` points, generator seed `data_seed`, in order or shuffled) with at most
/// `shown` points of each phase drawn.
pub fn shift_data(n: usize, data_seed: u64, shuffled: bool, shown: usize) -> ShiftData {
    let flat = generate_cluster_data(n, ClusterSchedule::Shift { shuffled }, data_seed);
    let points: Vec<[f64; 2]> = flat.chunks_exact(2).map(|p| [p[0], p[1]]).collect();
    let phases: Vec<Phase> = PHASE_STARTS
        .iter()
        .zip(PHASE_CLUSTERS)
        .enumerate()
        .filter(|(_, (start, _))| **start < n)
        .map(|(k, (&start, clusters))| {
            let end = PHASE_STARTS.get(k + 1).copied().unwrap_or(n).min(n);
            let span = format!("points {}–{}", group_digits((start + 1) as f64, 0), group_digits(end as f64, 0));
            let label = if shuffled { format!("{span} (shuffled data)") } else { format!("{span} (generated from {clusters} clusters)") };
            Phase { label, start, end }
        })
        .collect();
    // The last phase first, so that the earlier (smaller) phases are drawn on top of it.
    let series = phases
        .iter()
        .enumerate()
        .rev()
        .map(|(k, ph)| {
            let shown_points = spread_indices(ph.start, ph.end, shown).into_iter().map(|i| (points[i][0], points[i][1])).collect();
            Series::new(ph.label.clone(), shown_points, PALETTE[k % PALETTE.len()], Style::Points)
        })
        .collect();
    let first = phases.first().map_or(&points[..0], |ph| &points[ph.start..ph.end]);
    let last = phases.last().map_or(&points[..0], |ph| &points[ph.start..ph.end]);
    let chart = ChartSpec {
        title: format!("The shift data by phase ({} of each phase drawn)", group_digits(shown as f64, 0)),
        x_label: "y₁".into(),
        y_label: "y₂".into(),
        series,
        x_range: Some((GRID.0, GRID.1)),
        y_range: Some((GRID.0, GRID.1)),
        ..Default::default()
    };
    ShiftData { chart, new_mass_fraction: if phases.len() > 1 { new_mass_fraction(first, last, GRID) } else { 0.0 }, phases }
}
