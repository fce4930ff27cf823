//! Debug counters of heavy entry points (bias–mixing sweep, truth computation, SGAIS, building a
//! large target), per wasm instance. The page runs these in Web Workers, each with its own
//! instance, so the main thread's counters must stay at zero while a worker does the work; the
//! browser tests read them through `entry_counts_json` to pin that structure.

use std::cell::RefCell;
use std::collections::BTreeMap;

/// A target with more data than this counts as a large build (data generation, mode search).
pub const LARGE_BUILD_DATA: usize = 20_000;

thread_local! {
    static COUNTS: RefCell<BTreeMap<&'static str, u64>> = const { RefCell::new(BTreeMap::new()) };
}

/// Count one call of entry point `name`.
pub fn count(name: &'static str) {
    COUNTS.with(|c| *c.borrow_mut().entry(name).or_insert(0) += 1);
}

/// All counts so far, `{name: calls}`.
pub fn to_json() -> serde_json::Value {
    COUNTS.with(|c| serde_json::json!(c.borrow().clone()))
}
