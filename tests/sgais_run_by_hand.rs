//! The numbers one SGAIS run reports (src/sgais/run.rs; the page's log Ẑ curve, ESS, predicted
//! spread and cost), recomputed by the test after every annealing step from what the run exposes
//! before it: the particles, their log-weights and the chunk being annealed (issue 23, eleventh
//! pass). The test computes each particle's chunk log-likelihood L_i = Σ_{j∈C} ℓ_j(θ_i) from the
//! model's per-datum `log_lik`, and writes here log-mean-exp, the ESS (Σw)²/Σw² (docs/sgais.md
//! (SGAIS.3), (SGAIS.4)), the delta-method variance of log Ẑ, Σ over resampling epochs of
//! 1/ESS − 1/M (Chopin 2004; `ChunkRecord::log_z_var`), the counts of systematic resampling
//! (⌊M p_i⌋ or ⌈M p_i⌉ copies of particle i; Douc, Cappé & Moulines 2005) and the cost in datum
//! evaluations (M·|C| for the weights, |C| + |B| per SGHMC move, |B| only once there is a history).
//! Nothing is read from run.rs or annealing.rs. Linear regression, N = 30 data in 3 chunks of 10,
//! M = 8 particles, ESS* = 4: a few dozen annealing steps, < 1 s at opt-level 0.

use sgviz::params::ParamValues;
use sgviz::sgais::models::{evidence_target, EvidenceModel};
use sgviz::sgais::run::{ChunkRecord, RunStatus, SgaisRun};
use sgviz::sgais::{EtaScale, NoiseCorrection, Resampling, SgaisConfig};
use std::sync::Arc;
#[path = "common/scripted_1d.rs"]
mod scripted_1d;
use scripted_1d::{alternating, Scripted};

const N: usize = 30;
const CHUNK: usize = 10;
const M: usize = 8;
const TARGET_ESS: f64 = 4.0;
const BATCH: usize = 5;

fn model() -> Arc<dyn EvidenceModel> {
    let target = evidence_target("linreg").unwrap();
    let mut values = ParamValues::defaults(target.params);
    values.set(target.params, "n_points", N as f64).unwrap();
    (target.build)(&values, None).unwrap()
}

fn config(resampling: Resampling, moves: usize) -> SgaisConfig {
    let mut c = SgaisConfig::paper_defaults();
    c.particles = M;
    c.target_ess = TARGET_ESS;
    c.burn_in_steps = moves;
    c.batch_size = BATCH;
    c.chunk_size = CHUNK;
    c.eta_scale = EtaScale::Seen;
    c.noise_correction = NoiseCorrection::Fixed(0.0);
    c.resampling = resampling;
    c.reservoir_size = 0; // the full history
    c.reseed_components = false;
    c.surprise_boost = None;
    c
}

fn log_mean_exp(x: &[f64]) -> f64 {
    let top = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    top + (x.iter().map(|v| (v - top).exp()).sum::<f64>() / x.len() as f64).ln()
}

fn ess(log_w: &[f64]) -> f64 {
    let top = log_w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let w: Vec<f64> = log_w.iter().map(|v| (v - top).exp()).collect();
    w.iter().sum::<f64>().powi(2) / w.iter().map(|v| v * v).sum::<f64>()
}

/// One annealing step as the test saw it.
struct Step {
    range: std::ops::Range<usize>,
    lambda: f64,
    delta: f64,
    particles: Vec<Vec<f64>>,
    /// L_i at the particles before the step.
    chunk_ll: Vec<f64>,
    /// The log-weights after the reweighting w_i ← w_i e^{Δ L_i}, before any resampling.
    reweighted: Vec<f64>,
    after_particles: Vec<Vec<f64>>,
    after_weights: Vec<f64>,
    evals: u64,
    record: Option<ChunkRecord>,
}

