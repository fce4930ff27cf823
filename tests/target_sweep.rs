//! Honest at every slider position, on the targets the other sweeps leave at their defaults
//! (issue 21, "Done means"):
//! 1. every sampler's own sliders (min, derived default, midpoint — log units for a log slider —
//!    and max, tests/common/grid.rs `points`) on the linear regression, the D-dimensional logistic
//!    regression (SBPS setup), the SGFS setup (digits 7 vs 9 projected) and the held-out breast
//!    cancer regression, every sampler the page offers on them;
//! 2. every TARGET slider that sets a parameter of the posterior (min, midpoint, max; the default
//!    is the other sweeps' "defaults" point), on every target of the Target menu, each sampler at
//!    its derived defaults for that target setting. Seeds are left out (`data_seed`: another data
//!    set of the same shape, not a position of a shape slider), and so are choices (data set,
//!    standardise, start): the shipped data sets are their own cases in tests/toy_sweep_more.rs.
//!
//! 40 seeds × 5,000 samples per setting (events for the bouncy family), each setting refused, or
//! warned truthfully, or silent within the promise (tests/common/grid.rs `verdict`, the verdict of
//! docs/diagnostics.md §10; every share a warning prints is read and checked against the 40 runs'
//! measured share, tests/common/sweep.rs `printed_share_refuted`). Truths: the linear regression's
//! posterior is Gaussian in closed form (src/model/linear.rs, exact: E2 against it has no reference
//! error); 2-D targets by grid quadrature; the D > 2 logistic posteriors at their defaults from the
//! committed MALA references (tests/fixtures/mala_references.json, their MCSE their error), at a
//! moved target slider from a fresh 100,000-sample MALA reference (tests/common `reference_with`).
//!
//! Settings that break the promise with no true warning are listed in [`KNOWN_SILENT_FAILURES`]
//! with what was measured; the test fails on an unlisted failure and on a listed setting that no
//! longer fails (tests/common/grid.rs `run_grid_where`).
//!
//! CI (`make test`): [`CI_POINTS`], a few seconds, the points of this grid the soak measured worst
//! (the same body). `SGVIZ_SLIDER_SWEEP=soak` (make soak): the whole grid; parts of it with
//! `SGVIZ_TARGET_SWEEP_TARGETS=linreg,gaussian` (targets), `SGVIZ_TOY_SWEEP_SAMPLERS=sgld,…` and
//! `SGVIZ_TARGET_SWEEP_PART=samplers` (or `targets`: the two halves of the grid).

#[path = "common/sweep.rs"]
mod sweep;
#[path = "common/grid.rs"]
mod grid;
mod common;

use grid::{run_grid_where, Case};
use sgviz::params::ParamValues;
use sgviz::registry;

/// Targets whose sampler sliders this file sweeps (the others': tests/slider_sweep.rs on the
/// Gaussian toy, tests/toy_sweep.rs on the banana and the funnel, tests/toy_sweep_more.rs on the
/// mixture, hyperbola, multimodal toy and `logreg` with its three data sets).
const SAMPLER_SLIDER_CASES: [Case; 4] = [Case::plain("linreg"), Case::plain("logreg_dd"), Case::plain("logreg_sgfs"), Case::plain("logreg_heldout")];

