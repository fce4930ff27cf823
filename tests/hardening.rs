//! Property-based hardening (issue 8): random parameter vectors through every registered sampler on
//! every registered target, through the same [`Lab`] the page drives — no panic, ever.
//!
//! Parameters are drawn within each `ParamSpec`'s range (log-uniform for log-scale ones, whole
//! numbers for integer ones, any index for choices), each hitting its min or max with probability
//! 0.2 each; every pair also runs the all-min and all-max vectors. `make test` runs one random
//! vector per pair, `make soak` two more (ignored tests, issue 23's CI budget: BENCHMARKS.md "CI
//! time, eighth round (native)"); `make test` runs each trial for [`CI_STEPS`] steps, `make soak`
//! (`SGVIZ_HARDENING=soak`) for [`SOAK_STEPS`], sized by when planted panics are hit (eleventh
//! round). One exception, for runtime
//! only: data-set sizes (`n_points`) are drawn from [min, 300] (per-step cost and data generation
//! and the page's truth quadrature grow with N; nothing in the code paths changes above that). After the build, live slider moves
//! (random in-range values, plus out-of-range, NaN and ±∞ values that must be refused with an
//! error) are applied between run chunks, and every read-out the page calls each frame is taken.
//! A `Diverged` status is fine; a panic is a failure, and so is a refused build of in-range
//! parameters unless it is a pairing refusal with a reason (never for SGLD, SGHMC, MALA, HMC), or an
//! in-range slider move the page's Lab refuses; at least 2 in 3 chains must build. Failures are
//! collected with the seed and the parameters, so one run reports them all.

