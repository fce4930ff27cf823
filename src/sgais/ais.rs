//! The paper's reference (§6.1, Appendix A): annealed importance sampling on the full data with
//! the same SGHMC kernel and the same adaptive schedule, f^(λ)(θ) = p(D | θ)^λ p(θ).
//!
//! This is exactly an SGAIS run whose only chunk is the whole data set: the history is empty, so
//! the eq. 4 potential reduces to −λ log p(D | θ) − log p(θ) with full-data gradients, and the
//! weight increments use the full-data likelihood. The kernel settings are SGAIS's (M, K, ESS*,
//! lr and its η scaling, α, the noise correction, which has nothing to correct without a
//! minibatch), so the two are compared at equal settings; with `eta_scale = tempered`, η = lr/(λN)
//! follows the data count of the tempered target as in SGAIS.
//!
//! Give the baseline its own seed ([`baseline_seed`]): with the SGAIS seed both would start from
//! the same prior particles and their errors would be correlated.

use super::models::EvidenceModel;
use super::replicas::split_mix;
use super::run::SgaisRun;
use super::SgaisConfig;
use std::sync::Arc;

/// A chunkable full-data AIS run over the first `n` data (drive it with `advance` or `run_to_end`).
pub fn ais_run(model: Arc<dyn EvidenceModel>, config: &SgaisConfig, n: usize, seed: u64) -> SgaisRun {
    let n = n.clamp(1, model.n_data());
    let config = SgaisConfig { chunk_size: n, reservoir_size: 0, ..config.clone() };
    SgaisRun::new(model, config, n, seed)
}

/// The AIS baseline's seed for an SGAIS run seeded with `seed`: a scrambled, unrelated stream.
pub fn baseline_seed(seed: u64) -> u64 {
    split_mix(seed ^ 0xa15_ba5e_11e5)
}
