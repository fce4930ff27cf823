//! Honest at every slider position on the targets tests/toy_sweep.rs (banana, funnel) and
//! tests/slider_sweep.rs (Langevin-type samplers on the Gaussian toy) do not sweep (issue 21): the
//! Gaussian toy with MALA, HMC and the bouncy family; the mixture, the hyperbola and the multimodal
//! toy with every sampler; the logistic regression with every sampler, on its synthetic 2-D data
//! and on the two shipped data sets the page offers (breast cancer, d = 5; digits 7 vs 9, d = 6).
//! At the derived defaults and at each numeric slider's minimum, midpoint (log units for log
//! sliders) and maximum (tests/common/grid.rs reads them from the registry and the chain's derived
//! ranges), 40 seeds × 5,000 samples each (BPS events counted as the page counts them). Each
//! setting is refused, or warned truthfully, or silent within the promise, as README "What the
//! warnings promise" states it (tests/common/sweep.rs). Truths: closed form or grid quadrature
//! (2-D targets), a reference exact-MALA run for d > 2 (tests/common/mod.rs).
//!
//! Settings that break the promise with no warning are listed in [`KNOWN_SILENT_FAILURES`] with
//! their numbers (for the lead's note: the warning code is not this file's); the test fails on an
//! unlisted failure and on a listed setting that no longer fails.
//!
//! CI (`make test`): every sampler but MALA and HMC at its defaults on the synthetic logistic
//! regression, and MALA's, HMC's and the bouncy samplers' defaults on the Gaussian toy
//! ([`ci_pairings`]). `SGVIZ_SLIDER_SWEEP=soak`
//! (make soak): the whole grid; `SGVIZ_TOY_SWEEP_TARGETS=mixture,logreg:breast_cancer` restricts
//! it to those case labels.

#[path = "common/sweep.rs"]
mod sweep;
#[path = "common/grid.rs"]
mod grid;
mod common;

use grid::{run_grid, run_grid_where, Case};
use sgviz::registry;

/// The Langevin-type samplers, swept on the Gaussian toy by tests/slider_sweep.rs.
const LANGEVIN: [&str; 5] = ["sgld", "sgfs_f", "sgfs_d", "sghmc", "osgfs"];

/// The targets of this file, as the page offers them (the logistic regression's `dataset` choice:
/// 0 synthetic, 1 breast cancer, 2 digits 7 vs 9, src/model/logistic/mod.rs).
const CASES: [Case; 7] = [
    Case::plain("gaussian"),
    Case::plain("mixture"),
    Case::plain("hyperbola"),
    Case::plain("multimodal"),
    Case::plain("logreg"),
    Case { label: "logreg:breast_cancer", target: "logreg", settings: &[("dataset", 1.0)] },
    Case { label: "logreg:digits_7v9", target: "logreg", settings: &[("dataset", 2.0)] },
];

