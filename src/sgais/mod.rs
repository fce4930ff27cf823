//! SGAIS — stochastic gradient annealed importance sampling (Cameron, Eggers, Kroon 2019,
//! Entropy 21:1109; docs/sgais.md): online estimation of the evidence log Z = Σ_n log p(y_n | y_<n)
//! by sequential Bayesian updating in chunks, each chunk annealed in adaptively (target ESS,
//! [`annealing`]), with SGHMC moves on the minibatch potential of eq. 4 ([`sghmc`]) whose history
//! minibatches come from the whole history or a reservoir ([`reservoir`]).
//!
//! - [`run::SgaisRun`] is the chunkable driver: `advance(budget)` does a bounded amount of work and
//!   returns the chunks it finished, so a browser frame or a CLI loop can drive it.
//! - [`noise`] estimates the covariance of the minibatch gradient for SGHMC's β̂ (eq. 3).
//! - [`replicas`] runs independent replicas and reports log Ẑ ± its standard error, per-chunk
//!   curves with their spread and the ESS in words; [`job::RunSpec`] builds one replica (or the AIS
//!   baseline) from the page's JSON, so each can run in its own Web Worker; [`agreement`] flags
//!   replicas that scatter beyond what their own weights predict.
//! - [`shift`] is the paper's §6.2 distribution shift at its scale, with change-point markers and
//!   the evidence-based model comparison; [`charts`] builds the chart specs.
//! - [`ais::ais_run`] is the paper's reference: AIS on the full data with the same kernel, seeded
//!   with [`ais::baseline_seed`].
//! - [`nested::NestedRun`] is the paper's other reference standard: Skilling's nested sampling with
//!   the constrained SGHMC of Appendix A.1, log Ẑ ± √(H/M).
//! - [`laplace_reference`] is an independent reference log Z for the mixture and [`coverage`] counts
//!   the data clusters a mixture particle covers (diagnostics for tests and examples).
//! - [`models`] holds the paper's three models (Appendix B) and the exact linear-regression evidence.
//! - [`cli::evidence_cli`] is the `sgviz evidence` subcommand.
//!
//! The run's parameters are [`PARAMS`] (also exported as [`SGAIS_PARAMS`]), with per-model
//! defaults in the `model_defaults` table; the models' parameters are in
//! [`models::EVIDENCE_TARGETS`].

pub mod agreement;
pub mod ais;
pub mod job;
pub mod laplace_move;
pub mod annealing;
pub mod charts;
pub mod coverage;
pub mod epoch_covariance;
pub mod gallery;
pub mod shift_data;
pub mod format;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(not(target_arch = "wasm32"))]
pub mod laplace_reference;
pub mod softmax_reference;
pub mod models;
pub mod model_defaults;
pub mod mixture1d;
pub mod nested;
pub mod nested_page;
pub mod page;
pub mod prefix;
pub mod noise;
pub mod replicas;
pub mod reseed;
pub mod reseed_weight;
pub mod reseed_split;
pub mod reservoir;
pub mod run;
pub mod sghmc;
pub mod shift;
pub mod shift_verdict;
pub mod spread;
pub mod surprise;
pub mod surprise_note;
pub mod warning;

use crate::params::{ParamSpec, ParamValues};
use serde::Serialize;

