//! Honest at every slider position on the banana and Neal's funnel (issue 21, part A): every
//! sampler the page offers on them (tests/toy_sweep_more.rs sweeps the other targets,
//! tests/slider_sweep.rs the Langevin-type samplers on the Gaussian toy), at the
//! derived defaults and at each numeric slider's minimum, midpoint (log units for log sliders) and
//! maximum, 40 seeds × 5,000 samples each (samples as the page counts them: BPS events). Each
//! setting is refused (the chain does not build), or warned (a setting or pairing warning), or
//! silent; the verdicts are tests/common/sweep.rs's, from docs/diagnostics.md §17; the
//! points and the driver are tests/common/grid.rs's.
//!
//! Where no law exists the page does not yet warn (docs/diagnostics.md §17 "Not yet covered"): the settings that
//! break the promise silently are listed in [`KNOWN_SILENT_FAILURES`] with what was measured; the
//! test fails when a setting not listed fails, and when a listed one stops failing (the list
//! stays true both ways, so fixing a failure means deleting its line).
//!
//! CI (`make test`): the defaults of the five Langevin-type samplers on banana, funnel and mixture
//! (where the issue measured its silent failures; 15 settings; the logistic regression's CI subset
//! is tests/toy_sweep_more.rs's). `SGVIZ_SLIDER_SWEEP=soak` (make soak): every sampler on the banana and the funnel,
//! every numeric slider at min/default/midpoint/max (`SGVIZ_TOY_SWEEP_TARGETS=funnel` restricts it
//! to one of them).

#[path = "common/sweep.rs"]
mod sweep;
#[path = "common/grid.rs"]
mod grid;
mod common;

use grid::{run_grid, Case};
use sgviz::registry;

const LANGEVIN: [&str; 5] = ["sgld", "sgfs_f", "sgfs_d", "sghmc", "osgfs"];
/// The targets this file sweeps in the soak.
const TARGETS: [&str; 2] = ["banana", "funnel"];

/// Settings that break the promise without a warning, as measured (40 seeds × 5,000 samples, this
/// file's verdict). Key: "target sampler point" with point "defaults" or "param=min|mid|max".
/// Measured under `SGVIZ_SLIDER_SWEEP=soak SGVIZ_TOY_SWEEP_TARGETS=banana,funnel cargo test --release --test all toy_sweep::`.
/// SGHMC's three (banana n = 10, funnel β̂ = 0.5 and 1) are warned by its noise law
/// (src/noise_law.rs, docs/diagnostics.md §11) since issue 21's fourth pass.
const KNOWN_SILENT_FAILURES: &[&str] = &[
    // (OSGFS at its defaults, 24/40 over 0.3 — median E2 0.331, pooled 0.143 ± 0.071 — and at
    // c = mid and max, 39/40 and 40/40 over 0.3, pooled E2 0.355 ± 0.014 and 0.365 ± 0.070, were
    // listed here: silent since the measured signal decides at its 90 % lower bound. Since issue
    // 21's seventh pass OSGFS carries a pairing warning wherever the curvature varies between 10-
    // and 100-fold (src/sampler/osgfs.rs `warning`, docs/sgfs-osgfs.md §7): no cap c meets the
    // claim there — 400,000 steps, two seeds: E2 0.089/0.096 at c = 0.1, 0.18/0.20 at 0.2,
    // 0.36/0.36 at 0.5, 0.36/0.39 at 0.99 — so every funnel × OSGFS point is warned, truly.)
    // (funnel × MALA at its largest step, a false alarm listed here before — 2/40 over 0.3,
    // warned in 8/40 — is warned in 3/40 runs since the signal decides at its 90 % lower bound,
    // docs/diagnostics.md §8.)
    // Issue 21's twelfth pass, the first soak since the judge became two-sided (seeds 1–40 × 5,000,
    // at d08e5b9; docs/diagnostics.md §10): four funnel settings fail in more than 10 % of runs with
    // the measured signal (§8) warning fewer than half of them. HMC at its step's log midpoint
    // (ε = 0.0193): 15/40 over 0.3, median E2 0.284, pooled 0.056 ± 0.076, warned 14/40. SBPS at the
    // shortest band horizon (0.3): 13/40, median 0.236, pooled 0.017 ± 0.074, warned 13/40. pSBPS at
    // k = 5: 14/40, median 0.257, pooled 0.116 ± 0.093, warned 18/40; with no auxiliary points:
    // 14/40, median 0.213, pooled 0.042 ± 0.060, warned 15/40. (The bouncy family on the funnel sits
    // at 7–14 of 40 failing at nearly every point, where §8's one-run estimate falls either side.)
    "funnel hmc hmc_step=mid",
    "funnel sbps horizon=min",
    // s50 (docs/diagnostics.md §7 "s50"; `SGVIZ_SLIDER_SWEEP=soak SGVIZ_TOY_SWEEP_TARGETS=funnel
    // SGVIZ_TOY_SWEEP_SAMPLERS=hmc,sbps,psbps`, seeds 1–40 × 5,000 at f8bd9df): HMC ε = mid and SBPS
    // horizon = min measured as above, to the digit. pSBPS has moved since the twelfth pass (its
    // preconditioner fix of the fourteenth, docs/bouncy.md §8): k = 5 now 16/40 over 0.3, warned
    // 21/40 (true), and no auxiliary points 8/40, warned 9/40 (accepted) — their lines deleted —
    // while four other pSBPS points now sit on the wrong side of the same line: band_dt = 3.2·10⁻³
    // 13/40 over 0.3 (median 0.265, pooled 0.075 ± 0.048), warned 12/40; horizon = 0.3 14/40
    // (0.243, 0.056 ± 0.075), warned 16/40; 10 and 20 auxiliary points 4/40 over 0.3 (0.244,
    // 0.077 ± 0.043) but warned 7/40 (false alarms; one chain, the points share every run).
    "funnel psbps band_dt=mid",
    "funnel psbps horizon=min",
    "funnel psbps aux_points=mid",
    "funnel psbps aux_points=max",
];

fn soak() -> bool {
    std::env::var("SGVIZ_SLIDER_SWEEP").is_ok_and(|v| v == "soak")
}

/// The pairings swept: CI's subset or the soak's full set.
fn pairings() -> Vec<(Case, &'static str)> {
    if !soak() {
        return ["banana", "funnel", "mixture"].iter().flat_map(|t| LANGEVIN.iter().map(move |s| (Case::plain(t), *s))).collect();
    }
    // SGVIZ_TOY_SWEEP_TARGETS=funnel runs a documented part of the grid.
    let only = std::env::var("SGVIZ_TOY_SWEEP_TARGETS").ok();
    let targets = TARGETS.into_iter().filter(move |t| only.as_ref().is_none_or(|o| o.split(',').any(|x| x == *t)));
    // SGVIZ_TOY_SWEEP_SAMPLERS=sghmc,osgfs the same for samplers.
    let samplers = std::env::var("SGVIZ_TOY_SWEEP_SAMPLERS").ok();
    let pairs = targets.flat_map(|t| registry::SAMPLERS.iter().map(move |s| (Case::plain(t), s.name)));
    pairs.filter(|(_, s)| samplers.as_ref().is_none_or(|o| o.split(',').any(|x| x == *s))).collect()
}

#[test]
fn every_pairing_and_slider_position_is_within_the_promise_or_warned_truthfully() {
    run_grid(&pairings(), soak(), KNOWN_SILENT_FAILURES);
}