/// Settings that break the promise without a warning, as measured by this file's soak (40 seeds ×
/// 5,000 samples; `SGVIZ_SLIDER_SWEEP=soak SGVIZ_TOY_SWEEP_TARGETS=<label> cargo test --test all
/// toy_sweep_more::`). Key: "label sampler point", point "defaults" or "param=min|mid|max". On a
/// target with a Gaussian summary (the Gaussian toy, the mixture, the 2-D logistic regression)
/// MALA, HMC and the bouncy family have no law (src/promise.rs); since issue 21's fifth pass the
/// measured signal (src/mixing_meter.rs) speaks for them there (docs/diagnostics.md §8).
const KNOWN_SILENT_FAILURES: &[&str] = &[
    // Since issue 21's sixth pass the bouncy family is judged after 5,000 EVENTS (the sweep ran to
    // 5,000 path points before: 8,500 events for SBPS at k = 10 on the logistic regression, 80,000
    // for lipSBPS there) and the measured signal warns at its error covariance's 90 % lower bound
    // (docs/diagnostics.md §8). The false alarms listed before are gone (`SGVIZ_TOY_SWEEP_SAMPLERS`
    // runs, 40 seeds): SBPS k = 10 on the Gaussian 3/40 fail, warned 3/40; on the mixture 5/40,
    // 7/40 (both within 5–12: accepted either way); on the logistic regression k = 5 4/40, 4/40 and
    // k = 10 10/40, 14/40 (was 38/40 warned at 8,500 events); mixture × MALA at its defaults 4/40,
    // 2/40 (was 8/40).
    // (Gaussian toy: SBPS at refresh rate 5 diffuses, 23/40 over 0.3, and the measured signal warned
    // only 17/40; since issue 21's eighth pass the refresh law (src/refresh_law.rs) warns it in
    // every run: tests/refresh_law.rs. Its line is deleted.)
    // Mixture (the Welling–Teh tied-means posterior, grid quadrature truth).
    // (SGFS-f at n = 14: the law's bias warning, E2 0.11, that no run showed — pooled 0.021 ±
    // 0.015 — is gone since issue 21's thirteenth pass: the law on the mixture brackets F between
    // the mean and the posterior average, docs/diagnostics.md §7, §10; silent at n = 14, 6/40 over
    // 0.3; tests/mixture_fisher_bracket.rs. Its line is deleted.)
    // (c = 0.99 was a silent bias: 1/40 over 0.3, median 0.151, pooled 0.122 ± 0.006 (fresh seeds
    // 101–140: 0/40, 0.150, 0.120 ± 0.004; c = 0.7: 0.062 ± 0.005). s50 (docs/diagnostics.md §7
    // "s50", `SGVIZ_SLIDER_SWEEP=soak SGVIZ_TOY_SWEEP_TARGETS=mixture SGVIZ_TOY_SWEEP_SAMPLERS=osgfs`,
    // seeds 1–40 × 5,000 at f8bd9df): now the reverse, a false alarm. Every run is warned of bias by
    // the law at the start ("Set cap on the step k c to 0.926 (now 0.99)": the bracket's lower end
    // 0.108, V3), but 0/40 runs are over 0.3, median 0.099, pooled 0.086 ± 0.004, and one run of
    // 200,000 samples has E2 0.089: the bias is within 0.1. Stop 53: OSGFS's law is no longer
    // trusted for its bias where the Fisher preconditioner departs from a grid-scan summary's
    // curvature more than twice (7.1-fold here; src/promise.rs `bias_is_sound`): silent, 0/40 over
    // 0.3, pooled 0.086 ± 0.004 (tests/osgfs_mixture_bias.rs). Its line is deleted.)
    // OSGFS started at n = 2 (issue 21, s43): its "diverges in its first steps" warning was untrue
    // here (seeds 1–40 × 5,000: none diverged; the mixture's proper prior keeps the first H = N·C + G
    // invertible, src/promise.rs `prior_is_singular`) and is gone; what stays is a silent mixing
    // failure: 18/40 over 0.3, median 0.296, one run at 11.4 (a long first excursion); 200,000
    // samples E2 0.117–0.121. The law's bracket (lower end) predicts it within the promise.
    // s50, same soak: unchanged, 18/40 over 0.3, median 0.296, pooled 0.199 ± 0.306, measured
    // warning 1/40. n = 14 and 100 keep the promise (1/40 and 3/40 over 0.3), so the slider's end
    // is not useless on this target; OSGFS's n slider starts at 2 for every target.
    "mixture osgfs batch_size=min",
    // HMC with one leapfrog step: 15/40 over 0.3 (median 0.149, pooled 0.008 ± 0.022), measured
    // warning in 10/40 runs (14/40 with the point estimate): fewer than half.
    "mixture hmc leapfrog_steps=min",
    // MALA at its step's log midpoint (ε = 0.0045): 21/40 over 0.3, median 0.374, pooled
    // 0.011 ± 0.029, measured warning in 15/40 runs (issue 21's twelfth pass, seeds 1–40 at
    // d08e5b9; docs/diagnostics.md §10 had it warned in 22–40 of 40 with MALA's other step points
    // before the signal decided at its 90 % lower bound).
    "mixture mala mala_step=mid",
    // (lipSBPS on the synthetic logistic regression, re-measured at 5,000 EVENTS in issue 21's
    // seventh pass — `SGVIZ_SLIDER_SWEEP=soak SGVIZ_TOY_SWEEP_TARGETS=logreg
    // SGVIZ_TOY_SWEEP_SAMPLERS=lipsbps`, 40 seeds: every point fails and is warned in more than half
    // its runs, so none is a silent failure any more and their six lines are deleted. Runs over 0.3,
    // median E2, pooled E2, measured warning: defaults 40/40, 0.769, 0.260 ± 0.208, 30/40 (CI);
    // n = 1: 40/40, 0.883, 0.609 ± 0.095, 31/40; n = 10³ and 10⁶ (the whole data set): 36/40, 0.605,
    // 0.378 ± 0.085, 38/40; refresh rate 0, 2.5, 5: 40/40 each, medians 0.755, 0.795, 0.773, pooled
    // 0.287 ± 0.145, 0.221 ± 0.142, 0.307 ± 0.124, warned 32, 32, 25 of 40. The defaults do NOT
    // keep the promise and are only warned, not fixed: docs/diagnostics.md §17 "Not yet covered". Since then the
    // minibatch slider ends at N (tests/batch_range.rs), so its midpoint is n = 32, not yet measured.)
    // (Since issue 21's ninth pass every lipSBPS point here carries the bound law's pairing warning
    // (src/bound_law.rs, docs/diagnostics.md §16): seeds 101–140 at the defaults 40/40 over 0.3,
    // median 0.837, where the measured signal had warned 34/40 beside the minibatch slider with a
    // remedy (8,400–25,100 events) that 20,000 events refute (37/40): tests/bound_law.rs.)
    // (Breast cancer, d = 5: the eight rows listed here — SGHMC at η's minimum and midpoint and at
    // friction 0.5 and 1, MALA at its defaults and every step point — were measured before the
    // measured signal (docs/diagnostics.md §8) covered MALA and SGHMC's mixing up to 6 parameters.
    // Re-run in s46 (`SGVIZ_SLIDER_SWEEP=soak SGVIZ_TOY_SWEEP_TARGETS=logreg:breast_cancer
    // SGVIZ_TOY_SWEEP_SAMPLERS=mala,sghmc`, seeds 1–40 × 5,000 at 3f4ba94): every one is warned
    // truly in more than half its runs, so their lines are deleted. Runs over 0.3, median E2,
    // measured warning: SGHMC η = 1.78·10⁻⁵ 40/40, 0.986, warned by its law (no share); η = 3.99·10⁻³
    // 23/40, 0.348, 20/40; κ = 0.5 32/40, 0.463, 22/40; κ = 1 39/40, 0.618, 27/40; MALA defaults
    // 40/40, 0.654, 31/40; ε = 3.6·10⁻⁵, 5.8·10⁻³, 0.91: 40/40 each, 0.999, 0.919, 0.997, warned
    // 37, 31, 26 of 40. SGHMC at its defaults: 7/40 over 0.3 (median 0.172, pooled 0.038 ± 0.038),
    // measured warning 3/40, which the judge's P < 10⁻⁴ binomial check accepts.)
    // (s46, breast cancer × HMC, seeds 1–40 × 5,000, stopped at 13 minutes: defaults 0/40 over 0.3
    // (median 0.030); ε's minimum, midpoint, maximum 40/40 (warned 38/40), 1/40, 40/40 (warned
    // 40/40); one leapfrog step 40/40 (warned 32/40): all right or truly warned. HMC's other
    // leapfrog points, the bouncy family and the digits data set are not yet measured, so the list
    // does not speak for them.)
];