/// SGAIS parameters. The defaults are the accurate settings chosen by measurement (BENCHMARKS.md,
/// "SGAIS defaults"); the paper's §6.1 settings are the preset [`PAPER_PRESET`].
pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::integer("particles", "Particles", "M", "Number of annealed particles", 2.0, 1000.0, DEFAULTS.particles, true).primary(),
    ParamSpec::log("target_ess", "Target ESS", "ESS*", "Each annealing increment Δ is chosen so that the ESS of the incremental weights equals this (must be below M)", 1.0, 1000.0, DEFAULTS.target_ess),
    ParamSpec::integer("burn_in_steps", "SGHMC steps per temperature", "S", "SGHMC steps applied to every particle after each annealing increment (K in the SGAIS paper; S here, since K is the number of mixture components)", 1.0, 1000.0, DEFAULTS.burn_in_steps, true),
    ParamSpec::log("learning_rate", "Learning rate (per observation)", "lr", "η = lr / N (paper: lr = 0.1); with the estimated noise correction η is also capped so that gradient noise stays below its share of the injected noise", 1e-4, 10.0, DEFAULTS.learning_rate),
    ParamSpec::choice("eta_scale", "N in η = lr/N", "N", "total: N = size of the whole data set (paper); seen: N = data seen once the current chunk is in; tempered: N = previous data + λ·chunk, the data count of the current intermediate distribution (also the one that suits full-data AIS)", &["total", "seen", "tempered"], DEFAULTS.eta_scale),
    ParamSpec::linear("friction", "Friction", "κ", "κ (α in the SGAIS paper's eq. 3; κ on this page, as for SGHMC, since α is SGFS's noise level): 1 − κ is the momentum decay of SGHMC", 0.001, 1.0, DEFAULTS.friction),
    ParamSpec::choice("noise_correction", "Gradient-noise correction", "β̂", "fixed: β̂ is the number below (paper: 0); estimated: β̂ = η V̂/2 with V̂ the covariance of the minibatch gradient, estimated from per-datum scores at every chunk (Chen, Fox & Guestrin 2014, §3.2), and η capped so that β̂ ≤ s_max·κ", &["fixed", "estimated"], DEFAULTS.noise_correction),
    ParamSpec::linear("noise_estimate", "Gradient-noise estimate", "β̂", "Fixed β̂, subtracted from κ in the injected noise 2(κ − β̂)η; must not exceed κ", 0.0, 1.0, 0.0).shown_when("noise_correction", &[0.0]),
    ParamSpec::linear("max_noise_share", "Largest gradient-noise share", "s_max", "With the estimated correction, η is capped so that the minibatch gradient noise supplies at most this fraction s_max of SGHMC's noise (β̂ ≤ s_max·κ)", 0.05, 0.95, DEFAULTS.max_noise_share).shown_when("noise_correction", &[1.0]),
    ParamSpec::integer("batch_size", "History minibatch", "|B|", "Size of the history minibatch drawn with replacement (eq. 4)", 1.0, 100_000.0, DEFAULTS.batch_size, true),
    ParamSpec::integer("chunk_size", "Chunk size", "|C|", "Data added per Bayesian update (paper: = minibatch size)", 1.0, 100_000.0, DEFAULTS.chunk_size, true),
    ParamSpec::choice("resampling", "Resampling", "", "off: plain Algorithm 1; always: resample before every move; when_low: when the ESS of the weights falls below ESS*", &["off", "always", "when_low"], DEFAULTS.resampling),
    ParamSpec::integer("reservoir_size", "Reservoir size", "R", "0 keeps the whole history; otherwise minibatches come from a uniform reservoir of R past data (Algorithm R)", 0.0, 1e6, 0.0, false),
    ParamSpec::choice("surprise_rule", "Extra work on surprising chunks", "", "A chunk whose log-likelihood varies across the particles far beyond what exchangeable data predict (docs/sgais.md (SGAIS.19)), and the first chunk, gets ESS* = 0.9 M, twice the SGHMC steps per temperature and, for a mixture, a move that re-seeds its lightest component from the chunk's data (docs/sgais.md (SGAIS.16)); with the rule on, a chunk whose end finds the particles lagging the posterior also gets a Laplace independence move (docs/sgais.md (SGAIS.26)). auto: on for data that shift (the mixture's distribution-shift scenarios), off for stationary data (measured, docs/sgais.md §10); on / off: always / never", &["auto", "off", "on"], 0),
];

/// The default values of [`PARAMS`] in one place (choices as indices).
struct Defaults {
    particles: f64,
    target_ess: f64,
    burn_in_steps: f64,
    learning_rate: f64,
    eta_scale: usize,
    friction: f64,
    noise_correction: usize,
    max_noise_share: f64,
    batch_size: f64,
    chunk_size: f64,
    resampling: usize,
}