use sgviz::chain::{Chain, ChainConfig};
use sgviz::lab::Lab;
use sgviz::params::ParamSpec;
use sgviz::registry::{SamplerSpec, TargetSpec, SAMPLERS, TARGETS};
use sgviz::rng::{chain_rng, index_below, uniform, ChainRng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// Largest data-set size drawn (runtime bound, see the module doc).
const MAX_POINTS: f64 = 300.0;
/// Steps per trial (`make soak`, `SGVIZ_HARDENING=soak`), in chunks with a live parameter change in
/// between; also bounded in work (per-datum gradient evaluations, deterministic whatever the
/// machine's load — never wall time): some extreme settings (1000 leapfrog steps on N data) cost
/// 10⁵–10⁶ evaluations a step.
const SOAK_STEPS: u64 = 120;
/// Steps per trial in `make test`, sized by measurement (issue 23, BENCHMARKS.md "CI time, eleventh
/// round"): with a panic planted where a bad state would cause one (a non-finite or runaway state,
/// which a read-out would turn into an index; a non-finite gradient or parameter inside a step),
/// every trial of the three `make test` draws that hit one did so by chain step 5 (the chain's loop),
/// or by step 4 of the 10 steps after the final reset (which this size does not change). 41 covers
/// 3 × 5 and keeps the Lab's loop the soak's first five chunks (1 + 4 × 10 steps): every live
/// slider move followed by a full chunk. Both loops are a prefix of the soak run (same seeds).
const CI_STEPS: u64 = 41;

/// Steps per trial: [`CI_STEPS`], or [`SOAK_STEPS`] under `SGVIZ_HARDENING=soak` (the same body).
fn steps() -> u64 {
    if std::env::var("SGVIZ_HARDENING").is_ok_and(|v| v == "soak") {
        SOAK_STEPS
    } else {
        CI_STEPS
    }
}
const CHUNK: u64 = 10;
const GRADIENT_BUDGET: u64 = 400_000;
/// Live slider moves per trial (each may rebuild the chain and derive its defaults again).
const SLIDER_MOVES: usize = 4;

#[derive(Clone, Copy)]
enum Draw {
    Random,
    AllMin,
    AllMax,
}

fn upper(spec: &ParamSpec) -> f64 {
    if spec.name == "n_points" {
        spec.max.min(MAX_POINTS)
    } else {
        spec.max
    }
}

/// Steps for the next chunk: [`CHUNK`], or fewer when the cost per step so far would take the
/// trial past [`GRADIENT_BUDGET`] (at least one).
fn chunk_within_budget(grad_evals: u64, steps: u64) -> u64 {
    let per_step = grad_evals / steps.max(1);
    (GRADIENT_BUDGET.saturating_sub(grad_evals) / per_step.max(1)).clamp(1, CHUNK)
}

/// One value in the spec's range.
fn draw_value(spec: &ParamSpec, how: Draw, rng: &mut ChainRng) -> f64 {
    let (lo, hi) = (spec.min, upper(spec));
    let edge = uniform(rng);
    let x = match how {
        Draw::AllMin => lo,
        Draw::AllMax => hi,
        Draw::Random if edge < 0.2 => lo,
        Draw::Random if edge < 0.4 => hi,
        Draw::Random if spec.log_scale && lo > 0.0 => (lo.ln() + uniform(rng) * (hi.ln() - lo.ln())).exp(),
        Draw::Random => lo + uniform(rng) * (hi - lo),
    };
    let x = if spec.integer { x.round() } else { x };
    let x = x.clamp(lo, hi);
    // An open lower end (SGLD's γ ∈ (0.5, 1]): the smallest value just inside it.
    if spec.min_exclusive && x <= lo {
        lo + 1e-9 * (hi - lo)
    } else {
        x
    }
}

/// Samplers with no premise on the target: every in-range build must succeed on every target.
const UNCONDITIONAL: &[&str] = &["sgld", "sghmc", "mala", "hmc"];

/// Checks what a trial built: a refusal of in-range parameters is only ever a pairing refusal
/// that names the pair and gives a reason; the unconditional samplers are never refused; and an
/// in-range sampler setting on a built Lab is always accepted. Returns the violations.
fn check_builds(target: &TargetSpec, sampler: &SamplerSpec, builds: &Builds, described: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    let pairing = format!("sampler '{}' cannot run on target '{}': ", sampler.name, target.name);
    for (what, outcome) in [("chain", &builds.chain), ("lab", &builds.lab)] {
        match outcome {
            None => wrong.push(format!("{described}: the {what} was never built")),
            Some(Ok(())) => {}
            Some(Err(e)) if UNCONDITIONAL.contains(&sampler.name) => wrong.push(format!("{described}: {what} refused: {e}")),
            Some(Err(e)) if !(e.starts_with(&pairing) && e.len() > pairing.len() + 20) => wrong.push(format!("{described}: {what} refused without a pairing reason: {e}")),
            Some(Err(_)) => {}
        }
    }
    if let (Some(Ok(())), Some(Err(e))) = (&builds.chain, &builds.lab) {
        // The full parameter set builds, so the same target with the sampler's defaults must too.
        if !e.starts_with(&pairing) {
            wrong.push(format!("{described}: chain built but lab refused: {e}"));
        }
    }
    // A live move may be refused only as the build with the same settings is (review s52: SBPS's
    // n → N ran live while the same full batch was refused at a rebuild).
    let build_refused = matches!(&builds.chain, Some(Err(e)) if e.starts_with(&pairing));
    for m in &builds.refused_moves {
        if !(build_refused && m.contains(&pairing)) {
            wrong.push(format!("{described}: in-range setting refused: {m}"));
        }
    }
    wrong
}

fn settings(specs: &[ParamSpec], how: Draw, rng: &mut ChainRng) -> Vec<(String, String)> {
    specs.iter().map(|s| (s.name.to_string(), format!("{:e}", draw_value(s, how, rng)))).collect()
}

/// Every per-frame read-out of the page, so that none of them can panic on odd states.
fn read_everything(lab: &mut Lab) {
    let _ = lab.state();
    let _ = lab.marginals();
    let _ = lab.render_density().len();
    let _ = lab.path();
    let _ = lab.trail(50);
    let _ = lab.sampler_ellipse();
    let _ = lab.position_pixel();
    let _ = lab.chain().diagnostics();
    let _ = lab.chain().moments();
}

/// A live slider move on a random sampler parameter: an in-range value must be accepted, an
/// out-of-range, NaN or ±∞ one refused.
fn random_slider_move(lab: &mut Lab, sampler: &SamplerSpec, rng: &mut ChainRng) {
    let spec = &sampler.params[index_below(rng, sampler.params.len())];
    let value = match index_below(rng, 6) {
        0 => f64::NAN,
        1 => f64::INFINITY,
        2 => f64::NEG_INFINITY,
        3 => spec.max * 2.0 + 1.0,
        _ => draw_value(spec, Draw::Random, rng),
    };
    let outcome = lab.set_param(spec.name, value);
    let valid = spec.check(value).is_ok();
    // An in-range value is accepted, or refused as its build would be: with the sampler's own
    // reason (SBPS on a noise-free target at n ≥ N, src/sampler/sbps/mod.rs `refusal`).
    let pairing = format!("sampler '{}' cannot run on target '", sampler.name);
    let refused_as_a_build = matches!(&outcome, Err(e) if valid && e.starts_with(&pairing));
    assert!(outcome.is_ok() == valid || refused_as_a_build, "set_param({}, {value}): {outcome:?}", spec.name);
}

/// What a trial built or refused: the chain with all parameters, the page's Lab with the target's
/// parameters only, and the in-range sampler settings the Lab refused.
#[derive(Default)]
struct Builds {
    chain: Option<Result<(), String>>,
    lab: Option<Result<(), String>>,
    refused_moves: Vec<String>,
}

/// One trial; returns Err(description) only for a panic.
///
/// (a) The chain is built with target and sampler parameters together (the build-time paths) and
/// run. (b) The page's Lab is built with the target parameters only — its truth (grid quadrature,
/// the expensive part) is then cached across the samplers of this target and draw — and the
/// sampler parameters are applied as live slider moves, as the page does.
fn trial(target: &TargetSpec, sampler: &SamplerSpec, target_settings: &[(String, String)], how: Draw, seed: u64, builds: &mut Builds) -> Result<(), String> {
    let mut rng = chain_rng(seed);
    let steps = steps();
    let sampler_settings = settings(sampler.params, how, &mut rng);
    let mut config = ChainConfig::new(target.name, sampler.name, seed);
    // Target and sampler parameter names are disjoint (a registry test checks it).
    config.settings = target_settings.iter().chain(&sampler_settings).cloned().collect();
    let described = format!("{} × {}, seed {seed}, settings {:?}", target.name, sampler.name, config.settings);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let built = Chain::new(&config);
        builds.chain = Some(built.as_ref().map(|_| ()).map_err(|e| e.clone()));
        if let Ok(mut chain) = built {
            // One step first: some extreme settings (1000 leapfrog steps on N data) cost 10⁵–10⁶
            // gradient evaluations a step, so later chunks are sized to what the budget has left.
            let mut chunk = 1;
            while chain.steps() < steps && chain.grad_evals() < GRADIENT_BUDGET && chain.run(chunk) == chunk {
                chunk = chunk_within_budget(chain.grad_evals(), chain.steps());
                let _ = (chain.diagnostics(), chain.moments(), chain.path().count(), chain.grad_evals_per_sample());
            }
        }
        let lab_config = ChainConfig { settings: target_settings.to_vec(), ..config.clone() };
        let lab = Lab::new(lab_config, 240, 200, 1.0);
        builds.lab = Some(lab.as_ref().map(|_| ()).map_err(|e| e.clone()));
        let Ok(mut lab) = lab else { return };
        for (name, value) in &sampler_settings {
            // In range by construction: a refusal is recorded and checked by the caller.
            if let Err(e) = lab.set_param(name, value.parse().unwrap()) {
                builds.refused_moves.push(format!("{name} = {value}: {e}"));
            }
        }
        // Work is counted across slider moves (a move may rebuild the chain and reset its counters).
        let (mut done, mut spent, mut moves) = (0, 0, 0);
        while done < steps && spent < GRADIENT_BUDGET {
            let chunk = if done == 0 { 1 } else { chunk_within_budget(spent, done) };
            let before = lab.chain().grad_evals();
            lab.run(chunk);
            done += chunk;
            spent += lab.chain().grad_evals().saturating_sub(before);
            read_everything(&mut lab);
            if moves < SLIDER_MOVES {
                random_slider_move(&mut lab, sampler, &mut rng);
                moves += 1;
            }
        }
        let _ = lab.advance_truth(50);
        let _ = lab.reset();
        lab.run(10);
        read_everything(&mut lab);
    }));
    outcome.map_err(|panic| {
        let message = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
        format!("{described}: {message}")
    })
}

