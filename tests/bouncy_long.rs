//! Long-run statistical tests of the bouncy-particle family (issue 11): SBPS, pSBPS and lipSBPS
//! on the breast-cancer logistic posterior, the d = 20 logistic target of the SBPS experiment and
//! the Gaussian toy with and without gradient noise, for at least 400,000 events each; a test per
//! sampler × target pairing the page offers; and the "SBPS vs SGLD" preset for as many steps as
//! five minutes in the page.
//!
//! Tolerances. Monte-Carlo standard errors are batch means over TIME: the trajectory is cut into
//! 32–64 batches of equal travel time whose averages are exact segment integrals
//! ([`TimeBatchMeans`]); a MALA reference has its own batch-means MCSE, combined in quadrature.
//! Every mean and every covariance entry of a comparison must lie within z·MCSE, with z the
//! Bonferroni normal quantile for a family-wise level of 10⁻³ over the entries compared (≈ 4 for
//! D = 4, ≈ 4.6 for D = 20), plus a bias allowance: 0 for the exact samplers (BPS, lipSBPS) and
//! for SBPS/pSBPS runs whose band was never violated, and for SBPS/pSBPS runs whose statistical
//! band was violated (1–12 % of the bounces at k = 3) [`SBPS_BIAS`] = 0.1 truth-sd for means and
//! 0.1·√(Σ_jj Σ_kk) for covariance entries (the biases measured on these targets are ≤ 0.05).
//! The failures of issue 11 were covariance errors of 2.6–760 times the truth's scale.
//!
//! `SGVIZ_LONG_BOUNCY=1` (used by `make soak`) runs everything 10 times longer and adds lipSBPS on
//! the d = 20 target, which is exact but needs ~6,000 proposals per unit of travel time there.

use sgviz::chain::{Chain, ChainConfig};
use sgviz::diagnostics::{relative_errors, Moments, TimeBatchMeans};
use sgviz::lab::Lab;
use sgviz::model::{Model, View};
use sgviz::registry::{self, SamplerKind};
use sgviz::truth::{grid_truth, truth_for, TruthSource};
use std::sync::OnceLock;
mod common;

/// Minimum number of time batches (between this and twice as many are kept).
const BATCHES: usize = 32;
/// Bias allowance of SBPS and pSBPS, as a fraction of the truth's scale (see the module docs).
const SBPS_BIAS: f64 = 0.1;
/// Family-wise false-alarm level of one comparison of all means and covariance entries.
const FAMILY_LEVEL: f64 = 1e-3;

/// Run lengths are multiplied by 10 under `SGVIZ_LONG_BOUNCY` (make soak).
fn long() -> bool {
    std::env::var_os("SGVIZ_LONG_BOUNCY").is_some()
}
fn steps(n: u64) -> u64 {
    if long() {
        10 * n
    } else {
        n
    }
}

/// Events of one per-target pairing test ([`pairing_agrees`]), from its full length `full`
/// (issue 23, CI time, seventh round): on [`HALF_LENGTH_IN_CI`] `make test` runs half of it; the
/// soak twin (`SGVIZ_BOUNCY_PAIRINGS=full`, make soak) runs the full length with the same body,
/// and `SGVIZ_LONG_BOUNCY` ten times it. The tolerances are z·MCSE from the run's own time
/// batches (plus SBPS's fixed bias allowance), so at half the events they widen by ≈ √2 by
/// themselves; the claim (every mean and covariance entry within them, family-wise level 10⁻³)
/// is the same.
fn pairing_events(target: &str, full: u64) -> u64 {
    let twin = std::env::var("SGVIZ_BOUNCY_PAIRINGS").is_ok_and(|v| v == "full");
    if long() || twin || !HALF_LENGTH_IN_CI.contains(&target) {
        steps(full)
    } else {
        full / 2
    }
}

/// The costly pairing tests that keep their power at half the events, measured with every bounce
/// accepted with 0.8 times its probability (a temporary breakage of `ThinningCounts::thin`,
/// BENCHMARKS.md "CI time, seventh round"): each fails at half length. Not logreg_dd: there BPS
/// failed at 200,000 events (mean[6] error 0.246 > 0.184) but passed at 100,000 (largest
/// |error|/MCSE 4.5 against z = 4.59), so `make test` keeps its full length. The other targets
/// cost under 5 CPU s each and were not measured: full length.
const HALF_LENGTH_IN_CI: [&str; 3] = ["logreg", "logreg_sgfs", "logreg_heldout"];

