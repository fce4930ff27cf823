//! Where a law's number may be shown (issue 21, docs/diagnostics.md §7, "validity region"): the
//! stationary law of src/law.rs is a statement about the chain after it has forgotten its start,
//! on the Gaussian the law was linearised on. One rule decides when its numbers (the bias "E2
//! stays at b", the error after 5,000 samples) describe what a run shows:
//!
//! - **(V1) a stationary law exists**: the recursion's spectral radius ρ(A) is not 1 within
//!   [`MARGINAL`] (above it the chain diverges, which the Lyapunov solve reports).
//!   At ρ(A) = 1 (SGHMC without friction: A is symplectic, nothing damps the momentum) the Lyapunov
//!   solve returns rounding noise (7·10¹² on the Gaussian toy) while the runs' spread grows with
//!   their length (E2 2.2 at 5,000 samples, 139–173 at 200,000): no number is a law.
//! - **(V2) a run reaches it**: from a start at the posterior mean (x₀ = 0, momentum 0), the
//!   expected second moment of samples 1..T about the mean is E[Ĉ_T] = C − (Σ_{t=1..T} A^t M A^tᵀ)_θθ/T,
//!   the sum being S_T − M + A^T M A^Tᵀ with S_T = Σ_{t<T} A^t M A^tᵀ the solution of
//!   S − ASAᵀ = M − A^T M A^Tᵀ: one Lyapunov solve (the sample covariance is lower still, by Var(x̄)). Where E2(E[Ĉ_T]) against the law itself exceeds [`crate::defaults::BIAS_E2`]
//!   at T = 5,000, a run of 5,000 samples shows its start, not the law (the SGFS ridge at 10⁶ on
//!   the Gaussian toy relaxes over 10⁷ steps: every run's E2 ≈ 1.00, the law's 0.273); such a
//!   setting is a mixing failure wherever E2(E[Ĉ_T]) against the truth exceeds 0.3.
//! - **(V3) the chain stays where the summary holds**: a law on a target's Gaussian summary (not
//!   exact) is linearised at the summary's mean with F and the curvature taken there; it describes
//!   the chain only while the chain's spread is the posterior's to within the bias tolerance, so
//!   that the positions it visits are those the summary describes. A law wider than that predicts
//!   a bias but not its size: F where the chain goes differs from F at the mean (measured: F
//!   averaged over the law's own Gaussian moves the mixture × SGHMC law at n = 10 from 0.128 to
//!   0.67, the runs give 0.37–0.39; at n = 1 from 1.4 to 12, runs 8.3–8.5; logreg_dd × SGLD at
//!   n = 1 from 3.4 to 534, runs 1,100–1,300).
//!
//! - **(V0) it samples at all**: an update with no noise — no injected noise (SGFS at α = 0,
//!   SGHMC at β̂ = friction) and no gradient noise (minibatch n = N, no synthetic noise) — is a
//!   deterministic map: an optimiser that walks to the mode and stays there, the same path for
//!   every seed (logreg_dd × SGFS-f at n = N, α = 0: every seed E2 0.759 at 5,000 samples, 0.766 at
//!   200,000). Its "law" is a point; the warning says it does not sample and names the slider that
//!   adds noise ([`NOT_SAMPLING`]).
//!
//! Implemented here; used by src/promise.rs `Predictor::predict` and src/promise_live.rs.

use crate::defaults::{BIAS_E2, E2_CLAIM};
use crate::linalg::stationary_covariance;
use nalgebra::DMatrix;

/// (V3): whether a law of covariance `cov` leaves the summary of covariance `summary_cov` it was
/// linearised on: E2 between them above the bias tolerance.
pub fn leaves_summary(cov: &DMatrix<f64>, summary_cov: &DMatrix<f64>) -> bool {
    e2(cov, summary_cov) > BIAS_E2
}

/// Why the page draws no predicted ellipse where V3 holds (src/promise.rs `drawn_law`).
pub const OUTSIDE_SUMMARY: &str = "no predicted law drawn: at these settings the linearised law's spread leaves the region where the target's Gaussian summary describes it, so its ellipse would not be a prediction (docs/diagnostics.md §7, V3)";

/// Why a noiseless update has no law (V0): the text of the setting warning after its remedy.
pub const NOT_SAMPLING: &str = "not sampling at these settings: with no injected noise and no gradient noise every step is deterministic, so it is an optimiser, not a sampler: it walks to the mode and stays there, the same for every seed";

/// (V0): whether an update's noise covariance `noise` is zero: every entry within 10⁻³⁰ of the
/// posterior scale the summary's `precision` gives (its largest 1/P_aa), i.e. zero but for
/// rounding. The noiseless settings are exact zeros (α = 0 and N/n − 1 = 0; β̂ clamped to the
/// friction). A tiny but nonzero noise is not this case: SGFS at ridge 10⁶ scales the gradient
/// noise by (N·Î + λ)⁻² ≈ 10⁻¹² (logreg_dd: every run frozen at E2 1.000, a chain that does not
/// move within 5,000 steps: V2 names its relaxation time; a 10⁻¹² threshold here had called it an
/// optimiser, untrue: its steps are random, only short).
pub fn is_noiseless(noise: &DMatrix<f64>, precision: &DMatrix<f64>) -> bool {
    let scale = precision.diagonal().iter().map(|p| 1.0 / p).filter(|v| v.is_finite()).fold(0.0, f64::max);
    noise.iter().all(|q| q.abs() <= 1e-30 * scale)
}