/// Every target × sampler at one draw `k` of the plan (0: all-min, 1: all-max, 2, 3, 4:
/// random; the seeds depend on k only, so each draw is the same whichever test runs it). One test per
/// draw (below): the truths cached across samplers are per target and draw, so the split repeats no
/// work, and the draws run side by side in nextest's two slots instead of as one ≈ 55 CPU-s test
/// (issue 23, BENCHMARKS.md "CI time").
fn fuzz_draw(k: usize, how: Draw) {
    // Keep panic messages out of the test output; they are collected below.
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    let mut trials = 0;
    let mut chains_built = 0;
    let mut samplers_built = vec![false; SAMPLERS.len()];
    for (ti, target) in TARGETS.iter().enumerate() {
        let target_settings = settings(target.params, how, &mut chain_rng(1000 * ti as u64 + k as u64));
        for (si, sampler) in SAMPLERS.iter().enumerate() {
            let seed = 1000 * ti as u64 + 100 * si as u64 + k as u64;
            trials += 1;
            let t0 = Instant::now();
            let mut builds = Builds::default();
            if let Err(failure) = trial(target, sampler, &target_settings, how, seed, &mut builds) {
                failures.push(failure);
            }
            if builds.chain == Some(Ok(())) {
                chains_built += 1;
                samplers_built[si] = true;
            }
            failures.extend(check_builds(target, sampler, &builds, &format!("{} × {} draw {k}", target.name, sampler.name)));
            if std::env::var("HARDENING_BUILDS").is_ok() {
                eprintln!("{} {} {:?}: chain {:?} lab {:?} refused {:?}", target.name, sampler.name, k, builds.chain, builds.lab, builds.refused_moves);
            }
            if std::env::var("HARDENING_TIMES").is_ok() {
                eprintln!("{:.3} {} {} {seed}", t0.elapsed().as_secs_f64(), target.name, sampler.name);
            }
        }
    }
    let _ = std::panic::take_hook();
    assert!(failures.is_empty(), "{} failures in {trials} trials (panics or wrong refusals):\n{}", failures.len(), failures.join("\n"));
    // Most pairings run: a registry that refused every build would otherwise pass vacuously. Over
    // all five draws at least 2 in 3 chains built (the check before the split); per draw, at least
    // half, and every sampler on at least one target.
    assert!(chains_built * 2 >= trials, "draw {k}: only {chains_built} of {trials} chains built");
    let never: Vec<&str> = SAMPLERS.iter().zip(&samplers_built).filter(|(_, b)| !**b).map(|(s, _)| s.name).collect();
    assert!(never.is_empty(), "draw {k}: {never:?} built on no target");
}

