//! The paper's reference (§6.1, Appendix A): annealed importance sampling on the full data with
//! the same SGHMC kernel and the same adaptive schedule, f^(λ)(θ) = p(D | θ)^λ p(θ).
//!
//! This is exactly an SGAIS run whose only chunk is the whole data set: the history is empty, so
//! the eq. 4 potential reduces to −λ log p(D | θ) − log p(θ) with full-data gradients, and the
//! weight increments use the full-data likelihood. η = lr/N with N the data size, as in SGAIS.

use super::models::EvidenceModel;
use super::run::SgaisRun;
use super::SgaisConfig;
use std::sync::Arc;

/// A chunkable full-data AIS run over the first `n` data (drive it with `advance` or `run_to_end`).
pub fn ais_run(model: Arc<dyn EvidenceModel>, config: &SgaisConfig, n: usize, seed: u64) -> SgaisRun {
    let n = n.clamp(1, model.n_data());
    let config = SgaisConfig { chunk_size: n, reservoir_size: 0, ..config.clone() };
    SgaisRun::new(model, config, n, seed)
}