/// Settings that break the promise without a true warning, as measured by this file's soak (40
/// seeds × 5,000 samples). Key: "label sampler point", label "target" or "target param=min|mid|max".
const KNOWN_SILENT_FAILURES: &[&str] = &[
    // (pSBPS on the linear regression with the full batch, n = N = 200, was listed here: 40/40 over
    // 0.3, median E2 2.23, no warning (s40). The cause: its preconditioner averaged only ḡ⊙ḡ, which
    // at n = N is no longer minibatch noise but follows the position, so A slowed the particle in
    // the coordinates where it was far out (docs/bouncy.md §8). Fixed in issue 21's fourteenth pass:
    // 3/40 over 0.3, median 0.126 — [`psbps_at_the_full_batch_keeps_the_promise`].)
    // SBPS at the minibatch slider's log midpoint (n = 14): an untrue bias warning (issue 21's
    // fourteenth pass). Seeds 1–40 × 5,000 events: 2/40 over 0.3, median E2 0.155, pooled 0.049 ±
    // 0.033, the band check warns of bias in 39/40 runs; one run of 200,000 events (the judge's
    // long run) E2 0.051; 400,000 events, seeds 1 and 2: E2 0.067 and 0.052, means within 0.021
    // sd, missed share 3.8–3.9 % (SBPS at n = 100: E2 0.007). Its missed share is above the
    // limit 3.4 % but the bias is within the promise; the Gaussian toy at n = 7 misses 3.7–3.8 %
    // with E2 beyond noise 0.098–0.109 and the logistic regression at k = 10, n = 7 misses
    // 4.3–4.6 % with means 0.65 sd off (docs/diagnostics.md §9), so no limit on the missed share
    // clears this warning without silencing one of those. (pSBPS at n = 14 fails 5/40 since the
    // preconditioner fix, warned 36/40: between the lines, accepted.)
    "linreg sbps batch_size=mid",
    // The D > 2 logistic targets, sampler sliders (issue 21's fourteenth pass; `SGVIZ_SLIDER_SWEEP=soak
    // SGVIZ_TARGET_SWEEP_TARGETS=logreg_dd|logreg_sgfs SGVIZ_TARGET_SWEEP_PART=samplers`, seeds 1–40 ×
    // 5,000 samples, truth a fresh 400,000-sample MALA reference). Partial: stopped at the deadline
    // during OSGFS (its defaults measured on both), so MALA, HMC and the bouncy family are not
    // measured here. Every listed row is silent with no measured warning in any run (0/40): both
    // targets have more than 6 parameters (20 and 21), where neither the law's mixing part (§7) nor
    // the measured signal (§8) applies, and logreg_sgfs has more than src/law.rs `MAX_DIM` = 20, so
    // no law applies at all there (SGHMC at η's max: E2 ≈ 4·10⁴, silent; on logreg_dd, 20-D, the
    // same point is warned of bias; s49: warned on both). Measured and right or truly warned: logreg_dd 27 of 47
    // (every SGLD point carries its pairing warning, true), logreg_sgfs 17 of 47.
    // Key, then runs over 0.3, median E2, pooled E2 ± sd:
    // logreg_dd × SGFS-f re-measured in issue 21's fifteenth pass (s42) after the first Fisher
    // estimate was made to rest on about one pass over the data (docs/sgfs-osgfs.md §2; the start
    // transient of 170 sd is gone, tests/sgfs_first_estimate.rs): n = 45 now within the promise
    // (0/40, pooled 0.141 ± 0.019), deleted. What stays at α = 0 is a bias, not a transient: SGFS at
    // α = 0 samples the posterior's Gaussian (Bernstein–von Mises) view, and this posterior's
    // variances are up to 1.25× the Laplace ones (E2 of the Laplace covariance against the MALA
    // reference: 0.179); α = 1 measured 0/40 over 0.3, pooled 0.074 ± 0.026 (docs/diagnostics.md
    // §17, s42 addendum). The ridge's maximum (10⁶) freezes the chain.
    "logreg_dd sgfs_f defaults", // 0/40, median 0.192, pooled 0.153 ± 0.017 (s42: was 40/40, median 22.604)
    "logreg_dd sgfs_f sgfs_alpha=min", // 0/40, median 0.192, pooled 0.153 ± 0.017 (s42: was 40/40, median 22.604)
    "logreg_dd sgfs_f sgfs_alpha=mid", // 24/40, median 0.321, pooled 0.079 ± 0.064 (s42: was 40/40, median 8.799)
    "logreg_dd sgfs_f sgfs_ridge=min", // 0/40, median 0.192, pooled 0.153 ± 0.017 (s42: was 40/40, median 22.898)
    "logreg_dd sgfs_f sgfs_ridge=mid", // 0/40, median 0.199, pooled 0.160 ± 0.017 (s42: was 40/40, median 1.212)
    // SGFS-d at n = 2 on logreg_dd: new in s42 (not listed before; re-measured after the first
    // Fisher estimate was primed, docs/sgfs-osgfs.md §2): 40/40 over 0.3, never warned.
    // (s43: deleted here, now warned by the law's validity rule V2, docs/diagnostics.md §7
    // addendum — a run of 5,000 samples has not reached the law, a mixing warning naming the
    // relaxation time, true where >10 % of runs fail; their s42 numbers, all 40/40 over 0.3:
    // logreg_dd × SGFS-f ridge=max (median 1.000), × SGFS-d defaults, ridge=min, ridge=mid
    // (0.679–0.681), batch_size=min (0.929), ridge=max (1.000), × SGHMC sghmc_lr=min (0.936).
    // Checked: each setting now carries that warning. s44 re-measured the seven with
    // tests/law_probe.rs (tests/common/sweep.rs `measure`, the soak's measurement, not its
    // verdict path), seeds 1–40 × 5,000 and seeds 1–2 × 200,000, every run warned at its end:
    // SGFS-f ridge=max 40/40 over, median 1.000, 200,000: 1.000/1.000 (V2, 259,000,000 steps);
    // SGFS-d defaults, ridge=min and ridge=mid 40/40, median 0.679–0.680, 200,000: 0.111/0.254;
    // batch_size=min 40/40, 0.929, 200,000: 0.586/0.577; ridge=max 40/40, 1.000, 1.000/1.000;
    // SGHMC sghmc_lr=min 40/40, 0.936, 200,000: 0.595/0.470. All mixing warnings, all true.)
    "logreg_dd sghmc sghmc_lr=mid", // 18/40, median 0.279, pooled 0.059 ± 0.065
    // s48: the measured signal (docs/diagnostics.md §8) now measures up to 32 parameters through
    // the batch root (src/mixing_meter.rs `batch_root`). Re-measured on logreg_dd × SGFS-f, SGFS-d,
    // SGHMC, OSGFS (seeds 1–40 × 5,000, 37 points, docs/diagnostics.md §7 "s48"): deleted as truly
    // warned by it: SGFS-f α=max (39/40 fail, warned 37/40), SGHMC friction=mid (30/40, 23/40) and
    // friction=max (36/40, 27/40), OSGFS defaults (33/40, 29/40); deleted as already warned by the
    // law at the chain's start (stale since s43's V2): SGFS-d α=mid, α=max, batch_size=mid (40/40,
    // warned 40/40). Still silent: the four SGFS-f biases above (Laplace vs MALA, no signal sees
    // a bias) and, below half warned, SGFS-f α=mid (24 fail, 18 warned) and SGHMC η=mid (18, 14).
    // Every silent point within the promise was measured-warned in 0/40 runs.
    // s49: logreg_sgfs (d = 21) re-measured (same command, seeds 1–40 × 5,000, SGFS-f, SGFS-d, SGHMC,
    // OSGFS; docs/diagnostics.md §7 "s49"), after s48's signal, the runaway watch on the
    // stochastic-gradient samplers (src/chain/divergence.rs) and src/law.rs MAX_DIM 20 → 21: 28 of
    // its 30 entries deleted, each warned truly in 40/40 runs (the measured signal, the law's bias
    // and V2 rules, or a runaway: SGHMC η=max, n=min, n=mid). Still silent:
    "logreg_sgfs sghmc friction=mid", // 27/40, median 0.314, pooled 0.059 ± 0.061, measured-warned 9/40
    "logreg_sgfs osgfs defaults", // 17/40, median 0.297, pooled 0.062 ± 0.058, measured-warned 0/40
    // s50 (tests/law_probe.rs under SGVIZ_SLIDER_SWEEP=soak, seeds 1–40 × 5,000, the soak's 400,000-
    // sample MALA truth, at f8bd9df; docs/diagnostics.md §7 "s50"): the two rows above to the digit
    // (max E2 0.410 and 0.344: the runs crowd around 0.3). OSGFS's other points, first measured:
    // b = 0.1 (min) 40/40 over 0.3, median 1.000, warned 40/40 (right); n = 2 (min) 40/40, median
    // 0.587, warned 40/40 (right); b = 2 (max) silent, new:
    "logreg_sgfs osgfs osgfs_b=max", // 14/40, median 0.293, max 0.339, pooled 0.058 ± 0.057, measured-warned 2/40
    // (OSGFS c = 0.99 (max), first measured in s49: 40/40 over 0.3, median 0.400, pooled 0.408 ±
    // 0.022, measured-warned 0/40 with s48's code; since MAX_DIM = 21 warned at the start by the
    // law's instability rule ("Set cap on the step k c to 0.356"), true: not listed.)
];