// ---------------------------------------------------------------------------------------------
// References

/// Moments to compare against, with the MCSE of each entry (zero for closed forms and grids).
#[derive(Clone, Debug)]
struct Reference {
    moments: Moments,
    mean_se: Vec<f64>,
    cov_se: Vec<Vec<f64>>,
}

impl Reference {
    fn exact(moments: Moments) -> Self {
        let d = moments.mean.len();
        Reference { moments, mean_se: vec![0.0; d], cov_se: vec![vec![0.0; d]; d] }
    }
}

fn build_target(target: &str, settings: &[(&str, &str)]) -> Box<dyn Model> {
    let spec = registry::target(target).unwrap();
    let mut values = sgviz::params::ParamValues::defaults(spec.params);
    for (name, value) in settings {
        let p = spec.params.iter().find(|p| p.name == *name).unwrap();
        values.set(spec.params, name, p.parse(value).unwrap()).unwrap();
    }
    (spec.build)(&values, None).unwrap()
}

/// A MALA reference (tests/common/fixtures.rs `batch_mala_run`: seed 0x5eed, 64 batch means of
/// every mean and covariance entry): the committed fixture when there is one (issue 23, CI time,
/// tenth round: `make test` read these four from tests/fixtures/mala_references.json, the soak
/// regenerates them), else computed by the first test process that needs it and read back from a
/// file by the others (tests/common/mod.rs `cached_rows`).
fn mala_reference(target: &str, settings: &[(&str, &str)], warm_up: u64, sampling: u64) -> Reference {
    let key = common::fixtures::batch_key(target, settings, warm_up, sampling);
    let rows = common::fixtures::stored_rows(&key).unwrap_or_else(|| {
        common::cached_rows(&key, || {
            let (moments, mean_se, cov_se) = common::fixtures::batch_mala_run(build_target(target, settings), warm_up, sampling);
            [moments.mean, mean_se].into_iter().chain(moments.cov).chain(cov_se).collect()
        })
    });
    let d = rows[0].len();
    assert_eq!(rows.len(), 2 + 2 * d, "{key}: rows of a reference");
    Reference { moments: Moments { mean: rows[0].clone(), cov: rows[2..2 + d].to_vec() }, mean_se: rows[1].clone(), cov_se: rows[2 + d..].to_vec() }
}

const BREAST_CANCER: &[(&str, &str)] = &[("dataset", "breast_cancer"), ("n_features", "3"), ("prior_sd", "2.5")];

fn breast_cancer_reference() -> &'static Reference {
    static REFERENCE: OnceLock<Reference> = OnceLock::new();
    REFERENCE.get_or_init(|| mala_reference("logreg", BREAST_CANCER, 10_000, 256_000))
}

/// The d = 20 logistic target of the SBPS experiment (docs/bouncy.md §11) at its defaults.
fn logreg_dd_reference() -> &'static Reference {
    static REFERENCE: OnceLock<Reference> = OnceLock::new();
    REFERENCE.get_or_init(|| mala_reference("logreg_dd", &[], 10_000, 128_000))
}

fn logreg_sgfs_reference() -> &'static Reference {
    static REFERENCE: OnceLock<Reference> = OnceLock::new();
    REFERENCE.get_or_init(|| mala_reference("logreg_sgfs", &[], 10_000, 128_000))
}

/// SGLD Fig. 3's stand-in (breast cancer, 10 features, the training four fifths; src/model/logreg_heldout.rs).
fn logreg_heldout_reference() -> &'static Reference {
    static REFERENCE: OnceLock<Reference> = OnceLock::new();
    REFERENCE.get_or_init(|| mala_reference("logreg_heldout", &[], 10_000, 128_000))
}

