//! Re-seeding the lightest mixture component: an exact Metropolis–Hastings move for the annealed
//! target f^(λ)(θ) = p(C | θ)^λ p(y_<n | θ) p(θ) (docs/sgais.md (SGAIS.16)–(SGAIS.17)), which lets a
//! component that the data so far did not need jump to a cluster that a new chunk brings, where
//! SGHMC's local steps at η = lr/n would take many chunks to carry it.
//!
//! The move picks the component k with the smallest weight β_k (β depends on z only, which the
//! move leaves unchanged, so the reverse move picks the same k) and proposes its means and
//! log-variances (μ_k, ρ_k) from q, independent of their current values:
//!   q(μ, ρ) = ε p(μ, ρ) + (1 − ε) (1/|C|) Σ_{j∈C} Π_c N(μ_c; y_jc, h_c²) N(ρ_c; 2 log h_c, 1),
//! with p(μ, ρ) the prior of one component's (μ, ρ) (SGAIS.8 and B.3) and h_c = sd_c(C)·|C|^(−1/(p+4))
//! (a kernel-density bandwidth of the chunk). The prior share ε keeps q(current) away from 0 for a
//! component far from every chunk point. Acceptance is delayed (Christen & Fox 2005): a first
//! test with the chunk, prior and q terms, then, only if it passes, a second with the history's
//! likelihood ratio; the product of the two stage ratios is the full MH ratio, so the two-stage
//! move satisfies detailed balance for f^(λ) and costs the history's n evaluations only when the
//! cheap test passes.

use crate::model::gmm::{log_sum_exp, GaussianMixture};
use crate::model::Model;
use crate::rng::{index_below, standard_exponential, standard_normal, uniform, ChainRng};

const LOG_2PI: f64 = 1.837_877_066_409_345_5;

/// The share ε of the prior in the proposal q.
pub const PRIOR_SHARE: f64 = 0.5;

/// The proposal q for one chunk: its points' indices and the bandwidths h_c.
pub struct ReseedProposal<'a> {
    model: &'a GaussianMixture,
    chunk: std::ops::Range<usize>,
    bandwidth: Vec<f64>,
}

/// What one call of [`reseed_lightest`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReseedOutcome {
    pub accepted: bool,
    pub datum_evals: u64,
}

impl<'a> ReseedProposal<'a> {
    /// q for the chunk `chunk` (non-empty) of `model`'s data.
    pub fn new(model: &'a GaussianMixture, chunk: std::ops::Range<usize>) -> Self {
        let p = model.point_dim();
        let n = chunk.len().max(1) as f64;
        let shrink = n.powf(-1.0 / (p as f64 + 4.0));
        let bandwidth = (0..p)
            .map(|c| {
                let mean = chunk.clone().map(|j| model.point(j)[c]).sum::<f64>() / n;
                let var = chunk.clone().map(|j| (model.point(j)[c] - mean).powi(2)).sum::<f64>() / n;
                (var.sqrt() * shrink).max(1e-3)
            })
            .collect();
        ReseedProposal { model, chunk, bandwidth }
    }

    /// log p(μ, ρ) of one component (p coordinates each): Π_c InvGamma(1, 1) in log-variance times
    /// N(μ_c; 0, 4e^{ρ_c}) (the per-coordinate terms of the mixture's prior, SGAIS.8).
    pub fn log_component_prior(mu: &[f64], rho: &[f64]) -> f64 {
        mu.iter().zip(rho).map(|(m, r)| -r - (-r).exp() - 0.5 * (LOG_2PI + 4f64.ln() + r) - m * m * (-r).exp() / 8.0).sum()
    }

    /// log q(μ, ρ).
    pub fn log_density(&self, mu: &[f64], rho: &[f64]) -> f64 {
        log_sum_exp(&[PRIOR_SHARE.ln() + Self::log_component_prior(mu, rho), (1.0 - PRIOR_SHARE).ln() + self.log_kernel_density(mu, rho)])
    }

    /// log of q's data part, (1/|C|) Σ_{j∈C} Π_c N(μ_c; y_jc, h_c²) N(ρ_c; 2 log h_c, 1).
    pub fn log_kernel_density(&self, mu: &[f64], rho: &[f64]) -> f64 {
        let kde_rho: f64 = rho.iter().zip(&self.bandwidth).map(|(r, h)| -0.5 * LOG_2PI - 0.5 * (r - 2.0 * h.ln()).powi(2)).sum();
        let terms: Vec<f64> = self
            .chunk
            .clone()
            .map(|j| {
                let y = self.model.point(j);
                (0..mu.len()).map(|c| -0.5 * LOG_2PI - self.bandwidth[c].ln() - 0.5 * ((mu[c] - y[c]) / self.bandwidth[c]).powi(2)).sum::<f64>()
            })
            .collect();
        log_sum_exp(&terms) - (terms.len() as f64).ln() + kde_rho
    }

    /// One draw (μ, ρ) from q.
    pub fn draw(&self, rng: &mut ChainRng) -> (Vec<f64>, Vec<f64>) {
        if uniform(rng) < PRIOR_SHARE {
            self.draw_prior(rng)
        } else {
            self.draw_kernel(rng)
        }
    }

    /// One draw (μ, ρ) from one component's prior p(μ, ρ).
    pub fn draw_prior(&self, rng: &mut ChainRng) -> (Vec<f64>, Vec<f64>) {
        let rho: Vec<f64> = (0..self.bandwidth.len()).map(|_| -standard_exponential(rng).ln()).collect();
        let mu = rho.iter().map(|r| 2.0 * (0.5 * r).exp() * standard_normal(rng)).collect();
        (mu, rho)
    }