#[test]
fn all_minimum_parameters_never_panic_on_any_sampler_or_target() {
    fuzz_draw(0, Draw::AllMin);
}

#[test]
fn all_maximum_parameters_never_panic_on_any_sampler_or_target() {
    fuzz_draw(1, Draw::AllMax);
}

#[test]
fn random_parameters_never_panic_on_any_sampler_or_target_draw_1() {
    fuzz_draw(2, Draw::Random);
}

/// The second and third random draws (`make soak`: `--include-ignored`). `make test` keeps all-min,
/// all-max and one random vector per pairing: every sampler × target × extreme is visited by the
/// all-min and all-max draws, and the random draw puts each parameter at its min or max with
/// probability 0.2 each, so over the 11 targets of one draw every parameter of every sampler is at
/// one of its ends 0.4 × 11 ≈ 4.4 times on average beside other parameters' inner values; the
/// further draws add no new kind of value, only more combinations (issue 23's CI budget).
#[test]
#[ignore = "make soak (scripts/soak.sh) runs it"]
fn random_parameters_never_panic_on_any_sampler_or_target_draw_2() {
    fuzz_draw(3, Draw::Random);
}

/// The third random draw (`make soak`, as draw 2 above).
#[test]
#[ignore = "make soak (scripts/soak.sh) runs it"]
fn random_parameters_never_panic_on_any_sampler_or_target_draw_3() {
    fuzz_draw(4, Draw::Random);
}

#[test]
fn invalid_values_are_refused_by_every_parameter() {
    // Every spec refuses NaN, ±∞ and values just outside its range; this is what keeps the page's
    // typed inputs and URL state from reaching the samplers.
    for spec in TARGETS.iter().flat_map(|t| t.params).chain(SAMPLERS.iter().flat_map(|s| s.params)) {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, spec.min - 1.0 - spec.min.abs(), spec.max + 1.0 + spec.max.abs()] {
            assert!(spec.check(bad).is_err(), "{} accepted {bad}", spec.name);
        }
        assert!(spec.check(spec.default).is_ok(), "{} refuses its default", spec.name);
    }
}