/// Points CI runs (keys as above), from the soak's rows on the linear regression (seeds 1–40 ×
/// 5,000, exact truth; ≈ 0.7 CPU s each): the failures nearest the line a warning must catch, and
/// one whose warning prints its share. SGFS-f at α = 6 (max): 11/40 over 0.3, median E2 0.227,
/// warned "25 %" (the printed share is judged); SGFS-f at n = N = 200 (max): 32/40, pooled E2
/// 0.306 ± 0.005, warned of bias; SGLD at its smallest step (1.2·10⁻⁶): 40/40, warned "100 %".
/// s48: logreg_dd × SGHMC at friction's midpoint (30/40 over 0.3, measured-warned 23/40 where the
/// judge asks 20: the signal above 6 parameters nearest its line; 4.5 CPU s).
const CI_POINTS: &[&str] = &["linreg sgfs_f sgfs_alpha=max", "linreg sgfs_f batch_size=max", "linreg sgld step_size=min", "logreg_dd sghmc friction=mid"];

fn soak() -> bool {
    std::env::var("SGVIZ_SLIDER_SWEEP").is_ok_and(|v| v == "soak")
}

fn keep(var: &str, name: &str) -> bool {
    std::env::var(var).ok().is_none_or(|o| o.split(',').any(|x| x == name))
}

