//! Spending the annealing work where the data surprise the particles (issue 22; docs/sgais.md §10,
//! (SGAIS.18)–(SGAIS.19)). When a chunk C of m data starts (λ = 0) the particles should follow the
//! posterior of the n data before it. If the data are exchangeable and that posterior is close to
//! its Bernstein–von Mises normal N(θ̂, (n I)⁻¹) (d parameters, I the Fisher information per datum),
//! the chunk's log-likelihood L = Σ_{j∈C} log p(y_j | θ) varies across the particles by
//!
//! (SGAIS.18)  Var_θ(L) ≈ (m/n)(1 + m/n)·X + ½ d (m/n)²,   X ~ χ²_d over chunks,
//!
//! the first term from the chunk's score s_C ~ N(0, m(1 + m/n) I) through the posterior covariance,
//! the second from the chunk's curvature m I. A chunk whose sample variance over the M particles
//! lies far above this is one the particles did not expect: after a change point the posterior of
//! the data so far says nothing about the new points, and the particles must travel during the
//! chunk's annealing (docs/sgais.md §10). The threshold is the (1 − α/2) quantiles of both χ²s,
//! the chunk-to-chunk one (χ²_d) and the sample variance's (χ²_{ν}/ν, ν = ESS* − 1: after
//! resampling at every temperature about ESS* of the M particles are distinct), with α = 10⁻³, so
//! that a stationary chunk is flagged with probability at most 10⁻³ (union bound):
//!
//! (SGAIS.19)  surprising ⇔ s²(L) > [(m/n)(1 + m/n) q_d + ½ d (m/n)²] · q_ν / ν,
//!             q_k the (1 − α/2) quantile of χ²_k.
//!
//! The first chunk (n = 0) is always surprising: it starts from the prior, which predicts nothing,
//! and its particles travel farthest (§10 measured that the extra work on the change point alone
//! leaves most of the gap; the first chunk decides which light components are left for it).
//! Choosing the work for a chunk from the current particle population is an adaptive SMC choice
//! like the adaptive temperatures themselves (§2): every move is still the same SGHMC kernel for
//! the same annealed target f^(λ) (SGAIS.2), only how many of them and how small the steps between
//! temperatures change.

/// z of the standard normal's 1 − α/2 quantile for α = 10⁻³ (Φ⁻¹(0.9995) = 3.2905).
const Z_FALSE_ALARM: f64 = 3.290_526_731_491_926;

/// The (1 − α/2) quantile of χ²_k, α = 10⁻³, by Wilson–Hilferty: k(1 − 2/(9k) + z√(2/(9k)))³.
pub fn chi_square_upper(k: f64) -> f64 {
    let c = 2.0 / (9.0 * k);
    k * (1.0 - c + Z_FALSE_ALARM * c.sqrt()).powi(3)
}

/// (SGAIS.18)'s expected Var_θ(L) of a chunk of `m` data after `n` (d parameters), E X = d.
pub fn stationary_variance(dim: usize, n: usize, m: usize) -> f64 {
    let (d, r) = (dim as f64, m as f64 / n as f64);
    variance_given_score(d, d, r)
}

/// (SGAIS.18) with the chunk-to-chunk χ²_d term X given: (m/n)(1 + m/n)·X + ½ d (m/n)², r = m/n.
fn variance_given_score(x: f64, d: f64, r: f64) -> f64 {
    r * (1.0 + r) * x + 0.5 * d * r * r
}

/// (SGAIS.19)'s threshold on the sample variance of L over the particles; 0 for the first chunk
/// (no posterior yet: every chunk from the prior is a surprise).
pub fn surprise_threshold(dim: usize, n: usize, m: usize, target_ess: f64) -> f64 {
    if n == 0 || dim == 0 {
        return 0.0;
    }
    let (d, r) = (dim as f64, m as f64 / n as f64);
    let nu = (target_ess - 1.0).max(1.0);
    variance_given_score(chi_square_upper(d), d, r) * chi_square_upper(nu) / nu
}

/// The sample variance of the finite chunk log-likelihoods (0 with fewer than two).
pub fn log_lik_variance(chunk_log_lik: &[f64]) -> f64 {
    let finite: Vec<f64> = chunk_log_lik.iter().copied().filter(|l| l.is_finite()).collect();
    if finite.len() < 2 {
        return 0.0;
    }
    let mean = finite.iter().sum::<f64>() / finite.len() as f64;
    finite.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (finite.len() - 1) as f64
}

/// What the rule saw at one chunk's start: s²(L), the threshold, and whether the chunk is boosted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChunkSurprise {
    /// The chunk's end (data annealed in once it finishes).
    pub n: usize,
    pub variance: f64,
    pub threshold: f64,
    pub surprising: bool,
}

/// (SGAIS.19) for the chunk `n..n + m` from its log-likelihoods at the particles at λ = 0.
pub fn chunk_surprise(chunk_log_lik: &[f64], dim: usize, n: usize, m: usize, target_ess: f64) -> ChunkSurprise {
    let variance = log_lik_variance(chunk_log_lik);
    let threshold = surprise_threshold(dim, n, m, target_ess);
    ChunkSurprise { n: n + m, variance, threshold, surprising: variance > threshold }
}

/// The extra work a surprising chunk gets: the target ESS raised to `ess_fraction`·M (smaller
/// temperature steps) and `move_factor` times the SGHMC moves per temperature. The values are
/// the combination measured in docs/sgais.md §10 (ESS* = 45 of M = 50 and twice S = 20);
/// `reseed` adds the re-seeding move of src/sgais/reseed.rs on those chunks only (mixtures with
/// the full history): at a change point the annealed target puts a component on each new cluster
/// from a tiny λ on, which SGHMC's local steps reach only late in the chunk, so the particles lag
/// and the increment comes out low (docs/sgais.md §10, "Why in order is the lower").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurpriseBoost {
    pub ess_fraction: f64,
    pub move_factor: usize,
    pub reseed: bool,
}

impl SurpriseBoost {
    pub const MEASURED: SurpriseBoost = SurpriseBoost { ess_fraction: 0.9, move_factor: 2, reseed: true };

    /// The target ESS of a boosted chunk: the larger of ESS* and `ess_fraction`·M.
    pub fn target_ess(&self, target_ess: f64, particles: usize) -> f64 {
        target_ess.max(self.ess_fraction * particles as f64)
    }
}

/// The registry's `surprise_rule` (choice index: 0 auto, 1 off, 2 on) as the run's extra work:
/// `auto` is on for data that shift and off for stationary data, the default decided by the
/// measurements of docs/sgais.md §10 (on the shift data at N = 10⁵, before the re-seeding move
/// joined it, it brought K = 5's orders within 0.1 %, not K = 3's or 7's; with the move the first
/// change point's orders agree within 0.1 %; on stationary data it only adds the first chunk's
/// extra work).
pub fn rule_boost(rule: usize, shifting: bool) -> Option<SurpriseBoost> {
    match rule {
        1 => None,
        2 => Some(SurpriseBoost::MEASURED),
        _ => shifting.then_some(SurpriseBoost::MEASURED),
    }
}
