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
//!
//! AIS's own settings per model ([`AIS_DEFAULTS_BY_MODEL`], [`ais_config`]; docs/sgais.md §6): a
//! full-data run anneals all N data in from the prior in one go, so on a model where the particles
//! must find the posterior's modes early (the mixture) it needs smaller temperature steps than
//! SGAIS, whose first chunk holds only |C| data. The CLI's `--ais` and the page's AIS jobs both
//! resolve AIS's settings through [`ais_config`].

use super::models::EvidenceModel;
use super::replicas::split_mix;
use super::run::SgaisRun;
use super::SgaisConfig;
use crate::params::ParamValues;
use serde::Serialize;
use std::sync::Arc;

/// A model's full-data AIS settings that differ from its SGAIS run's, with the measurement that chose them.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct AisDefaults {
    /// An evidence target's name ([`super::models::EVIDENCE_TARGETS`]).
    pub target: &'static str,
    /// AIS's target ESS is at least this share of the particles M (smaller temperature steps; more
    /// if the SGAIS run already asks for more). Below 1, so ESS* < M stays valid for any M.
    pub min_ess_share: f64,
    /// Why, in one sentence.
    pub reason: &'static str,
}

/// The mixture: at SGAIS's settings (ESS* = 25 of M = 50, K = 20, lr = 0.1) full-data AIS at
/// N = 10⁴ came out 78 nats (0.22 %) low on seed 6 (docs/sgais.md §6): annealing all the data in
/// from the prior at once, in about 30 temperatures, the particles fall behind the tempered targets
/// while the posterior is still broad (the local-mode trap of SGAIS's first chunk, §10). Twice the
/// moves per temperature (K = 40) did not help (seed 4: 57 nats low); smaller temperature steps,
/// ESS* = 0.9 M, did (docs/sgais.md §6's table), at about 2.5× the datum evaluations.
pub const AIS_DEFAULTS_BY_MODEL: &[AisDefaults] = &[AisDefaults {
    target: "gmm",
    min_ess_share: 0.9,
    reason: "Mixture: full-data AIS anneals with ESS* = 0.9 M (smaller temperature steps than SGAIS's); at SGAIS's ESS* = M/2 one run in three lost posterior mass at N = 10⁴ (docs/sgais.md §6)",
}];

/// The full-data AIS settings for a run on `target` whose SGAIS settings are `config`: the same
/// kernel and schedule, with the model's AIS overrides ([`AIS_DEFAULTS_BY_MODEL`]) laid over them.
pub fn ais_config(target: &str, config: &SgaisConfig) -> SgaisConfig {
    // Full-data AIS has one chunk from the prior and no stream: the surprise rule (which would
    // boost that chunk) is SGAIS's, not the baseline's.
    let config = SgaisConfig { surprise_boost: None, ..config.clone() };
    match AIS_DEFAULTS_BY_MODEL.iter().find(|d| d.target == target) {
        Some(d) => SgaisConfig { target_ess: config.target_ess.max(d.min_ess_share * config.particles as f64), ..config },
        None => config,
    }
}

/// The SGAIS settings for a run on `target` with the registry's `values`: its first chunk, annealed
/// in from the prior as full-data AIS is, anneals with the model's AIS share of M as its least ESS*
/// ([`AIS_DEFAULTS_BY_MODEL`]; docs/sgais.md §15: at the mixture's class size the replicas' spread
/// came from that chunk), unless `surprise_rule` is off: off is Algorithm 1 without sgviz's extra
/// work on any chunk (the gallery's paper-algorithm runs, the lecture's class-time budget).
pub fn first_chunk_as_ais(target: &str, values: &ParamValues, config: SgaisConfig) -> SgaisConfig {
    let rule_off = values.try_get("surprise_rule").is_some_and(|rule| rule as usize == 1);
    let share = AIS_DEFAULTS_BY_MODEL.iter().find(|d| d.target == target && !rule_off).map_or(0.0, |d| d.min_ess_share);
    SgaisConfig { first_chunk_ess_share: share, ..config }
}

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
