//! Re-seeding a uniformly chosen mixture component together with its weight: an exact
//! Metropolis–Hastings move for the annealed target f^(λ)(θ) = p(C | θ)^λ p(y_<n | θ) p(θ)
//! (docs/sgais.md (SGAIS.21)–(SGAIS.22)).
//!
//! The weight-preserving move of src/sgais/reseed.rs re-seeds the lightest component, a choice
//! that is reversible only because that move leaves the weights alone. This one changes the
//! weights, so it picks the component k uniformly (a choice that no state changes), and proposes
//! (β'_k, μ'_k, ρ'_k) independently of the current values from
//!   q(β, μ, ρ) = ε Beta(β; 1, K − 1) p(μ, ρ) + (1 − ε) LogU(β; b_lo, ½) q_C(μ, ρ),
//! the prior's own marginal of one component (Dir(1) gives β_k ~ Beta(1, K − 1)) or a log-uniform
//! weight between b_lo = 1/(K + n + |C|) (a component with one point's share) and ½ with q_C the
//! kernel-density part of (SGAIS.16). The other weights are rescaled, β'_j = β_j (1 − β'_k)/(1 − β_k),
//! so their ratios (w = β_{−k}/(1 − β_k)) stay; in the coordinates (β_k, w) the simplex's Lebesgue
//! measure carries the Jacobian (1 − β_k)^(K−2), and the Metropolis–Hastings ratio is
//!   r = exp(λ ΔL_C + ΔL_H) · p(μ', ρ')/p(μ, ρ) · ((1 − β'_k)/(1 − β_k))^(K−2) · q(β, μ, ρ)/q(β', μ', ρ')
//! (Dir(1) is uniform on the simplex). Acceptance is delayed as in src/sgais/reseed.rs: the chunk,
//! prior, Jacobian and q factors first, the history's likelihood ratio only for proposals that pass.

use super::reseed::{accept_in_two_stages, component_of, log_lik_sum, with_component, ReseedOutcome, ReseedProposal, PRIOR_SHARE};
use crate::model::gmm::{log_sum_exp, GaussianMixture};
use crate::rng::{index_below, uniform, ChainRng};

/// The log-uniform weight range [b_lo, b_hi] of q's data part for K components, n history points
/// and a chunk of m: b_lo = 1/(K + n + m), b_hi = ½.
pub fn weight_range(components: usize, history_len: usize, chunk_len: usize) -> (f64, f64) {
    (1.0 / (components + history_len + chunk_len) as f64, 0.5)
}

/// log q(β, μ, ρ) of the module's proposal, with `range` from [`weight_range`].
pub fn log_joint_proposal(q: &ReseedProposal, range: (f64, f64), beta: f64, mu: &[f64], rho: &[f64]) -> f64 {
    let k = q.model().n_components() as f64;
    let prior_beta = (k - 1.0).ln() + (k - 2.0) * (-beta).ln_1p();
    let log_uniform = if beta >= range.0 && beta <= range.1 { -beta.ln() - (range.1 / range.0).ln().ln() } else { f64::NEG_INFINITY };
    log_sum_exp(&[
        PRIOR_SHARE.ln() + prior_beta + ReseedProposal::log_component_prior(mu, rho),
        (1.0 - PRIOR_SHARE).ln() + log_uniform + q.log_kernel_density(mu, rho),
    ])
}

/// One draw (β, μ, ρ) from the joint proposal.
pub fn draw_joint(q: &ReseedProposal, range: (f64, f64), rng: &mut ChainRng) -> (f64, Vec<f64>, Vec<f64>) {
    let k = q.model().n_components() as f64;
    if uniform(rng) < PRIOR_SHARE {
        let beta = 1.0 - uniform(rng).powf(1.0 / (k - 1.0));
        let (mu, rho) = q.draw_prior(rng);
        (beta, mu, rho)
    } else {
        let beta = (range.0.ln() + uniform(rng) * (range.1 / range.0).ln()).exp();
        let (mu, rho) = q.draw_kernel(rng);
        (beta, mu, rho)
    }
}

/// log β_c for every component (β = softmax(z_1..z_{K−1}, z_K ≡ 0)).
pub fn log_weights(theta: &[f64], components: usize) -> Vec<f64> {
    let logits: Vec<f64> = (0..components).map(|c| if c + 1 == components { 0.0 } else { theta[c] }).collect();
    let norm = log_sum_exp(&logits);
    logits.iter().map(|l| l - norm).collect()
}