/// The reference for a target at its defaults: closed form or grid quadrature when the truth
/// has one (their errors are far below the chains' MCSE), a MALA run otherwise.
fn default_reference(target: &str) -> Reference {
    match target {
        "logreg_dd" => logreg_dd_reference().clone(),
        "logreg_sgfs" => logreg_sgfs_reference().clone(),
        "logreg_heldout" => logreg_heldout_reference().clone(),
        _ => {
            let truth = truth_for(build_target(target, &[]).as_ref());
            assert!(matches!(truth.source, TruthSource::ClosedForm | TruthSource::GridQuadrature), "{target}: {:?}", truth.source);
            Reference::exact(truth.moments.unwrap())
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Runs and comparisons

/// A finished bouncy run: the chain, its time batches about the reference mean, and on which
/// sides of a mode split (if any) its path went.
struct Run {
    chain: Chain,
    batches: TimeBatchMeans,
    label: String,
    sides: (bool, bool),
}

fn config(target: &str, sampler: &str, seed: u64, settings: &[(&str, &str)]) -> ChainConfig {
    let mut config = ChainConfig::new(target, sampler, seed);
    for (name, value) in settings {
        config = config.with(name, value);
    }
    config
}

/// Run `events` events after a tenth as many of burn-in, watching for runaways against the
/// reference and batching the trajectory over time.
fn run(config: ChainConfig, events: u64, reference: &Reference) -> Run {
    run_split(config, events, reference, |_| 1.0)
}

/// [`run`], also recording which sides of `side(θ) = 0` the path's segment ends visited.
fn run_split(mut config: ChainConfig, events: u64, reference: &Reference, side: fn(&[f64]) -> f64) -> Run {
    let label = format!("{} on {} {:?}", config.sampler, config.target, config.settings);
    config.burn_in = events / 10;
    config.capacity = 1;
    let mut chain = Chain::new(&config).unwrap_or_else(|e| panic!("{label}: {e}"));
    chain.watch_for_runaway(&reference.moments);
    let mut batches = TimeBatchMeans::new(&reference.moments.mean, BATCHES, 1e-6);
    let mut sides = (false, false);
    chain.run_segments(config.burn_in + events, &mut |start, velocity, duration| {
        batches.add_segment(start, velocity, duration);
        let end: Vec<f64> = start.iter().zip(velocity).map(|(x, v)| x + v * duration).collect();
        for p in [start, &end[..]] {
            if side(p) > 0.0 {
                sides.0 = true;
            } else {
                sides.1 = true;
            }
        }
    });
    Run { chain, batches, label, sides }
}

/// Bonferroni z for all D means and D(D+1)/2 covariance entries at [`FAMILY_LEVEL`].
fn bonferroni_z(dim: usize) -> f64 {
    let comparisons = dim + dim * (dim + 1) / 2;
    common::normal_upper_quantile(0.5 * FAMILY_LEVEL / comparisons as f64)
}

/// Every mean and covariance entry of `run` within z·MCSE + `bias`·scale of `reference`; no
/// runaway; finite. Prints one summary line (E2 and the largest z) for the record.
fn assert_agrees(run: &Run, reference: &Reference, bias: f64) {
    let r = &reference.moments;
    let d = r.mean.len();
    let z = bonferroni_z(d);
    assert!(run.chain.position().iter().all(|x| x.is_finite()), "{}: non-finite state", run.label);
    assert_eq!(run.chain.runaway(), None, "{}: runaway", run.label);
    assert!(run.batches.batches() >= BATCHES, "{}: only {} time batches", run.label, run.batches.batches());
    let mut failures = Vec::new();
    let mut largest = (0.0, String::new());
    let mut check = |what: String, error: f64, se: f64, scale: f64| {
        let tolerance = z * se + bias * scale;
        if error.abs() / se > largest.0 {
            largest = (error.abs() / se, what.clone());
        }
        if !(error.abs() <= tolerance) {
            failures.push(format!("{what}: error {error:.4} > {tolerance:.4} (z {z:.2} × MCSE {se:.4} + {bias} × {scale:.4})"));
        }
    };
    for j in 0..d {
        let (est, se) = run.batches.estimate(j, None).unwrap();
        check(format!("mean[{j}]"), est, se.hypot(reference.mean_se[j]), r.cov[j][j].sqrt());
        for k in j..d {
            let (est, se) = run.batches.estimate(j, Some(k)).unwrap();
            check(format!("cov[{j}][{k}]"), est - r.cov[j][k], se.hypot(reference.cov_se[j][k]), (r.cov[j][j] * r.cov[k][k]).sqrt());
        }
    }
    let (_, e2) = relative_errors(&run.chain.moments(), r);
    eprintln!("{}: E2 {e2:.3}, largest |error|/MCSE {:.1} ({}), {} batches of time {:.3}", run.label, largest.0, largest.1, run.batches.batches(), run.batches.batch_time());
    assert!(failures.is_empty(), "{}:\n{}", run.label, failures.join("\n"));
}

fn violations(chain: &Chain) -> f64 {
    chain.diagnostics().iter().find(|d| d.name == "violations").map(|d| d.value).unwrap()
}

/// [`SBPS_BIAS`] for an SBPS run whose band was violated; 0 when it never was (every proposal
/// then thinned validly against its band: SBPS is exact on the noise-free Gaussian, where the
/// band is the exact line).
fn sbps_allowance(chain: &Chain) -> f64 {
    if violations(chain) > 0.0 {
        SBPS_BIAS
    } else {
        0.0
    }
}

// ---------------------------------------------------------------------------------------------
// Long runs of issue 11's table

#[test]
fn sbps_psbps_and_lipsbps_match_mala_on_breast_cancer() {
    // Issue 11: SBPS E2 = 9.6 and pSBPS 2.6 at 400,000 steps (runaways to 20 posterior sd);
    // lipSBPS E2 = 0.50 at 50,000 steps, which is a too-short run: its bound N·max‖x̃_i‖ gives
    // ≈ 4,000 proposals per unit time, so 50,000 steps (40,000 of them burn-in) travel T ≈ 3.
    let reference = breast_cancer_reference();
    for sampler in ["sbps", "psbps"] {
        let r = run(config("logreg", sampler, 5, BREAST_CANCER), steps(400_000), reference);
        assert_agrees(&r, reference, sbps_allowance(&r.chain));
    }
    let lip = run(config("logreg", "lipsbps", 5, BREAST_CANCER), steps(4_000_000), reference);
    assert_eq!(violations(&lip.chain), 0.0);
    assert_agrees(&lip, reference, 0.0);
}

#[test]
fn sbps_and_psbps_match_mala_on_the_d20_logistic_target() {
    let reference = logreg_dd_reference();
    for sampler in ["sbps", "psbps"] {
        let r = run(config("logreg_dd", sampler, 6, &[]), steps(400_000), reference);
        assert_agrees(&r, reference, sbps_allowance(&r.chain));
    }
}

#[test]
fn lipsbps_matches_mala_on_the_d20_logistic_target_in_the_soak() {
    // Exact, but ≈ 6,000 proposals per unit time against a posterior 5 wide along w₁: 400,000
    // events travel T ≈ 60, far less than the mixing time, so only the soak runs it (40 million).
    if !long() {
        return;
    }
    let reference = logreg_dd_reference();
    let r = run(config("logreg_dd", "lipsbps", 6, &[]), 40_000_000, reference);
    assert_eq!(violations(&r.chain), 0.0);
    assert_agrees(&r, reference, 0.0);
}

#[test]
fn sbps_and_psbps_match_the_gaussian_toy_with_and_without_gradient_noise() {
    // Issue 11: pSBPS without noise had covariance ≈ 43 (truth 1), SBPS with s = 1 ≈ 760. As in
    // the commands the minibatch is all N = 100 pseudo-data (the old default; the derived
    // default is now 50), where the finite-population factor 1 − n/N is 0.
    let truth = |s: &str| Reference::exact(build_target("gaussian", &[("rho", "0.9"), ("grad_noise", s)]).exact_moments().unwrap());
    for s in ["0", "1"] {
        for sampler in ["sbps", "psbps"] {
            let settings = [("rho", "0.9"), ("grad_noise", s), ("batch_size", "100")];
            let r = run(config("gaussian", sampler, 7, &settings), steps(400_000), &truth(s));
            if s == "0" {
                assert_eq!(violations(&r.chain), 0.0, "{}: the band is the exact line", r.label);
            }
            assert_agrees(&r, &truth(s), sbps_allowance(&r.chain));
        }
        let refused = Chain::new(&config("gaussian", "lipsbps", 7, &[("grad_noise", s)])).err().unwrap();
        assert!(refused.contains("lipSBPS needs a global bound") && refused.contains("Pick"), "{refused}");
    }
}

// ---------------------------------------------------------------------------------------------
// Every pairing the page offers

/// Pairings refused by design, and why (each refusal message must also say what to pick).
fn expected_refusal(sampler: &str, target: &str) -> bool {
    match sampler {
        "bps" => matches!(target, "mixture" | "banana" | "hyperbola" | "multimodal" | "funnel"),
        "lipsbps" => !matches!(target, "logreg" | "logreg_dd" | "logreg_sgfs" | "logreg_heldout"),
        // Every target offers minibatches with noise at the default n < N (toys: pseudo-data).
        "sbps" | "psbps" => false,
        other => panic!("unexpected bouncy sampler {other}"),
    }
}

/// Pairings the long-run tests above already cover at the defaults (for at least 400,000 events).
fn covered_by_a_long_run(sampler: &str, target: &str) -> bool {
    target == "logreg_dd" && matches!(sampler, "sbps" | "psbps" | "lipsbps")
}

/// Targets with two symmetric (or nearly so) modes that a bouncy particle does not cross in
/// 200,000 events, and the half-plane that separates them, as `side(θ) > 0`: the hyperbola's
/// branches (w ↦ −w) and the modes (0, g), (g, −g) of the App. E toy (label swap fixes θ₂ = 0).
fn mode_split(target: &str) -> Option<fn(&[f64]) -> f64> {
    match target {
        "hyperbola" => Some(|w| w[0] + w[1]),
        "multimodal" | "mixture" => Some(|w| w[1]),
        _ => None,
    }
}

/// The target restricted to one side of its mode split (log π = −∞ elsewhere), for the grid truth.
struct HalfPlane<'a> {
    model: &'a dyn Model,
    side: fn(&[f64]) -> f64,
    sign: f64,
}

impl Model for HalfPlane<'_> {
    fn dim(&self) -> usize {
        self.model.dim()
    }
    fn n_data(&self) -> usize {
        self.model.n_data()
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        self.model.log_prior(theta)
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        self.model.add_grad_log_prior(theta, out)
    }
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        self.model.log_lik(i, theta)
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        self.model.add_grad_log_lik(i, theta, out)
    }
    fn log_density(&self, theta: &[f64]) -> f64 {
        if self.sign * (self.side)(theta) > 0.0 {
            self.model.log_density(theta)
        } else {
            f64::NEG_INFINITY
        }
    }
    fn view(&self) -> View {
        self.model.view()
    }
    fn truth_region(&self) -> View {
        self.model.truth_region()
    }
}

