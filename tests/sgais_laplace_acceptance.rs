//! The Laplace independence move's acceptance (src/sgais/laplace_move.rs, docs/sgais.md (SGAIS.26);
//! issue 22, stop 52) against a Metropolis–Hastings ratio written here apart from the code.
//!
//! Derivation (Tierney 1994, independence chain): with target f and proposal q not depending on
//! the current θ, MH accepts θ' ~ q with probability min(1, f(θ')q(θ) / (f(θ)q(θ'))) =
//! min(1, w(θ')/w(θ)), w = f/q. Take f = N(m, A⁻¹) (the exact posterior of linear regression,
//! docs/truth.md §5) and q = N(m, (cA)⁻¹), and r² = (θ − m)ᵀA(θ − m). Then
//! log w(θ) = ½(c − 1) r² + const, so:
//! - c = 1 (q exact): w is constant, every proposal is accepted.
//! - c = ½ (twice the variance), θ ~ f: a = r²(θ) ~ χ²_d, r²(θ') = 2b with b ~ χ²_d, and the
//!   acceptance is E min(1, exp(a/4 − b/2)); for d = 6 in closed form
//!   1 − E_a[e^{−a/4}(7/8 + 3a/16 + a²/64)] = 1 − 0.580247 = 0.419753 (Γ integrals), computed
//!   below by quadrature (`twice_variance_acceptance`).
//! - θ lagging at r² = 280 (140 nats of log f below the mode): w(θ') − w(θ) in log is
//!   ½(c − 1)(r'² − 280). A proposal 10 % too narrow (c = 1.1) gives the lagging particle
//!   log w 14 above a typical proposal's, acceptance ≈ e^{−13.7}: it is never moved; a wider
//!   one (c = ½) accepts it always. So an independence move rescues lagging particles only when
//!   q is at least as wide as f in the directions they lag in.

use nalgebra::{DMatrix, DVector};
use sgviz::rng::{chain_rng, standard_normal};
use sgviz::sgais::laplace_move::{fisher_at, laplace_move, AnnealedTarget, LaplaceProposal};

#[path = "common/linear_posterior.rs"]
mod linear_posterior;
use linear_posterior::{linear_model, posterior_draws};

const N_PREV: usize = 1_000;
const N: usize = 1_200;

/// log f(θ) − log q(θ) up to a constant, written from the two Gaussians' densities.
fn log_w(theta: &[f64], mean: &DVector<f64>, precision: &DMatrix<f64>, c: f64) -> f64 {
    let x = DVector::from_column_slice(theta) - mean;
    let r2 = x.dot(&(precision * &x));
    -0.5 * r2 + 0.5 * c * r2
}

/// E min(1, exp(a/4 − b/2)), a, b ~ χ²₆ independent: Simpson's rule over a on [0, 160] of
/// p₆(a)·[P(b < a/2) + E(e^{a/4 − b/2}; b > a/2)], the inner terms the χ²₆ tail sums.
fn twice_variance_acceptance() -> f64 {
    let p6 = |x: f64| x * x * (-x / 2.0).exp() / 16.0;
    let inner = |a: f64| {
        let c = a / 2.0;
        let below = 1.0 - (-c / 2.0).exp() * (1.0 + c / 2.0 + c * c / 8.0);
        // ∫_c^∞ e^{a/4 − b/2} p₆(b) db = e^{a/4} (1/16) ∫_c^∞ b² e^{−b} db = e^{a/4 − c}(c² + 2c + 2)/16.
        below + (a / 4.0 - c).exp() * (c * c + 2.0 * c + 2.0) / 16.0
    };
    let (lo, hi, steps) = (0.0, 160.0, 16_000);
    let h = (hi - lo) / steps as f64;
    let sum: f64 = (0..=steps).map(|i| {
        let x = lo + i as f64 * h;
        let weight = if i == 0 || i == steps { 1.0 } else if i % 2 == 1 { 4.0 } else { 2.0 };
        weight * p6(x) * inner(x)
    }).sum();
    sum * h / 3.0
}

/// Moves each of `thetas` once with q = N(mode, (cA)⁻¹) (fitted from the mode, so no Newton step is
/// taken); returns how many were accepted.
fn accepted_moves(c: f64, thetas: &mut [Vec<f64>], seed: u64) -> usize {
    let model = linear_model(2_000, 4);
    let target = AnnealedTarget { model: &model, history_len: N_PREV, chunk: N_PREV..N, lambda: 1.0 };
    let (precision, mean) = model.posterior_after(N);
    let (q, _) = LaplaceProposal::fit(&target, mean.as_slice(), &precision * c).expect("positive definite");
    let mut rng = chain_rng(seed);
    thetas.iter_mut().map(|theta| laplace_move(&target, &q, theta, &mut rng).0 as usize).sum()
}

#[test]
fn an_exact_proposal_is_always_accepted_and_a_twice_as_wide_one_at_the_quadrature_rate() {
    let model = linear_model(2_000, 4);
    let count = 10_000;
    let mut draws = posterior_draws(&model, N, count, 51);
    assert_eq!(accepted_moves(1.0, &mut draws, 52), count, "q = f must accept every proposal");
    let expected = twice_variance_acceptance();
    assert!((expected - 0.419753).abs() < 1e-5, "quadrature {expected:.6} against the closed form 0.419753");
    let mut draws = posterior_draws(&model, N, count, 53);
    let rate = accepted_moves(0.5, &mut draws, 54) as f64 / count as f64;
    let se = (expected * (1.0 - expected) / count as f64).sqrt();
    assert!((rate - expected).abs() < 4.0 * se, "twice the variance: acceptance {rate:.4}, quadrature {expected:.4} (binomial SE {se:.4})");
}