fn soak() -> bool {
    std::env::var("SGVIZ_SLIDER_SWEEP").is_ok_and(|v| v == "soak")
}

/// Every sampler on each case, except the Langevin-type ones on the Gaussian toy
/// (`SGVIZ_TOY_SWEEP_TARGETS` / `SGVIZ_TOY_SWEEP_SAMPLERS`, comma-separated, keep only those
/// labels / samplers: a part of the grid, e.g. to re-measure one list entry).
fn soak_pairings() -> Vec<(Case, &'static str)> {
    let keep = |var: &str, name: &str| std::env::var(var).ok().is_none_or(|o| o.split(',').any(|x| x == name));
    let cases = CASES.into_iter().filter(|c| keep("SGVIZ_TOY_SWEEP_TARGETS", c.label));
    let pairs = cases.flat_map(|c| registry::SAMPLERS.iter().map(move |s| (c, s.name)));
    pairs.filter(|(c, s)| !(c.label == "gaussian" && LANGEVIN.contains(s)) && keep("SGVIZ_TOY_SWEEP_SAMPLERS", s)).collect()
}

/// CI's subset: every sampler's defaults on the synthetic logistic regression (the target a
/// lecture's regression steps open on) but the exact ones, MALA's, HMC's and the bouncy family's
/// defaults on the Gaussian toy (silent: the measured signal does not fire where the promise is
/// kept), and [`CI_POINTS`]. MALA and HMC on the logistic regression (full-data gradients, 40 ×
/// 5,000 samples: about half this test's CPU) are left to `make soak` (issue 23, BENCHMARKS.md "CI
/// time, eighth round (native)"): in CI the same verdict (the measured signal's silence where the
/// promise is kept) is reached for both on the Gaussian toy, where they are judged the same way,
/// and pairings::logreg checks their derived defaults there against the truth.
fn ci_pairings() -> Vec<(Case, &'static str)> {
    let logreg = registry::SAMPLERS.iter().filter(|s| !["mala", "hmc"].contains(&s.name)).map(|s| (Case::plain("logreg"), s.name));
    logreg.chain(["mala", "hmc", "bps", "sbps", "psbps", "lipsbps"].map(|s| (Case::plain("gaussian"), s))).collect()
}

