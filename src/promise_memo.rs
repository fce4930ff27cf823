//! The memo of new chains' promises (src/promise_live.rs `LivePromise::new`: the derived defaults
//! moved to keep the promise and the setting warning, keyed by the sampler's law on the target
//! and the settings), and its transfer between wasm instances: a Web Worker computes a chain's
//! promise (its Monte-Carlo draws of E2 cost 40–70 ms for SGFS-d at 6 parameters) and exports the
//! memo; the page imports it before building the chain, which then finds its promise here instead
//! of computing it on the main thread (issue 26, "no frame over 50 ms"). The imported entry is the
//! worker's result of the same function on the same inputs (same code, deterministic
//! arithmetic), so the chain is identical to one built without it (tests/e2e/promise-worker).
//!
//! Implemented here and in www/promise-job.js; tested in tests/unit/promise_memo/tests.rs and
//! tests/e2e/promise-worker.test.mjs (docs/diagnostics.md §7).

use crate::params::ParamValues;
use crate::setting_warning::{Failure, SettingWarning};
use crate::spec::SamplerSpec;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// A memoised promise: the sampler's parameters after the fix, the derived defaults, the warning.
pub type Start = (ParamValues, Vec<f64>, Option<SettingWarning>);

thread_local! {
    static STARTS: RefCell<Vec<(Vec<u64>, Start)>> = const { RefCell::new(Vec::new()) };
}

/// `compute()` unless the memo holds `key` (src/defaults.rs `memoised`); each computation is
/// counted as the entry point `promise_start` (src/entry_counts.rs), so the page's tests can tell
/// a promise computed on the main thread from one imported.
pub fn memoised(key: Vec<u64>, compute: impl FnOnce() -> Start) -> Start {
    crate::defaults::memoised(&STARTS, key, || {
        crate::entry_counts::count("promise_start");
        compute()
    })
}

/// One memo entry as it travels (owned names instead of the registry's static ones).
#[derive(Serialize, Deserialize)]
struct Entry {
    key: Vec<u64>,
    params: Vec<(String, f64)>,
    defaults: Vec<f64>,
    warning: Option<Warning>,
}

#[derive(Serialize, Deserialize)]
struct Warning {
    param: String,
    bias: bool,
    text: String,
    detail: String,
}

/// The memo as JSON (every entry this instance holds).
pub fn export_json() -> String {
    let entries: Vec<Entry> = STARTS.with(|s| {
        s.borrow()
            .iter()
            .map(|(key, (params, defaults, warning))| Entry {
                key: key.clone(),
                params: params.iter().map(|(n, v)| (n.to_string(), v)).collect(),
                defaults: defaults.clone(),
                warning: warning.as_ref().map(|w| Warning { param: w.param.to_string(), bias: w.failure == Failure::Bias, text: w.text.clone(), detail: w.detail.clone() }),
            })
            .collect()
    });
    serde_json::to_string(&entries).unwrap_or_else(|_| "[]".into())
}

/// Add the entries of an exported memo that this instance does not hold; returns how many were
/// added. An entry whose parameters match none of `samplers`' specs (the registry's, passed in by
/// the caller) is skipped (the promise is then computed here as before).
pub fn import_json(json: &str, samplers: &'static [SamplerSpec]) -> Result<usize, String> {
    let entries: Vec<Entry> = serde_json::from_str(json).map_err(|_| "the promise memo is not valid".to_string())?;
    let mut added = 0;
    for entry in entries {
        let Some(start) = rebuild(&entry, samplers) else { continue };
        let held = STARTS.with(|s| s.borrow().iter().any(|(k, _)| *k == entry.key));
        if !held {
            // Through the same memo (its size cap included): the closure runs, since the key is absent.
            let _ = crate::defaults::memoised(&STARTS, entry.key.clone(), || start);
            added += 1;
        }
    }
    Ok(added)
}

/// The entry's values over the registry's specs of the sampler whose parameters it lists.
fn rebuild(entry: &Entry, samplers: &'static [SamplerSpec]) -> Option<Start> {
    let names: Vec<&str> = entry.params.iter().map(|(n, _)| n.as_str()).collect();
    samplers.iter().filter(|s| s.params.iter().map(|p| p.name).eq(names.iter().copied())).find_map(|sampler| {
        let mut params = ParamValues::defaults(sampler.params);
        for (name, value) in &entry.params {
            params.set(sampler.params, name, *value).ok()?;
        }
        if !params.iter().zip(&entry.params).all(|((_, v), (_, w))| v.to_bits() == w.to_bits()) {
            return None;
        }
        let warning = match &entry.warning {
            None => None,
            Some(w) => Some(SettingWarning {
                param: sampler.params.iter().find(|p| p.name == w.param)?.name,
                failure: if w.bias { Failure::Bias } else { Failure::Mixing },
                text: w.text.clone(),
                detail: w.detail.clone(),
            }),
        };
        Some((params, entry.defaults.clone(), warning))
    })
}