/// Chosen by a one-at-a-time sweep on linear regression with exact log Z (`node
/// bench/sgais-defaults.mjs`, table in BENCHMARKS.md "SGAIS defaults"; log Ẑ − log Z, mean ± sd
/// over data sets, at N = 2·10³ / 10⁵):
/// - defaults: +0.09 ± 0.50 / −0.57 ± 0.67 nats, 9·10⁷ datum evaluations (≈ 1 CPU-s) at 10⁵;
///   the paper's §6.1 settings: −5.2 ± 5.0 / −82 ± 26 at about the same cost;
/// - resampling off: −5.1 / −11.5 (the weights degenerate; when_low is as good as always);
/// - η = lr/N ("total") or lr/(chunk end) ("seen"): +15 / +23 and +13 / +14 — early chunks are
///   annealed with particles that barely move, and the adaptive schedule then biases log Ẑ up;
/// - lr 0.05 / 0.1: −1.3 / −2.0 at σ = 0.5 (discretisation; ηH = lr/σ²); lr 0.005: sd 2.5 at 10⁵;
/// - β̂ = 0: −2.4 ± 2.0 at 10⁵ and growing with N (the gradient noise is ≈ lr·n/(2α|B|) times the
///   injected noise); κ = 0.25 or 0.9 change nothing measurable;
/// - M = 20: −1.8 ± 2.5 at 10⁵; M = 100: −0.5 ± 0.3 at twice the cost; K = 5: −2.9 ± 3.2;
///   K = 20, |B| = 1,000, |C| = 500 cost 1.2–1.9× more for no gain; α = 0.5 is as good.
const DEFAULTS: Defaults = Defaults {
    particles: 50.0,
    target_ess: 25.0,
    burn_in_steps: 10.0,
    learning_rate: 0.02,
    eta_scale: 2,
    friction: 0.2,
    noise_correction: 1,
    max_noise_share: 0.5,
    batch_size: 500.0,
    chunk_size: 1000.0,
    resampling: 1,
};

/// The same list under the name the UI and CLI use.
pub const SGAIS_PARAMS: &[ParamSpec] = PARAMS;

/// A named set of SGAIS settings (values override the defaults of [`PARAMS`]).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Preset {
    pub name: &'static str,
    pub label: &'static str,
    pub description: &'static str,
    /// `(parameter, value)`; choices by name.
    pub settings: &'static [(&'static str, &'static str)],
}

/// The paper's algorithm and settings (§6.1, used for Fig. 2): minibatch = chunk = 500,
/// η = 0.1/N with N the whole data set, α = 0.2, β̂ = 0, M = 10 particles, K = 20 SGHMC steps per
/// temperature, ESS* = 5, no resampling, full history.
pub const PAPER_PRESET: Preset = Preset {
    name: "paper",
    label: "Paper defaults (§6.1, Fig. 2)",
    description: "Cameron, Eggers & Kroon 2019, §6.1: M = 10, ESS* = 5, K = 20, η = 0.1/N, α = 0.2, β̂ = 0, |B| = |C| = 500, no resampling",
    settings: &[
        ("particles", "10"),
        ("target_ess", "5"),
        ("burn_in_steps", "20"),
        ("learning_rate", "0.1"),
        ("eta_scale", "total"),
        ("friction", "0.2"),
        ("noise_correction", "fixed"),
        ("noise_estimate", "0"),
        ("batch_size", "500"),
        ("chunk_size", "500"),
        ("resampling", "off"),
        ("reservoir_size", "0"),
    ],
};

/// The accurate defaults (no overrides), listed as a preset so that the page can return to them.
pub const DEFAULT_PRESET: Preset =
    Preset { name: "accurate", label: "Accurate defaults", description: "The defaults chosen by measurement (BENCHMARKS.md, SGAIS defaults)", settings: &[] };

/// Every named preset.
pub const PRESETS: &[Preset] = &[DEFAULT_PRESET, PAPER_PRESET];