/// 64 particles at r² = 280 (140 nats below the mode) along each of the d whitened axes of the
/// exact posterior after N data, alternating sides.
fn lagging_particles(model: &sgviz::model::linear::LinearRegression) -> Vec<Vec<f64>> {
    let (precision, mean) = model.posterior_after(N);
    let d = mean.len();
    let upper = precision.cholesky().unwrap().l().transpose();
    (0..64)
        .map(|i| {
            let mut z = DVector::zeros(d);
            z[i % d] = if i % 2 == 0 { 280f64.sqrt() } else { -280f64.sqrt() };
            (&mean + upper.solve_upper_triangular(&z).unwrap()).as_slice().to_vec()
        })
        .collect()
}

/// Generalised eigenvalues of `precision` relative to the exact A (1 = q as wide as f).
fn relative_eigenvalues(precision: &DMatrix<f64>, a: &DMatrix<f64>) -> (f64, f64) {
    let l_inv = a.clone().cholesky().unwrap().l().try_inverse().unwrap();
    let eig = (&l_inv * precision * l_inv.transpose()).symmetric_eigenvalues();
    (eig.min(), eig.max())
}

/// The fix of stop 53 (docs/sgais.md (SGAIS.26a)): fitted from a lagging particle with the
/// empirical Fisher measured *at that particle* (what the noise estimate saw; its residuals carry
/// the lag, so it overstates f's curvature: some eigenvalue relative to the exact A above 1, the
/// configuration the old proposal refused every particle in), the proposal the run uses re-measures
/// the Fisher at the fitted centre and halves it. Oracle: the exact posterior precision A
/// (docs/truth.md §5). For linear regression with unit noise the empirical Fisher at the mode is
/// Σ x_j x_jᵀ e_j² + I, e_j² ~ χ²₁, so each relative eigenvalue is ½(1 + ε) with ε of sd about
/// √(2/N) = 0.04; (0.35, 0.65) is ±7 of those sd. With q wider than f in every direction, the
/// hand ratio ½(c − 1)(r'² − 280) with c ≤ 0.65 accepts each lagging particle unless a proposal
/// lands beyond r'² = 280, which for a χ²₆/c draw has probability below 10⁻⁴⁰: all 64 accepted.
#[test]
fn the_runs_proposal_is_wider_than_f_and_accepts_every_lagging_particle() {
    let model = linear_model(2_000, 4);
    let (precision, _) = model.posterior_after(N);
    let target = AnnealedTarget { model: &model, history_len: N_PREV, chunk: N_PREV..N, lambda: 1.0 };
    let lagging = lagging_particles(&model);
    let at_particle = fisher_at(&target, &lagging[0]);
    let (_, hi) = relative_eigenvalues(&at_particle, &precision);
    assert!(hi > 1.05, "the Fisher at a lagging particle must overstate the curvature here (largest relative eigenvalue {hi:.3})");
    let (fitted, _) = LaplaceProposal::fit(&target, &lagging[0], at_particle).expect("positive definite");
    let (q, _) = fitted.widened_at_centre(&target);
    let q = q.expect("positive definite at the centre");
    let (lo, hi) = relative_eigenvalues(&q.precision(), &precision);
    assert!(lo > 0.35 && hi < 0.65, "proposal precision relative to A: eigenvalues {lo:.3}–{hi:.3}, want ½ ± 0.15");
    let mut thetas = lagging.clone();
    let mut rng = chain_rng(63);
    let accepted: usize = thetas.iter_mut().map(|theta| laplace_move(&target, &q, theta, &mut rng).0 as usize).sum();
    assert_eq!(accepted, 64, "the code accepted {accepted} of 64 lagging particles that the ratio accepts");
}

/// Lagging particles at r² = 280 along each of the d whitened axes (64 of them): the hand-written
/// ratio says a proposal 10 % narrower than f (c = 1.1) accepts each with probability below 10⁻⁵
/// (its Monte-Carlo mean over 2,000 of the test's own proposals), and the code accepts none; a
/// proposal twice as wide (c = ½) accepts each with probability 1 by the hand ratio, and the code
/// accepts all 64.
#[test]
fn lagging_particles_are_refused_by_a_narrow_proposal_and_accepted_by_a_wide_one() {
    let model = linear_model(2_000, 4);
    let (precision, mean) = model.posterior_after(N);
    let d = mean.len();
    let lagging = lagging_particles(&model);
    for (c, bound) in [(1.1, 1e-5), (0.5, 1.0)] {
        let q_upper = (&precision * c).cholesky().unwrap().l().transpose();
        let mut rng = chain_rng(61);
        let hand: f64 = (0..2_000)
            .map(|_| {
                let z = DVector::from_iterator(d, (0..d).map(|_| standard_normal(&mut rng)));
                let proposal = &mean + q_upper.solve_upper_triangular(&z).unwrap();
                (log_w(proposal.as_slice(), &mean, &precision, c) - log_w(&lagging[0], &mean, &precision, c)).exp().min(1.0)
            })
            .sum::<f64>()
            / 2_000.0;
        let mut thetas = lagging.clone();
        let accepted = accepted_moves(c, &mut thetas, 62);
        if c > 1.0 {
            assert!(hand < bound, "c = {c}: hand-written acceptance {hand:.2e}");
            assert_eq!(accepted, 0, "c = {c}: the code accepted {accepted} of 64 lagging particles that the ratio refuses");
        } else {
            assert_eq!(hand, bound, "c = {c}: hand-written acceptance {hand}");
            assert_eq!(accepted, 64, "c = {c}: the code accepted {accepted} of 64");
        }
    }
}