/// Every bouncy sampler on `target`: refused by design with a reason, or built and (unless a long
/// run above covers it) close to the truth. One test per target (below), so that the pairings run
/// side by side in nextest's two slots rather than as one test of ≈ 50 CPU s that sets the native
/// phase's tail (issue 23, BENCHMARKS.md "CI time").
fn every_bouncy_pairing_on(target: &str) {
    let bouncy: Vec<&str> = registry::SAMPLERS.iter().filter(|s| s.kind == SamplerKind::Bouncy).map(|s| s.name).collect();
    assert_eq!(bouncy, ["bps", "sbps", "psbps", "lipsbps"]);
    for &sampler in &bouncy {
        let built = Chain::new(&ChainConfig::new(target, sampler, 8));
        if expected_refusal(sampler, target) {
            let message = built.err().unwrap_or_else(|| panic!("{sampler} on {target} should be refused"));
            assert!(message.contains("cannot run") && message.contains("ick "), "{message}");
            continue;
        }
        assert!(built.is_ok(), "{sampler} on {target}: {}", built.err().unwrap());
        if covered_by_a_long_run(sampler, target) {
            continue;
        }
        pairing_agrees(sampler, target);
    }
}

/// The targets of the per-target tests below, in the registry's order.
const PAIRING_TARGETS: [&str; 11] = ["gaussian", "mixture", "banana", "hyperbola", "multimodal", "funnel", "logreg", "logreg_dd", "logreg_sgfs", "logreg_heldout", "linreg"];

