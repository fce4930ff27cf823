//! The page's "Run 4 chains" (issue 24): several chains of the lab's current setting from
//! over-dispersed starts ([`crate::multichain`]), with rank-normalised split-R̂, bulk and tail ESS
//! and the MCSE of the mean per coordinate (Vehtari et al. 2021, §4.2–4.4).

use super::Lab;
use crate::chain::{Chain, ChainConfig};
use serde_json::{json, Value};

impl Lab {
    /// `chains` chains of `steps` steps each at this lab's target, sampler, settings and data (chain
    /// i with seed `seed + i`, all on this lab's target), started on an ellipse at 80 % of the view; JSON
    /// `{chains, steps, coordinates: [{name, rhat, ess_bulk, ess_tail, mean, mcse_mean}]}`.
    pub fn multichain_json(&self, chains: usize, steps: u64) -> Result<Value, String> {
        if chains < 2 {
            return Err(format!("chains: {chains} is not allowed; R̂ needs at least 2 chains"));
        }
        if steps < 4 {
            return Err(format!("steps: {steps} is not allowed; each chain needs at least 4 steps to split in halves"));
        }
        // Every chain runs on this lab's target (its data built once, uploaded data included).
        let model = self.chain().shared_model();
        let build = move |config: &ChainConfig| Chain::with_model(config, model.clone());
        let result = crate::multichain::diagnose_with(&build, self.config(), chains, steps)?;
        let names = self.chain().model().coordinate_names();
        let coordinates: Vec<Value> = result
            .iter()
            .zip(&names)
            .map(|(c, name)| {
                json!({"name": name, "rhat": c.rhat, "ess_bulk": c.ess_bulk, "ess_tail": c.ess_tail,
                       "mean": c.mean, "mcse_mean": c.mcse_mean})
            })
            .collect();
        Ok(json!({"chains": chains, "steps": steps, "coordinates": coordinates}))
    }
}