/// Drive the run one annealing step per `advance(1)` (its budget is ≥ M per step) to the end.
fn steps(model: &Arc<dyn EvidenceModel>, config: SgaisConfig, seed: u64) -> Vec<Step> {
    let mut run = SgaisRun::new(model.clone(), config, N, seed);
    let mut out = Vec::new();
    while run.status() == &RunStatus::Running {
        let (range, lambda) = run.annealing_state().unwrap_or((run.processed()..(run.processed() + CHUNK).min(N), 0.0));
        let particles = run.particles().to_vec();
        let weights = run.log_weights().to_vec();
        let evals = run.datum_evals();
        let mut records = run.advance(1);
        assert!(records.len() <= 1, "one annealing step per call of advance(1)");
        let record = records.pop();
        let lambda_after = if record.is_some() { 1.0 } else { run.annealing_state().unwrap().1 };
        let chunk_ll: Vec<f64> = particles.iter().map(|p| range.clone().map(|j| model.log_lik(j, p)).sum()).collect();
        let delta = lambda_after - lambda;
        let reweighted = weights.iter().zip(&chunk_ll).map(|(w, l)| w + delta * l).collect();
        out.push(Step {
            range,
            lambda,
            delta,
            particles,
            chunk_ll,
            reweighted,
            after_particles: run.particles().to_vec(),
            after_weights: run.log_weights().to_vec(),
            evals: run.datum_evals() - evals,
            record,
        });
        assert!(out.len() < 10_000, "the run does not finish");
    }
    assert_eq!(run.status(), &RunStatus::Finished);
    out
}

fn close(a: f64, b: f64, tol: f64, what: &str) {
    assert!((a - b).abs() <= tol * (1.0 + b.abs()), "{what}: {a} vs {b} (by hand)");
}

/// Without resampling: the weights are the running sum of Δ·L_i, every step's incremental ESS is
/// ESS* (or more, on the step that ends the chunk at λ = 1), and each chunk's record states log Ẑ,
/// the weights' ESS, the smallest step ESS, 1/ESS − 1/M, the step count, the checkpoint and the
/// exact log Z there; the cost is M·|C| + M·K·(|C| + |B|·[history]) per step after a chunk's first.
#[test]
fn without_resampling_every_record_is_the_hand_computed_sum_of_the_increments() {
    let model = model();
    let moves = 2;
    let all = steps(&model, config(Resampling::Off, moves), 5);
    let (mut chunk_steps, mut min_step_ess, mut chunks) = (0, f64::INFINITY, 0);
    for (k, s) in all.iter().enumerate() {
        for (a, b) in s.after_weights.iter().zip(&s.reweighted) {
            close(*a, *b, 1e-9, &format!("log-weight after step {k}"));
        }
        let step_ess = ess(&s.chunk_ll.iter().map(|l| s.delta * l).collect::<Vec<_>>());
        assert!(s.delta > 0.0, "step {k}: Δ = {}", s.delta);
        if s.record.is_some() && (s.lambda + s.delta - 1.0).abs() < 1e-12 && step_ess > TARGET_ESS * (1.0 + 1e-6) {
            // the step that took the whole remaining 1 − λ
        } else {
            close(step_ess, TARGET_ESS, 1e-6, &format!("incremental ESS of step {k} (λ = {})", s.lambda));
        }
        chunk_steps += 1;
        min_step_ess = min_step_ess.min(step_ess);
        let history = s.range.start;
        let per_step = (M * s.range.len() + M * moves * (s.range.len() + if history > 0 { BATCH } else { 0 })) as u64;
        if s.lambda > 0.0 || history == 0 {
            assert_eq!(s.evals, per_step, "datum evaluations of step {k} (λ = {}, history {history})", s.lambda);
        } else {
            assert!(s.evals > per_step, "a chunk's first step also estimates the gradient noise: {} vs {per_step}", s.evals);
        }
        if let Some(r) = &s.record {
            chunks += 1;
            assert_eq!((r.n, r.annealing_steps), (s.range.end, chunk_steps), "chunk {chunks}");
            close(r.log_z, log_mean_exp(&s.reweighted), 1e-9, "log Ẑ");
            let e = ess(&s.reweighted);
            close(r.ess, e, 1e-9, "ESS of the weights");
            close(r.min_step_ess, min_step_ess, 1e-9, "smallest step ESS");
            close(r.log_z_var, 1.0 / e - 1.0 / M as f64, 1e-9, "predicted variance of log Ẑ (one epoch)");
            let exact = model.exact_log_evidence_curve(&[r.n]).unwrap()[0];
            close(r.exact_log_z.unwrap(), exact, 1e-9, "exact log Z at the checkpoint");
            (chunk_steps, min_step_ess) = (0, f64::INFINITY);
        }
    }
    assert_eq!(chunks, N / CHUNK);
    assert!(all.len() >= 2 * chunks, "{} steps: the target ESS never bound", all.len());
}

