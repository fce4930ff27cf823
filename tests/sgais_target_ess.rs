//! The preset sgais-target-ess (www/figures/sgais.js; SGAIS paper §7.3.1, Fig. 6) as its text
//! states it (issue 26: all four runs warned "ESS 1.0 of M = 10" and ESS* = 8 ended further off
//! than ESS* = 1, which the text did not say). At the paper's settings (resampling off), linear
//! regression with 20,000 points, the page's seed 1:
//! - ESS* is honoured step by step: every chunk's smallest incremental-weight ESS (paper §3,
//!   Algorithm 1 line 6) is at least ESS*;
//! - the accumulated weights (the table's "ESS (last chunk)") collapse onto one particle from the
//!   first chunk on, at ESS* = 8 as at ESS* = 1;
//! - the final errors against the closed-form evidence are the text's 0.8 and 22 nats.

use sgviz::sgais::cli::parse_evidence_args;
use sgviz::sgais::run::{ChunkRecord, SgaisRun};
use sgviz::sgais::SgaisConfig;

/// The preset's run at `target_ess` (its `sensitivity` settings: the paper preset, n = 20,000).
fn records(target_ess: &str) -> Vec<ChunkRecord> {
    let args: Vec<String> = ["--target", "linreg", "--preset", "paper", "--set", "n_points=20000", "--set", &format!("target_ess={target_ess}"), "--seed", "1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let parsed = parse_evidence_args(&args).unwrap();
    let model = (parsed.target.build)(&parsed.target_values, parsed.data.as_ref()).unwrap();
    let config = SgaisConfig::from_values(&parsed.sgais_values).unwrap();
    let n = model.n_data();
    SgaisRun::new(model, config, n, parsed.seed).run_to_end().to_vec()
}

#[test]
fn target_ess_is_honoured_per_step_while_the_accumulated_weights_collapse() {
    // (ESS*, the error the preset's text states, nats; the text rounds to 0.1 and to 1.)
    for (target, stated, rounding) in [(1.0, -0.8, 0.05), (8.0, -22.0, 0.5)] {
        let records = records(&format!("{target}"));
        assert_eq!(records.last().unwrap().n, 20_000);
        for r in &records {
            assert!(r.min_step_ess >= target * (1.0 - 1e-9), "ESS* = {target}: a step at n = {} kept ESS {}", r.n, r.min_step_ess);
            // One particle carries the weight: ESS (Σw)²/Σw² within 5 % of 1 (2 would be two equal ones).
            assert!(r.ess < 1.05, "ESS* = {target}: accumulated weights' ESS {} at n = {}", r.ess, r.n);
        }
        let last = records.last().unwrap();
        let error = last.log_z - last.exact_log_z.unwrap();
        assert!((error - stated).abs() <= rounding, "ESS* = {target}: error {error:+.2} nats, the text says {stated}");
    }
}