/// A case with one more target setting, under the label "base param=point" (leaked: a test
/// process builds a few hundred, and `Case` holds `'static` data like the other sweeps' cases).
fn moved(base: &Case, param: &'static str, point: &str, value: f64) -> Case {
    let label: &'static str = Box::leak(format!("{} {param}={point}", base.label).into_boxed_str());
    let mut settings = base.settings.to_vec();
    settings.push((param, value));
    Case { label, target: base.target, settings: Box::leak(settings.into_boxed_slice()) }
}

/// The target-slider cases of `target`: each numeric parameter shown at its defaults (not a seed)
/// at its minimum, midpoint (geometric for a log slider, rounded for an integer one) and maximum.
pub fn target_slider_cases(target: &'static str) -> Vec<Case> {
    let spec = registry::target(target).unwrap();
    let values = ParamValues::defaults(spec.params);
    let base = Case::plain(target);
    let shown = spec.params.iter().filter(|p| p.choices.is_empty() && p.name != "data_seed" && p.visible_if.is_none_or(|w| w.holds(&values)));
    let mut out = Vec::new();
    for p in shown {
        let mid = if p.log_scale { (p.min * p.max).sqrt() } else { 0.5 * (p.min + p.max) };
        let mid = if p.integer { mid.round() } else { mid };
        for (name, v) in [("min", p.min), ("mid", mid), ("max", p.max)] {
            out.push(moved(&base, p.name, name, v));
        }
    }
    out
}

