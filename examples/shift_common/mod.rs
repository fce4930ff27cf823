//! Command line shared by the distribution-shift examples (shift_gap, shift_probe): `N K COUNT
//! [name=value ...]`, the SGAIS settings applied over the mixture's own defaults; `reseed=1` adds
//! the re-seeding move of src/sgais/reseed.rs (docs/sgais.md §10), off by default; `boost=1` the
//! extra work on surprising chunks (src/sgais/surprise.rs, `boost=0` turns it off), with
//! `boost_moves=F` and `boost_ess=f` its move factor and ESS fraction, `boost_reseed=1` the
//! re-seeding move on the surprising chunks only, `reseed_moves=lightest|weights|both|split|lightest_split` which moves
//! (src/sgais/mod.rs `ReseedMoves`), `reseed_offers=R` the moves offered R times per annealing
//! step, `reseed_bias=a` the weight-changing move's choice P(k) ∝ β_k^(−a).

use sgviz::sgais::job::resolve;
use sgviz::sgais::models::{evidence_target, split_settings};
use sgviz::sgais::surprise::SurpriseBoost;
use sgviz::sgais::{ReseedMoves, SgaisConfig};

/// N points, K components, the third positional number (a seed or a count of seeds) and the SGAIS
/// configuration, each positional with its default when absent.
pub fn shift_args(default_n: usize, default_k: usize, default_third: u64) -> (usize, usize, u64, SgaisConfig) {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(default_n, |s| s.parse().expect("N"));
    let k: usize = args.get(2).map_or(default_k, |s| s.parse().expect("K"));
    let third: u64 = args.get(3).map_or(default_third, |s| s.parse().expect("SEED(S)"));
    let settings = registry_settings(&args, n, k);
    let reseed = args.iter().any(|a| a == "reseed=1");
    let (_, sgais_values) = split_settings(evidence_target("gmm").expect("gmm"), &settings).expect("valid settings");
    let mut config = SgaisConfig { reseed_components: reseed, ..SgaisConfig::from_values(&sgais_values).expect("valid settings") };
    config.reseed_moves = reseed_moves_arg(&args).unwrap_or(config.reseed_moves);
    let value = |name: &str| args.iter().find_map(|a| a.strip_prefix(name).and_then(|v| v.strip_prefix('='))).map(|v| v.parse::<f64>().expect(name));
    config.reseed_offers = value("reseed_offers").map_or(config.reseed_offers, |v| v as usize);
    config.reseed_light_bias = value("reseed_bias").unwrap_or(config.reseed_light_bias);
    match value("boost") {
        Some(v) if v == 0.0 => config.surprise_boost = None,
        Some(_) => {
            let mut boost = config.surprise_boost.unwrap_or(SurpriseBoost::MEASURED);
            boost.move_factor = value("boost_moves").map_or(boost.move_factor, |v| v as usize);
            boost.ess_fraction = value("boost_ess").unwrap_or(boost.ess_fraction);
            boost.reseed = value("boost_reseed").is_some_and(|v| v != 0.0);
            config.surprise_boost = Some(boost);
        }
        None => {}
    }
    (n, k, third, config)
}

/// The registry's settings on the command line after `N K COUNT` (the examples' own `reseed…` and
/// `boost…` left out), with N and K.
fn registry_settings(args: &[String], n: usize, k: usize) -> Vec<(String, String)> {
    let mut settings = vec![("n_points".to_string(), n.to_string()), ("n_components".to_string(), k.to_string())];
    let own = |a: &String| a.starts_with("reseed") || a.starts_with("boost");
    settings.extend(args.iter().skip(4).filter(|a| !own(a)).map(|pair| {
        let (name, text) = pair.split_once('=').expect("name=value");
        (name.to_string(), text.to_string())
    }));
    settings
}

/// The first chunk's least ESS* as a share of M for these settings, as the page and the CLI
/// resolve it (`sgviz::sgais::ais::first_chunk_as_ais`, docs/sgais.md §15: 0.9 on stationary
/// mixture data, 0 with `surprise_rule=off`).
#[allow(dead_code)]
pub fn page_first_chunk_share(n: usize, k: usize) -> f64 {
    let args: Vec<String> = std::env::args().collect();
    resolve("gmm", None, &registry_settings(&args, n, k), None).expect("valid settings").config.first_chunk_ess_share
}

/// `reseed_moves=lightest|weights|both|split|lightest_split` from the command line, if given.
pub fn reseed_moves_arg(args: &[String]) -> Option<ReseedMoves> {
    Some(match args.iter().find_map(|a| a.strip_prefix("reseed_moves="))? {
        "lightest" => ReseedMoves::Lightest,
        "weights" => ReseedMoves::Weights,
        "both" => ReseedMoves::Both,
        "split" => ReseedMoves::Split,
        "lightest_split" => ReseedMoves::LightestSplit,
        other => panic!("reseed_moves={other}: lightest, weights, both, split or lightest_split"),
    })
}
