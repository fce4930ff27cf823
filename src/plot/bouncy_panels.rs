//! The bouncy samplers' analysis charts (docs/bouncy.md §15): over each of the sampler's own knobs,
//! the measured covariance error E2 ± its Monte-Carlo error and, for SBPS and pSBPS, the share of
//! the bounce intensity the band missed with the page's warning limit drawn where it is; the
//! trade-off of bias against the cost of an event; BPS's and lipSBPS's ESS over their knob.

use super::analysis_panels::CURRENT;
use super::chart::{ChartSpec, Marker, Series, Style, PALETTE};
use crate::bouncy_sweep::{BouncyKnob, BouncyResult, BouncySweep};
use crate::promise::show;
use crate::sampler::band_check::MISSED_SHARE_LIMIT;

/// The results of `knob`, finite E2 only (diverged points are named in the title).
fn of_knob<'a>(results: &'a [BouncyResult], knob: &BouncyKnob) -> Vec<&'a BouncyResult> {
    results.iter().filter(|r| r.param == knob.param && r.e2.is_finite()).collect()
}

fn diverged_note(results: &[BouncyResult], knob: &BouncyKnob) -> String {
    let lost: Vec<String> = results.iter().filter(|r| r.param == knob.param && !r.e2.is_finite()).map(|r| show(r.value)).collect();
    if lost.is_empty() { String::new() } else { format!(" ({} = {} left the view: not drawn)", knob.symbol, lost.join(", ")) }
}

/// "n = 20"-style labels.
fn labels(symbol: &str, points: &[&BouncyResult]) -> Vec<String> {
    points.iter().map(|r| format!("{symbol} = {}", show(r.value))).collect()
}

/// The x range: the knob's values (a log axis needs positive ends).
fn x_range(knob: &BouncyKnob) -> (f64, f64) {
    let lo = knob.values.iter().copied().filter(|v| !knob.log_scale || *v > 0.0).fold(f64::INFINITY, f64::min);
    let hi = knob.values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // Padded so the end points and their labels are not cut at the frame (the BPS screenshot).
    match (hi > lo, knob.log_scale) {
        (true, true) => (lo / 1.4, hi * 1.4),
        (true, false) => (lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo)),
        _ => (lo * 0.5, hi * 2.0 + 1.0),
    }
}

/// The share of the bounce intensity the band missed at each point (docs/bouncy.md §15). A share of
/// exactly 0 (the band missed nothing) has no place on the log y axis: the line used to stop at
/// n = 3 with nothing said (issue 26, stop 44). Those points are named in the series' label
/// ("none at n = 5, 10, …"), so the line says where and why it stops.
fn missed_share_series(knob: &BouncyKnob, points: &[&BouncyResult]) -> Series {
    let (missed, none): (Vec<&&BouncyResult>, Vec<&&BouncyResult>) = points.iter().filter(|r| r.missed_share.is_finite()).partition(|r| r.missed_share > 0.0);
    let mut name = "share of the bounce intensity the band missed".to_string();
    if !none.is_empty() {
        let values: Vec<String> = none.iter().map(|r| show(r.value)).collect();
        name = format!("{name} (none at {} = {}: 0 is off a log axis)", knob.symbol, values.join(", "));
    }
    Series::new(name, missed.iter().map(|r| (r.value, r.missed_share)).collect(), PALETTE[1], Style::LineAndPoints)
}

/// E2 ± MC error, with the band's missed share and the warning limit when `band` (SBPS, pSBPS).
pub fn bias_over_knob(sampler: &str, knob: &BouncyKnob, results: &[BouncyResult], events: u64, band: bool) -> ChartSpec {
    let points = of_knob(results, knob);
    let e2 = Series::new("covariance error E2 ± Monte-Carlo error", points.iter().map(|r| (r.value, r.e2)).collect(), PALETTE[4], Style::LineAndPoints)
        .labelled(labels(knob.symbol, &points))
        .with_error_bars(points.iter().map(|r| r.e2_mc).collect());
    let mut series = vec![e2];
    let range = x_range(knob);
    if band {
        series.push(missed_share_series(knob, &points));
        series.push(Series::new(format!("warning above {} % missed", show(100.0 * MISSED_SHARE_LIMIT)), vec![(range.0, MISSED_SHARE_LIMIT), (range.1, MISSED_SHARE_LIMIT)], PALETTE[3], Style::Dashed));
    }
    ChartSpec {
        // An exact sampler (BPS, lipSBPS) has no bias: its E2 is Monte-Carlo error, and the title
        // says so (lipSBPS's E2 of 0.3–0.6 at 24,000 events on the logistic regression read as bias).
        title: if band {
            format!("{sampler}: bias vs {} ({} events per point){}", knob.symbol, show(events as f64), diverged_note(results, knob))
        } else {
            format!("{sampler}: error vs {} (exact: no bias, E2 is Monte-Carlo error; {} events per point){}", knob.symbol, show(events as f64), diverged_note(results, knob))
        },
        x_label: match knob.param {
            "batch_size" => "minibatch n".into(),
            "band_k" => "band k (predictive sds)".into(),
            _ => "refresh rate λ_ref".into(),
        },
        y_label: if band { "E2, share missed".into() } else { "E2".into() },
        log_x: knob.log_scale,
        log_y: true,
        x_range: Some(range),
        series,
        markers: vec![Marker { x: knob.current, label: format!("current {} = {}", knob.symbol, show(knob.current)), colour: CURRENT }],
        ..Default::default()
    }
}