/// ρ(A) within this of 1 is marginal: no stationary law (V1).
pub const MARGINAL: f64 = 1e-12;

/// What a law's numbers may say at a setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Validity {
    /// The law describes a run of the reference length: its numbers may be printed.
    Valid,
    /// (V2) A run of the reference length has not spread to the law: `start_e2` is E2 of the
    /// expected second moment of such a run against the truth, and
    /// `relaxation` the slowest mode's time constant in steps.
    NotReached { relaxation: f64, start_e2: f64 },
    /// (V3) The law is wider (or narrower) than the posterior by more than the tolerance on a
    /// summary that is not exact: a bias, of a size no law here gives.
    OutsideSummary,
}

/// The slowest mode's time constant −1/ln ρ(A) in steps (∞ at ρ ≥ 1).
pub fn relaxation_steps(transition: &DMatrix<f64>) -> f64 {
    let rho = spectral_radius(transition);
    if rho >= 1.0 {
        f64::INFINITY
    } else {
        -1.0 / rho.ln()
    }
}

/// ρ(A): the largest eigenvalue modulus; ∞ for a matrix with a non-finite entry (a law at a
/// slider's far end can overflow). The Schur iteration is bounded: nalgebra's unbounded one never
/// returns on such a matrix (issue 23: hardening's all-maximum draw hung there). Where the bounded
/// iteration does not converge, Gelfand's formula ρ(A) = lim ‖A^k‖^{1/k} at k = 2¹⁰, by rescaled
/// squaring, stands in.
///
/// Memoised on the matrix's shape and entries' bits ([`RADIUS_MEMO`] most recent): a remedy search
/// builds the same candidate's law several times (the warning at a chain's start, again at each
/// slider move, V1 and V2's relaxation time on one transition), and where the Schur iteration does
/// not converge one radius costs its 10,000 iterations (issue 23, BENCHMARKS.md "CI time, fifteenth
/// round": 86 % of hardening draw 1's radii were repeats). The value is a pure function of the key,
/// so a hit returns exactly what the computation would.
pub fn spectral_radius(transition: &DMatrix<f64>) -> f64 {
    if transition.iter().any(|x| !x.is_finite()) {
        return f64::INFINITY;
    }
    let key: Vec<u64> = [transition.nrows() as u64, transition.ncols() as u64].into_iter().chain(transition.iter().map(|x| x.to_bits())).collect();
    RADII.with(|memo| memo.borrow_mut().get(&key)).unwrap_or_else(|| {
        let rho = schur_radius(transition);
        RADII.with(|memo| memo.borrow_mut().insert(key, rho));
        rho
    })
}

/// ρ(A) of a finite matrix by the bounded Schur iteration, Gelfand's formula where it does not
/// converge ([`spectral_radius`] without its memo). Entries beyond ±1e100 (or below 1e-100) are
/// scaled first, ρ(sA) = |s|·ρ(A): unscaled, the iteration's moduli overflow to NaN and the
/// radius read 0, "settles at once" (mutants helper, stop 46: s·[[1,2],[3,4]] at s ≥ 1e154).
pub fn schur_radius(transition: &DMatrix<f64>) -> f64 {
    let largest = transition.amax();
    if !largest.is_finite() {
        return f64::INFINITY;
    }
    if largest > 0.0 && !(1e-100..=1e100).contains(&largest) {
        return largest * unscaled_schur_radius(&(transition / largest));
    }
    unscaled_schur_radius(transition)
}

fn unscaled_schur_radius(transition: &DMatrix<f64>) -> f64 {
    match nalgebra::Schur::try_new(transition.clone(), f64::EPSILON, SCHUR_ITERATIONS) {
        Some(schur) => schur.complex_eigenvalues().iter().map(|z| z.norm()).fold(0.0, f64::max),
        None => gelfand_radius(transition),
    }
}

/// Radii [`spectral_radius`] keeps, the least recently used dropped first: on hardening draw 1's
/// 63,485 radii (8,820 distinct), 256 kept leave 28.5 of the 109 s of Schur iterations, all kept
/// 27.3 (BENCHMARKS.md "CI time, fifteenth round").
pub const RADIUS_MEMO: usize = 256;

thread_local! {
    static RADII: std::cell::RefCell<RecentRadii> = std::cell::RefCell::new(RecentRadii::default());
}

/// The last [`RADIUS_MEMO`] radii computed on this thread, by key, with when each was last used.
#[derive(Default)]
struct RecentRadii {
    entries: std::collections::HashMap<Vec<u64>, (f64, u64)>,
    clock: u64,
}