/// θ with component c's weight set to β' and the others scaled by (1 − β')/(1 − β_c).
fn with_weight(theta: &[f64], components: usize, c: usize, new_beta: f64) -> Vec<f64> {
    let mut log_beta = log_weights(theta, components);
    let scale = (-new_beta).ln_1p() - (-log_beta[c].exp()).ln_1p();
    for (j, lb) in log_beta.iter_mut().enumerate() {
        *lb = if j == c { new_beta.ln() } else { *lb + scale };
    }
    let mut out = theta.to_vec();
    for j in 0..components - 1 {
        out[j] = log_beta[j] - log_beta[components - 1];
    }
    out
}

/// How [`reseed_weight_move`] picks and accepts: the Jacobian's exponent (K − 2 is the move), the
/// bias a of the component choice, P(k | θ) ∝ β_k^(−a) (a = 0: uniform, the draws of the original
/// move), and whether the choice's ratio P(k | θ')/P(k | θ) enters the acceptance ((SGAIS.23);
/// leaving it out with a > 0 is a wrong move that tests/sgais_reseed_weight.rs must tell apart).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightMove {
    pub power: f64,
    pub light_bias: f64,
    pub selection_ratio: bool,
}

impl WeightMove {
    /// The exact move for K components with choice bias `light_bias`.
    pub fn exact(components: usize, light_bias: f64) -> Self {
        WeightMove { power: components as f64 - 2.0, light_bias, selection_ratio: true }
    }
}

/// One two-stage MH move of a uniformly chosen component's (β, μ, ρ) for f^(λ) with chunk
/// `q.chunk()` and the full history 0..`history_len` ((SGAIS.21)–(SGAIS.22)).
pub fn reseed_with_weight(q: &ReseedProposal, lambda: f64, history_len: usize, theta: &mut Vec<f64>, rng: &mut ChainRng) -> ReseedOutcome {
    reseed_weight_move(q, lambda, history_len, WeightMove::exact(q.model().n_components(), 0.0), theta, rng)
}

/// log P(k | θ) for every k, P(k | θ) ∝ β_k^(−a) ((SGAIS.23)).
pub fn log_choice_probabilities(log_beta: &[f64], light_bias: f64) -> Vec<f64> {
    let scores: Vec<f64> = log_beta.iter().map(|lb| -light_bias * lb).collect();
    let norm = log_sum_exp(&scores);
    scores.iter().map(|s| s - norm).collect()
}

/// The component to move: uniform for a = 0 (one `index_below` draw, as the original move),
/// otherwise drawn from P(k | θ) ∝ β_k^(−a) with one uniform.
fn choose_component(log_beta: &[f64], light_bias: f64, rng: &mut ChainRng) -> usize {
    if light_bias == 0.0 {
        return index_below(rng, log_beta.len());
    }
    let u = uniform(rng);
    let mut cumulative = 0.0;
    for (k, lp) in log_choice_probabilities(log_beta, light_bias).iter().enumerate() {
        cumulative += lp.exp();
        if u < cumulative {
            return k;
        }
    }
    log_beta.len() - 1
}

/// The weight-changing move with the choice and acceptance of `how` ((SGAIS.21)–(SGAIS.23)).
pub fn reseed_weight_move(q: &ReseedProposal, lambda: f64, history_len: usize, how: WeightMove, theta: &mut Vec<f64>, rng: &mut ChainRng) -> ReseedOutcome {
    let model: &GaussianMixture = q.model();
    let k = model.n_components();
    let log_beta = log_weights(theta, k);
    let c = choose_component(&log_beta, how.light_bias, rng);
    let range = weight_range(k, history_len, q.chunk().len());
    let beta = log_beta[c].exp();
    let (mu, rho) = component_of(theta, model, c);
    let (new_beta, new_mu, new_rho) = draw_joint(q, range, rng);
    if !(new_beta > 0.0 && new_beta < 1.0) {
        return ReseedOutcome { accepted: false, datum_evals: 0 };
    }
    let proposal = with_component(&with_weight(theta, k, c, new_beta), model, c, &new_mu, &new_rho);
    let chunk_gain = lambda * (log_lik_sum(model, q.chunk(), &proposal) - log_lik_sum(model, q.chunk(), theta));
    let prior_gain = ReseedProposal::log_component_prior(&new_mu, &new_rho) - ReseedProposal::log_component_prior(&mu, &rho);
    let jacobian = how.power * ((-new_beta).ln_1p() - (-beta).ln_1p());
    let proposal_ratio = log_joint_proposal(q, range, beta, &mu, &rho) - log_joint_proposal(q, range, new_beta, &new_mu, &new_rho);
    let choice_ratio = if how.selection_ratio && how.light_bias != 0.0 {
        log_choice_probabilities(&log_weights(&proposal, k), how.light_bias)[c] - log_choice_probabilities(&log_beta, how.light_bias)[c]
    } else {
        0.0
    };
    accept_in_two_stages(model, q.chunk().len(), history_len, chunk_gain + prior_gain + jacobian + proposal_ratio + choice_ratio, proposal, theta, rng)
}
