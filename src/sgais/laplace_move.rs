//! A Laplace independence move at the end of a chunk (docs/sgais.md §10, "Why K = 7 keeps losing
//! after the change points", (SGAIS.26)–(SGAIS.27)): an exact Metropolis–Hastings move for the
//! posterior f(θ) = p(y_≤n | θ) p(θ) (the chunk's last annealed target, λ = 1) whose proposal is a
//! Gaussian fitted to f by Gauss–Newton from one particle.
//!
//! Why: at large n the estimated noise correction caps SGHMC's step at η ≤ 2κα/λ_max(V̂), and
//! V̂ = (n²/|B|)·S grows as n², so η falls as 1/n² while the posterior's curvature grows as n. In a
//! weakly curved direction SGHMC then relaxes by ≈ η λ_H/α per step (measured at K = 7, n = 30,000:
//! 5.5·10⁻⁵), and a chunk of the stationary stretch gives it only 40–60 steps: particles that fell
//! behind after a change point stay 140 nats of log posterior below the mode, in its basin, for
//! the rest of the run, and every later increment is low.
//!
//! The proposal: F̂ = m·Ŝ + I, with m = n the data in f, Ŝ = V̂·|B|/n_prev² the per-datum score
//! covariance that the noise estimate already measured at the particles (the empirical Fisher
//! information; I stands in for the prior's curvature), and θ̂ up to eight Gauss–Newton steps
//! θ ← θ + t F̂⁻¹ ∇log f(θ) from particle 0 (t halved until log f rises);
//!
//! (SGAIS.26)  q(θ) = N(θ; θ̂, F̂⁻¹),   r = [f(θ') q(θ)] / [f(θ) q(θ')],
//!
//! an independence proposal: q does not depend on the particle it moves, so the move leaves f
//! invariant for any θ̂ and F̂ (Tierney 1994; Chopin 2002 uses one fitted to the particles in his
//! IBIS sampler). It runs only when the particles lag, tested by the Newton decrement at particle 0,
//!
//! (SGAIS.27)  δ = ½ gᵀ F̂⁻¹ g,  g = ∇log f(θ_0);   lagging ⇔ δ > ½ q_d,
//!
//! q_d the (1 − α/2) quantile of χ²_d of (SGAIS.19) (α = 10⁻³): for θ_0 drawn from a Gaussian
//! posterior with precision F̂, 2δ ~ χ²_d. The decision depends on particle 0 only, which the move
//! then treats like every other particle; a move chosen from the population is an adaptive SMC
//! choice like the temperatures (§2).

use super::surprise::chi_square_upper;
use super::models::EvidenceModel;
use crate::rng::{fill_standard_normal, uniform, ChainRng};
use nalgebra::{DMatrix, DVector};

/// The most Gauss–Newton steps [`LaplaceProposal::fit`] takes.
pub const NEWTON_STEPS: usize = 8;

/// f(θ) = p(C | θ)^λ p(y_<n | θ) p(θ) with the full history 0..`history_len` and chunk `chunk`.
pub struct AnnealedTarget<'a> {
    pub model: &'a dyn EvidenceModel,
    pub history_len: usize,
    pub chunk: std::ops::Range<usize>,
    pub lambda: f64,
}

impl AnnealedTarget<'_> {
    /// log f(θ); costs [`Self::evals`] datum evaluations.
    pub fn log_density(&self, theta: &[f64]) -> f64 {
        let history: f64 = (0..self.history_len).map(|j| self.model.log_lik(j, theta)).sum();
        let chunk: f64 = self.chunk.clone().map(|j| self.model.log_lik(j, theta)).sum();
        self.model.log_prior(theta) + history + self.lambda * chunk
    }

    /// ∇log f(θ); costs [`Self::evals`] datum evaluations.
    pub fn gradient(&self, theta: &[f64]) -> Vec<f64> {
        let mut g = vec![0.0; theta.len()];
        self.model.add_grad_log_prior(theta, &mut g);
        let history: Vec<usize> = (0..self.history_len).collect();
        self.model.add_grad_log_lik_batch(&history, theta, &mut g);
        let mut chunk = vec![0.0; theta.len()];
        let chunk_indices: Vec<usize> = self.chunk.clone().collect();
        self.model.add_grad_log_lik_batch(&chunk_indices, theta, &mut chunk);
        g.iter_mut().zip(&chunk).for_each(|(a, b)| *a += self.lambda * b);
        g
    }

    /// Data in f, counting the chunk at its weight λ.
    pub fn data_count(&self) -> f64 {
        self.history_len as f64 + self.lambda * self.chunk.len() as f64
    }

    pub fn evals(&self) -> u64 {
        (self.history_len + self.chunk.len()) as u64
    }
}

