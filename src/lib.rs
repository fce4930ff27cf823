//! # sgviz — an interactive teaching lab for stochastic-gradient MCMC
//!
//! The crate is a pure Rust core (models, samplers, diagnostics, registry, plot drawing) plus a
//! thin `#[wasm_bindgen]` surface in [`web`] that only marshals values to and from JavaScript.
//! The same core drives the native CLI (`src/bin/sgviz.rs`).
//!
//! Notation follows `docs/README.md` (Notation): parameters θ ∈ R^D, data x_1..x_N, per-datum
//! log-likelihoods ℓ_i, prior p(θ), log posterior log π(θ) = log p(θ) + Σ ℓ_i(θ).

pub mod acf_fft;
pub mod analysis;
pub mod bouncy_sweep;
pub mod bound_law;
pub mod chain;
pub mod curvature;
pub mod data;
pub mod defaults;
pub mod diagnostic_help;
pub mod diagnostics;
pub mod entry_counts;
pub mod error_split;
pub mod export;
pub mod fastmath;
pub mod heldout;
pub mod knob;
pub mod knob_noise;
pub mod lab;
pub mod law;
pub mod law_validity;
pub mod linalg;
pub mod model;
pub mod multichain;
pub mod pairing;
pub mod params;
pub mod phase;
pub mod plot;
pub mod registry;
pub mod ring;
pub mod rhat;
pub mod rng;
pub mod runaway;
pub mod mixing_meter;
pub mod promise;
pub mod promise_live;
pub mod promise_memo;
pub mod promise_reach;
pub mod readable;
pub mod scan;
pub mod scan_estimator;
pub mod refresh_law;
pub mod step_law;
pub mod setting_warning;
pub mod noise_law;
pub mod sgais;
pub mod sampler;
pub mod spec;
pub mod sweep;
pub mod timeline;
pub mod truth;
pub mod truth_refine;
pub mod truth_shipped;

#[cfg(target_arch = "wasm32")]
pub mod web;
#[cfg(target_arch = "wasm32")]
pub mod web_bench;
#[cfg(target_arch = "wasm32")]
pub mod web_scan;
#[cfg(target_arch = "wasm32")]
pub mod web_nested;
#[cfg(target_arch = "wasm32")]
pub mod web_mixing;