/// The trade-off of the minibatch n: E2 against gradient evaluations per event, points labelled
/// by n; the current n's cost marked.
pub fn cost_tradeoff(sampler: &str, knob: &BouncyKnob, results: &[BouncyResult]) -> ChartSpec {
    let points = of_knob(results, knob);
    let current = results.iter().find(|r| r.param == knob.param && r.value == knob.current).map(|r| r.grads_per_event);
    ChartSpec {
        title: format!("{sampler}: bias vs cost of an event, over the minibatch n"),
        x_label: "gradient evaluations per event".into(),
        y_label: "E2".into(),
        log_x: true,
        log_y: true,
        series: vec![Series::new("E2 ± Monte-Carlo error", points.iter().map(|r| (r.grads_per_event, r.e2)).collect(), PALETTE[4], Style::LineAndPoints)
            .labelled(labels(knob.symbol, &points))
            .with_error_bars(points.iter().map(|r| r.e2_mc).collect())],
        markers: current.into_iter().map(|x| Marker { x, label: format!("current n = {}", show(knob.current)), colour: CURRENT }).collect(),
        ..Default::default()
    }
}

/// Mixing over the knob: ESS of the slowest coordinate's mean per 1,000 events, or per 1,000
/// gradient evaluations when `per_gradient` (lipSBPS: an event's cost grows with n).
pub fn ess_over_knob(sampler: &str, knob: &BouncyKnob, results: &[BouncyResult], per_gradient: bool) -> ChartSpec {
    let points = of_knob(results, knob);
    let unit = if per_gradient { "gradient evaluations" } else { "events" };
    let ess = |r: &BouncyResult| if per_gradient { r.ess_per_1000_events / r.grads_per_event } else { r.ess_per_1000_events };
    ChartSpec {
        title: format!("{sampler}: mixing vs {}", knob.symbol),
        x_label: if knob.param == "batch_size" { "minibatch n".into() } else { "refresh rate λ_ref".into() },
        y_label: format!("ESS per 1,000 {unit}"),
        log_x: knob.log_scale,
        log_y: true,
        x_range: Some(x_range(knob)),
        series: vec![Series::new(format!("ESS per 1,000 {unit} (slowest coordinate's mean)"), points.iter().map(|r| (r.value, ess(r))).collect(), PALETTE[0], Style::LineAndPoints).labelled(labels(knob.symbol, &points))],
        markers: vec![Marker { x: knob.current, label: format!("current {} = {}", knob.symbol, show(knob.current)), colour: CURRENT }],
        ..Default::default()
    }
}

/// The chart of `kind` ∈ {noise, bias, sweep} for a bouncy sampler's sweep: SBPS and pSBPS show
/// bias over n, bias over k and the cost trade-off; BPS and lipSBPS have no gradient noise to set
/// against injected noise (a note), their bias over the knob and their mixing over it.
pub fn chart(sampler: &str, sweep: &BouncySweep, kind: &str) -> Option<ChartSpec> {
    let results = sweep.results();
    let knobs = &sweep.knobs;
    let band = knobs.iter().any(|k| k.param == "band_k");
    let first = knobs.first()?;
    Some(match (kind, band) {
        ("noise", true) => bias_over_knob(sampler, first, &results, sweep.events(), true),
        ("bias", true) => bias_over_knob(sampler, knobs.get(1)?, &results, sweep.events(), true),
        ("sweep", true) => cost_tradeoff(sampler, first, &results),
        ("noise", false) => super::analysis_panels::note_chart(&format!("No noise chart: {sampler} has no step size, and it thins with an exact bound, which gradient noise cannot break (its charts: bias and mixing over {})", first.symbol)),
        ("bias", false) => bias_over_knob(sampler, first, &results, sweep.events(), false),
        ("sweep", false) => ess_over_knob(sampler, first, &results, first.param == "batch_size"),
        _ => return None,
    })
}