/// F̂ = m·Ŝ + I from the noise estimate V̂ = (n_prev²/|B|)·Ŝ (row-major `dim` × `dim`).
pub fn fisher_precision(noise_cov: &[f64], dim: usize, n_prev: usize, batch_size: usize, data_count: f64) -> DMatrix<f64> {
    let per_datum = batch_size as f64 / (n_prev as f64 * n_prev as f64);
    DMatrix::from_row_slice(dim, dim, noise_cov) * (data_count * per_datum) + DMatrix::identity(dim, dim)
}

/// Variance factor of the proposal over the empirical Fisher's inverse at the fitted centre
/// ([`LaplaceProposal::widened_at_centre`]).
pub const WIDEN: f64 = 2.0;

/// F̂(θ) = Σ_j w_j s_j s_jᵀ + I, s_j = ∇log p(y_j | θ), w_j = 1 for the history and λ for the chunk:
/// the empirical Fisher information of the data in f measured at θ (I for the prior's curvature).
/// Costs one datum evaluation per datum in f.
pub fn fisher_at(target: &AnnealedTarget, theta: &[f64]) -> DMatrix<f64> {
    let d = theta.len();
    let mut fisher = DMatrix::<f64>::identity(d, d);
    let mut s = vec![0.0; d];
    for j in (0..target.history_len).chain(target.chunk.clone()) {
        s.iter_mut().for_each(|x| *x = 0.0);
        target.model.add_grad_log_lik_batch(&[j], theta, &mut s);
        let w = if j < target.history_len { 1.0 } else { target.lambda };
        let v = DVector::from_column_slice(&s);
        fisher.ger(w, &v, &v, 1.0);
    }
    fisher
}

/// The Gaussian q of (SGAIS.26) and the Newton decrement (SGAIS.27) at the point it started from.
pub struct LaplaceProposal {
    mean: DVector<f64>,
    /// Lᵀ with F̂ = L Lᵀ.
    upper: DMatrix<f64>,
    pub decrement: f64,
}

impl LaplaceProposal {
    /// Gauss–Newton steps θ ← θ + t F̂⁻¹ ∇log f(θ) from `start` with precision `precision`, the step
    /// t halved until log f rises, at most [`NEWTON_STEPS`] of them, stopping once the decrement is
    /// below d/2 (a posterior draw's mean); None when F̂ is not positive definite. The decrement of
    /// (SGAIS.27) is the first step's, at `start`. Returns the proposal and the datum evaluations.
    pub fn fit(target: &AnnealedTarget, start: &[f64], precision: DMatrix<f64>) -> Option<(Self, u64)> {
        let (q, evals) = Self::newton(target, start, precision, false);
        q.map(|q| (q, evals))
    }

    /// [`Self::fit`] only when the particles lag: the decrement (SGAIS.27) needs the first
    /// gradient alone, so when it says they do not lag this returns None after one gradient
    /// (n data) and fits nothing. Otherwise the same proposal and evaluations as [`Self::fit`].
    pub fn fit_if_lagging(target: &AnnealedTarget, start: &[f64], precision: DMatrix<f64>) -> (Option<Self>, u64) {
        Self::newton(target, start, precision, true)
    }

    /// The Gauss–Newton fit of [`Self::fit`]; with `gate`, None unless the first decrement lags.
    fn newton(target: &AnnealedTarget, start: &[f64], precision: DMatrix<f64>, gate: bool) -> (Option<Self>, u64) {
        let Some(chol) = precision.cholesky() else { return (None, 0) };
        let mut theta = DVector::from_column_slice(start);
        let mut g = DVector::from_vec(target.gradient(start));
        let mut evals = target.evals();
        let decrement = 0.5 * g.dot(&chol.solve(&g));
        if gate && !lagging(decrement, start.len()) {
            return (None, evals);
        }
        let mut value = target.log_density(start);
        evals += target.evals();
        for step in 0..NEWTON_STEPS {
            if step > 0 {
                g = DVector::from_vec(target.gradient(theta.as_slice()));
                evals += target.evals();
            }
            let delta = chol.solve(&g);
            if !(0.5 * g.dot(&delta) > 0.5 * theta.len() as f64) {
                break;
            }
            let Some((next, next_value)) = line_search(target, &theta, &delta, value, &mut evals) else { break };
            theta = next;
            value = next_value;
        }
        let upper = chol.l().transpose();
        let q = theta.iter().all(|t| t.is_finite()).then_some(LaplaceProposal { mean: theta, upper, decrement });
        (q, evals)
    }

