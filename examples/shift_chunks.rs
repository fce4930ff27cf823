//! The shift demo's runs as the soak test resolves them (tests/sgais_shift_agreement.rs
//! `final_log_z_with`: `resolve("gmm", scenario shift or shift_shuffled)`, the surprise rule
//! `SurpriseBoost::MEASURED`), printing every chunk's record as one tab-separated line (n, log Ẑ,
//! its increment, temperatures, ESS, boosted, evaluations) and the final log Ẑ, so that two orders
//! can be compared chunk by chunk (docs/sgais.md §15, "K = 7 at N = 10⁵").
//!
//! `cargo run --release --example shift_chunks -- N K SEED in|shuffled`

use sgviz::sgais::job::resolve;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::surprise::SurpriseBoost;
use sgviz::sgais::SgaisConfig;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number = |i: usize, name: &str| -> u64 { args.get(i).unwrap_or_else(|| panic!("{name}")).parse().expect(name) };
    let (n, k, seed) = (number(1, "N") as usize, number(2, "K"), number(3, "SEED"));
    let scenario = match args.get(4).map(String::as_str) {
        Some("in") => "shift",
        Some("shuffled") => "shift_shuffled",
        _ => panic!("ORDER: in or shuffled"),
    };
    let settings: Vec<(String, String)> = vec![("n_points".into(), n.to_string()), ("n_components".into(), k.to_string()), ("scenario".into(), scenario.into())];
    let resolved = resolve("gmm", None, &settings, None).expect("valid settings");
    let config = SgaisConfig { surprise_boost: Some(SurpriseBoost::MEASURED), ..resolved.config };
    let mut run = SgaisRun::new(resolved.model, config, n, seed);
    println!("n\tlog_z\tincrement\ttemperatures\tess\tboosted\tevals");
    let mut previous = 0.0;
    while *run.status() == RunStatus::Running {
        for r in run.advance(1) {
            println!("{}\t{:.3}\t{:.3}\t{}\t{:.1}\t{}\t{}", r.n, r.log_z, r.log_z - previous, r.annealing_steps, r.ess, r.boosted, r.datum_evals);
            previous = r.log_z;
        }
    }
    println!("final\tK = {k}, N = {n}, seed {seed}, {scenario}: log Ẑ {:.3}, evaluations {}", run.log_z(), run.datum_evals());
}