#[test]
fn every_target_the_page_offers_has_its_bouncy_pairing_test() {
    let registered: Vec<&str> = registry::TARGETS.iter().map(|t| t.name).collect();
    assert_eq!(registered, PAIRING_TARGETS, "add a `every_bouncy_pairing_on_…` test for each new target");
}

macro_rules! pairing_tests {
    ($($name:ident => $target:literal),* $(,)?) => {$(
        #[test]
        fn $name() {
            every_bouncy_pairing_on($target);
        }
    )*};
}

pairing_tests! {
    every_bouncy_pairing_on_gaussian => "gaussian",
    every_bouncy_pairing_on_mixture => "mixture",
    every_bouncy_pairing_on_banana => "banana",
    every_bouncy_pairing_on_hyperbola => "hyperbola",
    every_bouncy_pairing_on_multimodal => "multimodal",
    every_bouncy_pairing_on_funnel => "funnel",
    every_bouncy_pairing_on_logreg => "logreg",
    every_bouncy_pairing_on_logreg_dd => "logreg_dd",
    every_bouncy_pairing_on_logreg_sgfs => "logreg_sgfs",
    every_bouncy_pairing_on_logreg_heldout => "logreg_heldout",
    every_bouncy_pairing_on_linreg => "linreg",
}

/// One pairing at its defaults, 200,000 events (lipSBPS: 2,000,000, see below; `make test` runs
/// half, [`pairing_events`]).
fn pairing_agrees(sampler: &str, target: &str) {
    let reference = default_reference(target);
    let exact = matches!(sampler, "bps" | "lipsbps");
    // lipSBPS's events are exact-thinning proposals at rate N·L (≈ 4,000–10,000 per unit time on
    // the logistic targets): 200,000 of them travel T ≈ 20–70, too little for any MCSE to mean
    // something; ten times as many do (each costs 10 gradients).
    let events = pairing_events(target, if sampler == "lipsbps" { 2_000_000 } else { 200_000 });
    let split = mode_split(target);
    let mut r = run_split(ChainConfig::new(target, sampler, 8), events, &reference, split.unwrap_or(|_| 1.0));
    let reference = match (split, r.sides) {
        // The particle kept to one mode for the whole run: compare with the truth of that mode
        // (the other is out of reach of a bouncy particle in 200,000 events).
        (Some(side), (true, false) | (false, true)) => {
            let model = build_target(target, &[]);
            let half = HalfPlane { model: model.as_ref(), side, sign: if r.sides.0 { 1.0 } else { -1.0 } };
            let truth = Reference::exact(grid_truth(&half, half.truth_region(), 800).moments.unwrap());
            r.batches = r.batches.recentred(&truth.moments.mean);
            r.label = format!("{} (one mode)", r.label);
            truth
        }
        _ => reference,
    };
    assert_agrees(&r, &reference, if exact { 0.0 } else { sbps_allowance(&r.chain) });
}

