//! What a chain is built from: target, sampler, `name=value` settings, seed, burn-in, ring size and
//! data ([`ChainConfig`]); the chain itself is in mod.rs.

use crate::data::Dataset;

/// Default number of retained samples (the page's 2-D panel draws all of them).
pub const DEFAULT_CAPACITY: usize = 100_000;

/// Everything needed to build (and rebuild) a chain.
#[derive(Clone, Debug)]
pub struct ChainConfig {
    pub target: String,
    pub sampler: String,
    /// `name=value` settings for either the target's or the sampler's parameters.
    pub settings: Vec<(String, String)>,
    pub seed: u64,
    pub burn_in: u64,
    pub capacity: usize,
    pub data: Option<Dataset>,
}

impl ChainConfig {
    pub fn new(target: &str, sampler: &str, seed: u64) -> Self {
        ChainConfig {
            target: target.into(),
            sampler: sampler.into(),
            settings: Vec::new(),
            seed,
            burn_in: 0,
            capacity: DEFAULT_CAPACITY,
            data: None,
        }
    }

    /// Builder-style `name=value` setting.
    pub fn with(mut self, name: &str, value: impl ToString) -> Self {
        self.settings.push((name.into(), value.to_string()));
        self
    }
}