/// The first chunk's ESS* is raised to the configured share of M (docs/sgais.md §15): with share
/// 3/4 of M = 8 every step of the first chunk that did not take the whole remaining 1 − λ has
/// incremental ESS 6 (computed here from Δ and L_i), and every later chunk's steps ESS* = 4
/// (stop 52: `chunk.range.start == 0` → `!=` swaps the two, `share · M` → `share / M` gives 4).
#[test]
fn the_first_chunk_anneals_at_its_share_of_m_and_the_rest_at_ess_star() {
    let model = model();
    let mut c = config(Resampling::Off, 2);
    c.first_chunk_ess_share = 0.75;
    let all = steps(&model, c, 5);
    let mut bound = [0, 0];
    for (k, s) in all.iter().enumerate() {
        let step_ess = ess(&s.chunk_ll.iter().map(|l| s.delta * l).collect::<Vec<_>>());
        let first = s.range.start == 0;
        let expected = if first { 6.0 } else { TARGET_ESS };
        let took_the_rest = s.record.is_some() && (s.lambda + s.delta - 1.0).abs() < 1e-12;
        if took_the_rest && step_ess > expected * (1.0 + 1e-6) {
            continue;
        }
        close(step_ess, expected, 1e-6, &format!("incremental ESS of step {k} (chunk at {}, λ = {})", s.range.start, s.lambda));
        bound[usize::from(!first)] += 1;
    }
    assert!(bound[0] >= 2 && bound[1] >= 2, "steps where ESS* bound (first chunk, later ones): {bound:?}");
}

/// Resampling at every step, with no SGHMC moves (K = 0), so the particles after a step are the
/// resampled copies of those before it: particle i (or each group of equal particles) gets
/// ⌊M p_i⌋ or ⌈M p_i⌉ copies with p_i ∝ e^{Δ L_i}; every weight is then the mean weight, log Ẑ
/// is unchanged, and the predicted variance adds 1/ESS − 1/M of every step's weights.
#[test]
fn resampling_every_step_copies_each_particle_by_its_weight_and_adds_each_epochs_variance() {
    let model = model();
    for seed in [2, 9] {
        let all = steps(&model, config(Resampling::Always, 0), seed);
        let mut predicted = 0.0;
        for (k, s) in all.iter().enumerate() {
            let mean = log_mean_exp(&s.reweighted);
            for w in &s.after_weights {
                close(*w, mean, 1e-9, &format!("seed {seed}, step {k}: weight after resampling"));
            }
            predicted += 1.0 / ess(&s.reweighted) - 1.0 / M as f64;
            let p: Vec<f64> = s.reweighted.iter().map(|w| (w - mean).exp() / M as f64).collect();
            let mut seen = vec![false; M];
            for i in 0..M {
                if seen[i] {
                    continue;
                }
                let group: Vec<usize> = (i..M).filter(|&j| s.particles[j] == s.particles[i]).collect();
                group.iter().for_each(|&j| seen[j] = true);
                let low: f64 = group.iter().map(|&j| (M as f64 * p[j] - 1e-9).floor()).sum();
                let high: f64 = group.iter().map(|&j| (M as f64 * p[j] + 1e-9).ceil()).sum();
                let copies = s.after_particles.iter().filter(|a| **a == s.particles[i]).count() as f64;
                assert!(copies >= low && copies <= high, "seed {seed}, step {k}: {copies} copies of particle {i}, expected {low}..={high}");
            }
            assert!(s.after_particles.iter().all(|a| s.particles.contains(a)), "resampling made a new particle");
            if let Some(r) = &s.record {
                close(r.log_z, mean, 1e-9, "log Ẑ");
                close(r.log_z_var, predicted, 1e-9, &format!("seed {seed}: predicted variance summed over {} epochs", k + 1));
            }
        }
    }
}

