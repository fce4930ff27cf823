//! A split/merge move between two mixture components: an exact Metropolis–Hastings move for the
//! annealed target f^(λ)(θ) = p(C | θ)^λ p(y_<n | θ) p(θ) (docs/sgais.md (SGAIS.24)–(SGAIS.25)).
//!
//! The diagnosis of docs/sgais.md §10 ("Where seed 13 loses"): the component a new cluster needs
//! is held by a component heavier than its tempered share, so the lightest-component move keeps
//! re-seeding another. This move takes mass from a component j and gives it to a component k
//! placed at a point of the chunk (a split of j), or hands k's mass back to j and parks k at a
//! draw from the prior (a merge of k into j). With K fixed a merged component still exists, with
//! a small share; the pair's total s = β_j + β_k and every other weight stay, so only k's share
//! t = β_k/s of the pair and k's (μ, ρ) change. The ordered pair (j, k) is drawn uniformly
//! (independent of θ, so each pair's move is its own reverse), and (t', μ', ρ') is drawn
//! independently of the current values from
//!   q(t, μ, ρ) = ε LogU(t; t_lo, 1) p(μ, ρ) + (1 − ε) U(t; 0, 1) q_C(μ, ρ),
//! the merge part (a small share, ε = ½, t_lo = min(b_lo/s, ½), b_lo = 1/(K + n + |C|) one datum's
//! share) and the split part (a uniform fraction u = t of the pair's mass at a kernel-density draw
//! around a chunk point, q_C of (SGAIS.16)). In the coordinates (s, t) the simplex's measure has
//! Jacobian |∂(β_j, β_k)/∂(s, t)| = s, the same before and after (s is kept), so the ratio is
//!   r = exp(λ ΔL_C + ΔL_H) · p(μ', ρ')/p(μ, ρ) · q(t, μ, ρ)/q(t', μ', ρ'),
//! accepted in the two stages of src/sgais/reseed.rs.

use super::reseed::{accept_in_two_stages, component_of, log_lik_sum, with_component, ReseedOutcome, ReseedProposal, PRIOR_SHARE};
use super::reseed_weight::{log_weights, weight_range};
use crate::model::gmm::{log_sum_exp, GaussianMixture};
use crate::rng::{index_below, uniform, ChainRng};

/// How [`split_merge_move`] accepts: `Exact` is (SGAIS.25); the other two are wrong moves that
/// tests/sgais_reseed_split.rs must tell apart: a Jacobian (1 − t')/(1 − t) (the split's
/// w_j ↦ w_j (1 − u) read as j's own factor), or q's weight-fraction densities left out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SplitAcceptance {
    Exact,
    WrongJacobian,
    NoFractionDensity,
}

/// The merge part's lower end t_lo = min(b_lo/s, ½) for a pair holding `pair_mass` = s.
pub fn merge_floor(b_lo: f64, pair_mass: f64) -> f64 {
    (b_lo / pair_mass).min(0.5)
}

/// log q(t, μ, ρ) of (SGAIS.24) with merge floor `t_lo`; `fraction_density` false drops the two
/// densities of t (the wrong move [`SplitAcceptance::NoFractionDensity`]).
pub fn log_split_proposal(q: &ReseedProposal, t_lo: f64, t: f64, mu: &[f64], rho: &[f64], fraction_density: bool) -> f64 {
    let merge_t = if t >= t_lo && t <= 1.0 { -t.ln() - (1.0 / t_lo).ln().ln() } else { f64::NEG_INFINITY };
    let split_t = if t > 0.0 && t < 1.0 { 0.0 } else { f64::NEG_INFINITY };
    let (merge_t, split_t) = if fraction_density { (merge_t, split_t) } else { (0.0, 0.0) };
    log_sum_exp(&[
        PRIOR_SHARE.ln() + merge_t + ReseedProposal::log_component_prior(mu, rho),
        (1.0 - PRIOR_SHARE).ln() + split_t + q.log_kernel_density(mu, rho),
    ])
}

/// One draw (t, μ, ρ) from (SGAIS.24).
pub fn draw_split(q: &ReseedProposal, t_lo: f64, rng: &mut ChainRng) -> (f64, Vec<f64>, Vec<f64>) {
    if uniform(rng) < PRIOR_SHARE {
        let t = (t_lo.ln() * (1.0 - uniform(rng))).exp();
        let (mu, rho) = q.draw_prior(rng);
        (t, mu, rho)
    } else {
        let t = uniform(rng);
        let (mu, rho) = q.draw_kernel(rng);
        (t, mu, rho)
    }
}

/// θ with β_j = s (1 − t), β_k = s t, s = β_j + β_k, every other weight kept.
fn with_pair_share(theta: &[f64], components: usize, j: usize, k: usize, t: f64) -> Vec<f64> {
    let mut log_beta = log_weights(theta, components);
    let log_s = log_sum_exp(&[log_beta[j], log_beta[k]]);
    log_beta[j] = log_s + (-t).ln_1p();
    log_beta[k] = log_s + t.ln();
    let mut out = theta.to_vec();
    for c in 0..components - 1 {
        out[c] = log_beta[c] - log_beta[components - 1];
    }
    out
}

/// One two-stage split/merge move of a uniformly drawn ordered pair (j, k) for f^(λ) with chunk
/// `q.chunk()` and the history 0..`history_len` ((SGAIS.24)–(SGAIS.25)).
pub fn split_merge_move(q: &ReseedProposal, lambda: f64, history_len: usize, how: SplitAcceptance, theta: &mut Vec<f64>, rng: &mut ChainRng) -> ReseedOutcome {
    let model: &GaussianMixture = q.model();
    let components = model.n_components();
    let j = index_below(rng, components);
    let k = (j + 1 + index_below(rng, components - 1)) % components;
    let log_beta = log_weights(theta, components);
    let log_s = log_sum_exp(&[log_beta[j], log_beta[k]]);
    let t = (log_beta[k] - log_s).exp();
    let t_lo = merge_floor(weight_range(components, history_len, q.chunk().len()).0, log_s.exp());
    let (mu, rho) = component_of(theta, model, k);
    let (new_t, new_mu, new_rho) = draw_split(q, t_lo, rng);
    if !(new_t > 0.0 && new_t < 1.0) {
        return ReseedOutcome { accepted: false, datum_evals: 0 };
    }
    let proposal = with_component(&with_pair_share(theta, components, j, k, new_t), model, k, &new_mu, &new_rho);
    let chunk_gain = lambda * (log_lik_sum(model, q.chunk(), &proposal) - log_lik_sum(model, q.chunk(), theta));
    let prior_gain = ReseedProposal::log_component_prior(&new_mu, &new_rho) - ReseedProposal::log_component_prior(&mu, &rho);
    let fraction_density = how != SplitAcceptance::NoFractionDensity;
    let proposal_ratio = log_split_proposal(q, t_lo, t, &mu, &rho, fraction_density) - log_split_proposal(q, t_lo, new_t, &new_mu, &new_rho, fraction_density);
    let jacobian = if how == SplitAcceptance::WrongJacobian { (-new_t).ln_1p() - (-t).ln_1p() } else { 0.0 };
    accept_in_two_stages(model, q.chunk().len(), history_len, chunk_gain + prior_gain + proposal_ratio + jacobian, proposal, theta, rng)
}