// ---------------------------------------------------------------------------------------------
// The "SBPS vs SGLD" preset for as long as five minutes in the page

#[test]
fn sbps_vs_sgld_preset_runs_as_long_as_five_minutes_in_the_page_without_runaway() {
    // www/presets.js `sbps-vs-sgld`: logreg with N = 1,000, k = 3, n = 100, 50 steps per frame:
    // 5 minutes at 60 frames per second are 900,000 steps. The page's Lab, with its truth (grid
    // quadrature) and runaway watch.
    let settings = [("n_points", "1000"), ("band_k", "3"), ("batch_size", "100")];
    let mut lab = Lab::new(config("logreg", "sbps", 1, &settings), 300, 300, 1.0).unwrap();
    let truth = Reference::exact(lab.truth().moments.clone().unwrap());
    assert_eq!(lab.truth().source, TruthSource::GridQuadrature);
    let mut batches = TimeBatchMeans::new(&truth.moments.mean, BATCHES, 1e-6);
    let total = steps(900_000);
    let mut done = 0;
    while done < total {
        done += lab.run_segments(50_000.min(total - done), &mut |s, v, t| batches.add_segment(s, v, t));
        assert!(lab.state()["runaway"].is_null(), "runaway after {done} steps: {}", lab.state()["runaway"]);
    }
    let state = lab.state();
    assert!(state["diverged"].is_null());
    // E2 = Σ|C − C*| / Σ|C*| within the sum of the entries' tolerances.
    let c = &truth.moments.cov;
    let z = bonferroni_z(2);
    let mut tolerance = 0.0;
    for j in 0..2 {
        for k in 0..2 {
            let (_, se) = batches.estimate(j.min(k), Some(j.max(k))).unwrap();
            tolerance += z * se + SBPS_BIAS * (c[j][j] * c[k][k]).sqrt();
        }
    }
    let denominator: f64 = c.iter().flatten().map(|x| x.abs()).sum();
    let e2 = state["e2"].as_f64().unwrap();
    eprintln!("sbps-vs-sgld preset: E2 {e2:.4} after {done} steps (tolerance {:.4})", tolerance / denominator);
    assert!(e2 <= tolerance / denominator, "E2 {e2} > {}", tolerance / denominator);
}