/// Look a preset up by name; the error lists the allowed names.
pub fn preset(name: &str) -> Result<&'static Preset, String> {
    PRESETS.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        format!("unknown SGAIS preset '{name}'; allowed: {}", names.join(", "))
    })
}

impl Preset {
    /// The settings as owned `(name, value)` pairs, to be followed by the user's own.
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.settings.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    /// The preset's values of [`PARAMS`] (defaults for what it does not set).
    pub fn values(&self) -> ParamValues {
        let mut values = ParamValues::defaults(PARAMS);
        for (name, text) in self.settings {
            let spec = PARAMS.iter().find(|s| s.name == *name).expect("preset names are parameters");
            values.set(PARAMS, name, spec.parse(text).expect("preset values are valid")).expect("preset values are valid");
        }
        values
    }
}

/// How N in η = lr/N is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EtaScale {
    /// N = size of the whole data set being processed (paper §6.1, η = 0.1/N).
    Total,
    /// N = number of data seen so far, including the chunk being annealed.
    Seen,
    /// N = n_prev + λ·|C|: the effective data count of the intermediate distribution f_n^(λ)
    /// (eq. 2), at least 1. Full-data AIS is the case n_prev = 0, |C| = N.
    Tempered,
}

/// When particles are resampled (paper §3: optional, before the MCMC move, then w_i ← mean w).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resampling {
    Off,
    Always,
    WhenLow,
}

/// Where SGHMC's β̂ (eq. 3) comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NoiseCorrection {
    /// A fixed scalar β̂ ≤ α (paper: 0).
    Fixed(f64),
    /// B̂ = η V̂/2 with V̂ the estimated covariance of the minibatch gradient (Chen et al. 2014 §3.2;
    /// docs/sghmc.md §2), and η capped so that η λ_max(V̂)/2 ≤ κα; κ = `max_share`.
    Estimated { max_share: f64 },
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
    pub noise_correction: NoiseCorrection,
    pub batch_size: usize,
    pub chunk_size: usize,
    pub resampling: Resampling,
    pub reservoir_size: usize,
    /// After every annealing step's SGHMC moves, one re-seeding move of each particle's lightest
    /// mixture component (src/sgais/reseed.rs, docs/sgais.md (SGAIS.16)); mixtures with the full
    /// history only. Not a registry parameter and off by default: measured in docs/sgais.md §10,
    /// it removes one failure at a change point but does not make the shift orders agree.
    pub reseed_components: bool,
    /// Which re-seeding moves run where `reseed_components` or the surprise rule asks for them
    /// (docs/sgais.md §10, "A move that re-weights").
    pub reseed_moves: ReseedMoves,
    /// How many times per annealing step each particle is offered the re-seeding moves (1: once).
    pub reseed_offers: usize,
    /// The weight-changing move's choice bias a, P(k | θ) ∝ β_k^(−a) (0: uniform; docs/sgais.md
    /// (SGAIS.23)).
    pub reseed_light_bias: f64,
    /// Extra work for chunks whose log-likelihoods vary across the particles far beyond what an
    /// exchangeable stream predicts (src/sgais/surprise.rs, docs/sgais.md (SGAIS.19)); None: every
    /// chunk gets the same work. From the registry's `surprise_rule` ([`SgaisConfig::for_data`]).
    pub surprise_boost: Option<surprise::SurpriseBoost>,
    /// At each chunk's end, when particle 0's Newton decrement says the particles lag behind the
    /// posterior, a Laplace independence move for every particle (src/sgais/laplace_move.rs,
    /// docs/sgais.md (SGAIS.26)–(SGAIS.27)); full history only. On with the surprise rule
    /// ([`SgaisConfig::for_data`]).
    pub laplace_move: bool,
    /// The first chunk is annealed in from the prior, as full-data AIS is: its ESS* is at least
    /// this share of M (0: the run's ESS*), the model's AIS share ([`ais::first_chunk_as_ais`],
    /// docs/sgais.md §15).
    pub first_chunk_ess_share: f64,
}

