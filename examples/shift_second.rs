//! K = 7's second change point made cheap to see (docs/sgais.md §15, "K = 7's second change point made
//! cheap to see, and one factor at a time (stop 51)"): the shift demo's in-order run resolved as the soak test resolves it (as
//! `shift_chunks`: `resolve("gmm", scenario shift)`, the surprise rule `SurpriseBoost::MEASURED`),
//! stopped at N, printing after every chunk log Ẑ, its increment, the temperatures, whether the
//! chunk was boosted and the datum evaluations, and from the second change point (n ≥ 10,000) on
//! log Ẑ minus the Laplace reference of the same prefix (`laplace_log_evidence`, which applies when
//! K = 7 ≥ the clusters present), the loss this example measures.
//!
//! `cargo run --release --example shift_second -- N SEED [name=value ...]`: registry settings
//! (e.g. `particles=20 chunk_size=500`) over the mixture's defaults, and the one-factor knobs
//! `boost_moves=F` (SGHMC steps per temperature on a boosted chunk, × S), `boost_ess=f` (a boosted
//! chunk's ESS* as a fraction of M), `boost_reseed=0|1` (the re-seeding move), `laplace=0|1`
//! (the Laplace move of (SGAIS.26)), `reseed_offers=R`, `reseed_moves=lightest|weights|both|split|lightest_split`
//! (src/sgais/mod.rs `ReseedMoves`).

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use sgviz::sgais::job::resolve;
use sgviz::sgais::laplace_reference::laplace_log_evidence;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::surprise::SurpriseBoost;
use sgviz::sgais::SgaisConfig;

#[allow(dead_code)] // shared with the other shift examples; this one uses `reseed_moves_arg` only
mod shift_common;

/// The data's second change point (src/model/gmm.rs `ClusterSchedule::Shift`).
const SECOND_CHANGE_POINT: usize = 10_000;

/// `name=value` from the command line, parsed as a number.
fn knob(args: &[String], name: &str) -> Option<f64> {
    args.iter().find_map(|a| a.strip_prefix(name).and_then(|v| v.strip_prefix('='))).map(|v| v.parse().expect(name))
}

/// The soak test's configuration with the command line's registry settings and knobs laid over it.
fn configure(args: &[String], n: usize) -> SgaisConfig {
    let knobs = ["boost_moves", "boost_ess", "boost_reseed", "laplace", "reseed_offers", "reseed_moves"];
    let mut settings: Vec<(String, String)> = vec![("n_points".into(), n.to_string()), ("n_components".into(), "7".into()), ("scenario".into(), "shift".into())];
    settings.extend(args.iter().skip(3).filter(|a| !knobs.iter().any(|k| a.starts_with(k))).map(|pair| {
        let (name, text) = pair.split_once('=').expect("name=value");
        (name.to_string(), text.to_string())
    }));
    let resolved = resolve("gmm", None, &settings, None).expect("valid settings");
    let mut boost = SurpriseBoost::MEASURED;
    boost.move_factor = knob(args, "boost_moves").map_or(boost.move_factor, |v| v as usize);
    boost.ess_fraction = knob(args, "boost_ess").unwrap_or(boost.ess_fraction);
    boost.reseed = knob(args, "boost_reseed").map_or(boost.reseed, |v| v != 0.0);
    let mut config = SgaisConfig { surprise_boost: Some(boost), ..resolved.config };
    config.laplace_move = knob(args, "laplace").map_or(config.laplace_move, |v| v != 0.0);
    config.reseed_offers = knob(args, "reseed_offers").map_or(config.reseed_offers, |v| v as usize);
    config.reseed_moves = shift_common::reseed_moves_arg(args).unwrap_or(config.reseed_moves);
    config
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(12_000, |s| s.parse().expect("N"));
    let seed: u64 = args.get(2).map_or(7, |s| s.parse().expect("SEED"));
    let config = configure(&args, n);
    let data = generate_cluster_data(n, ClusterSchedule::Shift { shuffled: false }, 1);
    let model = std::sync::Arc::new(GaussianMixture::new(2, 7, data.clone()).expect("mixture"));
    let mut run = SgaisRun::new(model, config, n, seed);
    let started = std::time::Instant::now();
    println!("n\tlog_z\tincrement\ttemperatures\tboosted\tevals\tminus_laplace");
    let mut previous = 0.0;
    while *run.status() == RunStatus::Running {
        for r in run.advance(1) {
            let loss = (r.n >= SECOND_CHANGE_POINT).then(|| r.log_z - laplace_log_evidence(&GaussianMixture::new(2, 7, data[..2 * r.n].to_vec()).expect("prefix")));
            let loss = loss.map_or(String::from("-"), |l| format!("{l:.1}"));
            println!("{}\t{:.1}\t{:.1}\t{}\t{}\t{}\t{loss}", r.n, r.log_z, r.log_z - previous, r.annealing_steps, r.boosted, r.datum_evals);
            previous = r.log_z;
        }
    }
    println!("final\tN = {n}, seed {seed}: log Ẑ {:.1}, {} evaluations, {:.0} s wall", run.log_z(), run.datum_evals(), started.elapsed().as_secs_f64());
}