/// Slider positions CI adds to the defaults: the measured signal (src/mixing_meter.rs) on a target
/// with a Gaussian summary, both ways. Warned and true where the chain fails: HMC at its largest
/// step (every proposal rejected: warned from 500 samples that the chain does not move), MALA at
/// its smallest (it barely moves). Silent, or warned no more often than the failure share allows,
/// where the former false alarms were: SBPS at k = 10 on the Gaussian toy and on the logistic
/// regression (there warned in 38/40 runs while the sweep ran 8,500 events). SBPS at refresh
/// rate 5 on the Gaussian (warned by the refresh law, docs/diagnostics.md §13).
const CI_POINTS: [&str; 5] = ["gaussian hmc hmc_step=max", "gaussian mala mala_step=min", "gaussian sbps refresh_rate=max", "gaussian sbps band_k=max", "logreg sbps band_k=max"];

#[test]
fn every_pairing_and_slider_position_on_the_other_targets_is_within_the_promise_or_warned_truthfully() {
    if soak() {
        run_grid(&soak_pairings(), true, KNOWN_SILENT_FAILURES);
    } else {
        run_grid_where(&ci_pairings(), true, &|key| key.ends_with(" defaults") || CI_POINTS.contains(&key), KNOWN_SILENT_FAILURES);
    }
}

#[test]
fn the_sweep_covers_every_pairing_the_page_offers_on_its_targets() {
    // Each case's target is in the registry and, with the Gaussian toy's Langevin samplers swept
    // elsewhere, every sampler of the registry is paired with each case.
    let all = soak_pairings();
    for case in CASES {
        registry::target(case.target).unwrap();
        let expected = registry::SAMPLERS.len() - if case.label == "gaussian" { LANGEVIN.len() } else { 0 };
        let count = all.iter().filter(|(c, _)| c.label == case.label).count();
        let part = std::env::var("SGVIZ_TOY_SWEEP_TARGETS").is_ok() || std::env::var("SGVIZ_TOY_SWEEP_SAMPLERS").is_ok();
        assert!(part || count == expected, "{}: {count} samplers swept, {expected} offered", case.label);
    }
}
