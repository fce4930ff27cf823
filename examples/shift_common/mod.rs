//! Command line shared by the distribution-shift examples (shift_gap, shift_probe): `N K COUNT
//! [name=value ...]`, the SGAIS settings applied over the mixture's own defaults; `reseed=1` adds
//! the re-seeding move of src/sgais/reseed.rs (docs/sgais.md §10), off by default.

use sgviz::sgais::models::{evidence_target, split_settings};
use sgviz::sgais::SgaisConfig;

/// N points, K components, the third positional number (a seed or a count of seeds) and the SGAIS
/// configuration, each positional with its default when absent.
pub fn shift_args(default_n: usize, default_k: usize, default_third: u64) -> (usize, usize, u64, SgaisConfig) {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(default_n, |s| s.parse().expect("N"));
    let k: usize = args.get(2).map_or(default_k, |s| s.parse().expect("K"));
    let third: u64 = args.get(3).map_or(default_third, |s| s.parse().expect("SEED(S)"));
    let mut settings = vec![("n_points".to_string(), n.to_string()), ("n_components".to_string(), k.to_string())];
    let reseed = args.iter().any(|a| a == "reseed=1");
    settings.extend(args.iter().skip(4).filter(|a| *a != "reseed=1").map(|pair| {
        let (name, text) = pair.split_once('=').expect("name=value");
        (name.to_string(), text.to_string())
    }));
    let (_, sgais_values) = split_settings(evidence_target("gmm").expect("gmm"), &settings).expect("valid settings");
    let config = SgaisConfig { reseed_components: reseed, ..SgaisConfig::from_values(&sgais_values).expect("valid settings") };
    (n, k, third, config)
}