    /// One draw (μ, ρ) from q's data part: a chunk point plus N(0, h²), ρ ~ N(2 log h, 1).
    pub fn draw_kernel(&self, rng: &mut ChainRng) -> (Vec<f64>, Vec<f64>) {
        let y = self.model.point(self.chunk.start + index_below(rng, self.chunk.len()));
        let mu = (0..self.bandwidth.len()).map(|c| y[c] + self.bandwidth[c] * standard_normal(rng)).collect();
        let rho = self.bandwidth.iter().map(|h| 2.0 * h.ln() + standard_normal(rng)).collect();
        (mu, rho)
    }

    /// The mixture whose data the proposal draws from.
    pub fn model(&self) -> &GaussianMixture {
        self.model
    }

    /// The chunk's data range.
    pub fn chunk(&self) -> std::ops::Range<usize> {
        self.chunk.clone()
    }
}

/// The index of the component with the smallest weight β_k (z_K ≡ 0).
pub fn lightest_component(theta: &[f64], k: usize) -> usize {
    (0..k).min_by(|&a, &b| weight_logit(theta, a, k).total_cmp(&weight_logit(theta, b, k))).unwrap_or(0)
}

fn weight_logit(theta: &[f64], c: usize, k: usize) -> f64 {
    if c + 1 == k { 0.0 } else { theta[c] }
}

/// θ with component c's means and log-variances replaced (layout of src/model/gmm.rs: z, μ, ρ).
pub(crate) fn with_component(theta: &[f64], model: &GaussianMixture, c: usize, mu: &[f64], rho: &[f64]) -> Vec<f64> {
    let (k, p) = (model.n_components(), model.point_dim());
    let mut out = theta.to_vec();
    out[k - 1 + c * p..k - 1 + (c + 1) * p].copy_from_slice(mu);
    out[k - 1 + k * p + c * p..k - 1 + k * p + (c + 1) * p].copy_from_slice(rho);
    out
}

pub(crate) fn component_of(theta: &[f64], model: &GaussianMixture, c: usize) -> (Vec<f64>, Vec<f64>) {
    let (k, p) = (model.n_components(), model.point_dim());
    (theta[k - 1 + c * p..k - 1 + (c + 1) * p].to_vec(), theta[k - 1 + k * p + c * p..k - 1 + k * p + (c + 1) * p].to_vec())
}

pub(crate) fn log_lik_sum(model: &GaussianMixture, range: std::ops::Range<usize>, theta: &[f64]) -> f64 {
    range.map(|j| model.log_lik(j, theta)).sum()
}

/// One two-stage MH move of the lightest component of `theta` for f^(λ) with chunk `q.chunk`
/// at inverse temperature `lambda` and the full history 0..`history_len` ((SGAIS.16)–(SGAIS.17)).
pub fn reseed_lightest(q: &ReseedProposal, lambda: f64, history_len: usize, theta: &mut Vec<f64>, rng: &mut ChainRng) -> ReseedOutcome {
    let c = lightest_component(theta, q.model.n_components());
    reseed_component(q, lambda, history_len, c, theta, rng)
}

/// The same two-stage move for component `c`, whatever its weight ((SGAIS.17); the choice of c
/// must not depend on the component's means and log-variances, which the move changes).
pub fn reseed_component(q: &ReseedProposal, lambda: f64, history_len: usize, c: usize, theta: &mut Vec<f64>, rng: &mut ChainRng) -> ReseedOutcome {
    let model = q.model;
    let (mu, rho) = component_of(theta, model, c);
    let (new_mu, new_rho) = q.draw(rng);
    let proposal = with_component(theta, model, c, &new_mu, &new_rho);
    let chunk_gain = lambda * (log_lik_sum(model, q.chunk.clone(), &proposal) - log_lik_sum(model, q.chunk.clone(), theta));
    let prior_gain = ReseedProposal::log_component_prior(&new_mu, &new_rho) - ReseedProposal::log_component_prior(&mu, &rho);
    let proposal_ratio = q.log_density(&mu, &rho) - q.log_density(&new_mu, &new_rho);
    accept_in_two_stages(model, q.chunk.len(), history_len, chunk_gain + prior_gain + proposal_ratio, proposal, theta, rng)
}

/// The two stages every re-seeding move shares ((SGAIS.17)): stage one accepts on the chunk's log
/// ratio `stage_one` (two evaluations per chunk point), stage two on the history's likelihood
/// ratio, evaluated only for proposals that passed stage one.
pub(crate) fn accept_in_two_stages(model: &GaussianMixture, chunk_len: usize, history_len: usize, stage_one: f64, proposal: Vec<f64>, theta: &mut Vec<f64>, rng: &mut ChainRng) -> ReseedOutcome {
    let mut outcome = ReseedOutcome { accepted: false, datum_evals: 2 * chunk_len as u64 };
    if !(uniform(rng).ln() < stage_one) {
        return outcome;
    }
    let history_gain = log_lik_sum(model, 0..history_len, &proposal) - log_lik_sum(model, 0..history_len, theta);
    outcome.datum_evals += 2 * history_len as u64;
    if uniform(rng).ln() < history_gain {
        *theta = proposal;
        outcome.accepted = true;
    }
    outcome
}