impl RecentRadii {
    fn get(&mut self, key: &[u64]) -> Option<f64> {
        self.clock += 1;
        let clock = self.clock;
        self.entries.get_mut(key).map(|(rho, used)| {
            *used = clock;
            *rho
        })
    }

    fn insert(&mut self, key: Vec<u64>, rho: f64) {
        if self.entries.len() >= RADIUS_MEMO {
            if let Some(oldest) = self.entries.iter().min_by_key(|(_, (_, used))| *used).map(|(k, _)| k.clone()) {
                self.entries.remove(&oldest);
            }
        }
        self.clock += 1;
        self.entries.insert(key, (rho, self.clock));
    }
}

/// Iterations the Schur decomposition may take before [`gelfand_radius`] stands in.
const SCHUR_ITERATIONS: usize = 10_000;

/// ‖A^k‖^{1/k} at k = 2¹⁰ (Frobenius norm), squaring a copy rescaled to norm 1 at each step so
/// that nothing overflows: log ρ ≈ Σ_j log‖B_j‖ / 2^{10−j} over the rescaled squares B_j.
fn gelfand_radius(transition: &DMatrix<f64>) -> f64 {
    let mut power = transition.clone();
    let mut log_rho = 0.0;
    for j in 0..10 {
        let norm = power.norm();
        if norm == 0.0 {
            return 0.0;
        }
        log_rho += norm.ln() / f64::from(1u32 << j);
        power /= norm;
        power = &power * &power;
    }
    (log_rho + power.norm().ln() / 1024.0).exp()
}

/// (V1): whether the recursion is marginal, ρ(A) = 1 within [`MARGINAL`]: neither settling nor
/// diverging (ρ(A) > 1, which the Lyapunov solve reports as divergence, is not this case).
///
/// ‖A^k‖^{1/k} ≥ ρ(A) for every k (the Frobenius norm is submultiplicative), so a law whose
/// [`gelfand_radius`] is below 1 − 10⁻⁶ settles and needs no Schur decomposition: the common case,
/// at a tenth of its cost (a remedy search predicts dozens of laws).
pub fn is_marginal(transition: &DMatrix<f64>) -> bool {
    if transition.iter().all(|x| x.is_finite()) && gelfand_radius(transition) < 1.0 - 1e-6 {
        return false;
    }
    (spectral_radius(transition) - 1.0).abs() <= MARGINAL
}

/// E[Ĉ_T] = C − (Σ_{t=1..T} A^t M A^tᵀ)_θθ/T (A = `transition`, θ its first `dim` coordinates) for a run of `samples` steps started at the mean with momentum 0
/// (module docs, V2); None where the Lyapunov solve fails.
pub fn expected_run_covariance(transition: &DMatrix<f64>, dim: usize, full: &DMatrix<f64>, samples: f64) -> Option<DMatrix<f64>> {
    let steps = samples.round().max(1.0) as u32;
    let power = transition.pow(steps);
    let end = &power * full * power.transpose();
    // Σ_{t=1..T} A^t M A^tᵀ = S_T − M + A^T M A^Tᵀ, S_T the solution of S − ASAᵀ = M − A^T M A^Tᵀ.
    let sum = stationary_covariance(transition, &(full - &end))? - full + end;
    let d = dim;
    let theta = full.view((0, 0), (d, d)) - sum.view((0, 0), (d, d)) / samples;
    Some((&theta + theta.transpose()) * 0.5)
}

/// E2 of `estimate` against `reference` (SGFS eq. 14's covariance error).
pub fn e2(estimate: &DMatrix<f64>, reference: &DMatrix<f64>) -> f64 {
    (estimate - reference).abs().sum() / reference.abs().sum()
}

/// The validity of a law with transition `transition` (θ the first `dim` coordinates), full stationary covariance `full`, θ-covariance
/// `cov`, against `truth` and (for V3) the summary's covariance `summary_cov` when the law is not
/// exact, for runs of `samples` samples (module docs). V1 is checked where the law is built
/// (src/law.rs `law_on_summary`).
pub fn validity(transition: &DMatrix<f64>, dim: usize, full: &DMatrix<f64>, cov: &DMatrix<f64>, truth: &DMatrix<f64>, summary_cov: Option<&DMatrix<f64>>, samples: f64) -> Validity {
    // V2 decides first where the run's own expected covariance misses the truth by more than the
    // claim (a mixing failure whatever the law's bias); then V3; then V2's weaker form, where the
    // run has not reached the law but is within the claim.
    let not_reached = expected_run_covariance(transition, dim, full, samples).filter(|expected| e2(expected, cov) > BIAS_E2).map(|expected| Validity::NotReached { relaxation: relaxation_steps(transition), start_e2: e2(&expected, truth) });
    match (not_reached, summary_cov) {
        (Some(v @ Validity::NotReached { start_e2, .. }), _) if start_e2 > E2_CLAIM => v,
        (_, Some(s)) if leaves_summary(cov, s) => Validity::OutsideSummary,
        (Some(v), _) => v,
        _ => Validity::Valid,
    }
}
