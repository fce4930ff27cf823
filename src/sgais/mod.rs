//! SGAIS — stochastic gradient annealed importance sampling (Cameron, Eggers, Kroon 2019,
//! Entropy 21:1109; ALGORITHMS.md §6): online estimation of the evidence log Z = Σ_n log p(y_n | y_<n)
//! by sequential Bayesian updating in chunks, each chunk annealed in adaptively (target ESS,
//! [`annealing`]), with SGHMC moves on the minibatch potential of eq. 4 ([`sghmc`]) whose history
//! minibatches come from the whole history or a reservoir ([`reservoir`]).
//!
//! - [`run::SgaisRun`] is the chunkable driver: `advance(budget)` does a bounded amount of work and
//!   returns the chunks it finished, so a browser frame or a CLI loop can drive it.
//! - [`ais::ais_run`] is the paper's reference: AIS on the full data with the same kernel.
//! - [`models`] holds the paper's three models (Appendix B) and the exact linear-regression evidence.
//! - [`cli::evidence_cli`] is the `sgviz evidence` subcommand.
//!
//! The run's parameters are [`PARAMS`] (also exported as [`SGAIS_PARAMS`]); the models' parameters
//! are in [`models::EVIDENCE_TARGETS`].

pub mod ais;
pub mod job;
pub mod annealing;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod models;
pub mod reservoir;
pub mod run;
pub mod sghmc;

use crate::params::{ParamSpec, ParamValues};

/// SGAIS parameters; defaults are the paper's §6.1 (minibatch 500 = chunk, η = 0.1/N, α = 0.2,
/// β̂ = 0, M = 10, K = 20, ESS* = 5, no resampling, full history).
pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::integer("particles", "Particles", "M", "Number of annealed particles", 2.0, 1000.0, 10.0, true),
    ParamSpec::log("target_ess", "Target ESS", "ESS*", "Each annealing increment Δ is chosen so that the ESS of the incremental weights equals this (capped at M)", 1.0, 1000.0, 5.0),
    ParamSpec::integer("burn_in_steps", "SGHMC steps per temperature", "K", "SGHMC steps applied to every particle after each annealing increment", 1.0, 1000.0, 20.0, true),
    ParamSpec::log("learning_rate", "Learning rate (per observation)", "lr", "η = lr / N (paper: lr = 0.1)", 1e-4, 10.0, 0.1),
    ParamSpec::choice("eta_scale", "N in η = lr/N", "N", "total: N = size of the whole data set (paper); seen: N = data seen so far (for streams of unknown length)", &["total", "seen"], 0),
    ParamSpec::linear("friction", "Friction", "α", "1 − α is the momentum decay of SGHMC (eq. 3)", 0.001, 1.0, 0.2),
    ParamSpec::linear("noise_estimate", "Gradient-noise estimate", "β̂", "Subtracted from α in the injected noise 2(α − β̂)η; must not exceed α", 0.0, 1.0, 0.0),
    ParamSpec::integer("batch_size", "History minibatch", "|B|", "Size of the history minibatch drawn with replacement (eq. 4)", 1.0, 100_000.0, 500.0, true),
    ParamSpec::integer("chunk_size", "Chunk size", "|C|", "Data added per Bayesian update (paper: = minibatch size)", 1.0, 100_000.0, 500.0, true),
    ParamSpec::choice("resampling", "Resampling", "", "off: plain Algorithm 1; always: resample before every move; when_low: when the ESS of the weights falls below ESS*", &["off", "always", "when_low"], 0),
    ParamSpec::integer("reservoir_size", "Reservoir size", "R", "0 keeps the whole history; otherwise minibatches come from a uniform reservoir of R past data (Algorithm R)", 0.0, 1e6, 0.0, false),
];

/// The same list under the name the UI and CLI use.
pub const SGAIS_PARAMS: &[ParamSpec] = PARAMS;

/// How N in η = lr/N is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EtaScale {
    /// N = size of the whole data set being processed (paper §6.1, η = 0.1/N).
    Total,
    /// N = number of data seen so far, including the chunk being annealed.
    Seen,
}

/// When particles are resampled (paper §3: optional, before the MCMC move, then w_i ← mean w).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resampling {
    Off,
    Always,
    WhenLow,
}

/// Validated SGAIS settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SgaisConfig {
    pub particles: usize,
    pub target_ess: f64,
    pub burn_in_steps: usize,
    pub learning_rate: f64,
    pub eta_scale: EtaScale,
    pub friction: f64,
    pub noise_estimate: f64,
    pub batch_size: usize,
    pub chunk_size: usize,
    pub resampling: Resampling,
    pub reservoir_size: usize,
}

impl SgaisConfig {
    /// Settings from values of [`PARAMS`]; refuses β̂ > α and ESS* ≥ M.
    pub fn from_values(values: &ParamValues) -> Result<Self, String> {
        let config = SgaisConfig {
            particles: values.get_usize("particles"),
            target_ess: values.get("target_ess"),
            burn_in_steps: values.get_usize("burn_in_steps"),
            learning_rate: values.get("learning_rate"),
            eta_scale: if values.get_usize("eta_scale") == 0 { EtaScale::Total } else { EtaScale::Seen },
            friction: values.get("friction"),
            noise_estimate: values.get("noise_estimate"),
            batch_size: values.get_usize("batch_size"),
            chunk_size: values.get_usize("chunk_size"),
            resampling: [Resampling::Off, Resampling::Always, Resampling::WhenLow][values.get_usize("resampling").min(2)],
            reservoir_size: values.get_usize("reservoir_size"),
        };
        if config.target_ess >= config.particles as f64 {
            // ESS(Δ) < M for every Δ > 0 unless all chunk likelihoods are equal, so a target ≥ M
            // would force Δ → 0 and the annealing would never finish.
            return Err(format!("target_ess: ESS* = {} is not below the number of particles M = {}; allowed: ESS* < M", config.target_ess, config.particles));
        }
        if config.noise_estimate > config.friction {
            return Err(format!("noise_estimate: β̂ = {} exceeds the friction α = {}; allowed: β̂ ≤ α", config.noise_estimate, config.friction));
        }
        Ok(config)
    }

    /// The paper's defaults (§6.1).
    pub fn paper_defaults() -> Self {
        Self::from_values(&ParamValues::defaults(PARAMS)).expect("defaults are valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_names_do_not_clash_with_model_parameters() {
        for spec in PARAMS {
            spec.check(spec.default).unwrap();
        }
        for target in models::EVIDENCE_TARGETS {
            for p in target.params {
                assert!(!PARAMS.iter().any(|q| q.name == p.name), "{} in SGAIS and {}", p.name, target.name);
                p.check(p.default).unwrap();
            }
        }
        let c = SgaisConfig::paper_defaults();
        assert_eq!((c.particles, c.burn_in_steps, c.batch_size, c.chunk_size), (10, 20, 500, 500));
        assert_eq!((c.target_ess, c.learning_rate, c.friction, c.noise_estimate), (5.0, 0.1, 0.2, 0.0));
    }
}