/// The re-seeding moves of a particle per annealing step: the lightest component's, weights kept
/// (src/sgais/reseed.rs, (SGAIS.16)–(SGAIS.17)); a uniformly chosen component's with its weight
/// (src/sgais/reseed_weight.rs, (SGAIS.21)–(SGAIS.22)); or the first then the second; the
/// split/merge move of a uniformly drawn pair (src/sgais/reseed_split.rs, (SGAIS.24)–(SGAIS.25));
/// or the lightest component's then the split/merge move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ReseedMoves {
    Lightest,
    Weights,
    Both,
    Split,
    LightestSplit,
}

impl ReseedMoves {
    /// The moves the surprise rule uses (docs/sgais.md §10, "A move that re-weights").
    pub const DEFAULT: ReseedMoves = ReseedMoves::Lightest;
}

impl SgaisConfig {
    /// Settings from values of [`PARAMS`] for data that shift (`shifting`: the surprise rule's
    /// `auto` is on) or not; refuses β̂ > α and ESS* ≥ M.
    pub fn for_data(values: &ParamValues, shifting: bool) -> Result<Self, String> {
        let config = Self::from_values(values)?;
        let rule = values.try_get("surprise_rule").map_or(0, |v| v as usize);
        let surprise_boost = surprise::rule_boost(rule, shifting);
        Ok(SgaisConfig { surprise_boost, laplace_move: surprise_boost.is_some(), ..config })
    }

    /// Settings from values of [`PARAMS`] for stationary data; refuses β̂ > α and ESS* ≥ M.
    pub fn from_values(values: &ParamValues) -> Result<Self, String> {
        let config = SgaisConfig {
            particles: values.get_usize("particles"),
            target_ess: values.get("target_ess"),
            burn_in_steps: values.get_usize("burn_in_steps"),
            learning_rate: values.get("learning_rate"),
            eta_scale: [EtaScale::Total, EtaScale::Seen, EtaScale::Tempered][values.get_usize("eta_scale").min(2)],
            friction: values.get("friction"),
            noise_correction: if values.get_usize("noise_correction") == 0 {
                NoiseCorrection::Fixed(values.get("noise_estimate"))
            } else {
                NoiseCorrection::Estimated { max_share: values.get("max_noise_share") }
            },
            batch_size: values.get_usize("batch_size"),
            chunk_size: values.get_usize("chunk_size"),
            resampling: [Resampling::Off, Resampling::Always, Resampling::WhenLow][values.get_usize("resampling").min(2)],
            reservoir_size: values.get_usize("reservoir_size"),
            reseed_components: false,
            reseed_moves: ReseedMoves::DEFAULT,
            reseed_offers: 1,
            reseed_light_bias: 0.0,
            surprise_boost: surprise::rule_boost(values.try_get("surprise_rule").map_or(0, |v| v as usize), false),
            laplace_move: false,
            first_chunk_ess_share: 0.0,
        };
        if config.target_ess >= config.particles as f64 {
            // ESS(Δ) < M for every Δ > 0 unless all chunk likelihoods are equal, so a target ≥ M
            // would force Δ → 0 and the annealing would never finish.
            return Err(format!("target_ess: ESS* = {} is not below the number of particles M = {}; allowed: ESS* < M", config.target_ess, config.particles));
        }
        if let NoiseCorrection::Fixed(beta) = config.noise_correction {
            if beta > config.friction {
                return Err(format!("noise_estimate: β̂ = {beta} exceeds the friction α = {}; allowed: β̂ ≤ α", config.friction));
            }
        }
        Ok(config)
    }

    /// The accurate defaults of [`PARAMS`].
    pub fn defaults() -> Self {
        Self::from_values(&ParamValues::defaults(PARAMS)).expect("defaults are valid")
    }

    /// The paper's settings (§6.1), [`PAPER_PRESET`].
    pub fn paper_defaults() -> Self {
        Self::from_values(&PAPER_PRESET.values()).expect("the paper preset is valid")
    }
}
