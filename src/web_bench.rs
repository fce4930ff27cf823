//! wasm-only hooks for measurement and hardening tests, kept out of the page's own surface
//! ([`crate::web`]):
//! - [`BenchChain`]: a bare [`Chain`] (no drawing) so bench/bench.mjs can time the same sampler
//!   code under Node that `sgviz-bench` times natively. Timing happens in JavaScript with
//!   `performance.now()` around [`BenchChain::run`] (`std::time::Instant` panics on wasm32).
//! - [`debug_panic`]: a deliberate panic, so the end-to-end suite can check that a panic in wasm
//!   surfaces as the page's error banner instead of a dead page.

use crate::chain::{Chain, ChainConfig, ChainStatus};
use wasm_bindgen::prelude::*;

/// One chain without panels, for throughput measurements.
#[wasm_bindgen]
pub struct BenchChain {
    chain: Chain,
}

#[wasm_bindgen]
impl BenchChain {
    /// `settings_json` is an object `{name: value}` over the target's and sampler's parameters.
    #[wasm_bindgen(constructor)]
    pub fn new(target: &str, sampler: &str, settings_json: &str, seed: u32) -> Result<BenchChain, JsError> {
        let mut config = ChainConfig::new(target, sampler, seed as u64);
        let value: serde_json::Value = serde_json::from_str(settings_json).map_err(|e| JsError::new(&format!("settings are not valid JSON: {e}")))?;
        for (name, v) in value.as_object().ok_or_else(|| JsError::new("settings must be a JSON object"))? {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            config.settings.push((name.clone(), text));
        }
        Ok(BenchChain { chain: Chain::new(&config).map_err(|e| JsError::new(&e))? })
    }

    /// Run up to `steps` steps; returns how many ran.
    pub fn run(&mut self, steps: u32) -> u32 {
        self.chain.run(steps as u64) as u32
    }

    pub fn steps(&self) -> f64 {
        self.chain.steps() as f64
    }

    pub fn grad_evals(&self) -> f64 {
        self.chain.grad_evals() as f64
    }

    /// "running" or "diverged: <message>".
    pub fn status(&self) -> String {
        match self.chain.status() {
            ChainStatus::Running => "running".into(),
            ChainStatus::Diverged(m) => format!("diverged: {m}"),
        }
    }
}

/// Panic on purpose (test hook for the error banner; never called by the page itself).
#[wasm_bindgen]
pub fn debug_panic(message: &str) {
    panic!("debug_panic: {message}");
}