/// `when_low` resamples exactly when the ESS of the accumulated weights is below ESS*, and the
/// predicted variance is the sum over the resampled epochs plus the current epoch's 1/ESS − 1/M.
#[test]
fn resampling_when_low_resamples_below_the_target_and_sums_the_epochs() {
    let model = model();
    let (mut resampled, mut kept) = (0, 0);
    for seed in [1, 4] {
        let mut closed = 0.0;
        for (k, s) in steps(&model, config(Resampling::WhenLow, 1), seed).iter().enumerate() {
            let e = ess(&s.reweighted);
            let equal = s.after_weights.iter().all(|w| (w - s.after_weights[0]).abs() < 1e-9 * (1.0 + w.abs()));
            if (e - TARGET_ESS).abs() > 1e-6 * TARGET_ESS {
                assert_eq!(equal, e < TARGET_ESS, "seed {seed}, step {k}: ESS {e} of the weights, resampled {equal}");
                if e < TARGET_ESS {
                    resampled += 1;
                } else {
                    kept += 1;
                }
            }
            if equal {
                closed += 1.0 / e - 1.0 / M as f64;
            } else {
                for (a, b) in s.after_weights.iter().zip(&s.reweighted) {
                    close(*a, *b, 1e-9, "weights kept");
                }
            }
            if let Some(r) = &s.record {
                close(r.log_z, log_mean_exp(&s.reweighted), 1e-9, "log Ẑ");
                close(r.log_z_var, closed + 1.0 / ess(&s.after_weights) - 1.0 / M as f64, 1e-9, "predicted variance");
            }
        }
    }
    assert!(resampled > 0 && kept > 0, "both branches seen: {resampled} resampled, {kept} kept");
}

/// The chunk ends min(k·chunk, N): 25 data in chunks of 10 end at 10, 20, 25.
#[test]
fn checkpoints_are_multiples_of_the_chunk_then_n() {
    use sgviz::sgais::run::checkpoints;
    assert_eq!(checkpoints(25, 10), vec![10, 20, 25]);
    assert_eq!(checkpoints(30, 10), vec![10, 20, 30]);
    assert_eq!(checkpoints(3, 0), vec![1, 2, 3], "a chunk of 0 is a chunk of 1");
}

/// A half-line likelihood for the resampling threshold (issue 23, twelfth pass): ℓ_j(θ) = 0 for
/// θ > 0 and −∞ otherwise (2 data); the prior sampler hands out +1, −1, +1, … so that exactly half
/// of the M particles survive the chunk.
fn half_line() -> Scripted {
    Scripted::new(2, |t| if t > 0.0 { 0.0 } else { f64::NEG_INFINITY }, alternating)
}

/// ℓ ≡ 0 (4 data); the prior sampler hands out 0.5, −1, 1.5, −2, ….
fn flat() -> Scripted {
    let draw = |k: usize| {
        let k = k as f64;
        if k % 2.0 == 0.0 { 0.5 * (k + 1.0) } else { -0.5 * (k + 1.0) }
    };
    Scripted::new(4, |_| 0.0, draw)
}