    /// The proposal actually used by the run (docs/sgais.md (SGAIS.26a)): the same centre θ̂, precision
    /// F̂(θ̂)/[`WIDEN`], the empirical Fisher re-measured at θ̂ rather than at the lagging particles.
    /// The score covariance at particles far from the mode overstates f's curvature (the scores grow
    /// with the lag), so the Gaussian fitted there is narrower than f and an independence move then
    /// never accepts a lagging particle (stop 52: 0 of 128); twice the variance keeps q's tails at
    /// least as heavy as f's (when F̂(θ̂) estimates f's curvature well), which uniform ergodicity of an
    /// independence sampler asks (Tierney 1994 §2.3.1; Mengersen & Tweedie 1996 Thm 2.1).
    /// None when F̂(θ̂) is not positive definite; returns the datum evaluations.
    pub fn widened_at_centre(self, target: &AnnealedTarget) -> (Option<Self>, u64) {
        let precision = fisher_at(target, self.mean.as_slice()) / WIDEN;
        let evals = target.evals();
        let Some(chol) = precision.cholesky() else { return (None, evals) };
        (Some(LaplaceProposal { upper: chol.l().transpose(), ..self }), evals)
    }

    /// The proposal's precision (covariance's inverse).
    pub fn precision(&self) -> DMatrix<f64> {
        self.upper.transpose() * &self.upper
    }

    /// The proposal's centre θ̂.
    pub fn mean(&self) -> &[f64] {
        self.mean.as_slice()
    }

    /// (SGAIS.27): does the decrement say the particles lag behind f (d parameters)?
    pub fn lagging(&self) -> bool {
        lagging(self.decrement, self.mean.len())
    }

    /// log q(θ) up to its constant, −½ (θ − θ̂)ᵀ F̂ (θ − θ̂).
    pub fn log_density(&self, theta: &[f64]) -> f64 {
        let r = &self.upper * (DVector::from_column_slice(theta) - &self.mean);
        -0.5 * r.norm_squared()
    }

    /// θ̂ + L⁻ᵀ z, z ~ N(0, I): covariance (L Lᵀ)⁻¹ = F̂⁻¹.
    pub fn draw(&self, rng: &mut ChainRng) -> Vec<f64> {
        let mut z = vec![0.0; self.mean.len()];
        fill_standard_normal(rng, &mut z);
        let x = self.upper.solve_upper_triangular(&DVector::from_vec(z)).expect("L is nonsingular");
        (&self.mean + x).iter().copied().collect()
    }
}

/// (SGAIS.27): a Newton decrement δ lags when 2δ exceeds the (1 − α/2) quantile of χ²_d.
fn lagging(decrement: f64, dim: usize) -> bool {
    decrement > 0.5 * chi_square_upper(dim as f64)
}

/// θ + t δ with t = 1, ½, ¼, … (above 10⁻³) until log f rises above `value`; adds the evaluations.
fn line_search(target: &AnnealedTarget, theta: &DVector<f64>, delta: &DVector<f64>, value: f64, evals: &mut u64) -> Option<(DVector<f64>, f64)> {
    let mut t = 1.0;
    while t >= 1e-3 {
        let trial = theta + delta * t;
        let trial_value = target.log_density(trial.as_slice());
        *evals += target.evals();
        if trial_value > value {
            return Some((trial, trial_value));
        }
        t *= 0.5;
    }
    None
}

/// One independence Metropolis–Hastings move of `theta` for f with proposal q (SGAIS.26).
/// Returns whether it was accepted and the datum evaluations spent.
pub fn laplace_move(target: &AnnealedTarget, q: &LaplaceProposal, theta: &mut Vec<f64>, rng: &mut ChainRng) -> (bool, u64) {
    let proposal = q.draw(rng);
    let log_ratio = target.log_density(&proposal) - target.log_density(theta) + q.log_density(theta) - q.log_density(&proposal);
    let accepted = uniform(rng).ln() < log_ratio;
    if accepted {
        *theta = proposal;
    }
    (accepted, 2 * target.evals())
}