/// Every pairing of the grid: the sampler-slider cases with every sampler (all their points), and
/// every target-slider case with every sampler (its derived defaults only). The bool says which.
fn grid() -> Vec<(Case, &'static str, bool)> {
    let samplers = || registry::SAMPLERS.iter().map(|s| s.name).filter(|s| keep("SGVIZ_TOY_SWEEP_SAMPLERS", s));
    let mut out: Vec<(Case, &'static str, bool)> = Vec::new();
    for case in SAMPLER_SLIDER_CASES.into_iter().filter(|c| keep("SGVIZ_TARGET_SWEEP_TARGETS", c.target)) {
        out.extend(samplers().map(|s| (case, s, true)));
    }
    for t in registry::TARGETS.iter().filter(|t| keep("SGVIZ_TARGET_SWEEP_TARGETS", t.name)) {
        for case in target_slider_cases(t.name) {
            out.extend(samplers().map(|s| (case, s, false)));
        }
    }
    out
}

/// Run the grid's points that `points` keeps. Pairings with no kept point are left out before the
/// driver sees them: it computes each case's truth first, and a moved target slider's truth can be
/// a fresh 100,000-sample MALA reference (CI runs three points, not ≈ 90 references).
fn run(points: &dyn Fn(&str) -> bool) {
    let wanted = |g: &&(Case, &'static str, bool)| grid::points(&g.0, g.1, g.2).iter().any(|(p, _, _)| points(&format!("{} {} {p}", g.0.label, g.1)));
    let all: Vec<(Case, &'static str, bool)> = grid().iter().filter(wanted).copied().collect();
    let sliders: Vec<(Case, &str)> = all.iter().filter(|g| g.2).map(|g| (g.0, g.1)).collect();
    let targets: Vec<(Case, &str)> = all.iter().filter(|g| !g.2).map(|g| (g.0, g.1)).collect();
    run_grid_where(&sliders, true, points, KNOWN_SILENT_FAILURES);
    run_grid_where(&targets, false, points, KNOWN_SILENT_FAILURES);
}

#[test]
fn every_sampler_and_target_slider_position_on_every_target_is_within_the_promise_or_warned_truthfully() {
    if soak() {
        // SGVIZ_TARGET_SWEEP_PART=samplers keeps the sampler-slider cases (key "target sampler
        // point"), =targets the target-slider ones (key "target param=point sampler defaults").
        let part = std::env::var("SGVIZ_TARGET_SWEEP_PART").ok();
        let is_sampler_case = |key: &str| key.split(' ').nth(1).is_some_and(|w| registry::sampler(w).is_ok());
        run(&|key| part.as_deref().is_none_or(|p| (p == "samplers") == is_sampler_case(key)));
    } else {
        run(&|key| CI_POINTS.contains(&key));
    }
}

/// pSBPS at the minibatch slider's max (n = N) on the linear regression (exact Gaussian truth),
/// judged as the soak judges it: before the fix of its preconditioner (docs/bouncy.md §8) 40/40
/// runs were over 0.3 with no warning (median E2 2.23); since, 3/40 (median 0.126). ≈ 1.5 CPU s.
#[test]
fn psbps_at_the_full_batch_keeps_the_promise() {
    run(&|key| key == "linreg psbps batch_size=max");
}

#[test]
fn the_grid_reaches_every_target_and_every_shape_slider_the_page_offers() {
    // Every target of the registry has its shape sliders in the grid, each at three points, and
    // the four targets the other sweeps leave at their defaults get every sampler's sliders.
    if std::env::var("SGVIZ_TARGET_SWEEP_TARGETS").is_ok() || std::env::var("SGVIZ_TOY_SWEEP_SAMPLERS").is_ok() {
        return;
    }
    let all = grid();
    for t in registry::TARGETS {
        let values = ParamValues::defaults(t.params);
        for p in t.params.iter().filter(|p| p.choices.is_empty() && p.name != "data_seed" && p.visible_if.is_none_or(|w| w.holds(&values))) {
            for point in ["min", "mid", "max"] {
                let label = format!("{} {}={point}", t.name, p.name);
                let n = all.iter().filter(|g| g.0.label == label).count();
                assert_eq!(n, registry::SAMPLERS.len(), "{label}: {n} samplers");
            }
        }
    }
    for case in SAMPLER_SLIDER_CASES {
        assert_eq!(all.iter().filter(|g| g.0.label == case.label && g.2).count(), registry::SAMPLERS.len(), "{}", case.label);
    }
    // CI's points are points of the grid (a renamed slider would silently drop one).
    for key in CI_POINTS {
        assert!(all.iter().any(|g| key.starts_with(&format!("{} {} ", g.0.label, g.1))), "{key} is not in the grid");
    }
}

/// The judge reads the share each warning PRINTS, hand-worked cases (binomial tails worked apart:
/// P(Bin(40, 0.6) ≤ 2) ≈ 1·10⁻¹³, P(Bin(40, 0.12) ≤ 2) ≈ 0.13, P(Bin(40, 0.6) = 40) = 0.6⁴⁰ ≈
/// 1.3·10⁻⁹, all against its α = 10⁻⁴): a measured warning that prints "at least 60 %" where 2 of
/// 40 runs fail is untrue in every run that prints it, "at least 12 %" stands; a law's "60 %"
/// (no "at least") where all 40 fail is refuted from below, "at least 60 %" is not.
#[test]
fn the_judge_reads_the_share_each_warning_prints() {
    use sgviz::setting_warning::{Failure, SettingWarning};
    let warning = |share: &str| SettingWarning { param: "step_size", failure: Failure::Mixing, text: format!("Let it run to about 9,000 samples: measured here, E2 above 0.3 in {share} % of runs of 5,000 samples."), detail: String::new() };
    let runs = |fails: usize, warned: usize, share: &str| sweep::Measured {
        e2: (0..40).map(|i| if i < fails { 0.5 } else { 0.1 }).collect(),
        pooled_e2: 0.02,
        pooled_sd: 0.01,
        warnings: (0..40).map(|i| (i < warned).then(|| warning(share))).collect(),
    };
    // 20 of 40 runs print a share 2/40 refute: more than a 90 % lower bound may overshoot.
    assert!(sweep::per_run_shares_are_true("hand", &runs(2, 20, "at least 60")).is_err());
    assert!(grid::judge_measured("hand", &runs(2, 20, "at least 60")).is_err());
    assert_eq!(sweep::per_run_shares_are_true("hand", &runs(2, 20, "at least 12")), Ok(0));
    // Two refuted runs in 40 are within what a 90 % bound allows (P(Bin(40, 0.1) ≥ 2) ≈ 0.92).
    assert_eq!(sweep::per_run_shares_are_true("hand", &runs(2, 2, "at least 60")), Ok(2));
    // A law's share is the same in every run and is checked both ways unless it says "at least".
    assert!(sweep::printed_share_refuted(&warning("60").text, 40).is_some());
    assert!(sweep::printed_share_refuted(&warning("at least 60").text, 40).is_none());
    assert!(sweep::printed_share_refuted(&warning("60").text, 24).is_none());
    // A pairing warning's printed share is read too (src/bound_law.rs prints one): 8/40 failing
    // is a failure the warning names (> 10 %), but not "at least 60 %" (P(Bin(40, 0.6) ≤ 8) ≈ 10⁻⁷).
    assert!(sweep::judge_pairing("hand", &warning("at least 60").text, &runs(8, 0, "")).is_err());
    assert!(sweep::judge_pairing("hand", &warning("at least 12").text, &runs(8, 0, "")).is_ok());
    assert!(sweep::printed_share_refuted("no share printed", 0).is_none());
}