/// `when_low` resamples when the ESS falls BELOW ESS* (docs/sgais.md, "Optional resampling").
/// By hand: one chunk of 2 data, M = 8, no moves; the 4 particles at −1 get weight 0 and the 4
/// at +1 weight 1 (Δ = 1 in one step: the survivors' incremental ESS 4 meets ESS*·4/8), so the
/// ESS is 4²/4 = 4 exactly. With ESS* = 4 that is not below: the particles and the weights
/// (0, −∞, …) stay. With ESS* = 5 it is: every particle becomes a copy of +1 and every weight
/// the mean weight 1/2. log Ẑ = log(4/8) either way.
#[test]
fn when_low_does_not_resample_at_an_ess_equal_to_the_target() {
    for (target, resampled) in [(4.0, false), (5.0, true)] {
        let model: Arc<dyn EvidenceModel> = Arc::new(half_line());
        let mut c = config(Resampling::WhenLow, 0);
        c.chunk_size = 2;
        c.target_ess = target;
        let mut run = SgaisRun::new(model, c, 2, 3);
        let log_z = run.run_to_end().last().unwrap().log_z;
        assert_eq!(run.status(), &RunStatus::Finished);
        close(log_z, -(2f64.ln()), 1e-12, "log Ẑ");
        let (particles, weights) = (run.particles().to_vec(), run.log_weights().to_vec());
        for i in 0..M {
            let (p, w) = if resampled { (1.0, -(2f64.ln())) } else if i % 2 == 0 { (1.0, 0.0) } else { (-1.0, f64::NEG_INFINITY) };
            assert_eq!(particles[i], vec![p], "ESS* = {target}: particle {i}");
            assert!(w == weights[i] || (w - weights[i]).abs() < 1e-12, "ESS* = {target}: weight {i} is {}, by hand {w}", weights[i]);
        }
    }
}

/// Issue 23, fourteenth pass: the page's work budget. `advance(b)` does annealing steps until at
/// least b particle-SGHMC moves are spent, M·K per step (M = 8, K = 2: 16), so b = 16 is one step,
/// 17 two, 48 three, 49 four (⌈b/16⌉). The steps are recognised by the state (particles and
/// weights) a run of the same seed reaches after that many `advance(1)` calls.
#[test]
fn advance_spends_its_budget_in_whole_steps_of_m_times_k_moves() {
    let model = model();
    let mut reference = SgaisRun::new(model.clone(), config(Resampling::Off, 2), N, 5);
    let mut states = vec![(reference.particles().to_vec(), reference.log_weights().to_vec())];
    for _ in 0..5 {
        reference.advance(1);
        states.push((reference.particles().to_vec(), reference.log_weights().to_vec()));
    }
    for (budget, by_hand) in [(16, 1), (17, 2), (48, 3), (49, 4)] {
        let mut run = SgaisRun::new(model.clone(), config(Resampling::Off, 2), N, 5);
        run.advance(budget);
        let state = (run.particles().to_vec(), run.log_weights().to_vec());
        let done = states.iter().position(|s| *s == state);
        assert_eq!(done, Some(by_hand), "advance({budget}) did {done:?} annealing steps, by hand ⌈{budget}/16⌉ = {by_hand}");
    }
}

/// A flat likelihood (ℓ ≡ 0) under a N(0, 1) prior: every chunk takes one annealing step (all
/// weights equal), log Ẑ = 0. With the noise estimate β̂ equal to the friction α SGHMC injects no
/// noise, so one move is v ← (1 − α)v − ηθ, θ ← θ + v: the velocity after a step is the move
/// θ_b − θ_a. When η changes between chunks (η = lr/end: 0.1/2, then 0.1/4) the run keeps the
/// velocities at their N(0, η I) scale, v ← v·√(η₂/η₁), so the next move is
/// θ_c − θ_b = (1 − α)·√(η₂/η₁)·(θ_b − θ_a) − η₂ θ_b.
#[test]
fn a_change_of_learning_rate_rescales_the_velocities_by_its_square_root() {
    let model: Arc<dyn EvidenceModel> = Arc::new(flat());
    let mut c = config(Resampling::Off, 1);
    c.particles = 4;
    c.chunk_size = 2;
    c.target_ess = 2.0;
    c.noise_correction = NoiseCorrection::Fixed(c.friction);
    let (alpha, eta1, eta2) = (c.friction, c.learning_rate / 2.0, c.learning_rate / 4.0);
    let mut run = SgaisRun::new(model, c, 4, 11);
    let a = run.particles().to_vec();
    let first = run.advance(1);
    let b = run.particles().to_vec();
    let second = run.advance(1);
    let cc = run.particles().to_vec();
    assert_eq!((first.len(), second.len()), (1, 1), "one annealing step per chunk of a flat likelihood");
    assert_eq!((first[0].log_z, second[0].log_z), (0.0, 0.0));
    close(second[0].learning_rate, eta2, 1e-12, "η of the second chunk");
    for i in 0..4 {
        let (ta, tb, tc) = (a[i][0], b[i][0], cc[i][0]);
        assert!((tb - ta).abs() > 1e-3, "particle {i} moved in the first step");
        let by_hand = tb + (1.0 - alpha) * (eta2 / eta1).sqrt() * (tb - ta) - eta2 * tb;
        close(tc, by_hand, 1e-12, &format!("particle {i} after the η change"));
    }
}


