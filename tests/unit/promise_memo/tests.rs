//! src/promise_memo.rs: a promise computed in one wasm instance (here: one thread, whose memo and
//! entry counts are its own, as a worker's are) and imported into another gives that instance's
//! chain exactly the parameters, derived defaults and setting warning it would compute itself,
//! without computing them (no `promise_start` counted there).

use sgviz::chain::{Chain, ChainConfig};
use sgviz::params::ParamValues;
use sgviz::setting_warning::SettingWarning;
use sgviz::spec::DerivedParam;

/// Two chains whose promises differ: SGFS-d at its defaults, and SGLD at a step the exact law flags.
fn configs() -> Vec<ChainConfig> {
    let sgfs = ChainConfig::new("gaussian", "sgfs_d", 1);
    let mut sgld = ChainConfig::new("gaussian", "sgld", 1);
    sgld.settings.push(("step_size".into(), "0.35".into()));
    vec![sgfs, sgld]
}

type Built = (ParamValues, Vec<DerivedParam>, Option<SettingWarning>);

fn build(config: &ChainConfig) -> Built {
    let chain = Chain::new(config).unwrap();
    (chain.sampler_params().clone(), chain.derived().to_vec(), chain.setting_warning())
}

fn promise_starts() -> u64 {
    sgviz::entry_counts::to_json().get("promise_start").and_then(|v| v.as_u64()).unwrap_or(0)
}

#[test]
fn an_imported_promise_builds_the_same_chain_without_computing_it() {
    // The worker: builds the chains, exports its memo.
    let (memo, computed) = std::thread::spawn(|| {
        let built: Vec<Built> = configs().iter().map(build).collect();
        assert_eq!(promise_starts(), 2, "each chain's promise computed once");
        (sgviz::promise_memo::export_json(), built)
    })
    .join()
    .unwrap();
    assert!(computed.iter().any(|b| b.2.is_some()), "one of the chains has a setting warning (the case to carry over)");
    // The page: imports, then builds the same chains.
    let imported = std::thread::spawn(move || {
        let added = sgviz::promise_memo::import_json(&memo, sgviz::registry::SAMPLERS).unwrap();
        let built: Vec<Built> = configs().iter().map(build).collect();
        (added, promise_starts(), built)
    })
    .join()
    .unwrap();
    assert_eq!(imported.0, 2, "both entries imported");
    assert_eq!(imported.1, 0, "no promise computed after the import");
    assert_eq!(imported.2, computed, "the chains built on the imported promise equal those that computed it");
    // And both equal a third instance that computes on its own.
    let own = std::thread::spawn(|| configs().iter().map(build).collect::<Vec<Built>>()).join().unwrap();
    assert_eq!(own, computed);
}

#[test]
fn a_memo_that_is_not_json_is_refused_in_words() {
    let error = sgviz::promise_memo::import_json("{not json", sgviz::registry::SAMPLERS).unwrap_err();
    assert_eq!(error, "the promise memo is not valid");
}