/// The surprise rule's extra work (docs/sgais.md (SGAIS.19)): the first chunk (n = 0) is always
/// surprising (threshold 0; the prior draws' L_i differ). With a boost of ESS fraction 0.75 and 3×
/// the moves, its steps aim at an incremental ESS of 0.75·8 = 6 and cost M·|C| + M·(3K)·|C|
/// datum evaluations (K = 2, |C| = 10, no history: 80 + 480 = 560), and its record says boosted.
/// Without a boost the same chunk is judged surprising but not boosted. The rule is judged once
/// per chunk, at its start.
#[test]
fn a_boosted_first_chunk_gets_the_raised_ess_and_three_times_the_moves() {
    let model = model();
    let mut c = config(Resampling::Off, 2);
    c.surprise_boost = Some(sgviz::sgais::surprise::SurpriseBoost { ess_fraction: 0.75, move_factor: 3, reseed: false });
    let all = steps(&model, c, 5);
    let first: Vec<&Step> = all.iter().take_while(|s| s.range.start == 0).collect();
    assert!(first.len() >= 2, "the first chunk took {} steps", first.len());
    for (k, s) in first.iter().enumerate() {
        assert_eq!(s.evals, 560, "datum evaluations of the boosted chunk's step {k}");
        if s.record.is_none() {
            close(ess(&s.chunk_ll.iter().map(|l| s.delta * l).collect::<Vec<_>>()), 6.0, 1e-6, &format!("incremental ESS of step {k}"));
        }
    }
    assert!(first.last().unwrap().record.as_ref().unwrap().boosted, "the first chunk's record says boosted");
    let mut run = SgaisRun::new(model.clone(), config(Resampling::Off, 2), N, 5);
    let records = run.run_to_end().to_vec();
    assert!(records.iter().all(|r| !r.boosted), "no boost configured, no chunk boosted");
    let seen: Vec<(usize, f64)> = run.surprises().iter().map(|s| (s.n, s.threshold)).collect();
    assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), vec![10, 20, 30], "judged once per chunk");
    assert!(run.surprises()[0].surprising && seen[0].1 == 0.0, "the first chunk is surprising");
}

/// A chunk log-likelihood of +∞ at a particle stops the run with a message naming the particle
/// and the data count (as NaN does): ℓ = +∞ for θ > 0; the prior hands out +1 first.
#[test]
fn an_infinite_chunk_log_likelihood_stops_the_run_naming_the_particle() {
    let mut c = config(Resampling::Off, 0);
    c.chunk_size = 2;
    let mut run = SgaisRun::new(Arc::new(Scripted::new(2, |t| if t > 0.0 { f64::INFINITY } else { 0.0 }, |_| 1.0)), c, 2, 1);
    assert!(run.run_to_end().is_empty());
    assert_eq!(run.status(), &RunStatus::Diverged("particle 0: chunk log-likelihood is inf at n = 2".into()));
}
